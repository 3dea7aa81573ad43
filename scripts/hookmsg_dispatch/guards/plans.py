"""The plan guards: a write, or a state-changing command, that the plan in force does not cover.

A plan is in force when one of the data's `plans` locations (project-relative, first found
wins) is a readable file in the project. A file change is covered when the plan names its
project-relative path or one of its parent folders (a folder may be written `src`, `src/` or
`src/**`), or a glob it names matches the path (`src/**/*.tsx`, `tests/test_?.py`,
`src/{api,web}/`); the plan file itself and the `exempt` notes files are always covered.
A command is covered when the plan names each matched action (`commands`: name -> regular expression
matched at the start of a simple command), e.g. "git push": the name the advisory shows as
`action`, so adding exactly that name to the plan silences the guard.
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

    # A full stop or comma may end the sentence the path closes (`... src/x.py.`).
    name = re.escape(path)
    if "/" not in path and "." not in path:
        # A bare word (`tests`, `src`) is a path only written as one: `tests/` or `tests`
        # in backticks; the word in prose ("add tests") names no folder.
        end = r"(?![\w/*{?-]|\.[\w/-])"
        regex = r"(?<![\w./-])(?:\./)?" + name + r"/\**" + end + r"|`(?:\./)?" + name + r"/?`"
        # Alone in a table cell or as a list item (`| Makefile |`, `- tests: ...`), it is one.
        regex += r"|\|[ \t]*" + name + r"[ \t]*\||^[ \t]*(?:[-*+]|\d+[.)])[ \t]+" + name
        regex += r"[ \t]*(?::|$)"
        if _file_like(path):  # `Makefile`, `LICENSE`, `CMakeLists`: no prose word
            regex += r"|(?<![\w./-])" + name + end
        return re.search(regex, plan, re.MULTILINE) is not None
    regex = r"(?<![\w./-])(?:\./)?" + name + r"(?:/\**)?(?![\w/*{?-]|\.[\w/-])"
    return re.search(regex, plan) is not None


def _file_like(word: str) -> bool:
    """A name that is a file's, not a word of prose: all capitals (`LICENSE`), two capitals
    (`CMakeLists`), or a capitalised name ending in `file` (`Makefile`, `Dockerfile`)."""
    capitals = sum(char.isupper() for char in word)
    if len(word) >= 2 and word.isupper():
        return True
    return word[:1].isupper() and (capitals >= 2 or word.endswith("file"))


def globs_in(plan: str) -> list[str]:
    """The glob patterns a plan names (`src/**/*.tsx`, `tests/test_?.py`, `src/{api,web}/`),
    sentence ends trimmed: a word holding `*`, `?` or a `{a,b}` choice."""
    import re

    found = re.findall(r"(?<![\w./*?{}-])[\w./{},?-]*[*?{][\w./*?{},-]*", plan)
    globs = [glob.rstrip(".,;:?") for glob in found]
    return [g for g in globs if g.strip("*./") and _wild(g)]


def _wild(glob: str) -> bool:
    return "*" in glob or "?" in glob or ("{" in glob and "," in glob)


def glob_regex(glob: str) -> str:
    """A plan's glob as a regular expression over a project-relative path: `*` and `?`
    stay within one folder, `**` spans folders (`src/**/*.tsx` holds `src/a.tsx` too),
    `{a,b}` is either. A glob without a `/` (`*.md`) matches a file's name in any folder."""
    import re

    parts: list[str] = [] if "/" in glob.strip("/") else ["(?:.*/)?"]
    index, depth = (2 if glob.startswith("./") else 0), 0
    while index < len(glob):
        char = glob[index]
        if glob.startswith("**/", index):
            parts.append("(?:.*/)?")
            index += 3
            continue
        if glob.startswith("**", index):
            parts.append(".*")
            index += 2
            continue
        if char in "{,}" and (char == "{" or depth):
            depth += {"{": 1, "}": -1}.get(char, 0)
            parts.append({"{": "(?:", "}": ")", ",": "|"}[char])
        else:
            parts.append({"*": "[^/]*", "?": "[^/]"}.get(char) or re.escape(char))
        index += 1
    return "".join(parts) + ")" * depth + ("(?:/.*)?" if glob.endswith("/") else "")


