"""The project's fixed names: `pyproject.toml`, the setting defaults, the registration files.

Kept free of heavy imports: `dodo.py` uses it to list files at load time. Finding the
project and reading its settings is `settings.py`.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from hookmsg.declared import CATALOG_FILES, safe_registration

__all__ = ["CATALOG_FILES", "DEFAULTS", "PYPROJECT", "archive_name", "registration_files"]

PYPROJECT = "pyproject.toml"

DEFAULTS: dict[str, Any] = {
    "messages": "messages",
    "catalog": "catalog",
    "generated": "generated",
    "licence-line": "<!-- SPDX-License-Identifier: MIT -->",
    "delivered-cap": 10_000,
    "skill-index-budget": 1_600,
    "max-file-bytes": 1_000_000,
}


def registration_files(root: Path, settings: dict[str, Any]) -> list[str]:
    """`<harness>/<file>` for every harness registration, read without full validation.

    For doit's targets: a name outside the safe character sets is left out (validation
    reports it), so no path built from the catalogue can leave the generated folder.
    """
    path = root / settings["catalog"] / "harnesses.toml"
    try:
        if not path.is_file():
            return []  # missing, a folder, or a FIFO that would block: validation reports it
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError, RecursionError, UnicodeDecodeError):
        return []
    found = []
    harnesses = data.get("harnesses", [])
    for harness in harnesses if isinstance(harnesses, list) else []:
        registration = harness.get("registration") if isinstance(harness, dict) else None
        if isinstance(registration, dict):
            name = safe_registration(harness.get("id"), registration.get("file"))
            if name is not None:
                found.append(name)
    return found


def archive_name(version: str) -> str:
    """The release archive's file name, inside `dist/`, for a content version."""
    return f"hookmsg-assets-{version}.tar.gz"
