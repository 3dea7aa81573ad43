"""`hookmsg package`: check, then write the install root as a reproducible archive under `dist/`."""

from __future__ import annotations

from pathlib import Path

from hookmsg.commands.build import build
from hookmsg.config import Project
from hookmsg.errors import EXIT_OK, FindingsError
from hookmsg.outputs import Output, write_all
from hookmsg.package import build_archive, source_date_epoch
from hookmsg.project import archive_name
from hookmsg.report import note
from hookmsg.workspace import load_workspace


def package(project: Project, output_dir: Path | None = None, fmt: str = "text") -> int:
    if build(project, check=True, fmt=fmt) != EXIT_OK:
        raise FindingsError("package refused: `hookmsg check` fails; run `hookmsg build` first")
    from hookmsg.install_root import install_root_files

    workspace = load_workspace(project)
    files = install_root_files(workspace)
    archive = build_archive(files, source_date_epoch(project.root))
    target = (output_dir or project.root / "dist") / archive_name()
    write_all([Output(target, project.relative(target), archive)])
    note(f"wrote {project.relative(target)} ({len(files)} files, {len(archive):,} bytes)")
    return EXIT_OK
