"""`skill-index.md`: one line per task group, rendered from the catalogue's entries."""

from __future__ import annotations

from collections.abc import Sequence

from hookmsg.catalogue.models import SkillCatalogue
from hookmsg.catalogue.skill_entry import Entry
from hookmsg.messages.message import parse_text
from hookmsg.project.settings import Project
from hookmsg.render.loaded import SkillIndex
from hookmsg.render.templates import render


def _delivered_size(text: str, licence_line: str) -> int:
    return len(parse_text(text, licence_line).delivered)


def group_line(title: str, hint: str | None, members: Sequence[Entry], prefix: str) -> str:
    """`- **Title** (hint): /ns:command, ...; skill (short), ...`: manual entries first."""
    manual = sorted((e for e in members if e.manual), key=lambda e: e.name)
    invoked = sorted((e for e in members if not e.manual), key=lambda e: e.name)
    parts = []
    if manual:
        parts.append(", ".join(f"{prefix}{e.name}" for e in manual))
    if invoked:
        parts.append(", ".join(f"{e.name} ({e.short})" if e.short else e.name for e in invoked))
    head = f"- **{title}**" + (f" ({hint})" if hint else "")
    return f"{head}: " + "; ".join(parts)


def _render(
    skills: SkillCatalogue, entries: Sequence[Entry], project: Project, prefix: str
) -> tuple[str, list[tuple[str, str]]]:
    """One form's file text and its `(title, line)` per group, from `entries`."""
    groups = []
    for group in skills.groups:
        members = [e for e in entries if e.group == group.id]
        if members:
            groups.append((group.title, group_line(group.title, group.hint, members, prefix)))
    cross_bound = [
        {"path": project.relative(project.messages_dir / f"{name}.md"), "reason": reason}
        for name, reason in sorted(skills.cross_bound.items())
    ]
    text = render(
        "skill-index.md.j2",
        licence_line=project.settings.licence_line,
        manual=any(e.manual for e in entries),
        group_lines=[line for _, line in groups],
        skills_path=project.relative(project.catalog_file("skills.toml")),
        hooks_path=project.relative(project.catalog_file("hooks.toml")),
        sourced=bool(skills.sources),
        cross_bound=cross_bound,
    )
    return text, groups


def render_skill_index(
    skills: SkillCatalogue, entries: Sequence[Entry], project: Project
) -> SkillIndex:
    prefix = f"/{skills.namespace}:"
    licence_line = project.settings.licence_line
    text, groups = _render(skills, entries, project, prefix)
    # The engine install strips the plugin namespace from every slash command.
    engine_text = text.replace(prefix, "/")
    # A harness that loads skills but no commands receives the skills alone.
    only_skills = [e for e in entries if e.kind == "skill"]
    skills_text, skills_groups = _render(skills, only_skills, project, "/")
    return SkillIndex(
        text=text,
        engine_text=engine_text,
        plugin_size=_delivered_size(text, licence_line),
        engine_size=_delivered_size(engine_text, licence_line),
        group_lines=tuple(groups),
        prefix=prefix,
        skills_text=skills_text,
        skills_size=_delivered_size(skills_text, licence_line),
        skills_groups=tuple(skills_groups),
    )
