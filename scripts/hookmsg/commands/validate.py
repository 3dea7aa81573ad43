"""`hookmsg validate [PATH ...]`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from hookmsg.config import Project
from hookmsg.errors import EXIT_FINDINGS, EXIT_OK
from hookmsg.report import emit, note, summary
from hookmsg.workspace import load_workspace, validate_paths, validate_workspace


def validate(project: Project, paths: Sequence[Path], fmt: str, *, verbose: bool = False) -> int:
    workspace = load_workspace(project)
    if paths:
        diagnostics = validate_paths(workspace, paths)
        checked = f"{len(paths)} path{'s' if len(paths) != 1 else ''}"
    else:
        diagnostics = validate_workspace(workspace)
        checked = f"{len(workspace.all_messages())} messages and the catalogue"
    emit(diagnostics, fmt)
    if verbose or (diagnostics and fmt == "text"):
        note(summary(diagnostics, checked))
    return EXIT_FINDINGS if diagnostics else EXIT_OK
