"""The content version that names the release archive: `git describe`, or a given label."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from hookmsg import __version__
from hookmsg.errors import UsageError

_SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$")


def _git(root: Path, *argv: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", *argv], cwd=root, capture_output=True, text=True, check=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def content_version(root: Path, given: str | None) -> str:
    """`given` if set (checked: it becomes part of a file name), else
    `git describe --tags --always --dirty`, else the tool's own version outside git."""
    if given is not None:
        if not _SAFE.match(given):
            raise UsageError(
                f"--content-version '{given}' may hold only letters, digits and . _ + - "
                "(up to 100 characters, starting with a letter or digit)"
            )
        return given
    described = _git(root, "describe", "--tags", "--always", "--dirty")
    return described if described and _SAFE.match(described) else __version__


def is_dirty(root: Path) -> bool:
    """Does the git working tree hold uncommitted changes? (False outside git.)"""
    return bool(_git(root, "status", "--porcelain", "--untracked-files=no"))
