"""Helpers the detectors share: compiled patterns, capped values, the call's project files."""

from __future__ import annotations

from hookmsg_dispatch.project import Project

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from re import Pattern
    from typing import Any

    from hookmsg_dispatch.call import Call, FileChange

# Largest project file a detector reads whole (a manifest, a plan, a file being overwritten).
MAX_READ_BYTES = 1 << 20
# The longest placeholder value a detector returns (the dispatcher caps again).
MAX_VALUE = 160

_compiled: dict[tuple[str, int], Pattern[str]] = {}


MULTILINE = 8  # re.MULTILINE, without importing `re` before a pattern is needed


def pattern(source: str, flags: int = MULTILINE) -> Pattern[str]:
    """A regular expression from the catalogue data, compiled once, when first needed.

    `re` itself is imported lazily: the pattern is compiled only for a text that holds a
    literal every match needs (`hookmsg_dispatch.literal`), so a call that nothing could
    match never loads it.
    """
    key = (source, flags)
    found = _compiled.get(key)
    if found is None:
        from hookmsg_dispatch.literal import lazy

        found = _compiled[key] = lazy(source, flags)  # type: ignore[assignment]
    return found  # type: ignore[return-value]


def cap(text: str, limit: int = MAX_VALUE) -> str:
    """One line of at most `limit` characters (an ellipsis marks a cut)."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def strings(data: Mapping[str, Any], key: str) -> list[str]:
    value = data.get(key, [])
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def table(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    return dict(value) if isinstance(value, dict) else {}


def number(data: Mapping[str, Any], key: str, default: float) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return value


# The project of the last call asked about: every guard of one call asks for the same one,
# and finding it resolves the working folder and walks up for `.git`. One call is told by
# its payload's `tool_input` object, which the views of a folded call share (a later
# call, even in the same process, has its own).
_last: list[Any] = [None, "", "", None]


def project_of(call: Call, root: str) -> Project | None:
    if _last[0] is not call.tool_input or _last[1] != root or _last[2] != call.cwd:
        _last[:] = [call.tool_input, root, call.cwd, Project.of(call.cwd, root)]
    found: Project | None = _last[3]
    return found


def project_changes(call: Call, root: str) -> Iterator[tuple[Project, str, FileChange]]:
    """Each change of the call inside the project, with its project-relative path."""
    if not call.changes:
        return
    project = project_of(call, root)
    if project is None:
        return
    for change in call.changes:
        relative = project.relative(change.path)
        if relative is not None:
            yield project, relative, change


def extension(relative: str) -> str:
    """`.py` for `src/a.py`; "" for a name without one (`Makefile`, `.bashrc`)."""
    name = relative.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def format_of(files: Mapping[str, Any], relative: str) -> str | None:
    """The value of the first name glob (`*.yml`, `Makefile`, `Dockerfile.*`) in `files`
    that the file's name matches: string tests only, no `fnmatch` (and no `re`) to load."""
    name = relative.rsplit("/", 1)[-1]
    for glob, kind in files.items():
        if not isinstance(kind, str):
            continue
        if glob.startswith("*"):
            same = name.endswith(glob[1:])
        elif glob.endswith("*"):
            same = name.startswith(glob[:-1])
        else:
            same = name == glob
        if same:
            return kind
    return None
