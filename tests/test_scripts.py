"""The maintainer scripts under scripts/: the skill-index command and the benchmark."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repository import REPO, WITH_DODO, copy_repository

pytestmark = pytest.mark.slow

SCRIPTS = REPO / "scripts"


def _run(
    script: str, *args: str, cwd: Path, scripts: Path = SCRIPTS, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(scripts / script), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_COLOR": "1", **env},
        timeout=600,
    )


def test_generate_skill_index_checks_and_renders_through_the_library(tmp_path: Path) -> None:
    root = copy_repository(tmp_path / "repo")
    index = root / "generated" / "skill-index.md"
    committed = index.read_bytes()

    assert _run("generate_skill_index.py", "--check", cwd=root).returncode == 0
    index.write_bytes(committed.replace(b"Slash commands", b"Slash-commands"))
    drifted = _run("generate_skill_index.py", "--check", cwd=root)
    assert drifted.returncode == 1
    assert "generated/skill-index.md:1:1: G002" in drifted.stdout
    assert index.read_bytes() != committed  # --check never writes

    assert _run("generate_skill_index.py", cwd=root).returncode == 0
    assert index.read_bytes() == committed


def test_benchmark_runs_on_a_tiny_corpus(tmp_path: Path) -> None:
    # The benchmark measures the repository it sits in, doit state and all: run a copy of
    # it (script included) so that nothing lands in this checkout; its bytecode too.
    root = copy_repository(tmp_path / "repo", WITH_DODO)
    pycache = str(tmp_path / "pycache")
    args = ("--repeat", "1", "--sizes", "4,8")
    done = _run("bench.py", *args, cwd=root, scripts=root / "scripts", PYTHONPYCACHEPREFIX=pycache)
    assert done.returncode == 0, done.stdout + done.stderr
    figures = (
        "cached hookmsg check vs cog --check",
        "no-op doit",
        "validation per message",
        "validate 8 vs 4",
    )
    figures += (
        "dispatcher PreToolUse Write, guards silent",
        "dispatcher PreToolUse Write, two guards fire",
        "dispatcher SessionStart with the skill index",
    )
    for figure in figures:
        assert figure in done.stdout
    assert "ratio" in done.stdout
    cpu_lines = [line for line in done.stdout.splitlines() if "the same, CPU time" in line]
    assert cpu_lines
    # With valgrind the instructions are judged and the load-bound CPU times only reported.
    verdict = "reported" if shutil.which("valgrind") else ("ok", "MISSED")
    assert all(line.endswith(verdict) for line in cpu_lines), cpu_lines


def test_generate_skill_index_outside_the_environment_says_what_to_run(tmp_path: Path) -> None:
    # -S: no site-packages, as with a system Python that lacks the dependencies.
    done = subprocess.run(
        [sys.executable, "-S", str(SCRIPTS / "generate_skill_index.py"), "--check"],
        cwd=copy_repository(tmp_path / "repo"),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert ".venv/bin/python scripts/generate_skill_index.py" in done.stderr
