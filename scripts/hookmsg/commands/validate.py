"""`hookmsg validate [PATH ...]`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from hookmsg.config import Project
from hookmsg.errors import EXIT_FINDINGS, EXIT_OK
from hookmsg.lock import folder_lock
from hookmsg.outputs import refused_leftovers
from hookmsg.report import emit, note, summary
from hookmsg.workspace import load_workspace, validate_paths, validate_workspace


def validate(project: Project, paths: Sequence[Path], fmt: str, *, verbose: bool = False) -> int:
    workspace = load_workspace(project)
    if paths:
        diagnostics = validate_paths(workspace, paths)
        checked = f"{len(paths)} path{'s' if len(paths) != 1 else ''}"
    else:
        diagnostics = validate_workspace(workspace)
        if workspace.renderable:  # the registrations' names are known: survey the folder
            # As a check does: wait for a running build, never see its temporaries.
            with folder_lock(project.root, exclusive=False):
                refused = refused_leftovers(workspace)
            diagnostics = sorted([*diagnostics, *refused])
        checked = f"{len(workspace.all_messages())} messages and the catalogue"
    emit(diagnostics, fmt)
    if verbose:
        per_file = Counter(d.path for d in diagnostics)
        shown = [m.display for m in workspace.all_messages().values()] if not paths else []
        for path in sorted({*shown, *per_file}):
            count = per_file[path]
            note(f"  {'ok' if not count else f'{count} problem(s)':<14} {path}")
    if verbose or (diagnostics and fmt == "text"):
        note(summary(diagnostics, checked))
    return EXIT_FINDINGS if diagnostics else EXIT_OK
