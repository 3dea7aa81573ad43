"""`python -m doit` run in a copy of the repository, and what it reports.

doit reports a task it runs as `.  name` and a task that is up to date as `-- name`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

STATE = ".doit.db"


@dataclass(frozen=True)
class Doit:
    code: int
    output: str

    @property
    def lines(self) -> list[str]:
        return [line for line in self.output.split("\n") if line.strip()]

    @property
    def ran(self) -> set[str]:
        return {line[2:].strip() for line in self.lines if line.startswith(". ")}

    @property
    def up_to_date(self) -> set[str]:
        return {line[3:].strip() for line in self.lines if line.startswith("-- ")}


def doit(root: Path, *args: str) -> Doit:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "NO_COLOR")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    result = subprocess.run(
        [sys.executable, "-m", "doit", *args],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        errors="replace",
        check=False,
    )
    return Doit(result.returncode, result.stdout)


def rewrite(path: Path, text: str) -> None:
    """Write `text` and move the mtime on: doit trusts an unchanged mtime without hashing."""
    previous = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(previous + 10**9, previous + 10**9))
