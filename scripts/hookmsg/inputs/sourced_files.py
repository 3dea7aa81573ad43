"""The files that the skill catalogue's `[[sources]]` name, listed cheaply.

Standard library only, and plain classes (creating a dataclass or a named tuple costs
every `doit`): `dodo.py` (file dependencies) and the check cache (its fingerprint) list
these files without importing the validating pipeline, and the pipeline reads exactly
the files listed here, so the three always agree.
"""

from __future__ import annotations

import os
import posixpath
import stat
from pathlib import Path
from typing import Any

from hookmsg.inputs.file_memo import FileMemo

SKILL_FILE = "SKILL.md"
KINDS = ("skills", "commands")


class SourceFile:
    """One file a source provides: the entry name its path implies, where it is."""

    __slots__ = ("display", "path", "stem")

    def __init__(self, stem: str, display: str, path: Path) -> None:
        self.stem = stem  # the skill's folder name, or the command file's name without `.md`
        self.display = display  # POSIX path relative to the project root, as diagnostics show it
        self.path = path  # absolute


class Listing:
    """The files of one `[[sources]]` folder, or why it cannot be listed."""

    __slots__ = ("error", "files")

    def __init__(self, files: tuple[SourceFile, ...], error: str | None = None) -> None:
        self.files = files
        self.error = error


def normalise(path: str) -> str:
    """A source path as written in the catalogue, normalised one way (`./x/` is `x`)."""
    return posixpath.normpath(path)


def list_source(root: Path, kind: str, path: str) -> Listing:
    """Every entry file under `path`: `<folder>/SKILL.md` for skills, `<name>.md` for commands.

    Only direct children count (as the harnesses load them); names starting with a dot
    are skipped. Sorted by name, so every run reads the same files in the same order.
    """
    shown = normalise(path)
    folder = root / shown
    try:
        with os.scandir(folder) as entries:
            names = sorted(entry.name for entry in entries if not entry.name.startswith("."))
    except FileNotFoundError:
        return Listing((), "does not exist")
    except NotADirectoryError:
        return Listing((), "is not a folder")
    except OSError as error:
        return Listing((), f"cannot be listed: {error.strerror or error}")
    files = []
    for name in names:
        if kind == "skills":
            if os.path.lexists(folder / name / SKILL_FILE):
                display = posixpath.join(shown, name, SKILL_FILE)
                files.append(SourceFile(name, display, folder / name / SKILL_FILE))
        elif name.endswith(".md") and len(name) > len(".md"):
            files.append(
                SourceFile(name[: -len(".md")], posixpath.join(shown, name), folder / name)
            )
    return Listing(tuple(files))


def declared_sources(catalogue_file: Path, memo: FileMemo | None = None) -> list[tuple[str, str]]:
    """`(kind, path)` of every well-formed `[[sources]]` table, read without validation."""
    if memo is None:
        return _declared_sources(catalogue_file)
    return memo.derive(
        catalogue_file, "declared sources", lambda: _declared_sources(catalogue_file), _pairs
    )


def _pairs(value: Any) -> list[tuple[str, str]]:
    pairs = [(kind, path) for kind, path in value]
    if not all(isinstance(kind, str) and isinstance(path, str) for kind, path in pairs):
        raise TypeError("not a list of string pairs")
    return pairs


def _declared_sources(catalogue_file: Path) -> list[tuple[str, str]]:
    import tomllib

    try:
        if not stat.S_ISREG(catalogue_file.stat().st_mode):
            return []  # a FIFO would block the read; the validating loader reports it
        with catalogue_file.open("rb") as handle:
            data: Any = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        return []  # the validating loader reports it
    sources = data.get("sources", []) if isinstance(data, dict) else []
    found = []
    for source in sources if isinstance(sources, list) else []:
        if isinstance(source, dict):
            kind, path = source.get("kind"), source.get("path")
            if kind in KINDS and isinstance(path, str) and path:
                found.append((kind, path))
    return found


def sourced_files(root: Path, catalogue_file: Path, memo: FileMemo | None = None) -> list[str]:
    """Every file the catalogue's sources name, as root-relative POSIX paths, sorted."""
    return sorted(
        {
            file.display
            for kind, path in declared_sources(catalogue_file, memo)
            for file in list_source(root, kind, path).files
        }
    )
