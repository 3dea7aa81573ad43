"""The header guards: a new file without the header its siblings carry; an edit removing one.

Data: `header` (a regular expression a header line matches, e.g. `SPDX-License-Identifier:`),
`kinds` (file extension -> that kind's comment prefix), `max-levels` (how many folders up the
sibling search goes, bounded by the project root). A header line is a line that starts with
the kind's comment prefix and matches `header`; a file "starts with" one when it is its first
line after a shebang and an encoding declaration. A new file fires when it does not start
with the header its nearest sibling carries: none at all, or a different one (another
licence id). A file is new when written by Write, a patch's Add File, or an Edit with an
empty `old_string` of a path that does not exist; an empty new file needs no header.
"""

from __future__ import annotations

from hookmsg_dispatch.guards.common import extension, number, pattern, project_changes, table
from hookmsg_dispatch.system import os

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookmsg_dispatch.call import Call, FileChange
    from hookmsg_dispatch.project import Project

# How much of a sibling is read to find its header, and how many entries a folder may list.
_HEAD_BYTES = 4096
_MAX_ENTRIES = 4096


def _is_preamble(line: str) -> bool:
    """A shebang or an encoding declaration, which must stay before the header."""
    text = line.strip()
    return text.startswith("#!") or (
        text.startswith("#") and ("coding:" in text or "coding=" in text)
    )


def _is_header(line: str, prefix: str, header: str) -> bool:
    text = line.strip()
    return text.startswith(prefix) and pattern(header).search(text) is not None


def leading_header(text: str, prefix: str, header: str) -> str | None:
    """The header line `text` starts with (after shebang and encoding lines), or None."""
    for count, line in enumerate(text.lstrip("\ufeff").split("\n")):
        if count < 2 and _is_preamble(line):
            continue
        return line.strip() if _is_header(line, prefix, header) else None
    return None


def _siblings(project: Project, folder: str, ext: str, exclude: str) -> list[str]:
    """Project-relative paths of the regular files in `folder` with extension `ext`, sorted."""
    found: list[str] = []
    try:
        with os.scandir(project.path_of(folder) if folder else project.root) as entries:
            for count, entry in enumerate(entries):
                if count >= _MAX_ENTRIES:
                    break
                relative = f"{folder}/{entry.name}" if folder else entry.name
                if (
                    relative != exclude
                    and extension(entry.name) == ext
                    and entry.is_file(follow_symlinks=False)
                ):
                    found.append(relative)
    except OSError:
        return []
    return sorted(found)


def _sibling_header(
    project: Project, relative: str, kind: tuple[str, str, str], levels: int
) -> str | None:
    """The header line of the nearest non-empty sibling of the same kind; None if it has
    none or there is no such sibling up to the project root."""
    ext, prefix, header = kind
    folder = relative.rsplit("/", 1)[0] if "/" in relative else ""
    for _ in range(levels + 1):
        for sibling in _siblings(project, folder, ext, relative):
            text = project.head(sibling, _HEAD_BYTES)
            if text is not None and text.strip():  # an empty file (`__init__.py`) tells nothing
                return leading_header(text, prefix, header)
        if not folder:
            return None
        folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
    return None


def _creates(project: Project, relative: str, change: FileChange) -> bool:
    """Does the change create the file? A Write, a patch's Add File, or an Edit whose old
    text is empty (Claude Code creates the file then), of a path that does not exist yet."""
    if change.before:
        return False
    if change.before is None and change.created is not True:
        return False
    return not os.path.lexists(project.path_of(relative))


def _same(found: str, expected: str) -> bool:
    return found.split() == expected.split()


def _write_header(call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    header = data.get("header")
    kinds = table(data, "kinds")
    levels = int(number(data, "max-levels", 8))
    if not isinstance(header, str):
        return None
    for project, relative, change in project_changes(call, root):
        ext = extension(relative)
        prefix = kinds.get(ext)
        if not isinstance(prefix, str) or not change.after.strip():
            continue  # an empty file (`__init__.py`) carries no header
        if not _creates(project, relative, change):
            continue
        found = leading_header(change.after, prefix, header)
        expected = _sibling_header(project, relative, (ext, prefix, header), levels)
        if expected is not None and (found is None or not _same(found, expected)):
            return {"path": relative, "header": expected}
    return None


def _edit_header(call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    header = data.get("header")
    kinds = table(data, "kinds")
    if not isinstance(header, str):
        return None
    for _project, relative, change in project_changes(call, root):
        if not change.before or change.created:
            continue
        prefix = kinds.get(extension(relative))
        prefix = prefix if isinstance(prefix, str) else ""
        kept = {line.strip() for line in change.after.split("\n")}
        for line in change.before.split("\n"):
            if _is_header(line, prefix, header) and line.strip() not in kept:
                return {"path": relative, "header": line.strip()}
    return None


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    if detector == "write-header":
        return _write_header(call, data, root)
    return _edit_header(call, data, root)
