"""The generated files, and the two ways to use them: write atomically, or check for drift.

One code path renders every output in memory; a mode decides what happens next.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from hookmsg.catalogue.models import HarnessCatalogue
from hookmsg.diagnostics import Diagnostic
from hookmsg.errors import WriteError
from hookmsg.jsonout import dump_json
from hookmsg.outputs.declared import MANIFEST, OUTPUTS, Leftovers, survey
from hookmsg.pipeline.workspace import Workspace
from hookmsg.render.advisories_json import render_advisories
from hookmsg.render.dispatch_table import render_dispatch_table
from hookmsg.render.inventory import render_inventory_json, render_inventory_markdown
from hookmsg.render.loaded import LoadedProject
from hookmsg.render.registrations import render_registration
from hookmsg.render.rules import DriftState, drift
from hookmsg.render.rules_table import render_rules_table
from hookmsg.render.wiring import render_wiring

MAX_DIFF_LINES = 60
FIX_COMMAND = "hookmsg build"


@dataclass(frozen=True)
class Generator:
    """One generated file: its name inside `generated/` and the function that renders it."""

    name: str
    render: Callable[[LoadedProject], str]
    task: str = ""


def render_skill_index_file(loaded: LoadedProject) -> str:
    return loaded.skill_index.text


def render_registration_file(loaded: LoadedProject, harness_id: str) -> str:
    harnesses = loaded.catalogue.harnesses
    harness = next(h for h in harnesses.harnesses if h.id == harness_id)
    return render_registration(harness, loaded.catalogue.registry)


def render_manifest(loaded: LoadedProject) -> str:
    names = [g.name for g in _generators(loaded.catalogue.harnesses)]
    record = {
        "about": "Every file hookmsg writes into this folder; build removes no other file. "
        "Generated: do not edit.",
        "outputs": sorted(names),
    }
    return dump_json(record)


def _for_harness(harness_id: str) -> Callable[[LoadedProject], str]:
    def render(loaded: LoadedProject) -> str:
        return render_registration_file(loaded, harness_id)

    return render


# The renderer of every fixed output that `declared.OUTPUTS` names, by file name.
RENDERERS: dict[str, Callable[[LoadedProject], str]] = {
    "skill-index.md": render_skill_index_file,
    "advisories.json": render_advisories,
    "hook-message-inventory.md": render_inventory_markdown,
    "hook-message-inventory.json": render_inventory_json,
    "hook-wiring.md": render_wiring,
    "dispatch-table.json": render_dispatch_table,
    "rules.md": render_rules_table,
    MANIFEST: render_manifest,
}
# The fixed outputs, in declaration order (tests may replace one to make it fail).
GENERATORS: tuple[Generator, ...] = tuple(
    Generator(name, RENDERERS[name], spec.task) for spec in OUTPUTS for name in spec.files
)


def all_generators(workspace: Workspace) -> list[Generator]:
    """The fixed outputs, then one registration file per harness that has one."""
    return _generators(workspace.catalogue.harnesses)


def _generators(harnesses: HarnessCatalogue | None) -> list[Generator]:
    generators = list(GENERATORS)
    for spec in OUTPUTS:
        if spec.per_harness:
            for harness in harnesses.harnesses if harnesses is not None else []:
                if harness.registration is not None:
                    name = f"{harness.id}/{harness.registration.file}"
                    render = _for_harness(harness.id)
                    generators.append(Generator(name, render, spec.task))
    return generators


GENERATOR_NAMES = tuple(g.name for g in GENERATORS)


@dataclass(frozen=True)
class Output:
    path: Path
    display: str
    content: bytes


def render_outputs(workspace: Workspace, names: Iterable[str] | None = None) -> list[Output]:
    """Render the chosen outputs (default: all) in memory. Writes nothing."""
    generators = all_generators(workspace)
    wanted = {g.name for g in generators} if names is None else set(names)
    loaded: LoadedProject | None = None
    outputs = []
    for generator in generators:
        if generator.name in wanted:
            loaded = loaded or workspace.loaded()
            path = workspace.project.generated_dir / generator.name
            text = generator.render(loaded)
            outputs.append(Output(path, workspace.project.relative(path), text.encode("utf-8")))
    return outputs


def _read_committed(path: Path) -> bytes | str | None:
    """The committed bytes; None if missing; a reason if there but unreadable.

    Only regular files are opened: a FIFO put in place of an output would block a read.
    """
    try:
        info = path.lstat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"
    try:
        return path.read_bytes()
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"


def leftovers(workspace: Workspace) -> Leftovers:
    """What the generated folder holds besides the outputs, links never followed."""
    produced = {generator.name for generator in all_generators(workspace)}
    return survey(workspace.project.generated_dir, produced)


def refused_leftovers(workspace: Workspace) -> list[Diagnostic]:
    """G005 for each file hookmsg did not write, G006 for each link, in the generated folder."""
    left = leftovers(workspace)
    refused: tuple[tuple[DriftState, tuple[Path, ...]], ...] = (
        ("foreign", left.foreign),
        ("link", left.links),
    )
    return [
        Drift(workspace.project.relative(path), state).diagnostic()
        for state, paths in refused
        for path in paths
    ]


def _confined(path: Path, folder: Path) -> bool:
    """Is `path`'s folder, with every link resolved, the same folder inside `folder`?"""
    real_folder = os.path.realpath(folder)
    try:
        relative = path.parent.relative_to(folder)
    except ValueError:
        return False
    expected = os.path.join(real_folder, *relative.parts)  # noqa: PTH118
    return os.path.realpath(path.parent) == expected


