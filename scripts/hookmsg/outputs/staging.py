"""One commit over every output: the generated folder is replaced whole, never file by file.

A build writes into a stage, a private copy of the generated folder under
`.hookmsg-cache/stage` (hard links of the files it does not change, so staging costs no
copy), and then swaps the stage with the generated folder in one system call
(`renameat2(RENAME_EXCHANGE)`, Linux). Whatever kills the build, SIGKILL included, the
generated folder is at every instant either the old folder or the new one: every reader
sees wholly old or wholly new outputs. A `doit` run opens one stage for all its tasks
and commits it once, after the last one (see `dodo.py`); `hookmsg build` opens and
commits its own.

Where the exchange does not exist (not Linux, a file system without it, a folder on
another device) the stage's changes are applied file by file instead, all or nothing
within the process (`outputs.write_all`), but not across a SIGKILL.

The exclusive project lock is held from opening the stage to its commit, so no other
build or check runs in between. Standard library only; `ctypes` is loaded at commit.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from hookmsg.errors import WriteError
from hookmsg.lock import held_lock, lock_if_free

SCRATCH = ".hookmsg-cache"
STAGE = "stage"
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
# The exchange is not available here: fall back to the file-by-file write.
_UNSUPPORTED = {errno.ENOSYS, errno.EINVAL, errno.EXDEV, errno.ENOTSUP, errno.EPERM}


@dataclass
class Stage:
    """An open stage: `path` mirrors `generated`, and holds this run's new outputs."""

    root: Path
    generated: Path
    path: Path
    changed: set[str] = field(default_factory=set)  # names written or removed in the stage
    lock: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    def inside(self, target: Path) -> Path:
        """Where `target` (a path in the generated folder) stands in the stage."""
        return self.path / target.relative_to(self.generated)


_OPEN: dict[Path, Stage] = {}


def scratch_folder(root: Path) -> Path:
    """`.hookmsg-cache` in `root`: made on first use, git-ignored by a file of its own."""
    folder = root / SCRATCH
    if os.path.lexists(folder) and (folder.is_symlink() or not folder.is_dir()):
        raise WriteError(f"refused to stage outputs in {folder}: it is not a real folder")
    folder.mkdir(exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# hookmsg's scratch files: never commit them\n*\n", encoding="utf-8")
    return folder


def _discard_leftovers(scratch: Path) -> None:
    """Remove what an interrupted run left: a stage, its temporaries, an old folder."""
    for entry in scratch.iterdir():
        if entry.name.startswith(STAGE):
            remove_tree(entry)


def clear_leftovers(root: Path) -> None:
    """What a killed build left in the scratch folder, removed unless a build is running.

    `dodo.py` calls it on every run, so a run with nothing to rebuild cleans up too.
    """
    scratch = root / SCRATCH
    if not scratch.is_dir() or scratch.is_symlink():
        return
    with lock_if_free(root) as free:
        if free and not _OPEN:
            with contextlib.suppress(OSError):
                _discard_leftovers(scratch)
                _tidy(scratch)


def remove_tree(path: Path) -> None:
    """Remove `path` and everything below it, links removed, never followed."""
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path)


def _mirror(source: Path, target: Path) -> None:
    """`target` as a copy of the folder `source`: hard links, same modes; links as links."""
    target.mkdir()
    if not source.is_dir():
        return
    target.chmod(stat.S_IMODE(source.stat().st_mode))
    for here, dirs, names in os.walk(source, followlinks=False):
        base = Path(here)
        into = target / base.relative_to(source)
        for name in dirs:
            if (base / name).is_symlink():
                (into / name).symlink_to((base / name).readlink())
                continue
            (into / name).mkdir()
            (into / name).chmod(stat.S_IMODE((base / name).stat().st_mode))
        dirs[:] = [d for d in dirs if not (base / d).is_symlink()]
        for name in names:
            _mirror_file(base / name, into / name)


