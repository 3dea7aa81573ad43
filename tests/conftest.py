"""Shared fixtures: a throw-away copy of this repository or of the mini fixture project, and
the CLI run in-process.

Plain helpers live in the `tests.support` package; this file holds only fixtures, and a
session-wide check that no test writes into the checkout.
"""

from __future__ import annotations

import builtins
import io
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hookmsg.cli.main import run
from tests.support.diagnostics import Result
from tests.support.repository import (
    MINI,
    REPO,
    changed_paths,
    checkout_stamps,
    copy_repository,
)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """An end-to-end test is a slow one too: `pytest -m "not slow"` replaces the `-m 'not
    e2e'` of addopts (the last `-m` wins), and must still leave the real clients out."""
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.slow)


# Variables that change what hookmsg prints (format, colour) or how text is decoded.
# Each test starts without them, so the suite passes the same on a laptop, in a dumb
# terminal, under a non-UTF-8 locale and on GitHub's runners (`.ci/run` runs part of it
# again with them set); tests that are about them set them on purpose.
OUTPUT_CHANGING = ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR", "TERM", "HOOKMSG_STRICT")


@pytest.fixture(autouse=True)
def _neutral_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in OUTPUT_CHANGING:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PYTHONUTF8", "1")  # child Pythons read and write UTF-8 under any locale


@pytest.fixture(autouse=True)
def _private_check_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Each test gets its own fast-check cache (subprocesses inherit it through the env)."""
    folder = tmp_path_factory.mktemp("check-cache")
    monkeypatch.setenv("HOOKMSG_CACHE_DIR", str(folder))
    monkeypatch.delenv("HOOKMSG_NO_CACHE", raising=False)
    return folder


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of this repository's sources and outputs; the working directory is inside it."""
    root = copy_repository(tmp_path / "repo")
    monkeypatch.chdir(root)
    return root


@pytest.fixture(scope="session")
def built_mini(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mini fixture project, built once per session (read it, never change it).

    Its outputs are what `package`, `install` and the budget rule read. It lacks the
    fixture's three added harnesses: the rules are tried on hookmsg's built-in ones, which
    a test copies into an override file to edit them (`support.harnesses.harness_override`).
    """
    root = tmp_path_factory.mktemp("built") / "mini"
    shutil.copytree(MINI, root)
    (root / "catalog" / "harnesses.toml").unlink()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        patch.setenv("HOOKMSG_NO_CACHE", "1")  # before any test's private cache exists
        assert run(["build"]) == 0
    return root


@pytest.fixture
def mini_project(built_mini: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the built mini project, for the rule tests: never this repository's own
    catalogue, so that editing a shipped message, guard or skill moves no test. The
    working directory is its root."""
    root = tmp_path / "mini"
    shutil.copytree(built_mini, root, symlinks=True)
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def mini(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh copy of the mini fixture project (`tests/fixtures/mini/`, no generated
    folder); the working directory is its root."""
    root = tmp_path / "mini"
    shutil.copytree(MINI, root)
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


# `HOOKMSG_UPDATE_GOLDEN=1` rewrites these on purpose (see docs/tests.md).
GOLDEN = ("tests/golden", "tests/corpus")


@pytest.fixture(scope="session", autouse=True)
def _checkout_untouched() -> Iterator[None]:
    """Fail the run if any test added, removed or changed a path of this checkout.

    Tests work in copies (`project`, `copy_repository`); the checkout is read-only to
    them. Only the caches of the tools running the suite are exempt (bytecode, pytest's
    cache, hypothesis's database: `tests.support.repository.TOOL_CACHES`).
    """
    skip = GOLDEN if os.environ.get("HOOKMSG_UPDATE_GOLDEN") == "1" else ()
    before = checkout_stamps(REPO, skip)
    yield
    changed = changed_paths(before, checkout_stamps(REPO, skip))
    assert not changed, (
        f"the test run wrote into the checkout {REPO} (or someone edited it meanwhile): "
        + ", ".join(changed)
    )


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The real path of every file opened through os.open, io.open or open."""
    seen: list[str] = []
    real_os_open, real_io_open = os.open, io.open

    def record(path: object) -> None:
        if isinstance(path, str | bytes | os.PathLike):
            seen.append(os.path.realpath(os.fsdecode(path)))

    def os_open(path: object, *args: object, **kwargs: object) -> int:
        record(path)
        return real_os_open(path, *args, **kwargs)  # type: ignore[arg-type]

    def io_open(file: object, *args: object, **kwargs: object) -> object:
        record(file)
        return real_io_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(io, "open", io_open)
    monkeypatch.setattr(builtins, "open", io_open)
    return seen