def write_all(
    changes: Iterable[Output],
    remove: Iterable[Path] = (),
    *,
    folder: Path | None = None,
    keep_old: bool = True,
) -> None:
    """Replace every changed output and remove every file in `remove`, all or nothing.

    Every new content is first written and synced to a temporary file beside its
    target. Only when all of them exist are they renamed over the targets, each old
    target kept as a hard-linked backup; each file to remove is renamed to a backup
    too. A failure (or an interrupt) at any point puts every target back as it was.
    When `folder` is given, nothing outside it is touched: a target whose folder is
    reached through a link, or a removal that is not a regular file, is refused.
    Afterwards the folders that the removals emptied are pruned, up to `folder`.
    `keep_old=False` (a stage, thrown away whole on failure) takes no backups of the
    files it replaces.
    """
    changes = list(changes)
    remove = list(remove)
    if folder is not None:
        _refuse_outside(changes, remove, folder)
    staged: list[tuple[Path, Path]] = []
    backups: list[tuple[Path | None, Path]] = []
    try:
        for output in changes:
            staged.append(_stage(output))
        for temporary, target in staged:
            backups.append((_backup(target) if keep_old else None, target))
            temporary.replace(target)
        staged.clear()
        for path in remove:
            moved = path.with_name(f".{path.name}.{os.getpid()}.bak")
            path.replace(moved)
            backups.append((moved, path))
    except BaseException as error:
        with _signals_deferred():  # a second Ctrl-C or SIGTERM waits for the restore
            kept = _restore(backups)
            for temporary, _ in staged:
                with contextlib.suppress(OSError):
                    temporary.unlink()
        if kept:
            raise WriteError(
                f"{_reason(error)}; could not put back {len(kept)} output(s); their previous "
                f"contents are kept in: {', '.join(str(p) for p in kept)}"
            ) from None
        if isinstance(error, OSError):
            raise WriteError(f"{_reason(error)}; every output is as it was") from None
        raise
    for kept_copy, _ in backups:
        if kept_copy is not None:
            with contextlib.suppress(OSError):
                kept_copy.unlink()
    if folder is not None:
        for path in remove:
            _remove_empty_parents(path.parent, folder)


def _refuse_outside(changes: list[Output], remove: list[Path], folder: Path) -> None:
    """WriteError for a target outside `folder` (or behind a link), or a non-file removal."""
    for path in [*(o.path for o in changes), *remove]:
        if not _confined(path, folder):
            raise WriteError(f"refused to write {path}: it is outside {folder} or behind a link")
    for path in remove:
        if not stat.S_ISREG(path.lstat().st_mode):
            raise WriteError(f"refused to remove {path}: it is not a regular file")


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        where = f" {error.filename}" if error.filename else ""
        return f"cannot write{where}: {error.strerror or error}"
    return "interrupted" if isinstance(error, KeyboardInterrupt) else str(error)


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block ends (main thread, POSIX; else a no-op)."""
    deferred = {signal.SIGINT, signal.SIGTERM}
    can_block = hasattr(signal, "pthread_sigmask") and (
        threading.current_thread() is threading.main_thread()
    )
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, deferred) if can_block else None
    try:
        yield
    finally:
        if previous is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _backup(target: Path) -> Path | None:
    """A hard link to `target`'s current content (None if it does not exist yet)."""
    if not target.exists():
        return None
    backup = target.with_name(f".{target.name}.{os.getpid()}.bak")
    with contextlib.suppress(FileNotFoundError):
        backup.unlink()
    try:
        os.link(target, backup)
    except OSError:  # no hard links here: a copy does the same job
        backup.write_bytes(target.read_bytes())
    return backup


