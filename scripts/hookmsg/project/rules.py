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
from pathlib import Path
from typing import Any

from hookmsg.errors import ConfigError
from hookmsg.inputs.file_memo import FileMemo
from hookmsg.inputs.sourced_files import declared_sources, normalise
from hookmsg.project.defaults import DEFAULTS, PYPROJECT

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
    ".hookmsg-cache",
)
# doit's state file (`dep_file` in dodo.py) and every file a dbm or sqlite backend adds
# beside it: `.doit.db`, `.doit.db.dat`/`.dir`/`.bak` (dbm.dumb), `.doit.db.db`/`.pag`
# (dbm.gnu, dbm.ndbm), `.doit.db-journal`/`-wal`/`-shm` (sqlite3). A generated folder by
# one of these names would stand where doit writes its state, and break every `doit`.
DOIT_STATE = ".doit.db"


def _names_doit_state(generated: str) -> bool:
    first = generated.split("/", 1)[0].casefold()
    return first == DOIT_STATE or first.startswith((DOIT_STATE + ".", DOIT_STATE + "-"))


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
        return _int_problem(value)
    return _licence_problem(value)


def _int_problem(value: object) -> str | None:
    if type(value) is not int:
        return f"must be a whole number, not {type(value).__name__}"
    return None if value > 0 else "must be greater than 0"


def _licence_problem(value: object) -> str | None:
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
    if _names_doit_state(generated):
        return (
            f"names doit's own state file ('{DOIT_STATE}' and the files its backends write "
            "beside it); name a dedicated folder such as 'generated'"
        )
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


def no_pyproject(here: Path) -> ConfigError:
    return ConfigError(f"{here}:1:1: K002 no {PYPROJECT} found here or in any parent folder")


def unreadable_pyproject(path: Path, why: str, line: int = 1, col: int = 1) -> ConfigError:
    """K002: `pyproject.toml` cannot be read, or is not valid TOML (`why` says how)."""
    return ConfigError(f"{path}:{line}:{col}: K002 {why}")


# The largest modification time a ustar header holds (11 octal digits); GNU tar refuses
# an archive whose times it cannot read back, and a pax extension past it helps nobody.
LARGEST_EPOCH = 8**11 - 1


def source_date_epoch_problem(value: str) -> ConfigError | None:
    """K004 unless `value` is ASCII digits naming a time from 0 to `LARGEST_EPOCH`."""
    # `str.isdigit` accepts '²' and other digits that `int` refuses: ASCII only.
    if value and value.isascii() and value.isdigit():
        if int(value) <= LARGEST_EPOCH:
            return None
        why = f"is past {LARGEST_EPOCH}, the latest time a tar archive holds"
    else:
        why = "must be a whole number of seconds (ASCII digits only)"
    shown = value if len(value) <= 40 else value[:40] + "..."
    return ConfigError(f"SOURCE_DATE_EPOCH:1:1: K004 SOURCE_DATE_EPOCH {why}, got {shown!r}")


def archive_through_link(folder: Path, real: str) -> ConfigError:
    """K005: the archive's folder is reached through a link that leaves the repository."""
    return ConfigError(
        f"{folder}:1:1: K005 package refused: {folder} leads out of the repository through a "
        f"symbolic link (to {real}); nothing was written"
    )
