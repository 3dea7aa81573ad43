"""The skill catalogue's entries: read from SKILL.md and command files, merged with the TOML.

A `[[sources]]` table names a folder; each file in it is one entry (`skill_entry.py` reads
it). A `[[skills]]` entry with the same name overrides its group, manual flag or short
description, and picks which file wins when several define one name; a `[[skills]]` entry
that no file defines is an entry of its own. Every problem is an S (or C) finding at the
file, line and column it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from hookmsg.catalogue.skill_entry import (
    COMMAND_KEYS,
    SKILL_KEYS,
    Entry,
    Kind,
    SkillSet,
    read_entry,
)
from hookmsg.diagnostics import Diagnostic
from hookmsg.inputs.sourced_files import list_source, normalise
from hookmsg.project.settings import Project
from hookmsg.tomlpos import locate

if TYPE_CHECKING:
    from hookmsg.catalogue.models import Skill, SkillCatalogue


@dataclass(frozen=True)
class _Catalogue:
    """The skill catalogue as the merge reads it: the model, its text and where findings go."""

    model: SkillCatalogue
    text: str
    display: str
    found: list[Diagnostic]

    def unknown_group(self, group: str | None, at: tuple[str | int, ...], what: str) -> None:
        """C005 for a task group that the catalogue does not declare."""
        if group is not None and group not in {g.id for g in self.model.groups}:
            self.found.append(
                Diagnostic(
                    self.display,
                    locate(self.text, (*at, "group")),
                    1,
                    "C005",
                    f"{what} names unknown task group '{group}'",
                )
            )


def _source_root(path: str) -> str:
    """ "" for a source inside the repository; else its own folder, which links may not leave."""
    return path if path == ".." or path.startswith("../") else ""


def resolve(catalogue: SkillCatalogue, text: str, display: str, project: Project) -> SkillSet:
    """Read every source and merge it with the `[[skills]]` table."""
    result = SkillSet()
    table = _Catalogue(catalogue, text, display, result.diagnostics)
    by_name = _read_sources(table, project)
    chosen = _apply_skills(table, by_name)
    _report_duplicates(table, by_name, chosen)
    _sort_into_index(table, chosen, result)
    return result


def _read_sources(table: _Catalogue, project: Project) -> dict[str, list[Entry]]:
    """Every entry each `[[sources]]` folder defines, by name, in source and file order."""
    allowed_extra = frozenset(table.model.front_matter.extra_keys)
    by_name: dict[str, list[Entry]] = {}
    for index, source in enumerate(table.model.sources):
        path = normalise(source.path)
        table.unknown_group(source.group, ("sources", index), f"source '{path}'")
        listing = list_source(project.root, source.kind, path)
        if listing.error is not None:
            line = locate(table.text, ("sources", index))
            table.found.append(
                Diagnostic(
                    table.display, line, 1, "S016", f"{source.kind} folder '{path}' {listing.error}"
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
                catalogue_display=table.display,
            )
            table.found.extend(problems)
            if entry is not None:
                # An unknown group stays as written (C005 above); the index skips it.
                entry = replace(entry, group=source.group, origin=path)
                by_name.setdefault(entry.name, []).append(entry)
    return by_name


def _apply_skills(table: _Catalogue, by_name: dict[str, list[Entry]]) -> dict[str, Entry]:
    """The `[[skills]]` entries applied: whole entries added, overrides laid on their file."""
    chosen: dict[str, Entry] = {}
    for index, skill in enumerate(table.model.skills):
        line = locate(table.text, ("skills", index))
        table.unknown_group(skill.group, ("skills", index), f"skill '{skill.name}'")
        candidates = by_name.get(skill.name)
        if candidates is None:
            entry = _toml_only(table, skill, line)
            if entry is not None:
                chosen.setdefault(skill.name, entry)
            continue
        winner = _override(table, skill, line, candidates)
        if skill.source is not None and winner.origin == normalise(skill.source):
            by_name[skill.name] = [winner]
        chosen[skill.name] = replace(
            winner,
            group=skill.group if skill.group is not None else winner.group,
            manual=skill.manual if skill.manual is not None else winner.manual,
            short=skill.short if skill.short is not None else winner.short,
        )
    return chosen


def _toml_only(table: _Catalogue, skill: Skill, line: int) -> Entry | None:
    """A `[[skills]]` entry that no file defines: an entry of its own, if it is complete."""
    if skill.source is not None:
        table.found.append(
            Diagnostic(
                table.display,
                line,
                1,
                "C005",
                f"skill '{skill.name}' names source "
                f"'{skill.source}', but no source defines '{skill.name}'",
            )
        )
    if skill.description is None or skill.manual is None:
        missing = [key for key in ("description", "manual") if getattr(skill, key) is None]
        table.found.append(
            Diagnostic(
                table.display,
                line,
                1,
                "S017",
                f"skill '{skill.name}' is defined by no "
                f"source file, so it needs {' and '.join(missing)}",
            )
        )
        return None
    return Entry(
        skill.name,
        "skill",
        skill.description,
        skill.manual,
        skill.group,
        skill.short,
        table.display,
        line,
    )


def _override(table: _Catalogue, skill: Skill, line: int, candidates: list[Entry]) -> Entry:
    """The file a `[[skills]]` override applies to: the first, or the one its source names."""
    if skill.description is not None:
        table.found.append(
            Diagnostic(
                table.display,
                line,
                1,
                "S017",
                f"skill '{skill.name}' is defined by "
                f"{candidates[0].source}; edit the description in its front matter",
            )
        )
    if skill.source is None:
        return candidates[0]
    picked = [c for c in candidates if c.origin == normalise(skill.source)]
    if picked:
        return picked[0]
    table.found.append(
        Diagnostic(
            table.display,
            line,
            1,
            "C005",
            f"skill '{skill.name}' names source '{skill.source}', which does not define it",
        )
    )
    return candidates[0]


def _report_duplicates(
    table: _Catalogue, by_name: dict[str, list[Entry]], chosen: dict[str, Entry]
) -> None:
    """S012 for every file after the first that defines a name; the first wins."""
    for name, candidates in by_name.items():
        first = candidates[0]
        for other in candidates[1:]:
            table.found.append(
                Diagnostic(
                    other.source,
                    other.line,
                    1,
                    "S012",
                    f"{other.kind} '{name}' is also defined "
                    f"by {first.source}; rename one, or pick one with a [[skills]] entry "
                    f"(name = '{name}', source = '<its [[sources]] path>') in {table.display}",
                )
            )
        chosen.setdefault(name, first)


def _sort_into_index(table: _Catalogue, chosen: dict[str, Entry], result: SkillSet) -> None:
    """The entries in name order, the omitted apart; S013, C005 and C006 on what is left over."""
    catalogue, display = table.model, table.display
    for name in catalogue.omit:
        if name not in chosen:
            table.found.append(
                Diagnostic(
                    display,
                    locate(table.text, ("omit", name)),
                    1,
                    "C005",
                    f"omit names '{name}', which no source or [[skills]] entry defines",
                )
            )
    for name in sorted(chosen):
        entry = chosen[name]
        if name in catalogue.omit:
            result.omitted.append(entry)
            continue
        if entry.group is None:
            table.found.append(
                Diagnostic(
                    entry.source,
                    entry.line,
                    1,
                    "S013",
                    f"{entry.kind} '{name}' is in no task "
                    f"group; give its [[sources]] a group, add a [[skills]] entry with one, or "
                    f"list it under [omit] in {display}",
                )
            )
        result.entries.append(entry)
    used = {entry.group for entry in result.entries}
    for index, task_group in enumerate(catalogue.groups):
        if task_group.id not in used:
            table.found.append(
                Diagnostic(
                    display,
                    locate(table.text, ("groups", index)),
                    1,
                    "C006",
                    f"task group '{task_group.id}' has no skills or commands",
                )
            )
