"""The skill catalogue's entries: read from SKILL.md and command files, merged with the TOML.

A `[[sources]]` table names a folder; each `<folder>/<name>/SKILL.md` (skills) or
`<folder>/<name>.md` (commands) is one entry whose name, description and manual flag
come from its own YAML front matter. A `[[skills]]` entry with the same name overrides
its group, manual flag or short description, and picks which file wins when several
define one name; a `[[skills]]` entry that no file defines is an entry of its own.
Every problem is an S (or C) finding at the file, line and column it comes from.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from hookmsg.catalogue.rules import skills as skill_rules
from hookmsg.diagnostics import Diagnostic
from hookmsg.inputs.source import read_source
from hookmsg.inputs.sourcefiles import SourceFile, list_source, normalise
from hookmsg.project.config import Project
from hookmsg.tomlpos import locate

if TYPE_CHECKING:
    from hookmsg.catalogue.frontmatter import Field
    from hookmsg.catalogue.models import SkillCatalogue

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
                skill_rules.wrong_type(
                    display,
                    item.value_line,
                    item.value_col,
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
    return [skill_rules.bad_name(display, line, col, f"{what} '{name}' {why}")]


def read_entry(  # noqa: PLR0912, PLR0915
    file: SourceFile,
    kind: Kind,
    *,
    project: Project,
    source_root: str,
    allowed: frozenset[str],
    catalogue_display: str,
) -> tuple[Entry | None, list[Diagnostic]]:
    """One SKILL.md or command file read into an entry, with every finding about it."""
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
            skill_rules.bom_before_front_matter(
                display,
                1,
                1,
                "byte order mark before the front matter; harnesses that "
                "look for `---` at the first byte see no front matter",
            )
        )
    front, problems = read_front_matter(source.text, display)
    found += problems
    if front is None:
        return None, found
    if not front.present and kind == "skill":
        found.append(
            skill_rules.no_front_matter(
                display,
                1,
                1,
                "SKILL.md has no front matter; start it with `---`, "
                "`name:` and `description:` lines, then `---`",
            )
        )
        return None, found
    fields = front.fields
    for key, item in fields.items():
        if key not in allowed:
            found.append(
                skill_rules.unknown_key(
                    display,
                    item.line,
                    item.col,
                    f"unknown front matter key '{key}' for a {kind}; if a harness reads it, "
                    f"list it under [front-matter] extra-keys in {catalogue_display}",
                )
            )
    found += _type_problems(fields, display)

    name = file.stem
    if kind == "skill":
        name_field = fields.get("name")
        if "name" in front.unreadable:
            pass  # already S003
        elif name_field is None or name_field.value is None:
            line, col = (1, 1) if name_field is None else (name_field.line, name_field.col)
            what = "has no 'name'" if name_field is None else "has an empty 'name'"
            found.append(skill_rules.bad_name(display, line, col, f"the front matter {what}"))
        elif isinstance(name_field.value, str):
            name = name_field.value
            at = (name_field.value_line, name_field.value_col)
            found += _check_name(name, display, *at, "name")
            if name != file.stem:
                found.append(
                    skill_rules.name_differs_from_folder(
                        display,
                        *at,
                        f"name '{name}' differs from its folder name '{file.stem}'",
                    )
                )
    else:
        found += _check_name(name, display, 1, 1, "command name (its file name)")

    described = fields.get("description")
    value = described.value if described is not None and isinstance(described.value, str) else None
    if described is not None and described.value is None:
        value = ""  # `description:` with nothing after it
    description = ""
    if value is not None:
        description = " ".join(value.split())
    elif described is None and kind == "command":
        description = _first_line(front.body)
    if (described is not None and value is None) or "description" in front.unreadable:
        pass  # the wrong type is S015, an unreadable value S003: reported above
    elif not description:
        line, col = (described.value_line, described.value_col) if described is not None else (1, 1)
        what = "is empty" if described is not None else "is missing"
        found.append(skill_rules.bad_description(display, line, col, f"the description {what}"))
    elif described is not None and value is not None and len(value.strip()) > MAX_DESCRIPTION:
        found.append(
            skill_rules.description_too_long(
                display,
                described.value_line,
                described.value_col,
                f"description is {len(value.strip()):,} characters, over {MAX_DESCRIPTION:,}",
            )
        )

    invocation = fields.get("disable-model-invocation")
    manual = kind == "command" or (invocation is not None and invocation.value is True)
    metadata = fields.get("metadata")
    short = None
    if metadata is not None and isinstance(metadata.value, dict):
        value = metadata.value.get("short-description")
        short = " ".join(value.split()) if isinstance(value, str) and value.strip() else None
    entry = Entry(name, kind, description, manual, None, short, display, 1)
    return entry, found


def _source_root(path: str) -> str:
    """ "" for a source inside the repository; else its own folder, which links may not leave."""
    return path if path == ".." or path.startswith("../") else ""


def resolve(catalogue: SkillCatalogue, text: str, display: str, project: Project) -> SkillSet:  # noqa: PLR0912, PLR0915
    """Read every source and merge it with the `[[skills]]` table."""
    result = SkillSet()
    found = result.diagnostics
    allowed_extra = frozenset(catalogue.front_matter.extra_keys)
    group_ids = {group.id for group in catalogue.groups}
    by_name: dict[str, list[Entry]] = {}
    for index, source in enumerate(catalogue.sources):
        path = normalise(source.path)
        line = locate(text, ("sources", index))
        if source.group is not None and source.group not in group_ids:
            where = locate(text, ("sources", index, "group"))
            found.append(
                skill_rules.unknown_reference(
                    display,
                    where,
                    1,
                    f"source '{path}' names unknown task group '{source.group}'",
                )
            )
        listing = list_source(project.root, source.kind, path)
        if listing.error is not None:
            found.append(
                skill_rules.source_folder_unusable(
                    display, line, 1, f"{source.kind} folder '{path}' {listing.error}"
                )
            )
            continue
        kind: Kind = "skill" if source.kind == "skills" else "command"
        allowed = (SKILL_KEYS if kind == "skill" else COMMAND_KEYS) | allowed_extra
        for file in listing.files:
            entry, problems = read_entry(
                file,
                kind,
                project=project,
                source_root=_source_root(path),
                allowed=allowed,
                catalogue_display=display,
            )
            found += problems
            if entry is not None:
                # An unknown group stays as written (C005 above); the index skips it.
                entry = replace(entry, group=source.group, origin=path)
                by_name.setdefault(entry.name, []).append(entry)

    chosen: dict[str, Entry] = {}
    for index, skill in enumerate(catalogue.skills):
        line = locate(text, ("skills", index))
        candidates = by_name.get(skill.name)
        if skill.group is not None and skill.group not in group_ids:
            found.append(
                skill_rules.unknown_reference(
                    display,
                    locate(text, ("skills", index, "group")),
                    1,
                    f"skill '{skill.name}' names unknown task group '{skill.group}'",
                )
            )
        group = skill.group
        if candidates is None:
            if skill.source is not None:
                found.append(
                    skill_rules.unknown_reference(
                        display,
                        line,
                        1,
                        f"skill '{skill.name}' names source "
                        f"'{skill.source}', but no source defines '{skill.name}'",
                    )
                )
            missing = [key for key in ("description", "manual") if getattr(skill, key) is None]
            if missing or skill.description is None or skill.manual is None:
                found.append(
                    skill_rules.skill_entry_incomplete(
                        display,
                        line,
                        1,
                        f"skill '{skill.name}' is defined by no "
                        f"source file, so it needs {' and '.join(missing)}",
                    )
                )
                continue
            chosen.setdefault(
                skill.name,
                Entry(
                    skill.name,
                    "skill",
                    skill.description,
                    skill.manual,
                    group,
                    skill.short,
                    display,
                    line,
                ),
            )
            continue
        if skill.description is not None:
            found.append(
                skill_rules.skill_entry_incomplete(
                    display,
                    line,
                    1,
                    f"skill '{skill.name}' is defined by "
                    f"{candidates[0].source}; edit the description in its front matter",
                )
            )
        winner = candidates[0]
        if skill.source is not None:
            picked = [c for c in candidates if c.origin == normalise(skill.source)]
            if not picked:
                found.append(
                    skill_rules.unknown_reference(
                        display,
                        line,
                        1,
                        f"skill '{skill.name}' names source "
                        f"'{skill.source}', which does not define it",
                    )
                )
            else:
                winner = picked[0]
                by_name[skill.name] = [winner]
        chosen[skill.name] = replace(
            winner,
            group=group if skill.group is not None else winner.group,
            manual=skill.manual if skill.manual is not None else winner.manual,
            short=skill.short if skill.short is not None else winner.short,
        )

    for name, candidates in by_name.items():
        first = candidates[0]
        for other in candidates[1:]:
            found.append(
                skill_rules.defined_twice(
                    other.source,
                    other.line,
                    1,
                    f"{other.kind} '{name}' is also defined "
                    f"by {first.source}; rename one, or pick one with a [[skills]] entry "
                    f"(name = '{name}', source = '<its [[sources]] path>') in {display}",
                )
            )
        chosen.setdefault(name, first)

    for name in catalogue.omit:
        if name not in chosen:
            found.append(
                skill_rules.unknown_reference(
                    display,
                    locate(text, ("omit", name)),
                    1,
                    f"omit names '{name}', which no source or [[skills]] entry defines",
                )
            )
    for name in sorted(chosen):
        entry = chosen[name]
        if name in catalogue.omit:
            result.omitted.append(entry)
            continue
        if entry.group is None:
            found.append(
                skill_rules.in_no_group(
                    entry.source,
                    entry.line,
                    1,
                    f"{entry.kind} '{name}' is in no task "
                    f"group; give its [[sources]] a group, add a [[skills]] entry with one, or "
                    f"list it under [omit] in {display}",
                )
            )
        result.entries.append(entry)
    used = {entry.group for entry in result.entries}
    for index, task_group in enumerate(catalogue.groups):
        if task_group.id not in used:
            found.append(
                skill_rules.empty_group(
                    display,
                    locate(text, ("groups", index)),
                    1,
                    f"task group '{task_group.id}' has no skills or commands",
                )
            )
    return result
