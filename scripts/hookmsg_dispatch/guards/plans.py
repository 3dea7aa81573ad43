"""The plan guards: a write, or a state-changing command, that the plan in force does not cover.

A plan is in force when one of the data's `plans` locations (project-relative, first found
wins) is a readable file in the project. A file change is covered when the plan names its
project-relative path or one of its parent folders (a folder may be written `src`, `src/` or
`src/**`); the plan file itself and the `exempt` notes files are always covered. A command is
covered when the plan names the matched command (`commands`: name -> regular expression),
e.g. "git push".
"""

from __future__ import annotations

from hookmsg_dispatch.guards.common import (
    MAX_READ_BYTES,
    cap,
    pattern,
    project_changes,
    project_of,
    strings,
    table,
)

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookmsg_dispatch.call import Call
    from hookmsg_dispatch.project import Project

DEFAULT_EXEMPT = (".hookmsg/compaction-note.md",)


def plan_in_force(project: Project, locations: list[str]) -> tuple[str, str] | None:
    """(project-relative path, text) of the first plan location that exists, or None."""
    for location in locations:
        relative = location.strip("/")
        if not relative or ".." in relative.split("/"):
            continue
        text = project.read_text(relative, MAX_READ_BYTES)
        if text is not None:
            return relative, text
    return None


def names_path(plan: str, path: str) -> bool:
    """Does the plan text name `path` as a path (not as part of a longer one)?"""
    import re

    regex = r"(?<![\w./-])(?:\./)?" + re.escape(path) + r"(?:/\**)?(?![\w./-])"
    return re.search(regex, plan) is not None


def covered(plan: str, relative: str) -> bool:
    """Is the file, or one of its parent folders, named in the plan?"""
    parts = relative.split("/")
    return any(names_path(plan, "/".join(parts[:end])) for end in range(len(parts), 0, -1))


def names_command(plan: str, name: str) -> bool:
    import re

    words = [re.escape(word) for word in name.split()]
    regex = r"(?<![\w-])" + r"\s+".join(words) + r"(?![\w-])"
    return re.search(regex, plan, re.IGNORECASE) is not None


def _write_plan(call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    exempt = set(strings(data, "exempt") if "exempt" in data else DEFAULT_EXEMPT)
    plan: tuple[str, str] | None = None
    for project, relative, _change in project_changes(call, root):
        if plan is None:
            plan = plan_in_force(project, strings(data, "plans"))
            if plan is None:
                return None
        if relative == plan[0] or relative in exempt:
            continue
        if not covered(plan[1], relative):
            return {"path": relative, "plan": plan[0]}
    return None


def _bash_plan(call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    command = call.command
    if not command or not command.strip():
        return None
    commands = table(data, "commands")
    matched = [
        name
        for name, source in commands.items()
        if isinstance(source, str) and pattern(source).search(command) is not None
    ]
    if not matched:
        return None
    project = project_of(call, root)
    plan = plan_in_force(project, strings(data, "plans")) if project is not None else None
    if plan is None:
        return None
    if all(names_command(plan[1], name) for name in matched):
        return None
    return {"command": cap(command), "plan": plan[0]}


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    if detector == "write-plan":
        return _write_plan(call, data, root)
    return _bash_plan(call, data, root)
