"""`[tool.hookmsg]` read into one typed, validated settings object, and the project it
belongs to (its root and the folders the settings name)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookmsg.project.defaults import DEFAULTS
from hookmsg.project.pyproject import checked_settings, find_root


@dataclass(frozen=True)
class Settings:
    """The `[tool.hookmsg]` table as `project.rules.check_table` checked it, typed.

    Keys are kebab-case in TOML. The check is the one validation: it refuses every value
    this type could not hold (K001) and normalises the folders, so building it cannot fail.
    """

    messages: str = DEFAULTS["messages"]
    catalog: str = DEFAULTS["catalog"]
    generated: str = DEFAULTS["generated"]
    licence_line: str = DEFAULTS["licence-line"]
    delivered_cap: int = DEFAULTS["delivered-cap"]
    skill_index_budget: int = DEFAULTS["skill-index-budget"]
    max_file_bytes: int = DEFAULTS["max-file-bytes"]

    @classmethod
    def from_checked(cls, table: dict[str, Any]) -> Settings:
        """The settings of a table `checked_settings` returned (defaults overlaid, checked)."""
        return cls(**{key.replace("-", "_"): value for key, value in table.items()})


@dataclass(frozen=True)
class Project:
    """A project root and its settings, with the folders they name."""

    root: Path
    settings: Settings

    @property
    def messages_dir(self) -> Path:
        return self.root / self.settings.messages

    @property
    def catalog_dir(self) -> Path:
        return self.root / self.settings.catalog

    @property
    def generated_dir(self) -> Path:
        return self.root / self.settings.generated

    def catalog_file(self, name: str) -> Path:
        return self.catalog_dir / name

    def relative(self, path: Path) -> str:
        """`path` as shown in diagnostics: relative to the root when inside it, POSIX style."""
        try:
            return path.absolute().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()


# Projects shared by every call in this process (None: not shared); see `share_projects`.
_SHARED: dict[Path, Project] | None = None


def share_projects() -> None:
    """From now on, in this process, read and check each project's settings only once.

    For one `doit` run, whose tasks all run in one process on the same settings (dodo.py
    checked them as it loaded); never for a long-lived process that outlives an edit.
    """
    global _SHARED  # noqa: PLW0603 (one switch for the whole process)
    if _SHARED is None:
        _SHARED = {}


def load_project(start: Path | None = None) -> Project:
    """Find the project from `start` (default: cwd) and validate its settings."""
    root = find_root(start)
    if _SHARED is None:
        return _load_project(root)
    if root not in _SHARED:
        _SHARED[root] = _load_project(root)
    return _SHARED[root]


def _load_project(root: Path) -> Project:
    return Project(root=root, settings=Settings.from_checked(checked_settings(root)))
