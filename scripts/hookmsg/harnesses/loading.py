"""Load the harness facts: hookmsg's built-in file, with a content repository's override.

The built-in file (`hookmsg/data/harnesses.toml`) is checked on its own, its findings
naming its real path. An override (`<catalog>/harnesses.toml`, optional) is checked entry
by entry as each entry stands once merged over the built-in harness it names, so every
finding about it is located in the override file; then the merged catalogue is the one the
rest of the pipeline sees. See `harness_files.py` for what merges how.
"""

from __future__ import annotations

from typing import Any

from hookmsg.catalogue.modelfile import read_toml, validated
from hookmsg.catalogue.models import HarnessCatalogue
from hookmsg.catalogue.rules import catalogue as rules
from hookmsg.diagnostics import Diagnostic
from hookmsg.harnesses.files import (
    BUILTIN_HARNESSES,
    BUILTIN_MAX_BYTES,
    OVERRIDE_NAME,
    merged_harnesses,
    overridden_views,
)
from hookmsg.project.settings import Project


def load_harnesses(project: Project) -> tuple[HarnessCatalogue | None, list[Diagnostic]]:
    """The harness catalogue this project builds with, and every finding about it."""
    display = project.relative(BUILTIN_HARNESSES)
    raw, text, found = read_toml(BUILTIN_HARNESSES, display, BUILTIN_MAX_BYTES, None)
    if raw is None:
        return None, found
    builtin, problems = validated(HarnessCatalogue, raw, text, display)
    found += problems
    if builtin is None:
        return None, found
    found += rules.check_harnesses(builtin, text, display)
    path = project.catalog_file(OVERRIDE_NAME)
    if not path.exists() and not path.is_symlink():
        return builtin, found
    merged, problems = _with_override(project, raw, builtin)
    return merged, [*found, *problems]


def _with_override(
    project: Project, builtin: dict[str, Any], model: HarnessCatalogue
) -> tuple[HarnessCatalogue | None, list[Diagnostic]]:
    path = project.catalog_file(OVERRIDE_NAME)
    display = project.relative(path)
    data, text, found = read_toml(path, display, project.settings.max_file_bytes, project.root)
    if data is None:
        return None, found
    entries = data.get("harnesses")
    if not isinstance(entries, list):
        # Not the catalogue's shape: let the model name what is wrong where.
        return None, [*found, *validated(HarnessCatalogue, data, text, display)[1]]
    base = builtin["harnesses"]
    view = {**data, "harnesses": overridden_views(base, entries)}
    checked, problems = validated(HarnessCatalogue, view, text, display)
    found += problems
    if checked is None:
        return None, found
    found += rules.check_harnesses(checked, text, display)
    found += rules.contracts_against_builtin(model, checked, text, display)
    found += rules.unevidenced_overrides(base, entries, view["harnesses"], text, display)
    merged = {**data, "harnesses": merged_harnesses(base, entries)}
    catalogue, problems = validated(HarnessCatalogue, merged, text, display)
    return catalogue, [*found, *problems]