def covered(plan: str, relative: str, globs: list[str] | None = None) -> bool:
    """Is the file, or one of its parent folders, named in the plan, or matched by a glob
    the plan names?"""
    parts = relative.split("/")
    if any(names_path(plan, "/".join(parts[:end])) for end in range(len(parts), 0, -1)):
        return True
    import re

    return any(re.fullmatch(glob_regex(glob), relative) is not None for glob in globs or ())


def names_command(plan: str, name: str) -> bool:
    import re

    words = [re.escape(word) for word in name.split()]
    regex = r"(?<![\w-])" + r"\s+".join(words) + r"(?![\w-])"
    return re.search(regex, plan, re.IGNORECASE) is not None


def _write_plan(call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    exempt = set(strings(data, "exempt") if "exempt" in data else DEFAULT_EXEMPT)
    plan: tuple[str, str] | None = None
    globs: list[str] | None = None
    for project, relative, _change in project_changes(call, root):
        if plan is None:
            plan = plan_in_force(project, strings(data, "plans"))
            if plan is None:
                return None
        if relative == plan[0] or relative in exempt:
            continue
        if globs is None:
            globs = globs_in(plan[1])
        if not covered(plan[1], relative, globs):
            return {"path": relative, "plan": plan[0]}
    return None


def matched_actions(
    command: str, commands: Mapping[str, Any], read_only: str | None = None
) -> list[str]:
    """The names (`git push`, `terraform apply`) of the state-changing commands in `command`.

    Each pattern is matched at the start of each simple command (see `guards.shell`), so a
    read-only program that merely mentions a release word never counts; a simple command
    that `read_only` finds anywhere in (`--dry-run`, `--help`) changes nothing, and a
    heredoc's body counts only when a shell runs it. Linear time.
    """
    from hookmsg_dispatch.guards.heredoc import executed
    from hookmsg_dispatch.guards.shell import commands as simple_commands

    compiled = [
        (name, pattern(source, 0)) for name, source in commands.items() if isinstance(source, str)
    ]
    harmless = pattern(read_only, 0) if read_only else None
    found: list[str] = []
    for simple in simple_commands(executed(command)):
        if harmless is not None and harmless.search(simple.text) is not None:
            continue
        for name, regex in compiled:
            if name not in found and regex.match(simple.text) is not None:
                found.append(name)
    return found


def unnamed(plan: str, actions: list[str]) -> list[str]:
    """The actions the plan does not name, longest first, without one a longer one implies
    (a plan naming `git push --force` names `git push`)."""
    missing = [name for name in actions if not names_command(plan, name)]
    missing.sort(key=lambda name: (-len(name), name))
    kept: list[str] = []
    for name in missing:
        if not any(names_command(longer, name) for longer in kept):
            kept.append(name)
    return kept


def _bash_plan(call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    command = call.command
    if not command or not command.strip():
        return None
    read_only = data.get("read-only")
    actions = matched_actions(
        command, table(data, "commands"), read_only if isinstance(read_only, str) else None
    )
    if not actions:
        return None
    project = project_of(call, root)
    plan = plan_in_force(project, strings(data, "plans")) if project is not None else None
    if plan is None:
        return None
    missing = unnamed(plan[1], actions)
    if not missing:
        return None
    return {"command": cap(command), "plan": plan[0], "action": " and ".join(missing)}


# The detectors this module answers for, and the placeholders each fills when it fires
# (the build side reads this with `ast`: hookmsg.catalogue.detectors).
DETECTS = {"write-plan": ("path", "plan"), "bash-plan": ("action", "command", "plan")}


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    if detector == "write-plan":
        return _write_plan(call, data, root)
    return _bash_plan(call, data, root)
