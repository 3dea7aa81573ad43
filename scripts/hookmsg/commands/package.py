"""`hookmsg package`: check, then write the install root as a reproducible archive under `dist/`."""

from __future__ import annotations

import contextlib
from pathlib import Path

from hookmsg.archive import archive_name, build_archive, source_date_epoch
from hookmsg.check_cache import Entries, entries
from hookmsg.commands.build import build
from hookmsg.config import Project
from hookmsg.content_version import content_version, is_dirty
from hookmsg.errors import EXIT_OK, FindingsError, HookmsgError, WriteError
from hookmsg.outputs import Output, write_all
from hookmsg.report import note
from hookmsg.workspace import load_workspace


def _inputs(project: Project) -> Entries | None:
    """Every input and output, bytes and change time (None if something cannot be read)."""
    try:
        return entries(project.root, [])
    except (OSError, ValueError, HookmsgError):
        return None


def package(
    project: Project,
    output_dir: Path | None = None,
    fmt: str = "text",
    *,
    version: str | None = None,
    verbose: bool = False,
) -> int:
    before = _inputs(project)
    if build(project, check=True, fmt=fmt) != EXIT_OK:
        raise FindingsError(
            "package refused: `hookmsg check` fails (see its findings above); nothing was written"
        )
    from hookmsg.install_root import install_root_files

    workspace = load_workspace(project)
    files = install_root_files(workspace)
    archive = build_archive(files, source_date_epoch(project.root))
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
