"""hookmsg's built-in harness facts, and a content repository's override of them."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path
from typing import Any

from tests.support.repository import REPO

BUILTIN = REPO / "scripts" / "hookmsg" / "data" / "harnesses.toml"
BUILTIN_DISPLAY = "scripts/hookmsg/data/harnesses.toml"


def harness_override(project: Path) -> Path:
    """`catalog/harnesses.toml` in `project`, holding a copy of every built-in harness.

    A full copy overrides each built-in harness with itself, so edits to it (the way a
    content repository changes a fact) are found and located in the override file.
    """
    path = project / "catalog" / "harnesses.toml"
    if not path.exists():
        shutil.copyfile(BUILTIN, path)
    return path


def registered_harnesses() -> list[tuple[str, dict[str, Any]]]:
    """(id, `[harnesses.registration]`) of each built-in harness that registers, in file order:
    the one table of harnesses that the harness-wide tests read."""
    data = tomllib.loads(BUILTIN.read_text(encoding="utf-8"))
    return [(h["id"], h["registration"]) for h in data["harnesses"] if "registration" in h]
