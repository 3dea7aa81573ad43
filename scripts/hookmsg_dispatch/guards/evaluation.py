"""The eval guard: dynamic evaluation or unsafe deserialisation in added text or a command.

Data: `languages` (name -> `extensions`, `comment` prefix, `primitives`: display name ->
regular expression) and `commands` (tool -> language, e.g. Bash -> shell). A file's language
follows its extension; only lines the call adds are scanned (for a Write over an existing
file, lines already on disk are not new), whole-line and trailing comments are skipped.
Only the patterns of the one language in play are compiled.
"""

from __future__ import annotations

from hookmsg_dispatch.guards.common import (
    MAX_READ_BYTES,
    extension,
    pattern,
    project_changes,
    table,
)

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookmsg_dispatch.call import Call, FileChange
    from hookmsg_dispatch.project import Project

COMMAND_SHOWN = 80  # characters of the command line an advisory quotes as the location


def _language_for(languages: dict[str, Any], ext: str) -> dict[str, Any] | None:
    for spec in languages.values():
        if isinstance(spec, dict) and ext in spec.get("extensions", ()):
            return spec
    return None


def _in_comment(line: str, start: int, prefix: str) -> bool:
    """Is position `start` of `line` inside a comment that begins with `prefix`?"""
    if not prefix:
        return False
    quote = ""
    index = 0
    while index < start:
        char = line[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif line.startswith(prefix, index) and (index == 0 or line[index - 1] in " \t;"):
            return True
        index += 1
    return False


def _first(lines: list[tuple[int, str]], spec: dict[str, Any]) -> tuple[str, int] | None:
    """(primitive, line number) of the first primitive in `lines`, outside comments."""
    primitives = spec.get("primitives", {})
    prefix = spec.get("comment", "")
    compiled = [
        (name, pattern(source)) for name, source in primitives.items() if isinstance(source, str)
    ]
    for number, line in lines:
        if prefix and line.lstrip().startswith(prefix):
            continue
        for name, regex in compiled:
            for match in regex.finditer(line):
                if not _in_comment(line, match.start(), prefix):
                    return name, number
    return None


def _added_lines(
    project: Project, relative: str, change: FileChange
) -> tuple[list[tuple[int, str]], bool]:
    """The lines the change adds, numbered as in the file when that is known."""
    new = change.after.split("\n")
    if change.created or (change.created is None and change.before is None):
        disk = project.read_text(relative, MAX_READ_BYTES)
        old = set(disk.split("\n")) if disk else set()
        return [(n, line) for n, line in enumerate(new, 1) if line not in old], True
    old = set((change.before or "").split("\n"))
    disk = project.read_text(relative, MAX_READ_BYTES)
    base, placed = 0, False
    if disk is not None and change.before and change.before in disk:
        base, placed = disk[: disk.index(change.before)].count("\n"), True
    return [(base + n, line) for n, line in enumerate(new, 1) if line not in old], placed


def _command_line(lines: list[tuple[int, str]], number: int) -> str:
    """The command line the primitive is on, as the location: short enough to quote."""
    line = lines[number - 1][1].strip() if 0 < number <= len(lines) else ""
    return line if len(line) <= COMMAND_SHOWN else line[: COMMAND_SHOWN - 1] + "…"


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    languages = table(data, "languages")
    if call.command is not None and call.tool is not None:
        language = table(data, "commands").get(call.tool)
        spec = languages.get(language) if isinstance(language, str) else None
        if isinstance(spec, dict):
            lines = list(enumerate(call.command.split("\n"), 1))
            found = _first(lines, spec)
            if found is not None:
                return {"primitive": found[0], "location": _command_line(lines, found[1])}
    for project, relative, change in project_changes(call, root):
        spec = _language_for(languages, extension(relative))
        if spec is None:
            continue
        lines, placed = _added_lines(project, relative, change)
        found = _first(lines, spec)
        if found is not None:
            where = f"{relative}:{found[1]}" if placed else relative
            return {"primitive": found[0], "location": where}
    return None
