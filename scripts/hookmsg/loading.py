"""Load the sources: read each file, let the file and catalogue rules judge it, parse it.

Partial loading is this module's concern alone: a catalogue part that fails to load is
None here, with its diagnostics, and the rest of the pipeline is told so.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from hookmsg.catalogue import HarnessCatalogue, HookRegistry, PartialCatalogue, SkillCatalogue
from hookmsg.config import Project
from hookmsg.diagnostics import Diagnostic
from hookmsg.guarddata import GuardData, LoadedGuards
from hookmsg.rules import catalogue as rules
from hookmsg.rules import guards as guard_rules
from hookmsg.skill_sources import resolve
from hookmsg.source import read_source
from hookmsg.tomlpos import toml_error_position

M = TypeVar("M", bound=BaseModel)


def _load(
    path: Path, display: str, model: type[M], max_bytes: int, root: Path
) -> tuple[M | None, str, list[Diagnostic]]:
    if not path.exists() and not path.is_symlink():
        return None, "", [rules.missing(display)]
    source, problems = read_source(
        path, display, max_bytes=max_bytes, root=root, check_folders=True
    )
    if source is None:
        return None, "", problems
    try:
        data = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as error:
        line, col, message = toml_error_position(error, source.text)
        return None, source.text, [*problems, rules.not_toml(display, line, col, message)]
    except RecursionError:
        message = "nested too deeply to read"
        return None, source.text, [*problems, rules.not_toml(display, 1, 1, message)]
    try:
        return model.model_validate(data), source.text, problems
    except ValidationError as error:
        errors = [(tuple(item["loc"]), item["msg"]) for item in error.errors()]
        problems += rules.schema_errors(display, data, source.text, errors)
        return None, source.text, problems


def load_catalogue(project: Project) -> PartialCatalogue:
    """Load and validate every catalogue file; never raises for bad content."""
    max_bytes = project.settings.max_file_bytes
    catalogue = PartialCatalogue()
    hooks = project.catalog_file("hooks.toml")
    catalogue.registry_display = project.relative(hooks)
    catalogue.registry, catalogue.registry_text, found = _load(
        hooks, catalogue.registry_display, HookRegistry, max_bytes, project.root
    )
    catalogue.diagnostics += found
    if catalogue.registry is not None:
        catalogue.diagnostics += rules.check_matchers(
            catalogue.registry, catalogue.registry_text, catalogue.registry_display
        )

    path = project.catalog_file("harnesses.toml")
    display = project.relative(path)
    catalogue.harnesses, text, found = _load(
        path, display, HarnessCatalogue, max_bytes, project.root
    )
    catalogue.diagnostics += found
    if catalogue.harnesses is not None:
        catalogue.diagnostics += rules.check_harnesses(catalogue.harnesses, text, display)

    path = project.catalog_file("skills.toml")
    display = project.relative(path)
    catalogue.skills, text, found = _load(path, display, SkillCatalogue, max_bytes, project.root)
    catalogue.diagnostics += found
    if catalogue.skills is not None:
        catalogue.diagnostics += rules.check_skills(catalogue.skills, text, display)
        catalogue.entries = resolve(catalogue.skills, text, display, project)
        catalogue.diagnostics += catalogue.entries.diagnostics

    path = project.catalog_file("guards.toml")
    catalogue.guards = load_guards(path, project.relative(path), max_bytes, project.root)
    catalogue.diagnostics += catalogue.guards.diagnostics
    return catalogue


def load_guards(path: Path, display: str, max_bytes: int, root: Path) -> LoadedGuards:
    """Read and validate `catalog/guards.toml` on its own (references are checked later)."""
    if not path.exists() and not path.is_symlink():
        return LoadedGuards(None, "", display, [rules.missing(display)])
    source, problems = read_source(
        path, display, max_bytes=max_bytes, root=root, check_folders=True
    )
    if source is None:
        return LoadedGuards(None, "", display, problems)
    try:
        raw = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as error:
        line, col, message = toml_error_position(error, source.text)
        not_toml = rules.not_toml(display, line, col, message)
        return LoadedGuards(None, source.text, display, [*problems, not_toml])
    data = GuardData()
    failed = False
    for name, table in raw.items():
        entry, found = guard_rules.check_entry(name, table, source.text, display)
        problems += found
        if entry is None:
            failed = True
        else:
            data.entries[name] = entry
    return LoadedGuards(None if failed else data, source.text, display, problems)
