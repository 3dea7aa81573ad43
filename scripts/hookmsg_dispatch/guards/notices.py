"""The edit-header guard: an edit that alters a file's licence notice (see `headers`, whose
reading of the leading comment region it shares).

An edit fires when the file's notice before the edit differs from its notice after it: a
notice line removed, changed (a year, a holder, the licence id), added, or moved below code,
or a preamble line the language does not need first (a YAML `---`) put above it; or when it
removes or changes any other worded line of a comment paragraph holding a notice line (the
rest of an Apache or MIT text). An Edit is placed in the file by its old text; a Codex patch
by its hunks' context lines, so a hunk that only adds lines above the header is judged too.
"""

from __future__ import annotations

from hookmsg_dispatch.guards.common import MAX_READ_BYTES, pattern, project_changes, table
from hookmsg_dispatch.guards.headers import (
    _HEAD_BYTES,
    DEFAULT_NOTICE,
    _is_bare,
    _lead,
    _needed,
    first_header,
    kind_of,
    paragraphs,
    region,
)

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from re import Pattern
    from typing import Any, Callable

    from hookmsg_dispatch.call import Call, FileChange
    from hookmsg_dispatch.guards.headers import Syntax
    from hookmsg_dispatch.project import Project


def _notice_patterns(data: Mapping[str, Any]) -> tuple[Pattern[str], Pattern[str]]:
    source = data.get("notice")
    return pattern(str(data.get("header", ""))), pattern(
        source if isinstance(source, str) else DEFAULT_NOTICE
    )


def _is_notice(data: Mapping[str, Any]) -> Callable[[str], bool]:
    """The test of a notice line: one naming the licence id or a copyright, or one opening a
    licence text (`notice-texts`: a pattern of its own, so that, its literals being absent
    from most files, it is seldom compiled)."""
    header, other = _notice_patterns(data)
    texts = data.get("notice-texts")
    opening = pattern(texts) if isinstance(texts, str) and texts else None

    def is_notice(line: str) -> bool:
        if header.search(line) is not None or other.search(line) is not None:
            return True
        return opening is not None and opening.search(line) is not None

    return is_notice


def notice(text: str, syntax: Syntax, data: Mapping[str, Any]) -> list[str]:
    """The licence notice lines of a file's leading comment region, in order."""
    is_notice = _is_notice(data)
    return [line for line in region(text, syntax) if is_notice(line)]


def notice_block(text: str, syntax: Syntax, data: Mapping[str, Any]) -> list[str]:
    """The worded lines of every leading comment paragraph holding a notice line: the whole
    licence text (Apache's `Unless required by applicable law ...` too), not only the lines
    that name a copyright or licence."""
    is_notice = _is_notice(data)
    return [
        line
        for paragraph in paragraphs(text, syntax)
        if any(is_notice(ln) for ln in paragraph)
        for line in paragraph
        if not _is_bare(line)
    ]


def _lost(before: list[str], after: list[str]) -> str | None:
    """The first line of the notice block `before` that the block `after` no longer holds."""
    kept = set(after)
    return next((line for line in before if line not in kept), None)


def _changed_line(before: list[str], after: list[str], data: Mapping[str, Any]) -> str:
    """The first notice line the edit removes or changes; when it only adds lines (a
    copyright holder, a second licence line), the header the file has: its licence line,
    else its first notice line. The advisory quotes a line the file must keep."""
    kept = set(after)
    lost = next((line for line in before if line not in kept), None)
    if lost is not None:
        return lost
    licence = pattern(str(data.get("header", "")))
    return next((line for line in before if licence.search(line) is not None), before[0])


def _edited_notice(
    call: Call, project: Project, relative: str, change: FileChange, data: Mapping[str, Any]
) -> str | None:
    """The notice line an edit removes or alters, or None when the notice stays as it was:
    a line naming the copyright or licence, or any other line of the licence text."""
    syntax = data["syntax"]
    disk = project.read_text(relative, MAX_READ_BYTES)
    old_text = change.before or ""
    if disk is None:  # the file cannot be read: judge the edit's own lines
        old, new = notice(old_text, syntax, data), notice(change.after, syntax, data)
        return _changed_line(old, new, data) if old and old != new else None
    old = notice(disk, syntax, data)
    if not old:
        return None  # a file without a header (adding one is not this guard's concern)
    name = relative.rsplit("/", 1)[-1]
    # An edit is placed by its old text; a patch by its hunks' context lines (a hunk may
    # only add lines; removed lines joined across hunks are no old text): the new file.
    if not patch_free(call):
        whole = _patched(call, project, relative, disk)
        if whole is not None:
            return _compared(disk, whole[: len(disk) + _HEAD_BYTES], syntax, data, name, old)
    return _placed_change(disk, change, syntax, data, name, old)


