"""Generated files are byte-identical across hash seeds, locales and working directories.

Two copies of this repository are built from scratch in separate processes, each
with a different PYTHONHASHSEED, locale, time zone and working directory (the root,
and a subfolder: the configuration is found upward). Both must produce exactly the
committed `generated/` files.
"""

from __future__ import annotations

import locale
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repository import copy_repository

pytestmark = pytest.mark.slow

RUN_HOOKMSG = "import sys; from hookmsg.cli.main import run; sys.exit(run(sys.argv[1:]))"


def files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def utf8_locale() -> str:
    """A UTF-8 locale other than plain C: en_US.UTF-8 when installed, else C.UTF-8."""
    current = locale.setlocale(locale.LC_CTYPE)
    try:
        for candidate in ("en_US.UTF-8", "C.UTF-8"):
            try:
                locale.setlocale(locale.LC_CTYPE, candidate)
            except locale.Error:
                continue
            return candidate
    finally:
        locale.setlocale(locale.LC_CTYPE, current)
    pytest.skip("no UTF-8 locale is installed")


def build(cwd: Path, *, seed: str, lang: str, tz: str) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("LC_", "PYTHON")) and key not in ("LANG", "LANGUAGE", "TZ")
    }
    env.update(PYTHONHASHSEED=seed, LC_ALL=lang, LANG=lang, TZ=tz, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(
        [sys.executable, "-c", RUN_HOOKMSG, "build"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        check=False,
    )


def build_twice(tmp_path: Path, *, second_cwd: str) -> None:
    """Build two fresh copies in two processes that differ in everything but the sources."""
    first = copy_repository(tmp_path / "first")
    second = copy_repository(tmp_path / "second")
    committed = files(first / "generated")
    assert committed, "the repository has no committed generated files"
    sources = {k: v for k, v in files(first).items() if not k.startswith("generated/")}
    for root in (first, second):
        shutil.rmtree(root / "generated")

    runs = [
        build(first, seed="0", lang="C", tz="UTC"),
        build(second / second_cwd, seed="12345", lang=utf8_locale(), tz="Asia/Kolkata"),
    ]
    for result in runs:
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout == "", result.stdout

    produced = [files(first / "generated"), files(second / "generated")]
    for outputs in produced:
        assert sorted(outputs) == sorted(committed)
    for name, data in committed.items():
        assert produced[0][name] == produced[1][name], f"{name} differs between the two runs"
        assert produced[0][name] == data, f"{name} differs from the committed file"
    # Nothing else was written, and no source changed.
    for root in (first, second):
        rest = {k: v for k, v in files(root).items() if not k.startswith("generated/")}
        assert rest == sources


def test_outputs_identical_across_hash_seeds_and_locales(tmp_path: Path) -> None:
    build_twice(tmp_path, second_cwd=".")


def test_outputs_identical_when_run_from_a_subfolder(tmp_path: Path) -> None:
    # The configuration is found from the working directory upward.
    build_twice(tmp_path, second_cwd="messages")
