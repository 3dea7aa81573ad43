"""doit reruns the skill index when a sourced SKILL.md changes, appears or disappears.

A folder cannot be a doit file dependency, so dodo.py lists the sourced files at load
time: each is a file_dep, and the sorted list is part of the tasks' configuration.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.doit import doit, rewrite
from tests.support.repository import WITH_DODO, copy_repository
from tests.support.text import write

pytestmark = pytest.mark.slow

SKILL = "---\nname: {name}\ndescription: Use it when the task is {name}.\n---\nBody.\n"


@pytest.fixture
def built(tmp_path: Path) -> Path:
    root = copy_repository(tmp_path / "repo", WITH_DODO)
    with (root / "catalog/skills.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[[sources]]\nkind = "skills"\npath = "skills"\ngroup = "hooks"\n')
    write(root / "skills/tidy-imports/SKILL.md", SKILL.format(name="tidy-imports"))
    first = doit(root)
    assert first.code == 0, first.output
    assert "tidy-imports" in (root / "generated/skill-index.md").read_text("utf-8")
    second = doit(root)
    assert second.ran == set(), second.output
    return root


def index(root: Path) -> str:
    return (root / "generated/skill-index.md").read_text(encoding="utf-8")


def test_editing_front_matter_reruns_the_index(built: Path) -> None:
    path = built / "skills/tidy-imports/SKILL.md"
    rewrite(path, path.read_text("utf-8").replace("description: Use", "description: Now use"))
    again = doit(built)
    assert again.code == 0, again.output
    assert {"validate", "skill_index", "inventory"} <= again.ran, again.output
    assert "advisories" in again.up_to_date, again.output


def test_adding_a_skill_folder_reruns_the_index(built: Path) -> None:
    write(built / "skills/sort-imports/SKILL.md", SKILL.format(name="sort-imports"))
    again = doit(built)
    assert again.code == 0, again.output
    assert "skill_index" in again.ran, again.output
    assert "sort-imports" in index(built)
    assert doit(built, "check").code == 0


def test_deleting_a_skill_folder_reruns_the_index(built: Path) -> None:
    shutil.rmtree(built / "skills/tidy-imports")
    again = doit(built)
    assert again.code == 0, again.output
    assert "skill_index" in again.ran, again.output
    assert "tidy-imports" not in index(built)
    assert doit(built, "check").code == 0


def test_a_broken_skill_fails_doit_and_leaves_the_index_alone(built: Path) -> None:
    before = index(built)
    rewrite(built / "skills/tidy-imports/SKILL.md", "---\nname: tidy-imports\n")
    again = doit(built)
    assert again.code != 0
    assert "skills/tidy-imports/SKILL.md:1:1: S002" in again.output
    assert index(built) == before