def _patched(call: Call, project: Project, relative: str, disk: str) -> str | None:
    """The file's new text when the call is a patch whose hunks place in it, else None."""
    from hookmsg_dispatch.guards.patch import patch_text, patched_text

    if patch_text(call.tool_input) is None:
        return None
    here = project.cwd == project.root
    full: list[str] = []

    def same_file(path: str) -> bool:
        # The patch's own spelling of the path, from the project root, needs no lookup.
        if here and path == relative:
            return True
        if not full:
            full.append(project.absolute(project.path_of(relative)))
        return project.absolute(path) == full[0]

    return patched_text(call.tool_input, same_file, disk)


def _compared(
    disk: str, head: str, syntax: Syntax, data: Mapping[str, Any], name: str, old: list[str]
) -> str | None:
    """The notice line that `head` (the file's new opening) removes, alters, adds or moves
    down, against the file `disk` whose notice is `old`."""
    new = notice(head, syntax, data)
    if new != old:
        return _changed_line(old, new, data)
    lost = _lost(notice_block(disk, syntax, data), notice_block(head, syntax, data))
    return lost or _moved_down(disk, head, syntax, data, name)


def _placed_change(
    disk: str,
    change: FileChange,
    syntax: Syntax,
    data: Mapping[str, Any],
    name: str,
    old: list[str],
) -> str | None:
    """The notice line an edit of the file `disk` (whose notice is `old`) removes, alters,
    adds or moves down."""
    old_text = change.before or ""
    at = disk.find(old_text)
    if at >= 0:
        head = (
            disk[:at] + change.after + disk[at + len(old_text) : at + len(old_text) + _HEAD_BYTES]
        )
        return _compared(disk, head, syntax, data, name, old)
    # The edit cannot be placed in the file (a patch's several hunks): its own lines decide.
    ours = set(notice_block(disk, syntax, data))
    kept = {line.strip() for line in change.after.split("\n")}
    lost_lines = (line.strip() for line in old_text.split("\n"))
    return next((line for line in lost_lines if line in ours and line not in kept), None)


def _moved_down(
    disk: str, head: str, syntax: Syntax, data: Mapping[str, Any], name: str
) -> str | None:
    """The licence line when the edit keeps the notice but puts other lines above it (a
    `# frozen_string_literal: true`, a `//go:build`): the file no longer starts with it."""
    header = pattern(str(data.get("header", "")))
    source = data.get("notice")
    other = source if isinstance(source, str) else DEFAULT_NOTICE
    before = first_header(disk, syntax, (header, other), name)
    if before is None:
        return None
    if first_header(head, syntax, (header, other), name) is None:
        return before
    # A document marker, `@echo off` or a doctype put above the header is something else
    # above it too, though the header is still read after it.
    had = _lead(disk)
    added = (line for line in _lead(head) if line not in had and not _needed(line))
    return before if next(added, None) is not None else None


def edit_header(call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    if not isinstance(data.get("header"), str):
        return None
    kinds = table(data, "kinds")
    for project, relative, change in project_changes(call, root):
        # A patch hunk that only adds lines has no removed ones; its context places it.
        if change.created or (not change.before and patch_free(call)):
            continue
        kind = kind_of(kinds, relative)
        if kind is None and "." not in relative.rsplit("/", 1)[-1]:
            from hookmsg_dispatch.guards.notice_extras import by_shebang

            kind = by_shebang(project, relative, kinds)
        if kind is None:
            continue
        changed = _edited_notice(call, project, relative, change, {**data, "syntax": kind[1]})
        if changed is not None:
            return {"path": relative, "header": changed}
    return None


def patch_free(call: Call) -> bool:
    """Is the call something other than a Codex patch (string tests: nothing to import)?"""
    tool_input = call.tool_input
    command = tool_input.get("command", tool_input.get("input")) if tool_input else None
    return not (isinstance(command, (str, list)) and "*** Begin Patch" in str(command))


# The detectors this module answers for, and the placeholders each fills when it fires
# (the build side reads this with `ast`: hookmsg.catalogue.detectors).
DETECTS = {"edit-header": ("header", "path")}


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    return edit_header(call, data, root) if detector == "edit-header" else None
