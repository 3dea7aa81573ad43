"""Find the project and read its raw `[tool.hookmsg]` table.

Kept free of heavy imports: `dodo.py` uses it to list files at load time.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from hookmsg.errors import ConfigError

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

CATALOG_FILES = ("hooks.toml", "harnesses.toml", "skills.toml", "guards.toml")
# Every file the pipeline writes into the generated folder (`outputs.GENERATORS` renders them).
GENERATED_FILES = (
    "skill-index.md",
    "advisories.json",
    "hook-message-inventory.md",
    "hook-message-inventory.json",
    "hook-wiring.md",
    "dispatch-table.json",
)


def registration_files(root: Path, settings: dict[str, Any]) -> list[str]:
    """`<harness>/<file>` for every harness registration, read without validation (for doit)."""
    try:
        with (root / settings["catalog"] / "harnesses.toml").open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        return []
    found = []
    for harness in data.get("harnesses", []) if isinstance(data, dict) else []:
        registration = harness.get("registration") if isinstance(harness, dict) else None
        if isinstance(registration, dict) and isinstance(registration.get("file"), str):
            found.append(f"{harness.get('id')}/{registration['file']}")
    return found


def archive_name() -> str:
    """The release archive's file name, inside `dist/`."""
    from hookmsg import __version__

    return f"hookmsg-assets-{__version__}.tar.gz"


def find_root(start: Path | None = None) -> Path:
    """The folder of the nearest `pyproject.toml` from `start` (default: cwd) upward."""
    here = (start or Path.cwd()).absolute()
    for folder in (here, *here.parents):
        if (folder / PYPROJECT).is_file():
            return folder
    raise ConfigError(f"{here}:1:1: K002 no {PYPROJECT} found here or in any parent folder")


def read_tool_table(root: Path) -> tuple[dict[str, Any], str]:
    """The `[tool.hookmsg]` table (empty if absent) and the file's text, for positions."""
    path = root / PYPROJECT
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}:1:1: K002 cannot read {PYPROJECT}: {error}") from None
    except tomllib.TOMLDecodeError as error:
        from hookmsg.tomlpos import toml_error_position

        line, col, message = toml_error_position(error, text)
        raise ConfigError(
            f"{path}:{line}:{col}: K002 {PYPROJECT} is not valid TOML: {message}"
        ) from None
    tool = data.get("tool", {})
    table = tool.get("hookmsg", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"{path}:1:1: K001 [tool.hookmsg] must be a table")
    return table, text


def raw_settings(root: Path) -> dict[str, Any]:
    """Defaults overlaid with `[tool.hookmsg]`, unvalidated: for listing files cheaply."""
    table, _ = read_tool_table(root)
    return {**DEFAULTS, **table}
