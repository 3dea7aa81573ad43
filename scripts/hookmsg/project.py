"""Find the project and read its raw `[tool.hookmsg]` table.

Kept free of heavy imports: `dodo.py` uses it to list files at load time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookmsg.declared import CATALOG_FILES, safe_registration
from hookmsg.errors import ConfigError
from hookmsg.file_memo import FileMemo

__all__ = ["CATALOG_FILES", "DEFAULTS", "PYPROJECT", "find_root", "read_tool_table"]

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


def registration_files(
    root: Path, settings: dict[str, Any], memo: FileMemo | None = None
) -> list[str]:
    """`<harness>/<file>` for every harness registration, read without full validation.

    For doit's targets: a name outside the safe character sets is left out (validation
    reports it), so no path built from the catalogue can leave the generated folder.
    """
    path = root / settings["catalog"] / "harnesses.toml"
    if memo is None:
        return _registration_files(path)
    return memo.derive(path, "registration files", lambda: _registration_files(path), _strings)


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise TypeError("not a list of strings")
    return value


def _registration_files(path: Path) -> list[str]:
    import tomllib

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


def find_root(start: Path | None = None) -> Path:
    """The folder of the nearest `pyproject.toml` from `start` (default: cwd) upward."""
    here = (start or Path.cwd()).absolute()
    for folder in (here, *here.parents):
        if (folder / PYPROJECT).is_file():
            return folder
    raise ConfigError(f"{here}:1:1: K002 no {PYPROJECT} found here or in any parent folder")


def read_tool_table(root: Path, memo: FileMemo | None = None) -> tuple[dict[str, Any], str]:
    """The `[tool.hookmsg]` table (empty if absent) and the file's text, for positions."""
    path = root / PYPROJECT
    if memo is None:
        return _read_tool_table(path)
    return memo.derive(path, "tool table", lambda: _read_tool_table(path), _table_and_text)


def _table_and_text(value: Any) -> tuple[dict[str, Any], str]:
    table, text = value
    if not isinstance(table, dict) or not isinstance(text, str):
        raise TypeError("not a table and a text")
    return table, text


def _read_tool_table(path: Path) -> tuple[dict[str, Any], str]:
    import tomllib

    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}:1:1: K002 cannot read {PYPROJECT}: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}:1:1: K002 {PYPROJECT} is nested too deeply to read") from None
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
