"""`[tool.hookmsg]` read into one typed, validated settings object."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, PositiveInt, ValidationError, field_validator

from hookmsg.project.defaults import DEFAULTS
from hookmsg.project.rules import schema_problems
from hookmsg.project.settings import checked_settings, find_root


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class Settings(BaseModel):
    """The validated `[tool.hookmsg]` table; keys are kebab-case in TOML."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, alias_generator=_kebab, populate_by_name=True
    )

    messages: str = DEFAULTS["messages"]
    catalog: str = DEFAULTS["catalog"]
    generated: str = DEFAULTS["generated"]
    licence_line: str = Field(default=DEFAULTS["licence-line"], min_length=1)
    delivered_cap: PositiveInt = DEFAULTS["delivered-cap"]
    skill_index_budget: PositiveInt = DEFAULTS["skill-index-budget"]
    max_file_bytes: PositiveInt = DEFAULTS["max-file-bytes"]

    @field_validator("messages", "catalog", "generated")
    @classmethod
    def _relative_inside(cls, value: str) -> str:
        path = PurePosixPath(value)
        if not value or path.is_absolute() or ".." in path.parts or "\\" in value:
            raise ValueError("must be a relative path inside the project, without '..'")
        return path.as_posix()

    @field_validator("licence_line")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if "\n" in value or "\r" in value or value != value.strip():
            raise ValueError("must be one line without surrounding whitespace")
        return value


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
    table = checked_settings(root)
    try:
        settings = Settings.model_validate(table)
    except ValidationError as error:
        problems = [
            (str(item["loc"][0]) if item["loc"] else "tool.hookmsg", item["msg"])
            for item in error.errors()
        ]
        raise schema_problems(root, problems) from None
    return Project(root=root, settings=settings)
