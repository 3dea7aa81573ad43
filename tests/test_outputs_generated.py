"""Writing and comparing the generated folder (`outputs/generated.py`): a file that cannot
be read or a FIFO in its place is a finding, never a traceback nor a hang.

Each case runs the CLI in-process on a throw-away copy of the repository (the `project`
fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

import builtins
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.sources import (
    Cli,
    deny,
    tree,
)

# =========================================================================== generated folder


def test_generated_file_without_permission_is_a_finding_not_a_traceback(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = tree(project)
    real_io_open = io.open

    def io_open(file: object, *args: object, **kwargs: object) -> object:
        if isinstance(file, str | os.PathLike) and os.fspath(file).endswith(
            "generated/advisories.json"
        ):
            raise PermissionError(13, "Permission denied", os.fspath(file))
        return real_io_open(file, *args, **kwargs)  # type: ignore[call-overload]

    with monkeypatch.context() as patch:
        deny(patch, os, "open", "generated/advisories.json")
        patch.setattr(io, "open", io_open)
        patch.setattr(builtins, "open", io_open)
        result = cli("check")  # must return, not raise
    assert result.code == 1, result.out + result.err
    assert "generated/advisories.json" in result.out + result.err
    assert "Traceback" not in result.err
    assert tree(project) == before


@pytest.mark.slow
def test_fifo_in_the_generated_folder_does_not_hang_the_check(project: Path) -> None:
    # A FIFO opened for reading blocks until someone writes: the check must not open
    # it blindly. Run in a subprocess; the timeout only turns a hang into a failure.
    path = project / "generated" / "advisories.json"
    path.unlink()
    os.mkfifo(path)
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    try:
        result = subprocess.run(
            [sys.executable, "-c", "from hookmsg.cli.main import main; main()", "check"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=15,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("`hookmsg check` hangs on a FIFO in the generated folder")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "generated/advisories.json" in result.stdout
    assert "Traceback" not in result.stderr
