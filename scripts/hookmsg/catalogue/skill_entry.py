"""One skill or command file read into an entry: its name, description and manual flag.

Each `<folder>/<name>/SKILL.md` (skills) or `<folder>/<name>.md` (commands) is one entry
whose name, description and manual flag come from its own YAML front matter; every
problem is an S finding at the file, line and column it comes from. The merge with the
catalogue's `[[skills]]` table is `skills.py`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from hookmsg.diagnostics import Diagnostic
from hookmsg.inputs.source import read_source
from hookmsg.inputs.sourced_files import SourceFile
from hookmsg.project.settings import Project

if TYPE_CHECKING:
    from hookmsg.catalogue.frontmatter import Field, FrontMatter

NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_NAME = 64
MAX_DESCRIPTION = 1024

# The Agent Skills format (agentskills.io) and the keys Claude Code adds to it.
SKILL_KEYS = frozenset(
    {
        "name",
        "description",
        "license",
        "compatibility",
        "metadata",
        "allowed-tools",
        "argument-hint",
        "disable-model-invocation",
        "user-invocable",
        "model",
        "context",
        "agent",
        "hooks",
    }
)
# Claude Code's custom slash commands (`.claude/commands/<name>.md`).
COMMAND_KEYS = frozenset(
    {"description", "argument-hint", "allowed-tools", "model", "disable-model-invocation"}
)
# The type each known key must have, as (check, what it should be).
_TYPES: dict[str, tuple[type | tuple[type, ...], str]] = {
    "name": (str, "a string"),
    "description": (str, "a string"),
    "license": (str, "a string"),
    "compatibility": (str, "a string"),
    "metadata": (dict, "a mapping"),
    "allowed-tools": ((str, list), "a string or a list of strings"),
    "argument-hint": (str, "a string (quote it: an unquoted `[x]` is a YAML list)"),
    "disable-model-invocation": (bool, "true or false"),
    "user-invocable": (bool, "true or false"),
    "model": (str, "a string"),
}

Kind = Literal["skill", "command"]


@dataclass(frozen=True)
class Entry:
    """One skill or command as the index lists it, and where it is defined."""

    name: str
    kind: Kind
    description: str
    manual: bool
    group: str | None
    short: str | None
    source: str  # the file that defines it (the catalogue for a TOML-only entry)
    line: int
    origin: str = ""  # the normalised `[[sources]]` path it came from ("" for TOML)


@dataclass
class SkillSet:
    """The merged entries (one per name), the names left out of the index, and findings."""

    entries: list[Entry] = field(default_factory=list)
    omitted: list[Entry] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _first_line(body: str) -> str:
    """A command's default description: its first non-empty line (as Claude Code takes it)."""
    for line in body.split("\n"):
        text = line.strip().lstrip("#").strip()
        if text:
            return text
    return ""


def _type_problems(fields: Mapping[str, Field], display: str) -> list[Diagnostic]:
    found = []
    for key, item in fields.items():
        expected = _TYPES.get(key)
        if expected is None or (item.value is None and key in ("name", "description")):
            continue  # an empty name or description is S008 or S009
        kinds, wanted = expected
        ok = isinstance(item.value, kinds) and not (
            isinstance(item.value, bool) and kinds is not bool
        )
        if ok and isinstance(item.value, list):
            ok = all(isinstance(value, str) for value in item.value)
        if not ok:
            found.append(
                Diagnostic(
                    display,
                    item.value_line,
                    item.value_col,
                    "S015",
                    f"'{key}' must be {wanted}, not {type(item.value).__name__}",
                )
            )
    return found


def _check_name(name: str, display: str, line: int, col: int, what: str) -> list[Diagnostic]:
    if 1 <= len(name) <= MAX_NAME and NAME.match(name):
        return []
    why = (
        f"is {len(name)} characters, over {MAX_NAME}"
        if len(name) > MAX_NAME
        else "must be lowercase letters, digits and single hyphens, not starting or ending "
        "with a hyphen"
    )
    return [Diagnostic(display, line, col, "S008", f"{what} '{name}' {why}")]


def read_entry(
    file: SourceFile,
    kind: Kind,
    *,
    project: Project,
    source_root: str,
    allowed: frozenset[str],
    catalogue_display: str,
) -> tuple[Entry | None, list[Diagnostic]]:
    """One SKILL.md or command file read into an entry, with every finding about it."""
    front, found = _read_front(file, kind, project, source_root)
    if front is None:
        return None, found
    display = file.display
    found += _unknown_keys(front.fields, allowed, kind, display, catalogue_display)
    found += _type_problems(front.fields, display)
    name, problems = _entry_name(front, file, kind)
    found += problems
    description, problems = _entry_description(front, kind, display)
    found += problems
    invocation = front.fields.get("disable-model-invocation")
    manual = kind == "command" or (invocation is not None and invocation.value is True)
    entry = Entry(name, kind, description, manual, None, _short(front.fields), display, 1)
    return entry, found


