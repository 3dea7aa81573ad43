"""`outputs/staging` and `outputs/generated` under failed and interrupted runs: the
generated files stay as they were, the next run recovers.

Every case gives the build real work first (each generated file is hand-edited, so
every output would be rewritten), then makes the run fail at one point:

- in-process: a renderer that raises, a full disk (ENOSPC) while creating, writing or
  syncing a temporary file, while keeping a backup or while renaming, a directory
  where an output should be, and Ctrl-C arriving in the middle of the writes;
- in a subprocess whose build is paused at one point by a `-c` wrapper (while
  rendering, after two temporary files are synced, after two renames): SIGINT or
  SIGTERM, and SIGKILL, which no program can clean up after.

After the failure every file in `generated/` is byte-identical to before and no
`.*.tmp` or `.*.bak` file is left anywhere; after SIGKILL the next build still
recovers by itself. Then the failure is removed and the next `hookmsg build` exits
0, `hookmsg check` exits 0, and no stray file remains.

What a corrupt doit state costs is `tests/test_inputs_doit_state.py`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import hookmsg.outputs.generated
import hookmsg.outputs.staging
from hookmsg.errors import FindingsError
from hookmsg.outputs.generated import GENERATORS, Generator
from tests.support.diagnostics import Result
from tests.support.repository import files_under, leftovers

pytestmark = pytest.mark.slow

Cli = Callable[..., Result]
Tree = dict[str, bytes]


@pytest.fixture(autouse=True)
def _plain_text_output(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


def hand_edit_every_output(root: Path) -> Tree:
    """Append a line to every generated file, so that a build rewrites all of them."""
    for path in sorted((root / "generated").rglob("*")):
        if path.is_file():
            path.write_bytes(path.read_bytes() + b"hand edit\n")
    return files_under(root / "generated")


def assert_recovers(root: Path, cli: Cli, committed: Tree) -> None:
    """With the failure gone, the next build and check succeed and nothing is left over."""
    build = cli("build")
    assert build.code == 0, build.out + build.err
    check = cli("check")
    assert check.code == 0, check.out + check.err
    assert files_under(root / "generated") == committed
    assert leftovers(root) == []


@pytest.fixture
def committed(project: Path) -> Tree:
    return files_under(project / "generated")


# =========================================================================== in-process failures


def _failing_renderer(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    """The last fixed generator raises `error`; the ones before it render normally."""
    last = GENERATORS[-1]

    def render(workspace: object) -> str:
        raise error

    monkeypatch.setattr(
        hookmsg.outputs.generated, "GENERATORS", (*GENERATORS[:-1], Generator(last.name, render))
    )


def test_renderer_that_raises_writes_nothing(project: Path, cli: Cli, committed: Tree) -> None:
    before = hand_edit_every_output(project)
    with pytest.MonkeyPatch.context() as patch:
        _failing_renderer(patch, RuntimeError("renderer exploded"))
        try:
            code: int | None = cli("build").code
        except RuntimeError:
            code = None  # a programming error may surface as such; it must not write
    assert code != 0
    assert files_under(project / "generated") == before
    assert leftovers(project) == []
    assert_recovers(project, cli, committed)


@pytest.mark.parametrize(
    "case",
    [
        (FindingsError("the wiring cannot be rendered"), 1, "the wiring cannot be rendered"),
        (KeyboardInterrupt(), 130, "interrupted"),
    ],
    ids=["hookmsg-error", "ctrl-c"],
)
def test_renderer_failure_is_reported_and_writes_nothing(
    project: Path, cli: Cli, committed: Tree, case: tuple[BaseException, int, str]
) -> None:
    error, code, text = case
    before = hand_edit_every_output(project)
    with pytest.MonkeyPatch.context() as patch:
        _failing_renderer(patch, error)
        result = cli("build")
    assert result.code == code, result.out + result.err
    assert text in result.err
    assert "Traceback" not in result.err
    assert files_under(project / "generated") == before
    assert leftovers(project) == []
    assert_recovers(project, cli, committed)


def _enospc() -> OSError:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class _Counter:
    """Call `real` until the `fail_at`-th call, which raises `error` instead."""

    def __init__(self, real: Callable[..., object], fail_at: int, error: BaseException) -> None:
        self.real, self.fail_at, self.error, self.calls = real, fail_at, error, 0

    def __call__(self, *args: object, **kwargs: object) -> object:
        self.calls += 1
        if self.calls == self.fail_at:
            raise self.error
        return self.real(*args, **kwargs)


class _FullDiskFile:
    """A file object whose `write` fails like a full disk."""

    def __init__(self, handle: object) -> None:
        self._handle = handle

    def write(self, data: bytes) -> int:
        raise _enospc()

    def __getattr__(self, name: str) -> object:
        return getattr(self._handle, name)

    def __enter__(self) -> _FullDiskFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()  # type: ignore[attr-defined]


def _count_outputs(root: Path) -> int:
    return len(files_under(root / "generated"))


Sabotage = Callable[[pytest.MonkeyPatch, Path], None]


def _fsync_full(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    monkeypatch.setattr(os, "fsync", _Counter(os.fsync, 1, _enospc()))


def _write_full(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    real = os.fdopen
    calls: list[int] = []

    def fdopen(fd: int, *args: object, **kwargs: object) -> object:
        handle = real(fd, *args, **kwargs)  # type: ignore[call-overload]
        calls.append(fd)
        return _FullDiskFile(handle) if len(calls) == 3 else handle

    monkeypatch.setattr(os, "fdopen", fdopen)  # hookmsg.outputs.generated calls os.fdopen


def _mkstemp_full(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    monkeypatch.setattr(tempfile, "mkstemp", _Counter(tempfile.mkstemp, 2, _enospc()))


def by_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """No atomic exchange here: the stage's changes are applied file by file."""
    monkeypatch.setattr(hookmsg.outputs.staging, "_exchange", lambda first, second: False)


