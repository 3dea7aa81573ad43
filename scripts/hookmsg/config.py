"""`[tool.hookmsg]` read into one typed, validated settings object."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, PositiveInt, ValidationError, field_validator

from hookmsg.errors import ConfigError
from hookmsg.project import CATALOG_FILES, DEFAULTS, PYPROJECT, find_root, read_tool_table


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

    def catalog_paths(self) -> list[Path]:
        return [self.catalog_dir / name for name in CATALOG_FILES]

    def relative(self, path: Path) -> str:
        """`path` as shown in diagnostics: relative to the root when inside it, POSIX style."""
        try:
            return path.absolute().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()


def _key_line(text: str, key: str) -> int:
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


def load_project(start: Path | None = None) -> Project:
    """Find the project from `start` (default: cwd) and validate its settings."""
    root = find_root(start)
    table, text = read_tool_table(root)
    try:
        settings = Settings.model_validate(table)
    except ValidationError as error:
        problems = []
        for item in error.errors():
            key = str(item["loc"][0]) if item["loc"] else "tool.hookmsg"
            problems.append(
                f"{root / PYPROJECT}:{_key_line(text, key)}:1: K001 "
                f"[tool.hookmsg] key '{key}': {item['msg']}"
            )
        raise ConfigError("\n".join(problems)) from None
    return Project(root=root, settings=settings)
