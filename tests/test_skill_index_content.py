"""What this repository's skill index tells the model.

Read from the committed catalogue, skill and command files and index, independently of
hookmsg (the front matter with PyYAML).
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import yaml

from tests.support.repository import REPO

CATALOGUE = tomllib.loads((REPO / "catalog/skills.toml").read_text(encoding="utf-8"))


def _front(path: Any) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n"), path
    data = yaml.safe_load(text[4:].split("\n---\n", 1)[0])
    assert isinstance(data, dict), path
    return data


def _entries() -> list[dict[str, Any]]:
    """Every skill and command file, as the index should list it."""
    found = []
    for path in sorted((REPO / "catalog/skills").glob("*/SKILL.md")):
        data = _front(path)
        short = (data.get("metadata") or {}).get("short-description")
        manual = data.get("disable-model-invocation") is True
        found.append(
            {"name": data["name"], "description": data["description"], "manual": manual}
            | ({"short": short} if short else {})
        )
    for path in sorted((REPO / "catalog/commands").glob("*.md")):
        description = _front(path)["description"]
        found.append({"name": path.stem, "description": description, "manual": True})
    return found


ENTRIES = _entries()
INDEX = (REPO / "generated/skill-index.md").read_text(encoding="utf-8")
DELIVERED = INDEX.split("\n", 1)[1].split("\n## Bindings", 1)[0].strip()
PREFIX = f"/{CATALOGUE['namespace']}:"
GROUP_LINE = re.compile(r"^- \*\*(?P<title>[^*]+)\*\* \((?P<hint>[^)]+)\): (?P<entries>.+)$")
COMPACTION_NOTE = ".hookmsg/compaction-note.md"


def group_lines() -> dict[str, str]:
    found = {}
    for line in DELIVERED.split("\n"):
        if line.startswith("- **"):
            match = GROUP_LINE.match(line)
            assert match is not None, f"a group line without its task hint: {line}"
            found[match["title"]] = match["entries"]
    return found


def test_every_group_has_a_task_hint_and_lists_slash_commands_first() -> None:
    lines = group_lines()
    assert list(lines) == [group["title"] for group in CATALOGUE["groups"]]
    for title, entries in lines.items():
        items = [item for part in entries.split("; ") for item in part.split(", ")]
        manual = [i for i, item in enumerate(items) if item.startswith(PREFIX)]
        assert manual == list(range(len(manual))), f"{title}: a skill before a slash command"


def test_every_model_invoked_skill_carries_a_short_note() -> None:
    for skill in ENTRIES:
        if not skill["manual"]:
            assert skill.get("short"), skill["name"]
            assert f"{skill['name']} ({skill['short']})" in DELIVERED


def test_the_index_lists_exactly_the_skill_and_command_files_and_no_tooling_commands() -> None:
    listed = {
        item.split(" (", 1)[0].removeprefix(PREFIX)
        for entries in group_lines().values()
        for part in entries.split("; ")
        for item in part.split(", ")
    }
    assert listed == {entry["name"] for entry in ENTRIES}
    assert 8 <= len(ENTRIES) <= 12
    # Nothing in the index runs this pipeline's own maintenance commands for the user.
    for name in listed:
        assert name not in ("validate", "preview", "check", "build", "package"), name


def test_the_opening_line_speaks_to_the_model_about_the_user() -> None:
    opening = DELIVERED.split("\n", 1)[0]
    assert "the user types" in opening
    # Not an instruction to the user ("Type a slash command to run it").
    assert not opening.startswith(("Type", "Run"))


def test_the_compaction_pair_names_one_note_file_and_no_stop_duplicate() -> None:
    described = {skill["name"]: skill["description"] for skill in ENTRIES}
    assert COMPACTION_NOTE in described["compaction-checkpoint"]
    assert COMPACTION_NOTE in described["recover-after-compaction"]
    assert "/compact" in described["compaction-checkpoint"]
    # The stop message verifies and reports at every end of turn; no skill repeats it.
    assert "finish-session-cleanly" not in described
