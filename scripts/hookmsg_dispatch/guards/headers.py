"""The write-header guard: a new file without the header its siblings carry; and the reading
of a file's leading comment region that the edit-header guard (`notices`) shares.

Data: `header` (a regular expression the licence line matches, e.g. `SPDX-License-Identifier:`),
`notice` (one the other lines of a licence notice match: copyright, holder, `Licensed under`),
`kinds` (file extension, or a whole file name such as `Makefile`, -> that kind's comment
syntax: a line prefix, or a list of them, where `open close` is a block comment such as
`/* */` or `<!-- -->`), `max-levels` (how many folders up the sibling search goes, bounded by
the project root).

A file's header is read from its leading comment region: after a BOM and up to two preamble
lines (a shebang, an encoding declaration, `<?php`, `<?xml ...?>`, `@echo off`, a YAML
`---`), the comment lines and block comments before the first line of code, blank lines
between them included,
at most `_REGION_LINES` lines. Its licence line is the first line there matching `header`;
its notice is every line there matching `header` or `notice`.

A new file fires when its leading region does not hold the licence its nearest sibling's
carries (none at all, or another licence id; the comment style may differ). A file is new when
written by Write, a patch's Add File, or an Edit with an empty `old_string` of a path that does
not exist; an empty new file needs no header.
"""

from __future__ import annotations

from hookmsg_dispatch.guards.common import (
    extension,
    number,
    pattern,
    project_changes,
    table,
)
from hookmsg_dispatch.system import os

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from re import Pattern
    from typing import Any

    from hookmsg_dispatch.call import Call, FileChange
    from hookmsg_dispatch.project import Project

    Syntax = tuple[tuple[str, ...], tuple[tuple[str, str], ...]]  # (line prefixes, blocks)

# How much of a sibling is read to find its header, and how many entries a folder may list.
_HEAD_BYTES = 4096
_MAX_ENTRIES = 4096
# The leading comment region is looked for in this many lines of a file.
_REGION_LINES = 60
DEFAULT_NOTICE = r"(?i)\bcopyright\b|\(c\)\s*\d|©|\bSPDX-|\blicen[cs]ed\b|\ball rights reserved\b"
# Lines that may precede the header: `#!`, `# -*- coding: -*-`, `<?php`, `<?xml ?>`, `@echo off`.
_PREAMBLES = ("#!", "<?php", "<?xml", "@echo off", "@ECHO OFF", "<!DOCTYPE", "<!doctype")


def _lead(text: str) -> list[str]:
    """The preamble lines a file opens with (at most two): what stands above its header."""
    found: list[str] = []
    for raw in text.lstrip("\ufeff").split("\n", 2)[:2]:
        if not _is_preamble(raw):
            break
        found.append(raw.strip())
    return found


def _needed(line: str) -> bool:
    """A preamble line the language needs first (a shebang, an encoding declaration,
    `<?php`, `<?xml ?>`), which may stand above a header; a YAML `---`, `@echo off` or
    a doctype need not."""
    return line.startswith(("#!", "<?php", "<?xml")) or ("coding" in line and line[:1] == "#")


def _is_preamble(line: str) -> bool:
    """A shebang, an encoding declaration or a format's opening line, before the header."""
    text = line.strip()
    return (
        text == "---"
        or text.startswith(_PREAMBLES)
        or (text.startswith("#") and ("coding:" in text or "coding=" in text))
    )


def syntax_of(value: Any) -> Syntax | None:
    """A kind's comment syntax from its `kinds` value: a prefix, or a list of prefixes and
    `open close` block pairs."""
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    prefixes: list[str] = []
    blocks: list[tuple[str, str]] = []
    for item in items:
        if not isinstance(item, str) or not item.strip():
            continue
        parts = item.split()
        if len(parts) == 2:
            blocks.append((parts[0], parts[1]))
        else:
            prefixes.append(parts[0])
    return (tuple(prefixes), tuple(blocks)) if prefixes or blocks else None