def _backup_full(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    # Applied file by file, each replaced output's backup: no hard link (EMLINK), and
    # the copy that replaces it finds the disk full.
    by_file(monkeypatch)
    real_link = os.link

    def link(source: object, target: object, **kwargs: object) -> None:
        if str(target).endswith(".bak"):
            raise OSError(errno.EMLINK, "Too many links")
        real_link(source, target, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "link", link)
    real = Path.write_bytes

    def write_bytes(self: Path, data: bytes) -> int:
        if self.name.endswith(".bak"):
            raise _enospc()
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)


def _last_rename_full(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    monkeypatch.setattr(os, "replace", _Counter(os.replace, _count_outputs(root), _enospc()))


def _interrupt_midway(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    monkeypatch.setattr(os, "replace", _Counter(os.replace, 3, KeyboardInterrupt()))


def _directory_in_place(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    path = root / "generated" / GENERATORS[-1].name
    path.unlink()
    path.mkdir()
    (path / "keep").write_text("a folder where an output belongs\n", encoding="utf-8")


@pytest.mark.parametrize(
    "case",
    [
        (_fsync_full, 1, "No space left on device"),
        (_write_full, 1, "No space left on device"),
        (_mkstemp_full, 1, "No space left on device"),
        (_backup_full, 1, "No space left on device"),
        (_last_rename_full, 1, "No space left on device"),
        (_interrupt_midway, 130, "interrupted"),
        (_directory_in_place, 1, "nothing was written"),
    ],
    ids=["fsync", "write", "mkstemp", "backup", "last-rename", "ctrl-c-midway", "directory"],
)
def test_failed_write_leaves_every_output_as_it_was(
    project: Path, cli: Cli, committed: Tree, case: tuple[Sabotage, int, str]
) -> None:
    sabotage, code, text = case
    hand_edit_every_output(project)
    with pytest.MonkeyPatch.context() as patch:
        sabotage(patch, project)
        before = files_under(project / "generated")
        result = cli("build")
    assert result.code == code, result.out + result.err
    assert text in result.err
    assert "Traceback" not in result.err
    assert files_under(project / "generated") == before
    assert leftovers(project) == []
    folder = project / "generated" / GENERATORS[-1].name
    if folder.is_dir():
        shutil.rmtree(folder)
    assert_recovers(project, cli, committed)


# =========================================================================== signals

# Runs `hookmsg build` with one pause point. When it reaches the point it writes its
# pid to $MARKER and sleeps; the test then sends a signal. SIGINT gets Python's usual
# handler even if the test runner ignores it (as background jobs do).
WRAPPER = r"""
import os, signal, sys, time
from pathlib import Path

import hookmsg.outputs.generated as outputs

signal.signal(signal.SIGINT, signal.default_int_handler)
where = os.environ["PAUSE_AT"]
marker = Path(os.environ["MARKER"])
paused = []


def pause():
    if not paused:
        paused.append(1)
        marker.write_text(str(os.getpid()))
        time.sleep(600)


if where == "render":
    last = outputs.GENERATORS[-1]

    def render(workspace, _render=last.render):
        pause()
        return _render(workspace)

    outputs.GENERATORS = (*outputs.GENERATORS[:-1], outputs.Generator(last.name, render))
elif where == "staged":
    real_fsync, synced = os.fsync, []

    def fsync(fd):
        real_fsync(fd)
        synced.append(fd)
        if len(synced) == 2:
            pause()

    os.fsync = fsync
elif where == "renamed":
    real_replace, renamed = os.replace, []

    def replace(source, target):
        real_replace(source, target)
        if str(source).endswith(".tmp") and "/.hookmsg-cache/" not in str(target):
            renamed.append(target)
            if len(renamed) == 2:
                pause()

    os.replace = replace
    # Renames into the generated folder happen only when outputs are applied file by file.
    import hookmsg.outputs.staging as staging

    staging._exchange = lambda first, second: False

from hookmsg.cli.main import main

sys.argv = ["hookmsg", "build"]
main()
"""


@contextlib.contextmanager
def paused_build(root: Path, where: str) -> Iterator[subprocess.Popen[str]]:
    """A `hookmsg build` subprocess, yielded once it sits at its pause point."""
    marker = root.parent / f"paused-{where}"
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    env.update(PAUSE_AT=where, MARKER=str(marker), PYTHONDONTWRITEBYTECODE="1")
    process = subprocess.Popen(
        [sys.executable, "-c", WRAPPER],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # Poll for the marker (or an early exit); a bounded number of short waits.
        for _ in range(1200):
            if marker.exists() or process.poll() is not None:
                break
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=0.05)
        assert marker.exists(), process.communicate()
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


@pytest.mark.parametrize("where", ["render", "staged", "renamed"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_during_a_build_leaves_every_output_as_it_was(
    project: Path, cli: Cli, committed: Tree, where: str, signum: int
) -> None:
    before = hand_edit_every_output(project)
    with paused_build(project, where) as process:
        if where == "renamed":
            now = files_under(project / "generated")
            assert [k for k in before if now.get(k) != before[k]], "two outputs were replaced"
        process.send_signal(signum)
        out, err = process.communicate(timeout=120)
    assert process.returncode == 130, out + err
    assert "interrupted; no output was changed" in err
    assert "Traceback" not in err
    assert files_under(project / "generated") == before
    assert leftovers(project) == []
    assert_recovers(project, cli, committed)


@pytest.mark.parametrize("where", ["staged", "renamed"])
def test_next_build_recovers_after_sigkill(
    project: Path, cli: Cli, committed: Tree, where: str
) -> None:
    # SIGKILL cannot be caught: temporary files and backups stay behind, and after the
    # renames some outputs are new and some old. The next build cleans up by itself.
    hand_edit_every_output(project)
    with paused_build(project, where) as process:
        process.kill()
        process.communicate(timeout=120)
    assert leftovers(project), "the killed build left its temporary files"
    check = cli("check")
    assert check.code == 1, "the check sees the leftovers and the unfinished outputs"
    assert_recovers(project, cli, committed)


# =========================================================================== a second interrupt


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_a_second_interrupt_during_the_restore_waits_for_it(
    project: Path, cli: Cli, committed: Tree, monkeypatch: pytest.MonkeyPatch, signum: int
) -> None:
    """The first failure starts a restore; a signal that arrives while it runs is held
    until every output is back, the backups go only after that, and the final message
    ("interrupted; no output was changed") is true."""
    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    before = hand_edit_every_output(project)
    real_replace = os.replace
    state = {"renames": 0, "signalled": False}

    def replace(source: object, target: object) -> None:
        restoring = str(source).endswith(".bak") and not str(target).endswith(".bak")
        if restoring and not state["signalled"]:
            state["signalled"] = True
            os.kill(os.getpid(), signum)  # the second interrupt, in the middle of the restore
        elif str(source).endswith(".tmp") and "/.hookmsg-cache/" not in str(target):
            state["renames"] += 1
            if state["renames"] == 3:
                raise OSError(errno.ENOSPC, "No space left on device", str(target))
        real_replace(source, target)  # type: ignore[arg-type]

    by_file(monkeypatch)  # the restore belongs to the file-by-file application
    monkeypatch.setattr(os, "replace", replace)
    try:
        result = cli("build")
    finally:
        signal.signal(signal.SIGINT, previous_int)
    monkeypatch.setattr(os, "replace", real_replace)
    assert state["signalled"]
    assert result.code == 130, result.out + result.err
    assert "no output was changed" in result.err
    assert "Traceback" not in result.err
    assert files_under(project / "generated") == before
    assert leftovers(project) == []
    assert_recovers(project, cli, committed)


def test_a_target_that_cannot_be_put_back_is_named_with_the_backup_that_keeps_it(
    project: Path, cli: Cli, committed: Tree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The restore itself fails for one output: the message says so and names the backup,
    which keeps the previous bytes; it never claims that every output is as it was."""
    before = hand_edit_every_output(project)
    real_replace = os.replace
    state: dict[str, object] = {"renames": 0, "first": None}

    def replace(source: object, target: object) -> None:
        source, target = str(source), str(target)
        if source.endswith(".tmp") and "/.hookmsg-cache/" not in target:
            state["renames"] = int(str(state["renames"])) + 1
            if state["first"] is None:
                state["first"] = target
            if state["renames"] == 3:
                raise OSError(errno.ENOSPC, "No space left on device", target)
        elif source.endswith(".bak") and target == state["first"]:
            raise OSError(errno.EIO, "Input/output error", target)
        real_replace(source, target)

    by_file(monkeypatch)  # the restore belongs to the file-by-file application
    monkeypatch.setattr(os, "replace", replace)
    result = cli("build")
    monkeypatch.setattr(os, "replace", real_replace)
    assert result.code == 1, result.out + result.err
    assert "could not put back 1 output(s)" in result.err
    assert "every output is as it was" not in result.err
    assert "Traceback" not in result.err
    first = Path(str(state["first"]))
    kept = [p for p in first.parent.iterdir() if p.name.startswith(f".{first.name}.")]
    assert len(kept) == 1
    assert str(kept[0]) in result.err
    label = first.relative_to(project / "generated").as_posix()
    assert kept[0].read_bytes() == before[label]  # the previous content, not lost
    backup = kept[0].relative_to(project / "generated").as_posix()
    after = files_under(project / "generated")
    assert {k: v for k, v in after.items() if k not in (label, backup)} == {
        k: v for k, v in before.items() if k != label
    }
    kept[0].unlink()  # what a user does once they have the content back
    assert_recovers(project, cli, committed)
