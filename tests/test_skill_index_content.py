"""What this repository's skill index tells the model (issue #14's skill index points).

Read from the committed catalogue and index, independently of hookmsg.
"""

from __future__ import annotations

import re
import tomllib

from tests.support.repository import REPO

CATALOGUE = tomllib.loads((REPO / "catalog/skills.toml").read_text(encoding="utf-8"))
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
    for skill in CATALOGUE["skills"]:
        if not skill["manual"]:
            assert skill.get("short"), skill["name"]
            assert f"{skill['name']} ({skill['short']})" in DELIVERED


def test_the_index_leaves_out_this_projects_own_tooling() -> None:
    assert "Hook messages" not in DELIVERED
    for skill in CATALOGUE["skills"]:
        # The compaction note's path is where the installed hooks keep it, not tooling.
        text = f"{skill['name']} {skill['description']}".replace(COMPACTION_NOTE, "").lower()
        for word in ("hookmsg", "hook message", "skill index", "catalog/"):
            assert word not in text, (skill["name"], word)


def test_the_opening_line_speaks_to_the_model_about_the_user() -> None:
    opening = DELIVERED.split("\n", 1)[0]
    assert "the user types" in opening
    # Not an instruction to the user ("Type a slash command to run it").
    assert not opening.startswith(("Type", "Run"))


def test_the_compaction_pair_names_one_note_file_and_no_stop_duplicate() -> None:
    described = {skill["name"]: skill["description"] for skill in CATALOGUE["skills"]}
    assert COMPACTION_NOTE in described["compaction-checkpoint"]
    assert COMPACTION_NOTE in described["recover-after-compaction"]
    assert "/compact" in described["compaction-checkpoint"]
    # The stop message verifies and reports at every end of turn; no skill repeats it.
    assert "finish-session-cleanly" not in described
