"""`hookmsg package`: check, then write the reproducible release archive under `dist/`."""

from __future__ import annotations

from pathlib import Path

from hookmsg.commands.build import build
from hookmsg.config import Project
from hookmsg.errors import EXIT_OK, FindingsError
from hookmsg.outputs import Output, render_outputs, write_all
from hookmsg.package import build_archive, source_date_epoch
from hookmsg.project import archive_name
from hookmsg.report import note
from hookmsg.workspace import load_workspace


def package(project: Project, output_dir: Path | None = None, fmt: str = "text") -> int:
    if build(project, check=True, fmt=fmt) != EXIT_OK:
        raise FindingsError("package refused: `hookmsg check` fails; run `hookmsg build` first")
    workspace = load_workspace(project)
    generated = project.generated_dir
    files = {
        f"generated/{o.path.relative_to(generated).as_posix()}": o.content
        for o in render_outputs(workspace)
    }
    for name, message in sorted(workspace.all_messages().items()):
        files[f"delivered/{name}.md"] = (message.delivered + "\n").encode("utf-8")
    archive = build_archive(files, source_date_epoch(project.root))
    target = (output_dir or project.root / "dist") / archive_name()
    write_all([Output(target, project.relative(target), archive)])
    note(f"wrote {project.relative(target)} ({len(files)} files, {len(archive):,} bytes)")
    return EXIT_OK
