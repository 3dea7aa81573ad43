"""Helpers of the tests that feed the CLI broken sources: a file validated from outside the
repository, a catalogue file, the tree of a folder, a build that must be refused, and a
path that `os.open` or `os.scandir` refuses.

The tests run as root in CI, where `chmod 000` does not stop a read: unreadable files are
simulated with a FIFO, a directory or a dangling link in place of a file, or by making
`os.open` / `os.scandir` raise `PermissionError` for one path (`deny`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import (
    Position,
    Result,
    run_findings,
)
from tests.support.harnesses import harness_override
from tests.support.repository import outside
from tests.support.text import write

Cli = Callable[..., Result]
HOOKS_PATH = "`catalog/hooks.toml`"


def check_outside(project: Path, cli: Cli, content: str | bytes) -> list[Position]:
    """Validate `content` as a file outside the repository; every finding must be about it."""
    path = write(outside(project) / "draft.md", content)
    found = run_findings(cli, "validate", str(path))
    assert {f.path for f in found} <= {path.as_posix()}, found
    return [f.position for f in found]


def catalog(project: Path, name: str) -> Path:
    """A catalogue file; `harnesses.toml` is the override, made a full copy of the built-in."""
    if name == "harnesses.toml":
        return harness_override(project)
    return project / "catalog" / name


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def assert_build_refused(project: Path, cli: Cli) -> None:
    """A build over broken sources exits 1 and leaves the generated folder as it was."""
    before = tree(project / "generated")
    result = cli("build")
    assert result.code == 1, result.out + result.err
    assert "Traceback" not in result.err
    assert tree(project / "generated") == before
    assert not [p for p in project.rglob(".*") if p.suffix in (".tmp", ".bak")]


def deny(monkeypatch: pytest.MonkeyPatch, module: object, name: str, suffix: str) -> None:
    """Make `module.name` (os.open, os.scandir, ...) raise EACCES for paths ending in `suffix`."""
    real = getattr(module, name)

    def denied(path: str | os.PathLike[str] | int = ".", *args: object, **kwargs: object) -> object:
        if not isinstance(path, int) and os.fsdecode(path).rstrip("/").endswith(suffix):
            raise PermissionError(13, "Permission denied", os.fsdecode(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(module, name, denied)