def kind_of(kinds: Mapping[str, Any], relative: str) -> tuple[str, Syntax] | None:
    """(kind key, comment syntax) of a path: its whole name first (`Makefile`), then its
    extension."""
    name = relative.rsplit("/", 1)[-1]
    for key in (name, extension(relative)):
        if key and key in kinds:
            syntax = syntax_of(kinds[key])
            if syntax is not None:
                return key, syntax
    return None


def _is_line_comment(text: str, prefixes: tuple[str, ...]) -> bool:
    for prefix in prefixes:
        if prefix.isalpha():  # `REM`: a word, in any letter case
            if text[: len(prefix)].upper() == prefix.upper() and text[
                len(prefix) : len(prefix) + 1
            ] in ("", " "):
                return True
        elif text.startswith(prefix):
            return True
    return False


def _marker(line: str, prefixes: tuple[str, ...]) -> str:
    """A line comment's marker: its prefix and the punctuation run after it (`//`, `///`,
    `//!`, `##`, `#'`), so a doc comment reads as another comment style than a notice."""
    prefix = next((p for p in prefixes if line[: len(p)].upper() == p.upper()), "")
    end = len(prefix)
    while end < len(line) and end < len(prefix) + 3 and not line[end].isspace():
        if line[end].isalnum():
            return prefix  # `//go:build`, `#region`: a word, not a doc marker
        end += 1
    return line[:end]


def paragraphs(text: str, syntax: Syntax) -> list[list[str]]:
    """The stripped lines of the leading comment region of `text`, in paragraphs: a blank
    line outside a block comment ends one, and so do a block comment's end and a change
    of comment style (a `/* */` block after `//` lines, `///` or `//!` after `//`): a
    doc comment directly under a header is not part of it (bounded, linear)."""
    prefixes, blocks = syntax
    lines = text.lstrip("\ufeff").split("\n", _REGION_LINES)[:_REGION_LINES]
    found: list[list[str]] = [[]]
    closing = style = ""
    for count, raw in enumerate(lines):
        line = raw.strip().lstrip("\ufeff")
        if closing:
            found[-1].append(line)
            if closing in line:
                closing, style = "", "*/"  # what follows a block is another paragraph
            continue
        if count < 2 and not found[-1] and len(found) == 1 and _is_preamble(line):
            continue
        block = next((pair for pair in blocks if line.startswith(pair[0])), None)
        if block is None and line and not _is_line_comment(line, prefixes):
            break
        mark = (block[0] if block else _marker(line, prefixes)) if line else ""
        if found[-1] and (
            not line or style == "*/" or (mark != style and (block or not _is_bare(line)))
        ):
            found.append([])  # a blank line, a block's end or another comment style
        if not line:
            style = ""
            continue
        found[-1].append(line)
        if not _is_bare(line) or not style:
            style = mark
        if block is not None and block[1] not in line[len(block[0]) :]:
            closing = block[1]
        elif block is not None:
            style = "*/"
    return [lines for lines in found if lines]


def region(text: str, syntax: Syntax) -> list[str]:
    """The stripped lines of the leading comment region of `text` (bounded, linear)."""
    return [line for paragraph in paragraphs(text, syntax) for line in paragraph]


def _licence(line: str, header: Pattern[str]) -> str | None:
    """The licence a header line declares, from the `header` match on, without a closer."""
    match = header.search(line)
    if match is None:
        return None
    rest = line[match.start() :]
    for closer in ("*/", "-->", "-}", "#>", "]]", "*)"):
        rest = rest.split(closer, 1)[0]
    return " ".join(rest.split())


def leading_header(text: str, syntax: Syntax, header: str) -> str | None:
    """The licence line in the leading comment region of `text`, or None."""
    compiled = pattern(header)
    return next((line for line in region(text, syntax) if compiled.search(line)), None)


