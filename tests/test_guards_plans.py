"""The plan guards: writes and state-changing commands that the plan in force does not name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.guards import bash, claude_edit, claude_write, codex_patch, git_project, run

WRITE = "pretooluse-write-plan-guard"
BASH = "pretooluse-bash-plan-guard"
PLAN = """# Plan: release 2.4

1. Change `src/billing/invoice.py` to round per line.
2. Tests under tests/billing/ for the rounding.
3. Update docs/ where rounding is described.
4. Then `git push` the branch.
"""


def test_uncovered_write_fires_and_names_the_plan(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"PLAN.md": PLAN})
    expected = {"path": "src/billing/tax.py", "plan": "PLAN.md"}
    assert run(WRITE, claude_write(root, str(root / "src/billing/tax.py"), "x\n")) == expected
    patch = "*** Begin Patch\n*** Add File: src/billing/tax.py\n+x\n*** End Patch"
    assert run(WRITE, codex_patch(root, patch)) == expected
    # A mention of one file under src/ does not cover the folder src/.
    assert run(WRITE, claude_write(root, "src/other.py", "x\n")) == {
        "path": "src/other.py",
        "plan": "PLAN.md",
    }


@pytest.mark.parametrize(
    "path",
    [
        "src/billing/invoice.py",  # named exactly
        "tests/billing/test_round.py",  # parent folder named with a slash
        "docs/rounding/intro.md",  # grandparent folder named
        "PLAN.md",  # the plan itself
        ".hookmsg/compaction-note.md",  # the notes file
    ],
)
def test_covered_and_exempt_writes_are_silent(tmp_path: Path, path: str) -> None:
    root = git_project(tmp_path / "p", {"PLAN.md": PLAN, "src/billing/invoice.py": "x\n"})
    assert run(WRITE, claude_write(root, path, "y\n")) is None


def test_no_plan_or_outside_the_project_is_silent(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p")
    assert run(WRITE, claude_write(root, "src/x.py", "x\n")) is None
    planned = git_project(tmp_path / "q", {"docs/plan.md": PLAN})
    (tmp_path / "out").mkdir()
    assert run(WRITE, claude_write(planned, str(tmp_path / "out" / "x.py"), "x\n")) is None
    assert run(WRITE, claude_edit(planned, "lib/x.py", "a", "b")) == {
        "path": "lib/x.py",
        "plan": "docs/plan.md",
    }


def test_first_uncovered_change_is_reported(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"plan.md": PLAN})
    patch = (
        "*** Begin Patch\n*** Add File: src/billing/invoice.py\n+x\n"
        "*** Add File: lib/a.py\n+a\n*** Add File: lib/b.py\n+b\n*** End Patch"
    )
    assert run(WRITE, codex_patch(root, patch)) == {"path": "lib/a.py", "plan": "plan.md"}


@pytest.mark.parametrize(
    "command",
    [
        "git push --force origin main",
        "git tag v2.4.0",
        "git branch -D old",
        "npm install left-pad",
        "pip install requests",
        "rm -rf build/",
        "cd x && mv a b",
        "npm run deploy",
    ],
)
def test_state_changing_commands_outside_the_plan_fire(tmp_path: Path, command: str) -> None:
    root = git_project(tmp_path / "p", {"PLAN.md": PLAN})
    found = run(BASH, bash(root, command))
    assert found is not None
    assert (found["command"], found["plan"]) == (command, "PLAN.md")
    assert found["action"]


@pytest.mark.parametrize(
    "command",
    ["git push origin feature", "git status", "ls -la", "git tag -l", "pytest -q", "cat x"],
)
def test_read_only_or_planned_commands_are_silent(tmp_path: Path, command: str) -> None:
    root = git_project(tmp_path / "p", {"PLAN.md": PLAN})
    assert run(BASH, bash(root, command)) is None


def test_bash_plan_needs_a_plan_and_caps_the_command(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p")
    assert run(BASH, bash(root, "git push --force")) is None
    planned = git_project(tmp_path / "q", {".hookmsg/plan.md": "Nothing about pushing.\n"})
    long = "git push origin " + "x" * 500
    found = run(BASH, bash(planned, long, tool="PowerShell"))
    assert found is not None and found["plan"] == ".hookmsg/plan.md"
    assert found["command"].startswith("git push origin x") and len(found["command"]) <= 160
