"""`hookmsg watch`: build once, then again after every save, with one status line per run.

File events come from watchfiles (Rust `notify`: inotify, FSEvents, ReadDirectoryChangesW,
polling where none works), which debounces an editor's burst of writes into one change
set. Only the folders that hold inputs are watched, each without its subfolders, so a
large `.venv` or `node_modules` beside them costs nothing; the folder list is taken again
after each run, so a new skill folder is watched from the next run on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from hookmsg.cli.commands.build import build
from hookmsg.errors import EXIT_OK, HookmsgError
from hookmsg.inputs.paths import is_inside
from hookmsg.inputs.sourced_files import declared_sources, sourced_files
from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.defaults import PYPROJECT
from hookmsg.project.pyproject import find_root
from hookmsg.project.settings import Project, load_project
from hookmsg.report import shown_path


def _status(text: str) -> None:
    """The run's one line, on standard error (standard output carries the findings)."""
    sys.stderr.write(f"watch: {text}\n")
    sys.stderr.flush()


def _build_once(fmt: str, verbose: bool) -> tuple[Project | None, str]:
    """Build with the settings as they are now; the project and the run's outcome."""
    try:
        project = load_project()
        code = build(project, check=False, fmt=fmt, verbose=verbose)
    except HookmsgError as error:
        sys.stderr.write(f"{error}\n")
        return None, "error, nothing written"
    sys.stdout.flush()
    return project, "ok" if code == EXIT_OK else "problems found, nothing written"


def _inputs(project: Project) -> tuple[set[Path], set[Path]]:
    """The folders to watch, and the files in them that are inputs when they are not
    under the messages or catalogue folder (pyproject.toml, sourced and named files)."""
    root = project.root
    files = {root / PYPROJECT}
    folders = {root, project.messages_dir, project.catalog_dir}
    skills = project.catalog_file("skills.toml")
    try:
        named = [path for _, path in declared_sources(skills)]
        files.update(root / text for text in sourced_files(root, skills))
        files.update(root / text for text in load_workspace(project).referenced_paths())
    except (HookmsgError, OSError, ValueError):
        named = []  # a broken catalogue is the build's finding; the folders above still count
    folders.update(root / text for text in named)
    if project.catalog_dir.is_dir():  # catalogue data may sit one folder down
        folders.update(p for p in project.catalog_dir.iterdir() if p.is_dir())
    folders.update(path.parent for path in files)
    generated = str(project.generated_dir)
    folders = {f for f in folders if f.is_dir() and not is_inside(str(f), generated)}
    return folders, files


def _relevant(project: Project, files: set[Path]) -> Callable[[object, str], bool]:
    """Is a changed path an input? Messages are `.md` files of the messages folder, the
    catalogue is its `.toml` and `.md` files; the rest are the files `_inputs` named."""
    generated = str(project.generated_dir)
    messages, catalogue = str(project.messages_dir), str(project.catalog_dir)

    def relevant(change: object, path: str) -> bool:
        changed = Path(path)
        if changed.name.startswith((".", "#")) or is_inside(path, generated):
            return False
        if changed in files:
            return True
        if str(changed.parent) == messages:
            return changed.suffix == ".md"
        return is_inside(path, catalogue) and changed.suffix in {".toml", ".md"}

    return relevant


def _shown(project: Project | None, changes: Iterable[tuple[object, str]]) -> str:
    paths = sorted({shown_path(project.relative(Path(p))) if project else p for _, p in changes})
    return ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def _plan(project: Project | None) -> tuple[set[Path], Callable[[object, str], bool]]:
    """The folders to watch and the filter of changes that start a run."""
    if project is None:  # no settings to read the folders from: wait for pyproject.toml
        return {find_root()}, lambda change, path: Path(path).name == PYPROJECT
    folders, files = _inputs(project)
    return folders, _relevant(project, files)


def _current() -> Project | None:
    try:
        return load_project()
    except HookmsgError:
        return None  # the first run reports it


def watch(fmt: str, *, verbose: bool = False) -> int:
    """Run until interrupted (Ctrl-C or SIGTERM); exit 0 then.

    The first run starts once the watcher is in place (its first idle tick), so a save
    made after the first status line is never missed.
    """
    import watchfiles

    project, runs = _current(), 0
    try:
        while True:
            folders, relevant = _plan(project)
            for changes in watchfiles.watch(
                *sorted(folders),
                watch_filter=relevant,
                recursive=False,
                raise_interrupt=True,
                yield_on_timeout=True,
                rust_timeout=1000,
            ):
                if runs and not changes:
                    continue  # an idle tick
                runs += 1
                shown = _shown(project, changes) if runs > 1 else "start"
                project, outcome = _build_once(fmt, verbose)
                _status(f"run {runs} ({shown}): {outcome}")
                if _plan(project)[0] != folders:
                    break  # watch the folders as they are now
    except KeyboardInterrupt:
        _status(f"stopped after {runs} run{'s' if runs != 1 else ''}")
    return EXIT_OK
