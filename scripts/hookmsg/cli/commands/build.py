"""`hookmsg build` and `hookmsg check` (also `hookmsg build --check`)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from hookmsg.diagnostics import Diagnostic
from hookmsg.errors import EXIT_FINDINGS, EXIT_OK, UsageError
from hookmsg.inputs.paths import one_run
from hookmsg.lock import folder_lock
from hookmsg.outputs.check_cache import Reading, before_check, remember_clean
from hookmsg.outputs.declared import MANIFEST
from hookmsg.outputs.generated import (
    REFUSED_STATES,
    Output,
    all_generators,
    find_drift,
    format_drift_details,
    render_outputs,
    write_all,
)
from hookmsg.outputs.staging import one_build
from hookmsg.pipeline.workspace import Workspace, load_workspace, validate_workspace
from hookmsg.project.settings import Project
from hookmsg.report import emit, note, shows, summary


def build(
    project: Project,
    *,
    check: bool,
    fmt: str = "text",
    names: Iterable[str] | None = None,
    verbose: bool = False,
) -> int:
    """Validate, render every output (or `names`) in memory, then write or compare.

    Check mode never writes. Write mode writes nothing unless validation is clean,
    and then replaces only the files whose bytes change.
    """
    # A build holds the project exclusively; a check waits for it, so it never
    # sees a half-finished build's temporary files.
    # One run: each path resolved once, and afresh for the next run in this process.
    with folder_lock(project.root, exclusive=not check), one_run():
        return _build_locked(project, check=check, fmt=fmt, names=names, verbose=verbose)


def _write_staged(project: Project, changes: list[Output], stale: list[Path]) -> None:
    """Write into the stage, committed whole (`outputs/staging.py`); nothing if unchanged."""
    if not changes and not stale:
        return
    with one_build(project.root, project.generated_dir) as stage:
        write_all(
            [replace(o, path=stage.inside(o.path)) for o in changes],
            [stage.inside(path) for path in stale],
            folder=stage.path,
            keep_old=False,
        )
        generated = project.generated_dir
        stage.changed |= {p.relative_to(generated).as_posix() for p in stale}
        stage.changed |= {o.path.relative_to(generated).as_posix() for o in changes}


def _compare(
    workspace: Workspace,
    diagnostics: list[Diagnostic],
    selected: list[str] | None,
    before: Reading | None,
    *,
    fmt: str,
    verbose: bool,
) -> int:
    """Check mode: report findings and drift; record a clean full check in the cache."""
    project = workspace.project
    tidy = selected is None or MANIFEST in selected
    drift = []
    if workspace.renderable:
        drift = find_drift(workspace, render_outputs(workspace, selected), stale=tidy)
    blocked = bool(diagnostics) or any(d.state in REFUSED_STATES for d in drift)
    emit(sorted([*diagnostics, *(d.diagnostic(blocked=blocked) for d in drift)]), fmt)
    shown = [d for d in drift if shows(d.diagnostic().code)]  # --select/--ignore
    if shown and fmt == "text":
        sys.stdout.write(format_drift_details(shown, blocked=blocked))
    if verbose or ((diagnostics or drift) and fmt == "text"):
        note(summary([*diagnostics, *(d.diagnostic() for d in drift)], "check"))
    if diagnostics or drift:
        return EXIT_FINDINGS
    if selected is None:
        produced = [g.name for g in all_generators(workspace)]
        remember_clean(project.root, workspace.referenced_paths(), before, produced=produced)
    return EXIT_OK


def _build_locked(
    project: Project, *, check: bool, fmt: str, names: Iterable[str] | None, verbose: bool
) -> int:
    selected = list(names) if names is not None else None
    # What every input holds before this run reads it: the cache records a clean result
    # only if nothing changed between this reading and the check's own.
    before = before_check(project.root) if selected is None else None
    workspace = load_workspace(project)
    if selected is not None:
        known = [g.name for g in all_generators(workspace)]
        unknown = [name for name in selected if name not in known]
        if unknown:
            raise UsageError(f"unknown output {', '.join(unknown)}; known: {', '.join(known)}")
    diagnostics = validate_workspace(workspace)
    # The whole folder is surveyed (stale, foreign, links) by a full run, and by the
    # run that writes the manifest of outputs: the list that proves what is stale.
    tidy = selected is None or MANIFEST in selected
    if check:
        return _compare(workspace, diagnostics, selected, before, fmt=fmt, verbose=verbose)

    emit(diagnostics, fmt)
    if diagnostics:
        if fmt == "text":
            note(summary(diagnostics, "build") + "; nothing was written")
        return EXIT_FINDINGS
    outputs = render_outputs(workspace, selected)
    drift = find_drift(workspace, outputs, stale=tidy)
    refused = [d.diagnostic() for d in drift if d.state in REFUSED_STATES]
    if refused:
        emit(refused, fmt)
        if fmt == "text":
            note(summary(refused, "build") + "; nothing was written")
        return EXIT_FINDINGS
    changed = {d.display for d in drift if d.state != "stale"}
    stale = [project.root / d.display for d in drift if d.state == "stale"]
    _write_staged(project, [o for o in outputs if o.display in changed], stale)
    if verbose:
        for item in drift:
            note(f"{'removed' if item.state == 'stale' else 'wrote'} {item.display}")
        changed_or_removed = {item.display for item in drift}
        for output in outputs:
            if output.display not in changed_or_removed:
                note(f"unchanged {output.display}")
    if selected is None:
        generated = project.generated_dir
        written = {
            "generated:" + o.path.relative_to(generated).as_posix(): o.content
            for o in outputs
            if o.display in changed
        }
        produced = [g.name for g in all_generators(workspace)]
        remember_clean(
            project.root, workspace.referenced_paths(), before, produced=produced, written=written
        )
    return EXIT_OK
