"""The published pre-commit hook, run by the real `pre-commit` in temporary git repositories.

The hook repository is a git repository holding this project; the project under test is
another one holding a copy of the messages, catalogue and outputs. pre-commit installs
the hook the way a user's machine would (a fresh environment, `pip install .`).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repository import copy_repository

HOOK_FILES = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "scripts")
PROJECT_FILES = ("pyproject.toml", "messages", "catalog", "generated")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("pre_commit") is None and shutil.which("pre-commit") is None,
        reason="the pre-commit executable is not installed (pip install -e '.[test]' brings it)",
    ),
]


def _git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def _pre_commit(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pre_commit"]
    if importlib.util.find_spec("pre_commit") is None:
        command = [shutil.which("pre-commit") or "pre-commit"]
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run(
        [*command, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_hook_passes_on_a_clean_tree_and_names_the_drifted_file(tmp_path: Path) -> None:
    hooks = copy_repository(tmp_path / "hookmsg", HOOK_FILES)
    _git(hooks, "init", "-q")
    _git(hooks, "add", "-A")
    _git(hooks, "commit", "-qm", "hookmsg")
    rev = _git(hooks, "rev-parse", "HEAD")

    project = copy_repository(tmp_path / "project", PROJECT_FILES)
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks.as_posix()}\n    rev: {rev}\n"
        "    hooks:\n      - id: hookmsg-check\n",
        encoding="utf-8",
    )
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "content")
    home = tmp_path / "pre-commit-home"

    clean = _pre_commit(project, home, "run", "--all-files")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "hookmsg check" in clean.stdout and "Passed" in clean.stdout

    stop = project / "messages" / "stop.md"
    stop.write_text(
        stop.read_text(encoding="utf-8").replace(
            "## Verify", "A new paragraph that changes the delivered size.\n\n## Verify", 1
        ),
        encoding="utf-8",
    )
    _git(project, "add", "messages/stop.md")
    drifted = _pre_commit(project, home, "run")
    assert drifted.returncode == 1, drifted.stdout + drifted.stderr
    assert "Failed" in drifted.stdout
    assert "generated/hook-message-inventory.md:1:1: G002" in drifted.stdout
    assert "hookmsg build" in drifted.stdout


def _consumer(tmp_path: Path, rev: str, hooks: Path) -> Path:
    """A content repository with a sourced skills folder and a Bindings-named file."""
    project = copy_repository(tmp_path / "consumer", PROJECT_FILES)
    skill = project / ".claude/skills/triage-logs/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: triage-logs\ndescription: Use when the task is reading logs.\n---\nBody.\n",
        encoding="utf-8",
    )
    with (project / "catalog/skills.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[[sources]]\nkind = "skills"\npath = ".claude/skills"\ngroup = "plan"\n')
    notes = project / "docs/notes.txt"
    notes.parent.mkdir()
    notes.write_text("notes\n", encoding="utf-8")
    stop = project / "messages/stop.md"
    stop.write_text(
        stop.read_text(encoding="utf-8").replace(
            "- **Cross-bound with ↔** ", "- **Cross-bound with ↔** `docs/notes.txt` (notes); ", 1
        ),
        encoding="utf-8",
    )
    built = subprocess.run(
        [
            sys.executable,
            "-c",
            "from hookmsg.cli.main import run; raise SystemExit(run(['build']))",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert "triage-logs" in (project / "generated/skill-index.md").read_text(encoding="utf-8")
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks.as_posix()}\n    rev: {rev}\n"
        "    hooks:\n      - id: hookmsg-check\n",
        encoding="utf-8",
    )
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "content")
    return project


def _commit(project: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """`git commit -a` with the hook installed the way a user installs it."""
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(home),
        "NO_COLOR": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    return subprocess.run(
        ["git", "commit", "-qam", "edit"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_hook_runs_for_sourced_skills_and_bindings_named_files(tmp_path: Path) -> None:
    hooks = copy_repository(tmp_path / "hookmsg", HOOK_FILES)
    _git(hooks, "init", "-q")
    _git(hooks, "add", "-A")
    _git(hooks, "commit", "-qm", "hookmsg")
    project = _consumer(tmp_path, _git(hooks, "rev-parse", "HEAD"), hooks)
    home = tmp_path / "pre-commit-home"
    installed = _pre_commit(project, home, "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    clean = _pre_commit(project, home, "run", "--all-files")
    assert clean.returncode == 0 and "Passed" in clean.stdout, clean.stdout + clean.stderr

    skill = project / ".claude/skills/triage-logs/SKILL.md"
    skill.write_text(skill.read_text(encoding="utf-8").replace("logs", "traces"), "utf-8")
    only_skill = _pre_commit(project, home, "run", "--files", str(skill.relative_to(project)))
    assert only_skill.returncode == 1, only_skill.stdout
    assert "Skipped" not in only_skill.stdout
    assert "generated/skill-index.md:1:1: G002" in only_skill.stdout
    committed = _commit(project, home)
    assert committed.returncode != 0, committed.stdout + committed.stderr
    assert "generated/skill-index.md" in committed.stdout + committed.stderr
    _git(project, "checkout", "--", ".claude")

    (project / "docs/notes.txt").unlink()
    gone = _commit(project, home)
    assert gone.returncode != 0, gone.stdout + gone.stderr
    assert "B009" in gone.stdout + gone.stderr