def _restore(backups: list[tuple[Path | None, Path]]) -> list[Path]:
    """Put every target back; remove each backup once its target is verified.

    Returns the backups that could not be put back (kept, so no content is lost).
    """
    kept: list[Path] = []
    for backup, target in reversed(backups):
        try:
            if backup is None:
                target.unlink(missing_ok=True)
                continue
            if backup.exists() and not (target.exists() and backup.samefile(target)):
                backup.replace(target)
            # Renaming a hard link over its twin does nothing: remove the twin.
            if backup.exists() and backup.samefile(target):
                backup.unlink()
        except OSError:
            pass
        if backup is not None and backup.exists():
            kept.append(backup)
    return kept


def _remove_empty_parents(folder: Path, stop: Path) -> None:
    """Remove the empty folders from `folder` up to, not including, `stop`."""
    with contextlib.suppress(OSError):
        while folder != stop and stop in folder.parents and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent


def _stage(output: Output) -> tuple[Path, Path]:
    """Write `output` to a synced temporary file in its target's folder."""
    output.path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(
        prefix=f".{output.path.name}.", suffix=".tmp", dir=output.path.parent
    )
    temporary = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(output.content)
            handle.flush()
            os.fsync(handle.fileno())
        temporary.chmod(0o644)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    return temporary, output.path


# States that `build` does not repair: it refuses and writes nothing.
REFUSED_STATES: frozenset[DriftState] = frozenset({"foreign", "link"})


@dataclass(frozen=True)
class Drift:
    """One generated file that differs from what the sources produce."""

    display: str
    state: DriftState
    diff: tuple[str, ...] = ()

    def diagnostic(self, *, blocked: bool = False) -> Diagnostic:
        """The finding, carrying its diff and its fix for the machine formats."""
        fix = "" if self.state in REFUSED_STATES else fix_advice(blocked=blocked)
        return drift(self.display, self.state, diff="".join(self.diff), fix=fix)


def _diff(display: str, committed: bytes, expected: bytes) -> tuple[str, ...]:
    old = committed.decode("utf-8", errors="replace").splitlines(keepends=True)
    new = expected.decode("utf-8", errors="replace").splitlines(keepends=True)
    lines = [
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
        for line in difflib.unified_diff(
            old, new, f"{display} (committed)", f"{display} (from the sources)"
        )
    ]
    if len(lines) > MAX_DIFF_LINES:
        hidden = len(lines) - MAX_DIFF_LINES
        lines = [*lines[:MAX_DIFF_LINES], f"... diff cut here: {hidden} more lines\n"]
    return tuple(lines)


def find_drift(workspace: Workspace, outputs: list[Output], *, stale: bool = True) -> list[Drift]:
    """Compare rendered outputs with the files on disk. Reads only; never writes."""
    found = []
    for output in outputs:
        committed = _read_committed(output.path)
        if committed is None:
            found.append(Drift(output.display, "missing"))
        elif isinstance(committed, str):
            found.append(Drift(output.display, "drifted", (f"{output.display} {committed}\n",)))
        elif committed != output.content:
            diff = _diff(output.display, committed, output.content)
            found.append(Drift(output.display, "drifted", diff))
    if stale:
        left = leftovers(workspace)
        states: tuple[tuple[DriftState, tuple[Path, ...]], ...] = (
            ("stale", left.stale),
            ("foreign", left.foreign),
            ("link", left.links),
        )
        for state, paths in states:
            found += [Drift(workspace.project.relative(p), state) for p in paths]
    return found


def fix_advice(*, blocked: bool) -> str:
    """The one line that says how to fix drift; never a command that would refuse.

    `blocked`: validation failed or the generated folder holds what build refuses to
    touch, so `hookmsg build` would refuse until those findings are fixed.
    """
    if blocked:
        return (
            "Fix: fix the findings above first (`hookmsg explain CODE` says how); "
            f"then run `{FIX_COMMAND}` and commit the generated files."
        )
    return f"Fix: run `{FIX_COMMAND}`, then commit the generated files."


def format_drift_details(drift: list[Drift], *, blocked: bool = False) -> str:
    """The diffs and the advice that fixes everything, for people."""
    lines: list[str] = []
    for item in drift:
        if item.diff:
            lines += ["\n", *item.diff]
    lines.append(f"\n{fix_advice(blocked=blocked)}\n")
    return "".join(lines)
