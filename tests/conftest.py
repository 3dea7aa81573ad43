"""Shared fixtures: a throw-away copy of this repository, and the CLI run in-process."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from hookmsg.cli import run

REPO = Path(__file__).resolve().parent.parent
COPIED = ("pyproject.toml", "messages", "catalog", "generated")


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


@pytest.fixture(autouse=True)
def _private_check_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Each test gets its own fast-check cache (subprocesses inherit it through the env)."""
    folder = tmp_path_factory.mktemp("check-cache")
    monkeypatch.setenv("HOOKMSG_CACHE_DIR", str(folder))
    monkeypatch.delenv("HOOKMSG_NO_CACHE", raising=False)
    return folder


def copy_repository(root: Path, names: tuple[str, ...] = COPIED) -> Path:
    """Copy `names` (default: sources, catalogue, outputs, configuration) of this repository."""
    root.mkdir()
    for name in names:
        source = REPO / name
        if source.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
            shutil.copytree(source, root / name, ignore=ignore)
        else:
            shutil.copy2(source, root / name)
    return root


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of this repository's sources and outputs; the working directory is inside it."""
    root = copy_repository(tmp_path / "repo")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    """Run `hookmsg ARGS` in-process through `run(argv)`; return code, stdout, stderr."""

    def invoke(*argv: str) -> Result:
        capsys.readouterr()
        code = run(list(argv))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return invoke
