"""What the renderers read, and what the rules on rendered outputs read: model types.

`SkillIndex` is the rendered skill index with the facts measured on its text. `LoadedProject`
(below) is everything a renderer receives: the project, a fully loaded catalogue with no
optional part, and every message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookmsg.catalogue.models import HarnessCatalogue, HookRegistry, SkillCatalogue
from hookmsg.catalogue.skill_entry import SkillSet
from hookmsg.inputs.paths import real, resolve_inside
from hookmsg.messages.message import Message
from hookmsg.project.settings import Project
from hookmsg.vocabulary import CROSS_BOUND

# The generated skill index: a message too, checked by the message rules.
SKILL_INDEX = "skill-index"
SKILL_INDEX_FILE = "skill-index.md"


# The forms of the index an install can deliver, by the message file that holds each:
# "plugin" (slash commands as /<namespace>:<name>, the Claude Code plugin), "engine" (the
# same without the prefix), "skills" (skills only, for a harness that loads no commands).
INDEX_FILES = {
    "plugin": SKILL_INDEX,
    "engine": "skill-index-engine",
    "skills": "skill-index-skills",
}


@dataclass(frozen=True)
class SkillIndex:
    """The plugin-form file text, the other forms' texts, and each form's delivered size."""

    text: str
    engine_text: str
    plugin_size: int
    engine_size: int
    group_lines: tuple[tuple[str, str], ...]
    prefix: str
    skills_text: str = ""
    skills_size: int = 0
    skills_groups: tuple[tuple[str, str], ...] = ()

    def form_text(self, form: str) -> str:
        """The file text of one form (see INDEX_FILES)."""
        return {"plugin": self.text, "engine": self.engine_text, "skills": self.skills_text}[form]

    def sizes(self) -> dict[str, int]:
        """Each form's delivered characters, as the harness receiving it counts them."""
        return {"plugin": self.plugin_size, "engine": self.engine_size, "skills": self.skills_size}

    def largest_groups(
        self, count: int, *, engine: bool = False, form: str | None = None
    ) -> list[tuple[str, int]]:
        """The largest group lines, in characters, of the plugin (or engine, or skills) form."""
        if form == "skills":
            sizes = [(title, len(line)) for title, line in self.skills_groups]
        else:
            engine = engine or form == "engine"
            sizes = [
                (title, len(line.replace(self.prefix, "/") if engine else line))
                for title, line in self.group_lines
            ]
        return sorted(sizes, key=lambda item: (-item[1], item[0]))[:count]


@dataclass(frozen=True)
class LoadedCatalogue:
    """Every part of the catalogue, loaded: what renderers receive, with no optional part."""

    registry: HookRegistry
    harnesses: HarnessCatalogue
    skills: SkillCatalogue
    # The skill catalogue's entries, read from its sources and merged with its TOML.
    entries: SkillSet
    # Each message's condition from its guard file (detector and data), verbatim.
    conditions: Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class LoadedProject:
    """Everything a renderer reads: the project, the loaded catalogue and every message."""

    project: Project
    catalogue: LoadedCatalogue
    # Authored messages by name; the generated skill index, and its text parsed as one.
    authored: Mapping[str, Message]
    skill_index: SkillIndex
    skill_index_message: Message

    def all_messages(self) -> dict[str, Message]:
        """Authored messages and the generated skill index, by name."""
        return {**self.authored, SKILL_INDEX: self.skill_index_message}

    def cross_bindings(self) -> list[tuple[str, str]]:
        """Every pair of messages that name each other (or one the other), sorted, once."""
        messages = self.all_messages()
        by_path = {Path(real(str(m.path))): name for name, m in messages.items()}
        pairs: set[tuple[str, str]] = set()
        for name, message in messages.items():
            for binding in message.bindings:
                if binding.direction != CROSS_BOUND:
                    continue
                for span in binding.code_spans:
                    target = resolve_inside(self.project.root, span.text)
                    other = by_path.get(target) if target is not None else None
                    if other is not None and other != name:
                        pairs.add((min(name, other), max(name, other)))
        return sorted(pairs)
