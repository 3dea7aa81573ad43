"""Load the sources: read each file, let the file and catalogue rules judge it, parse it.

Partial loading is this module's concern alone: a catalogue part that fails to load is
None here, with its diagnostics, and the rest of the pipeline is told so.
"""

from __future__ import annotations

from hookmsg.catalogue.guard_files import FOLDER as GUARDS_FOLDER
from hookmsg.catalogue.guard_files import load_guard_files, unknown_entries, wire
from hookmsg.catalogue.modelfile import load_model
from hookmsg.catalogue.models import HookRegistry, PartialCatalogue, SkillCatalogue
from hookmsg.catalogue.rules import catalogue as rules
from hookmsg.catalogue.skills import resolve
from hookmsg.harnesses.loading import load_harnesses
from hookmsg.project.settings import Project


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

    folder = project.catalog_dir / GUARDS_FOLDER
    guards = load_guard_files(folder, project.relative(folder), max_bytes, project.root)
    catalogue.guards = guards
    catalogue.diagnostics += guards.diagnostics
    if not guards.complete:
        # A guard file that could not be read leaves its guard's wiring unknown: judge no
        # wiring at all, as when catalog/hooks.toml itself fails, rather than report its
        # message as unregistered.
        catalogue.registry = None
    if catalogue.registry is not None:
        catalogue.diagnostics += unknown_entries(catalogue.registry, guards)
        catalogue.registry = wire(catalogue.registry, guards)
        if catalogue.harnesses is not None:
            # Only then are the cases judged (they name the registry's guards and the
            # harnesses' contracts).
            catalogue.guard_cases = guards.case_texts()
    return catalogue
