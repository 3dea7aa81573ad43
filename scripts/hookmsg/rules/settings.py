"""K001 and K002: the `[tool.hookmsg]` table and `pyproject.toml`, standard library only.

Every face (the `hookmsg` command, `dodo.py`, the check's fast path) checks the settings
before anything reads a path, so a bad setting is reported the same way everywhere and
no command lists, reads, writes or deletes anything under a path it has not checked.
The generated folder gets the strictest rule: `build` replaces and removes files there,
so it must be a folder of its own, strictly inside the root, sharing nothing with the
sources, the catalogue, the code, the tests or git.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hookmsg.defaults import DEFAULTS, PYPROJECT
from hookmsg.errors import ConfigError
from hookmsg.file_memo import FileMemo
from hookmsg.sourcefiles import declared_sources, normalise

PATH_KEYS = ("messages", "catalog", "generated")
INT_KEYS = ("delivered-cap", "skill-index-budget", "max-file-bytes")
# Paths of the project that the generated folder must neither be, contain nor lie inside.
PROTECTED = (
    ".git",
    ".github",
    ".ci",
    ".venv",
    "scripts",
    "tests",
    "dist",
    "pyproject.toml",
    "dodo.py",
    "README.md",
    ".doit.db",
)


def key_line(text: str, key: str) -> int:
    """The line of `key` in `[tool.hookmsg]`, or of a `[tool.hookmsg.<key>]` sub-table."""
    in_table = False
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip().replace(" ", "")
        if stripped.startswith("["):
            if stripped.strip("[]").startswith(f"tool.hookmsg.{key}"):
                return number
            in_table = stripped == "[tool.hookmsg]"
        elif in_table and stripped.split("=", 1)[0].strip('"') == key:
            return number
    return 1


def _path_problem(value: object) -> str | None:
    if not isinstance(value, str):
        return f"must be a string (a relative folder), not {type(value).__name__}"
    parts = value.split("/")
    if not value or value.startswith("/") or "\\" in value or ".." in parts:
        return "must be a relative path inside the project, without '..'"
    if any(not c.isprintable() for c in value) or value.startswith("~"):
        return "must be a plain relative path (no control characters, no '~')"
    return None


def _value_problem(key: str, value: object) -> str | None:
    if key not in DEFAULTS:
        return "unknown key"
    if key in PATH_KEYS:
        return _path_problem(value)
    if key in INT_KEYS:
        if type(value) is not int:
            return f"must be a whole number, not {type(value).__name__}"
        return None if value > 0 else "must be greater than 0"
    # licence-line
    if not isinstance(value, str):
        return f"must be a string, not {type(value).__name__}"
    if not value or "\n" in value or "\r" in value or value != value.strip():
        return "must be one line without surrounding whitespace"
    return None


def _overlap(generated: str, other: str) -> str | None:
    """How `generated` overlaps `other` (both normalised, relative), or None."""
    g, o = generated.casefold(), other.casefold()  # case-insensitive file systems too
    if g == o:
        return f"is the same path as '{other}'"
    if o.startswith(g + "/"):
        return f"contains '{other}'"
    if g.startswith(o + "/"):
        return f"lies inside '{other}'"
    return None


def generated_problem(
    root: Path, settings: dict[str, Any], memo: FileMemo | None = None
) -> str | None:
    """Why the generated folder is not a dedicated folder of its own, or None."""
    generated = posixpath.normpath(settings["generated"])
    if generated == ".":
        return "is the project root itself; name a dedicated folder such as 'generated'"
    others = [posixpath.normpath(settings[k]) for k in ("messages", "catalog")]
    # The skill and command folders that the skill catalogue's [[sources]] name.
    catalogue = root / others[1] / "skills.toml"
    real_root = os.path.realpath(root)
    if os.path.realpath(catalogue).startswith(real_root + os.sep):  # never read outside
        others += [normalise(path) for _, path in declared_sources(catalogue, memo)]
    for other in (*others, *PROTECTED):
        how = _overlap(generated, other)
        if how is not None:
            return f"{how}; the generated folder must be a dedicated folder of its own"
    folder = root / generated
    if os.path.realpath(folder) != os.path.join(real_root, *generated.split("/")):  # noqa: PTH118
        return "goes through a symbolic link; it must be a real folder inside the root"
    if os.path.lexists(folder) and not folder.is_dir():
        return "exists and is not a folder"
    return None


def _k001(path: Path, line: int, text: str) -> str:
    return f"{path}:{line}:1: K001 {text}"


def check_table(
    root: Path, table: dict[str, Any], text: str, memo: FileMemo | None = None
) -> dict[str, Any]:
    """Defaults overlaid with `table`, every value checked; else ConfigError (K001 lines)."""
    problems = []
    for key, value in table.items():
        reason = _value_problem(str(key), value)
        if reason is not None:
            problems.append((str(key), reason))
    settings = {**DEFAULTS, **table}
    if not problems:
        settings = {k: posixpath.normpath(v) if k in PATH_KEYS else v for k, v in settings.items()}
        reason = generated_problem(root, settings, memo)
        if reason is not None:
            problems.append(("generated", reason))
    if problems:
        raise ConfigError(
            "\n".join(
                _k001(
                    root / PYPROJECT, key_line(text, key), f"[tool.hookmsg] key '{key}': {reason}"
                )
                for key, reason in problems
            )
        )
    return settings


def not_a_table(path: Path) -> ConfigError:
    return ConfigError(_k001(path, 1, "[tool.hookmsg] must be a table"))


def schema_problems(root: Path, problems: Iterable[tuple[str, str]]) -> ConfigError:
    """K001 for each (key, message) the settings model rejected."""
    return ConfigError(
        "\n".join(
            _k001(root / PYPROJECT, 1, f"[tool.hookmsg] key '{key}': {message}")
            for key, message in problems
        )
    )


def no_pyproject(here: Path) -> ConfigError:
    return ConfigError(f"{here}:1:1: K002 no {PYPROJECT} found here or in any parent folder")


def unreadable_pyproject(path: Path, why: str, line: int = 1, col: int = 1) -> ConfigError:
    """K002: `pyproject.toml` cannot be read, or is not valid TOML (`why` says how)."""
    return ConfigError(f"{path}:{line}:{col}: K002 {why}")


def unusable_state_file(path: Path, why: str) -> ConfigError:
    """K003: doit's state file is not a regular file, or is damaged and cannot be removed."""
    return ConfigError(f"{path}:1:1: K003 doit's state file {why}")
