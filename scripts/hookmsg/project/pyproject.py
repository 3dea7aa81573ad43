"""Find the project's `pyproject.toml` and read its `[tool.hookmsg]` table, checked, with
the standard library.

Every face (the `hookmsg` command, `dodo.py`, the check's fast path) calls
`checked_settings` first; the checks themselves (K001, K002) are `project.rules`, and the
typed object the checked table becomes is `project.settings`.
Kept free of heavy imports: `dodo.py` reads it on every `doit`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookmsg.inputs.file_memo import FileMemo
from hookmsg.project import rules
from hookmsg.project.defaults import PYPROJECT


def find_root(start: Path | None = None) -> Path:
    """The folder of the nearest `pyproject.toml` from `start` (default: cwd) upward."""
    here = (start or Path.cwd()).absolute()
    for folder in (here, *here.parents):
        if (folder / PYPROJECT).is_file():
            return folder
    raise rules.no_pyproject(here)


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
    import tomllib  # here, not above: a remembered table needs no parser

    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as error:
        raise rules.unreadable_pyproject(path, f"cannot read {PYPROJECT}: {error}") from None
    except RecursionError:
        raise rules.unreadable_pyproject(
            path, f"{PYPROJECT} is nested too deeply to read"
        ) from None
    except tomllib.TOMLDecodeError as error:
        from hookmsg.tomlpos import toml_error_position

        line, col, message = toml_error_position(error, text)
        why = f"{PYPROJECT} is not valid TOML: {message}"
        raise rules.unreadable_pyproject(path, why, line, col) from None
    tool = data.get("tool", {})
    table = tool.get("hookmsg", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise rules.not_a_table(path)
    return table, text


def checked_settings(root: Path, memo: FileMemo | None = None) -> dict[str, Any]:
    """Defaults overlaid with `[tool.hookmsg]`, every value checked; else ConfigError (K001).

    `memo` may remember what the files read here held (dodo.py's runs); every check on
    the values and on the file system runs each time all the same.
    """
    table, text = read_tool_table(root, memo)
    return rules.check_table(root, table, text, memo)
