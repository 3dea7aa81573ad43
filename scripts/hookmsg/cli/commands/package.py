"""`hookmsg package`: check, then write the install root as a reproducible archive under `dist/`."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from hookmsg.cli.commands.build import build
from hookmsg.errors import EXIT_OK, FindingsError, HookmsgError, WriteError
from hookmsg.outputs.check_cache import Entries, entries
from hookmsg.outputs.generated import Output, write_all
from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.rules import archive_through_link
from hookmsg.project.settings import Project
from hookmsg.release.archive import archive_name, build_archive, source_date_epoch
from hookmsg.release.content_version import content_version, is_dirty
from hookmsg.report import note


def _inputs(project: Project) -> Entries | None:
    """Every input and output, bytes and change time (None if something cannot be read)."""
    try:
        return entries(project.root, [])
    except (OSError, ValueError, HookmsgError):
        return None


def _refuse_a_way_out(root: Path, folder: Path) -> None:
    """K005 when `folder` (the default `dist`), links resolved, lies outside the root."""
    real = os.path.realpath(folder)
    if not real.startswith(os.path.realpath(root) + os.sep):
        raise archive_through_link(folder, real)


def package(
    project: Project,
    output_dir: Path | None = None,
    fmt: str = "text",
    *,
    version: str | None = None,
    verbose: bool = False,
) -> int:
    epoch = source_date_epoch(project.root)  # a bad value is refused before any work
    if output_dir is None:
        _refuse_a_way_out(project.root, project.root / "dist")
    before = _inputs(project)
    if build(project, check=True, fmt=fmt) != EXIT_OK:
        raise FindingsError(
            "package refused: `hookmsg check` fails (see its findings above); nothing was written"
        )
    from hookmsg.install.contents import install_root_files

    workspace = load_workspace(project)
    files = install_root_files(workspace)
    archive = build_archive(files, epoch)
    if before is None or _inputs(project) != before:
        # The archive must hold exactly the bytes the check validated.
        raise FindingsError(
            "package refused: the sources or outputs changed while it ran; nothing was "
            "written; run it again"
        )
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
