"""The generated files, and the two ways to use them: write atomically, or check for drift.

One code path renders every output in memory; a mode decides what happens next.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from hookmsg.diagnostics import Diagnostic
from hookmsg.errors import WriteError
from hookmsg.project import GENERATED_FILES
from hookmsg.workspace import SKILL_INDEX_FILE, Workspace

MAX_DIFF_LINES = 60
FIX_COMMAND = "hookmsg build"


@dataclass(frozen=True)
class Generator:
    """One generated file: its name inside `generated/` and the function that renders it."""

    name: str
    render: Callable[[Workspace], str]


def _skill_index(workspace: Workspace) -> str:
    if workspace.skill_index is None:
        raise ValueError("the skill catalogue did not load")
    return workspace.skill_index.text


def _advisories(workspace: Workspace) -> str:
    from hookmsg.render.advisories import render_advisories

    return render_advisories(workspace)


def _inventory_md(workspace: Workspace) -> str:
    from hookmsg.render.inventory import render_inventory_markdown

    return render_inventory_markdown(workspace)


def _inventory_json(workspace: Workspace) -> str:
    from hookmsg.render.inventory import render_inventory_json

    return render_inventory_json(workspace)


def _wiring(workspace: Workspace) -> str:
    from hookmsg.render.wiring import render_wiring

    return render_wiring(workspace)


def _dispatch_table(workspace: Workspace) -> str:
    from hookmsg.render.dispatch_table import render_dispatch_table

    return render_dispatch_table(workspace)


GENERATORS: tuple[Generator, ...] = (
    Generator(SKILL_INDEX_FILE, _skill_index),
    Generator("advisories.json", _advisories),
    Generator("hook-message-inventory.md", _inventory_md),
    Generator("hook-message-inventory.json", _inventory_json),
    Generator("hook-wiring.md", _wiring),
    Generator("dispatch-table.json", _dispatch_table),
)
GENERATOR_NAMES = tuple(g.name for g in GENERATORS)
# `project.GENERATED_FILES` is the light copy that dodo.py reads; they must agree.
assert GENERATOR_NAMES == GENERATED_FILES, "outputs.GENERATORS and project.GENERATED_FILES differ"


@dataclass(frozen=True)
class Output:
    path: Path
    display: str
    content: bytes


def _registration(harness_id: str) -> Callable[[Workspace], str]:
    def render(workspace: Workspace) -> str:
        from hookmsg.render.registrations import render_registration

        harnesses = workspace.catalogue.harnesses
        registry = workspace.catalogue.registry
        if harnesses is None or registry is None:
            raise ValueError("the harness catalogue or the registry did not load")
        harness = next(h for h in harnesses.harnesses if h.id == harness_id)
        return render_registration(harness, registry)

    return render


def all_generators(workspace: Workspace) -> list[Generator]:
    """The fixed outputs, then one registration file per harness that has one."""
    generators = list(GENERATORS)
    harnesses = workspace.catalogue.harnesses
    for harness in harnesses.harnesses if harnesses is not None else []:
        if harness.registration is not None:
            name = f"{harness.id}/{harness.registration.file}"
            generators.append(Generator(name, _registration(harness.id)))
    return generators


def render_outputs(workspace: Workspace, names: Iterable[str] | None = None) -> list[Output]:
    """Render the chosen outputs (default: all) in memory. Writes nothing."""
    generators = all_generators(workspace)
    wanted = {g.name for g in generators} if names is None else set(names)
    outputs = []
    for generator in generators:
        if generator.name in wanted:
            path = workspace.project.generated_dir / generator.name
            text = generator.render(workspace)
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


def stale_files(workspace: Workspace) -> list[Path]:
    """Files in `generated/` that no generator produces (including leftover temporaries)."""
    folder = workspace.project.generated_dir
    if not folder.is_dir():
        return []
    produced = {folder / generator.name for generator in all_generators(workspace)}
    return sorted(
        (p for p in folder.rglob("*") if not p.is_dir() and p not in produced),
        key=lambda p: p.as_posix(),
    )


def write_all(
    changes: Iterable[Output], remove: Iterable[Path] = (), *, prune_up_to: Path | None = None
) -> None:
    """Replace every changed output, all or nothing.

    Every new content is first written and synced to a temporary file beside its
    target. Only when all of them exist are they renamed over the targets, each old
    target kept as a hard-linked backup until the last rename succeeded; a failure
    (or an interrupt) at any point puts every target back as it was. Then the files
    in `remove` are deleted, with the folders that this empties below `prune_up_to`.
    """
    staged: list[tuple[Path, Path]] = []
    backups: list[tuple[Path | None, Path]] = []
    try:
        for output in changes:
            staged.append(_stage(output))
        for temporary, target in staged:
            backups.append((_backup(target), target))
            temporary.replace(target)
        staged.clear()
    except BaseException as error:
        _restore(backups)
        if isinstance(error, OSError):
            where = f" {error.filename}" if error.filename else ""
            raise WriteError(
                f"cannot write{where}: {error.strerror or error}; every output is as it was"
            ) from None
        raise
    finally:
        for temporary, _ in staged:
            with contextlib.suppress(OSError):
                temporary.unlink()
        for backup, _ in backups:
            if backup is not None:
                with contextlib.suppress(OSError):
                    backup.unlink()
    for path in remove:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        if prune_up_to is not None:
            _remove_empty_parents(path.parent, prune_up_to)


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


def _restore(backups: list[tuple[Path | None, Path]]) -> None:
    for backup, target in reversed(backups):
        with contextlib.suppress(OSError):
            if backup is None:
                target.unlink()
            else:
                backup.replace(target)


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


DRIFT_CODES = {"drifted": "G002", "missing": "G003", "stale": "G004"}
_DRIFT_TEXT = {
    "drifted": "differs from what the sources produce",
    "missing": "is missing",
    "stale": "is produced by nothing",
}


@dataclass(frozen=True)
class Drift:
    """One generated file that differs from what the sources produce."""

    display: str
    state: str  # "drifted", "missing" or "stale"
    diff: tuple[str, ...] = ()

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.display, 1, 1, DRIFT_CODES[self.state], _DRIFT_TEXT[self.state])


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
        found += [Drift(workspace.project.relative(p), "stale") for p in stale_files(workspace)]
    return found


def format_drift_details(drift: list[Drift]) -> str:
    """The diffs and the one command that fixes everything, for people."""
    lines: list[str] = []
    for item in drift:
        if item.diff:
            lines += ["\n", *item.diff]
    lines.append(f"\nFix: run `{FIX_COMMAND}`, then commit the generated files.\n")
    return "".join(lines)
