"""The Bindings path rules (`messages/rules/bindings.py`, `messages/referenced.py`): a
backticked path out of the repository is B012 and is never opened.

Each case runs the CLI in-process on a throw-away copy of the mini fixture project (the
`project` fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.message import VALID
from tests.support.sources import (
    HOOKS_PATH,
    Cli,
    check_outside,
)
from tests.support.text import replace, write

# =========================================================================== backticked paths


@pytest.fixture
def project(mini_project: Path) -> Path:
    """A built copy of the mini fixture project, not of this repository's catalogue."""
    return mini_project


@pytest.mark.parametrize(
    "path",
    [
        "../outside.md",
        "/etc/passwd",
        "~/outside.md",
        "messages/../../outside.md",
        "./../outside.md",
    ],
)
def test_backticked_path_out_of_the_repository_is_b012_and_never_opened(
    project: Path, cli: Cli, opened: list[str], path: str
) -> None:
    target = write(project.parent / "outside.md", VALID)
    text = replace(VALID, HOOKS_PATH, f"`{path}`")
    opened.clear()
    assert check_outside(project, cli, text) == [(10, 25, "B012")]
    assert os.path.realpath(target) not in opened
    assert "/etc/passwd" not in opened


def test_backticked_path_through_a_link_out_of_the_repository_is_b012(
    project: Path, cli: Cli, opened: list[str]
) -> None:
    target = write(project.parent / "outside" / "notes.md", VALID)
    (project / "docs").symlink_to(target.parent, target_is_directory=True)
    (project / "notes.md").symlink_to(target)
    opened.clear()
    for path in ("docs/notes.md", "notes.md"):
        text = replace(VALID, HOOKS_PATH, f"`{path}`")
        assert check_outside(project, cli, text) == [(10, 25, "B012")], path
    assert os.path.realpath(target) not in opened


def test_backticked_path_that_wanders_but_stays_inside_is_fine(project: Path, cli: Cli) -> None:
    text = replace(VALID, HOOKS_PATH, "`messages/../catalog/./hooks.toml`")
    assert check_outside(project, cli, text) == []