def _mirror_file(source: Path, target: Path) -> None:
    mode = source.lstat().st_mode
    if stat.S_ISLNK(mode):
        target.symlink_to(source.readlink())
    elif stat.S_ISREG(mode):
        try:
            os.link(source, target, follow_symlinks=False)
        except OSError:  # no hard links on this file system: a copy does the same job
            shutil.copy2(source, target, follow_symlinks=False)
    else:  # a FIFO or a device: it cannot be carried over, and must not be lost
        raise WriteError(f"refused to build: {source} is not a regular file, folder or link")


def begin(root: Path, generated: Path) -> Stage:
    """The open stage for `generated`, opened now (and the project locked) if need be."""
    if generated in _OPEN:
        return _OPEN[generated]
    lock = contextlib.ExitStack()
    lock.enter_context(held_lock(root))  # released at commit or discard
    try:
        scratch = scratch_folder(root)
        _discard_leftovers(scratch)
        building = Path(tempfile.mkdtemp(prefix=f"{STAGE}.", suffix=".tmp", dir=scratch))
        building.rmdir()
        _mirror(generated, building)
        path = scratch / STAGE
        building.rename(path)  # a stage exists only complete
    except OSError as error:
        lock.close()
        where = f" {error.filename}" if error.filename else ""
        raise WriteError(
            f"cannot stage the outputs{where}: {error.strerror or error}; every output is as it was"
        ) from None
    except BaseException:
        lock.close()
        raise
    stage = Stage(root, generated, path, lock=lock)
    _OPEN[generated] = stage
    return stage


def current(generated: Path) -> Stage | None:
    """The stage this process has open for `generated`, if any."""
    return _OPEN.get(generated)


def pending(generated: Path) -> bool:
    """Has this process staged outputs for `generated` that are not committed yet?"""
    stage = _OPEN.get(generated)
    return stage is not None and bool(stage.changed)


def discard(generated: Path) -> None:
    """Throw the stage away; the generated folder stays as it was."""
    stage = _OPEN.pop(generated, None)
    if stage is None:
        return
    try:
        with contextlib.suppress(OSError):
            remove_tree(stage.path)
            _tidy(stage.path.parent)
    finally:
        stage.lock.close()


def _tidy(scratch: Path) -> None:
    """Remove the scratch folder when it holds nothing but its own `.gitignore`."""
    if [entry.name for entry in scratch.iterdir()] == [".gitignore"]:
        (scratch / ".gitignore").unlink()
        scratch.rmdir()


def commit(generated: Path) -> None:
    """Put the stage in place of the generated folder in one step; then drop the old one."""
    stage = _OPEN.get(generated)
    if stage is None:
        return
    try:
        if stage.changed:
            _swap(stage)
    finally:
        discard(generated)


def _swap(stage: Stage) -> None:
    if not os.path.lexists(stage.generated):
        stage.generated.parent.mkdir(parents=True, exist_ok=True)
        os.rename(stage.path, stage.generated)  # noqa: PTH104 (one rename, on purpose)
        return
    if not stage.generated.is_symlink() and _exchange(stage.path, stage.generated):
        return  # the old folder now stands at the stage's path; `discard` removes it
    _apply_by_file(stage)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically; False when this system or file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    renameat2.argtypes += [ctypes.c_uint]
    done = renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), str(second))


def _apply_by_file(stage: Stage) -> None:
    """The fallback: each changed name copied or removed in place, all or nothing."""
    from hookmsg.outputs.generated import Output, write_all

    changes: list[Output] = []
    removals: list[Path] = []
    for name in sorted(stage.changed):
        staged = stage.path / name
        if staged.is_file():
            changes.append(Output(stage.generated / name, name, staged.read_bytes()))
        elif os.path.lexists(stage.generated / name):
            removals.append(stage.generated / name)
    write_all(changes, removals, folder=stage.generated)


@contextlib.contextmanager
def one_build(root: Path, generated: Path) -> Iterator[Stage]:
    """A stage for one `hookmsg build`: the open one of this `doit` run, else a new one.

    A stage opened here is committed when the block ends normally, discarded otherwise.
    """
    shared = current(generated)
    if shared is not None:
        yield shared
        return
    stage = begin(root, generated)
    try:
        yield stage
    except BaseException:
        discard(generated)
        raise
    commit(generated)
