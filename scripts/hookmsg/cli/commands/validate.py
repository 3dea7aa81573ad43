"""`hookmsg validate [PATH ...]`."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from hookmsg.diagnostics import Diagnostic, sort_diagnostics
from hookmsg.errors import EXIT_FINDINGS, EXIT_OK, UsageError
from hookmsg.lock import folder_lock
from hookmsg.outputs.generated import refused_leftovers
from hookmsg.pipeline.workspace import (
    Workspace,
    load_workspace,
    validate_paths,
    validate_text,
    validate_workspace,
)
from hookmsg.project.settings import Project
from hookmsg.report import current, emit, note, shown_path, summary

STDIN = "-"


def _from_stdin(workspace: Workspace, name: str | None) -> list[Diagnostic]:
    """The message on standard input, named `-` or `name` (checked as if it lived there)."""
    project = workspace.project
    data = sys.stdin.buffer.read(project.settings.max_file_bytes + 1)
    if name is None:
        return validate_text(workspace, data, STDIN, Path.cwd() / STDIN)
    path = Path(name).absolute()
    return validate_text(workspace, data, project.relative(path), path)


def _validate_paths(
    workspace: Workspace, paths: Sequence[Path], stdin_name: str | None
) -> list[Diagnostic]:
    files = [path for path in paths if str(path) != STDIN]
    reads = len(paths) - len(files)
    if reads > 1:
        raise UsageError("- (standard input) may be given only once")
    if stdin_name is not None and not reads:
        raise UsageError("--stdin-filename names the message read from -; give - as a PATH")
    found = validate_paths(workspace, files) if files else []
    if reads:
        found = sort_diagnostics([*found, *_from_stdin(workspace, stdin_name)])
    return found


def validate(
    project: Project,
    paths: Sequence[Path],
    fmt: str,
    *,
    verbose: bool = False,
    stdin_name: str | None = None,
) -> int:
    workspace = load_workspace(project)
    if paths:
        diagnostics = _validate_paths(workspace, paths, stdin_name)
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
        per_file = Counter(d.path for d in current().codes.kept(diagnostics))
        shown = [m.display for m in workspace.all_messages().values()] if not paths else []
        for path in sorted({*shown, *per_file}):
            count = per_file[path]
            note(f"  {'ok' if not count else f'{count} problem(s)':<14} {shown_path(path)}")
    if verbose or (diagnostics and fmt == "text"):
        note(summary(diagnostics, checked))
    return EXIT_FINDINGS if diagnostics else EXIT_OK
