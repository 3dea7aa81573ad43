"""`hookmsg package`: check, then write the reproducible release archive under `dist/`."""

from __future__ import annotations

import contextlib
from pathlib import Path

from hookmsg.commands.build import build
from hookmsg.config import Project
from hookmsg.content_version import content_version, is_dirty
from hookmsg.errors import EXIT_OK, FindingsError, WriteError
from hookmsg.outputs import Output, render_outputs, write_all
from hookmsg.package import build_archive, source_date_epoch
from hookmsg.project import archive_name
from hookmsg.report import note
from hookmsg.workspace import load_workspace


def package(
    project: Project,
    output_dir: Path | None = None,
    fmt: str = "text",
    *,
    version: str | None = None,
    verbose: bool = False,
) -> int:
    if build(project, check=True, fmt=fmt) != EXIT_OK:
        raise FindingsError(
            "package refused: `hookmsg check` fails (see its findings above); nothing was written"
        )
    workspace = load_workspace(project)
    generated = project.generated_dir
    files = {
        f"generated/{o.path.relative_to(generated).as_posix()}": o.content
        for o in render_outputs(workspace)
    }
    for name, message in sorted(workspace.all_messages().items()):
        files[f"delivered/{name}.md"] = (message.delivered + "\n").encode("utf-8")
    archive = build_archive(files, source_date_epoch(project.root))
    label = content_version(project.root, version)
    if is_dirty(project.root):
        note("warning: the working tree has uncommitted changes; the archive holds them")
    target = (output_dir or project.root / "dist") / archive_name(label)
    with contextlib.suppress(OSError):
        if target.read_bytes() == archive:
            if verbose:
                note(f"unchanged {project.relative(target)}")
            return EXIT_OK
    if target.exists():
        raise WriteError(
            f"{project.relative(target)} exists with different bytes; it was not replaced: "
            "remove it, or name this content with --content-version"
        )
    write_all([Output(target, project.relative(target), archive)])
    if verbose:
        note(f"wrote {project.relative(target)} ({len(files)} files, {len(archive):,} bytes)")
    return EXIT_OK