def _siblings(project: Project, folder: str, key: str, exclude: str) -> list[str]:
    """Project-relative paths of the regular files in `folder` of kind `key`, sorted."""
    found: list[str] = []
    by_name = not key.startswith(".")
    try:
        with os.scandir(project.path_of(folder) if folder else project.root) as entries:
            for count, entry in enumerate(entries):
                if count >= _MAX_ENTRIES:
                    break
                relative = f"{folder}/{entry.name}" if folder else entry.name
                same = entry.name == key if by_name else extension(entry.name) == key
                if relative != exclude and same and entry.is_file(follow_symlinks=False):
                    found.append(relative)
    except OSError:
        return []
    return sorted(found)


def _sibling_header(
    project: Project, relative: str, kind: tuple[str, Syntax, str], levels: int
) -> str | None:
    """The licence line of the nearest non-empty sibling of the same kind; None if it has
    none or there is no such sibling up to the project root."""
    key, syntax, header = kind
    folder = relative.rsplit("/", 1)[0] if "/" in relative else ""
    for _ in range(levels + 1):
        for sibling in _siblings(project, folder, key, relative):
            text = project.head(sibling, _HEAD_BYTES)
            if text is not None and text.strip():  # an empty file (`__init__.py`) tells nothing
                return leading_header(text, syntax, header)
        if not folder:
            return None
        folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
    return None


def _written_whole(project: Project, relative: str, change: FileChange) -> bool:
    """Does the change give the file's whole content? A Write or a patch's Add File (of a new
    file or over an existing one: the content given is all the file will hold), or an Edit
    whose old text is empty of a path that does not exist yet (Claude Code creates it)."""
    if change.before is None:
        return change.created is True
    return change.before == "" and not os.path.lexists(project.path_of(relative))


def _is_bare(line: str) -> bool:
    """A line of comment syntax only (`/*`, ` *`, `# ----`): no words."""
    return not any(char.isalnum() for char in line)


def first_header(
    text: str, syntax: Syntax, patterns: tuple[Pattern[str], str], name: str
) -> str | None:
    """The licence line when it starts the leading comment region: only the preamble, bare
    comment lines, other notice lines (a copyright line) and a banner naming the file
    (`;;; util.el --- helpers`, Xcode's `//  App.swift`) before it. A directive or any other
    comment first (`//go:build`, `# frozen_string_literal: true`) means the file does not
    start with its header. The notice pattern is compiled only when a line needs it: a
    call whose file starts with its header, or has none, never loads `re`."""
    header, notice_source = patterns
    for line in region(text, syntax):
        if header.search(line) is not None:
            return line
        if _is_bare(line) or name in line:
            continue
        if pattern(notice_source).search(line) is None:
            return None
    return None


def _own_or_sibling(
    project: Project, relative: str, kind: tuple[str, Syntax, str], levels: int
) -> str | None:
    """The licence line the file must start with: the one it carries on disk (a Write over
    it keeps it), else its nearest sibling's."""
    disk = project.head(relative, _HEAD_BYTES)
    own = leading_header(disk, kind[1], kind[2]) if disk else None
    return own or _sibling_header(project, relative, kind, levels)


def _write_header(call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    header = data.get("header")
    kinds = table(data, "kinds")
    levels = int(number(data, "max-levels", 8))
    if not isinstance(header, str):
        return None
    compiled = pattern(header)
    source = data.get("notice")
    other = source if isinstance(source, str) else DEFAULT_NOTICE
    for project, relative, change in project_changes(call, root):
        kind = kind_of(kinds, relative)
        if kind is None or not change.after.strip():
            continue  # an empty file (`__init__.py`) carries no header
        if not _written_whole(project, relative, change):
            continue
        expected = _own_or_sibling(project, relative, (kind[0], kind[1], header), levels)
        if expected is None:
            continue
        found = first_header(change.after, kind[1], (compiled, other), relative.rsplit("/", 1)[-1])
        if found is None or _licence(found, compiled) != _licence(expected, compiled):
            return {"path": relative, "header": expected}
    return None


# The detectors this module answers for, and the placeholders each fills when it fires
# (the build side reads this with `ast`: hookmsg.catalogue.detectors).
DETECTS = {"write-header": ("header", "path")}


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    return _write_header(call, data, root) if detector == "write-header" else None
