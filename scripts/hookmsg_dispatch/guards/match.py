"""The data-only guard (`detector = "match"`): a guard written as paths, patterns and commands.

Data: `rules`, each with a `name` (what the advisory's `found` says), and any of `paths`
(globs matched against a written file's project-relative path and against its name),
`content` (a regular expression searched in the lines a write adds) and `command` (a
regular expression matched at the start of each simple command of a shell command, after
`sudo`, `env` and `VAR=value`). A file rule with both `paths` and `content` needs both to
match. The first rule that matches fires, with `where`: the path, or the command line.
"""

from __future__ import annotations

from hookmsg_dispatch.guards.common import cap, pattern, project_changes, strings

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookmsg_dispatch.call import Call


def _rules(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    value = data.get("rules", [])
    return [rule for rule in value if isinstance(rule, dict)] if isinstance(value, list) else []


def _path_matches(relative: str, globs: list[str]) -> bool:
    import fnmatch

    name = relative.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatchcase(relative, g) or fnmatch.fnmatchcase(name, g) for g in globs)


def _command(command: str, rules: list[dict[str, Any]]) -> dict[str, str] | None:
    from hookmsg_dispatch.guards.shell import commands

    wanted = [(r, pattern(r["command"], 0)) for r in rules if isinstance(r.get("command"), str)]
    if not wanted:
        return None
    for simple in commands(command):
        for rule, regex in wanted:
            if regex.match(simple.text) is not None:
                return {"found": cap(str(rule.get("name", ""))), "where": cap(command)}
    return None


def _file_rule(rule: dict[str, Any], relative: str, added: str) -> bool:
    globs = strings(rule, "paths")
    content = rule.get("content")
    if not globs and not isinstance(content, str):
        return False
    if globs and not _path_matches(relative, globs):
        return False
    return not isinstance(content, str) or pattern(content).search(added) is not None


# The detectors this module answers for, and the placeholders each fills when it fires
# (the build side reads this with `ast`: hookmsg.catalogue.detectors).
DETECTS = {"match": ("found", "where")}


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    rules = _rules(data)
    if call.command is not None and call.command.strip():
        return _command(call.command, rules)
    for _project, relative, change in project_changes(call, root):
        for rule in rules:
            if _file_rule(rule, relative, change.after):
                return {"found": cap(str(rule.get("name", ""))), "where": relative}
    return None
