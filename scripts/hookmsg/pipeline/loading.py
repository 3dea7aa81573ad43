"""Load the sources: read each file, let the file and catalogue rules judge it, parse it.

Partial loading is this module's concern alone: a catalogue part that fails to load is
None here, with its diagnostics, and the rest of the pipeline is told so.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from hookmsg.catalogue.guards import GuardData, LoadedGuards
from hookmsg.catalogue.modelfile import load_model
from hookmsg.catalogue.models import CaseText, HookRegistry, PartialCatalogue, SkillCatalogue
from hookmsg.catalogue.rules import catalogue as rules
from hookmsg.catalogue.rules import guards as guard_rules
from hookmsg.catalogue.skills import resolve
from hookmsg.harnesses.loading import load_harnesses
from hookmsg.inputs.source import read_source
from hookmsg.project.config import Project
from hookmsg.tomlpos import toml_error_position


def load_catalogue(project: Project) -> PartialCatalogue:
    """Load and validate every catalogue file; never raises for bad content."""
    max_bytes = project.settings.max_file_bytes
    catalogue = PartialCatalogue()
    hooks = project.catalog_file("hooks.toml")
    catalogue.registry_display = project.relative(hooks)
    catalogue.registry, catalogue.registry_text, found = load_model(
        hooks, catalogue.registry_display, HookRegistry, max_bytes, project.root
    )
    catalogue.diagnostics += found
    if catalogue.registry is not None:
        catalogue.diagnostics += rules.check_matchers(
            catalogue.registry, catalogue.registry_text, catalogue.registry_display
        )

    catalogue.harnesses, found = load_harnesses(project)
    catalogue.diagnostics += found

    path = project.catalog_file("skills.toml")
    display = project.relative(path)
    catalogue.skills, text, found = load_model(
        path, display, SkillCatalogue, max_bytes, project.root
    )
    catalogue.diagnostics += found
    if catalogue.skills is not None:
        catalogue.diagnostics += rules.check_skills(catalogue.skills, text, display)
        catalogue.entries = resolve(catalogue.skills, text, display, project)
        catalogue.diagnostics += catalogue.entries.diagnostics

    path = project.catalog_file("guards.toml")
    catalogue.guards = load_guards(path, project.relative(path), max_bytes, project.root)
    catalogue.diagnostics += catalogue.guards.diagnostics
    if catalogue.registry is not None and catalogue.harnesses is not None:
        # Only then are the cases judged, and only a catalogue that loaded is known to be
        # inside the repository.
        folder = project.catalog_dir / "guard-cases"
        catalogue.guard_cases = read_case_files(folder, project.relative(folder))
    return catalogue


def read_case_files(folder: Path, display: str) -> tuple[CaseText, ...] | None:
    """Every guard case file in `folder`, read here so that the rule judging them
    (`rules/guard_cases.check_case_files`) reads no file (None: no such folder)."""
    if not folder.is_dir():
        return None
    files = []
    for path in sorted(folder.glob("*.toml")):
        shown = f"{display}/{path.name}"
        try:
            files.append(CaseText(shown, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as error:
            files.append(CaseText(shown, None, str(error)))
    return tuple(files)


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