def _read_front(
    file: SourceFile, kind: Kind, project: Project, source_root: str
) -> tuple[FrontMatter | None, list[Diagnostic]]:
    """The file's front matter (None when there is none to read), with what reading found."""
    # Imported here: PyYAML loads only for a catalogue that reads files.
    from hookmsg.catalogue.frontmatter import read_front_matter

    display = file.display
    root = project.root if source_root == "" else (project.root / source_root)
    source, found = read_source(
        file.path,
        display,
        max_bytes=project.settings.max_file_bytes,
        root=root,
        check_folders=True,
    )
    if source is None:
        return None, found
    if source.had_bom:
        found.append(
            Diagnostic(
                display,
                1,
                1,
                "S006",
                "byte order mark before the front matter; harnesses that "
                "look for `---` at the first byte see no front matter",
            )
        )
    front, problems = read_front_matter(source.text, display)
    found += problems
    if front is not None and not front.present and kind == "skill":
        found.append(
            Diagnostic(
                display,
                1,
                1,
                "S001",
                "SKILL.md has no front matter; start it with `---`, "
                "`name:` and `description:` lines, then `---`",
            )
        )
        return None, found
    return front, found


def _unknown_keys(
    fields: Mapping[str, Field],
    allowed: frozenset[str],
    kind: Kind,
    display: str,
    catalogue_display: str,
) -> list[Diagnostic]:
    return [
        Diagnostic(
            display,
            item.line,
            item.col,
            "S011",
            f"unknown front matter key '{key}' for a {kind}; if a harness reads it, "
            f"list it under [front-matter] extra-keys in {catalogue_display}",
        )
        for key, item in fields.items()
        if key not in allowed
    ]


def _entry_name(front: FrontMatter, file: SourceFile, kind: Kind) -> tuple[str, list[Diagnostic]]:
    """A skill's name from its front matter (else its folder's); a command's file name."""
    display = file.display
    name = file.stem
    if kind != "skill":
        return name, _check_name(name, display, 1, 1, "command name (its file name)")
    name_field = front.fields.get("name")
    if "name" in front.unreadable:
        return name, []  # already S003
    if name_field is None or name_field.value is None:
        line, col = (1, 1) if name_field is None else (name_field.line, name_field.col)
        what = "has no 'name'" if name_field is None else "has an empty 'name'"
        return name, [Diagnostic(display, line, col, "S008", f"the front matter {what}")]
    if not isinstance(name_field.value, str):
        return name, []  # the wrong type is S015
    name = name_field.value
    at = (name_field.value_line, name_field.value_col)
    found = _check_name(name, display, *at, "name")
    if name != file.stem:
        found.append(
            Diagnostic(
                display, *at, "S007", f"name '{name}' differs from its folder name '{file.stem}'"
            )
        )
    return name, found


def _entry_description(
    front: FrontMatter, kind: Kind, display: str
) -> tuple[str, list[Diagnostic]]:
    """The description as the index shows it, with S009/S010 when it is empty or too long."""
    described = front.fields.get("description")
    value = described.value if described is not None and isinstance(described.value, str) else None
    if described is not None and described.value is None:
        value = ""  # `description:` with nothing after it
    description = ""
    if value is not None:
        description = " ".join(value.split())
    elif described is None and kind == "command":
        description = _first_line(front.body)
    if (described is not None and value is None) or "description" in front.unreadable:
        return description, []  # the wrong type is S015, an unreadable value S003
    if not description:
        line, col = (described.value_line, described.value_col) if described is not None else (1, 1)
        what = "is empty" if described is not None else "is missing"
        return description, [Diagnostic(display, line, col, "S009", f"the description {what}")]
    if described is not None and value is not None and len(value.strip()) > MAX_DESCRIPTION:
        return description, [
            Diagnostic(
                display,
                described.value_line,
                described.value_col,
                "S010",
                f"description is {len(value.strip()):,} characters, over {MAX_DESCRIPTION:,}",
            )
        ]
    return description, []


def _short(fields: Mapping[str, Field]) -> str | None:
    """`metadata.short-description`, when it has any text."""
    metadata = fields.get("metadata")
    if metadata is None or not isinstance(metadata.value, dict):
        return None
    value = metadata.value.get("short-description")
    return " ".join(value.split()) if isinstance(value, str) and value.strip() else None
