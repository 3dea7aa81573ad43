"""`inputs/doit_state`: a corrupt doit state file (random bytes, truncated, a valid header
over garbage, a folder where sqlite keeps its journal) costs only a rebuild, through doit's
real command line in a copy of the repository; the state and its sidecars are ignored by git.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.repository import REPO, WITH_DODO, copy_repository, files_under, leftovers

STATE = ".doit.db"


def doit(root: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "doit"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )


def ran(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line[2:].strip() for line in result.stdout.split("\n") if line.startswith(". ")]


@pytest.fixture
def doit_repo(tmp_path: Path) -> Path:
    root = copy_repository(tmp_path / "repo", WITH_DODO)
    committed = files_under(root / "generated")
    first = doit(root)
    assert first.returncode == 0, first.stdout
    assert (root / STATE).is_file()
    assert files_under(root / "generated") == committed, "the committed outputs are up to date"
    return root


def _random_bytes(path: Path) -> None:
    size = max(path.stat().st_size, 4096)
    path.write_bytes(random.Random(5).randbytes(size))


def _truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _header_over_garbage(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:100] + random.Random(6).randbytes(len(data) - 100))


def _empty(path: Path) -> None:
    path.write_bytes(b"")


@pytest.mark.parametrize(
    "corrupt",
    [_random_bytes, _truncated, _header_over_garbage, _empty],
    ids=["random-bytes", "truncated", "header-over-garbage", "empty"],
)
def test_corrupt_doit_state_costs_only_a_rebuild(
    doit_repo: Path, corrupt: Callable[[Path], None]
) -> None:
    committed = files_under(doit_repo / "generated")
    corrupt(doit_repo / STATE)
    again = doit(doit_repo)
    assert again.returncode == 0, again.stdout
    assert "Traceback" not in again.stdout
    assert files_under(doit_repo / "generated") == committed
    assert leftovers(doit_repo) == []
    quiet = doit(doit_repo)
    assert quiet.returncode == 0, quiet.stdout
    assert ran(quiet) == [], "the rebuilt state file is usable: nothing runs twice"


@pytest.mark.parametrize("side", ["-journal", "-wal", "-shm"])
def test_a_folder_where_sqlite_keeps_its_journal_is_one_finding(doit_repo: Path, side: str) -> None:
    """A folder named like the state file's journal (an older hookmsg let `generated` take
    that name) stops `doit` with K003 and how to fix it, never with a traceback."""
    folder = doit_repo / f"{STATE}{side}"
    folder.mkdir()
    refused = doit(doit_repo)
    assert refused.returncode == 2, refused.stdout
    assert f"{STATE}{side}:1:1: K003 " in refused.stdout and "remove it" in refused.stdout
    assert "Traceback" not in refused.stdout
    folder.rmdir()
    again = doit(doit_repo)
    assert again.returncode == 0, again.stdout
    assert ran(again) == []


def _ignored(paths: list[str]) -> list[str]:
    """The paths (relative to the repository root) that git ignores."""
    result = subprocess.run(
        ["git", "-C", str(REPO), "check-ignore", "--no-index", "--stdin"],
        input="\n".join(paths) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    return result.stdout.split()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_doit_state_and_its_sqlite_sidecars_are_ignored_by_git() -> None:
    # sqlite keeps a rollback journal (or a WAL and its index) beside the database
    # while it writes; a doit run that is killed leaves it behind.
    lines = (REPO / ".gitignore").read_text(encoding="utf-8").split("\n")
    assert STATE in lines
    paths = [STATE, f"{STATE}-journal", f"{STATE}-wal", f"{STATE}-shm"]
    assert _ignored(paths) == paths
