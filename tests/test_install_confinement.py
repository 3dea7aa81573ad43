"""`install`, `verify` and `uninstall` never leave the project or the install root.

A linked folder on the way to a target, a FIFO or a device where a file should be, or a
stranger's file inside the root's bytecode cache: each is refused before anything is read
or written, and no command blocks (every read is non-blocking and bounded). An install
killed at any point leaves nothing a later install does not clean up.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.diagnostics import Result, parse_findings
from tests.support.repository import files_under

Cli = Callable[..., Result]
PYTHON = "/usr/bin/python3"


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(a project, an install root not there yet, a folder outside both)."""
    target = tmp_path / "project"
    target.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    return target, tmp_path / "data" / "root", elsewhere


def install(cli: Cli, harness: str, target: Path, root: Path) -> Result:
    return cli(
        "install",
        "--harness",
        harness,
        "--project",
        str(target),
        "--root",
        str(root),
        "--python",
        PYTHON,
    )


class Blocked(Exception):  # not an OSError, which the code under test may catch
    """The body blocked (as on opening a FIFO) past its deadline."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail (instead of hanging the suite) when the body blocks, as on a FIFO; the timer
    fires again every second, so a reader that swallows one interruption meets the next."""

    def expire(signum: int, frame: object) -> None:
        raise Blocked(f"blocked for more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def codes(result: Result) -> list[str]:
    return [finding.code for finding in parse_findings(result.out)]


# ------------------------------------------------------------------ linked folders in a project


@pytest.mark.parametrize(
    "case",
    [
        ("claude-code-engine", ".claude", "settings.json"),
        ("cursor", ".cursor", "hooks.json"),
        ("kiro", ".kiro/hooks", "hookmsg.json"),
        ("xcsh", ".xcsh", "extensions/hookmsg.js"),
    ],
)
def test_i012_a_linked_folder_leading_out_of_the_project_is_refused(
    project: Path, cli: Cli, places: tuple[Path, Path, Path], case: tuple[str, str, str]
) -> None:
    target, root, elsewhere = places
    harness, folder, name = case
    if "/" in name:
        (elsewhere / name).parent.mkdir(parents=True)
    if harness != "xcsh":
        (elsewhere / name).write_text('{"model": "mine"}\n', encoding="utf-8")
    (target / folder).parent.mkdir(parents=True, exist_ok=True)
    (target / folder).symlink_to(elsewhere, target_is_directory=True)
    before = files_under(elsewhere)
    result = install(cli, harness, target, root)
    assert result.code == 1, result.out + result.err
    assert codes(result) == ["I012"]
    assert files_under(elsewhere) == before
    assert not root.exists()
    for verb in ("verify", "uninstall"):
        again = cli(verb, "--harness", harness, "--project", str(target))
        assert again.code == 1 and codes(again) == ["I012"], verb
    assert files_under(elsewhere) == before


def test_i012_uninstall_never_deletes_a_file_outside_through_a_linked_folder(
    project: Path, cli: Cli, places: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    target, root, _ = places
    other = tmp_path / "other project"
    other.mkdir()
    assert install(cli, "kiro", other, root).code == 0
    theirs = other / ".kiro" / "hooks" / "hookmsg.json"
    kept = theirs.read_bytes()
    (target / ".kiro").mkdir()
    (target / ".kiro" / "hooks").symlink_to(other / ".kiro" / "hooks")
    result = cli("uninstall", "--harness", "kiro", "--project", str(target))
    assert result.code == 1
    assert codes(result) == ["I012"]
    assert theirs.read_bytes() == kept


def test_a_folder_linked_inside_the_project_is_followed(
    project: Path, cli: Cli, places: tuple[Path, Path, Path]
) -> None:
    target, root, _ = places
    (target / "config" / "claude").mkdir(parents=True)
    (target / ".claude").symlink_to("config/claude")
    assert install(cli, "claude-code-engine", target, root).code == 0
    assert (target / "config" / "claude" / "settings.json").is_file()
    assert cli("verify", "--harness", "claude-code-engine", "--project", str(target)).code == 0
    assert cli("uninstall", "--harness", "claude-code-engine", "--project", str(target)).code == 0
    assert sorted(p.name for p in (target / "config" / "claude").iterdir()) == []


# ------------------------------------------------------------------ FIFOs, devices, sizes


def test_i013_a_fifo_where_the_settings_file_should_be_is_refused(
    project: Path, cli: Cli, places: tuple[Path, Path, Path]
) -> None:
    target, root, _ = places
    (target / ".cursor").mkdir()
    os.mkfifo(target / ".cursor" / "hooks.json")
    with deadline(30):
        result = install(cli, "cursor", target, root)
    assert result.code == 1
    assert codes(result) == ["I013"]
    assert not root.exists()


def test_i013_a_device_reached_as_a_settings_file_is_never_read(
    project: Path, cli: Cli, places: tuple[Path, Path, Path]
) -> None:
    target, root, _ = places
    (target / ".cursor").mkdir()
    (target / ".cursor" / "hooks.json").symlink_to("/dev/zero")
    with deadline(30):
        result = install(cli, "cursor", target, root)
    assert result.code == 1
    assert codes(result) == ["I005"]  # a linked file: not a regular file of the project


def test_i013_a_settings_file_over_the_bound_is_refused(
    project: Path, cli: Cli, places: tuple[Path, Path, Path]
) -> None:
    target, root, _ = places
    (target / ".cursor").mkdir()
    big = target / ".cursor" / "hooks.json"
    with big.open("wb") as handle:
        handle.truncate(64 * 1024 * 1024)  # sparse: no disk used, but 64 MiB to read
    result = install(cli, "cursor", target, root)
    assert result.code == 1
    assert codes(result) == ["I013"]


def test_verify_and_install_do_not_block_on_a_fifo_manifest(
    project: Path, cli: Cli, places: tuple[Path, Path, Path]
) -> None:
    target, root, _ = places
    assert install(cli, "cursor", target, root).code == 0
    (root / "manifest.json").unlink()
    os.mkfifo(root / "manifest.json")
    with deadline(30):
        verify = cli("verify", "--harness", "cursor", "--project", str(target))
        again = install(cli, "cursor", target, root)
    assert verify.code == 1 and "I009" in codes(verify)
    assert again.code == 1 and codes(again) == ["I006"]


def test_verify_and_install_do_not_read_through_a_linked_folder_in_the_root(
    project: Path, cli: Cli, places: tuple[Path, Path, Path]
) -> None:
    target, root, elsewhere = places
    assert install(cli, "cursor", target, root).code == 0
    os.mkfifo(elsewhere / "dispatch-table.json")
    shutil.rmtree(root / "data")
    (root / "data").symlink_to(elsewhere, target_is_directory=True)
    with deadline(30):
        verify = cli("verify", "--harness", "cursor", "--project", str(target))
        again = install(cli, "cursor", target, root)
    assert verify.code == 1 and "I009" in codes(verify)
    assert again.code == 1 and codes(again) == ["I006"]
    assert (elsewhere / "dispatch-table.json").exists()


# ------------------------------------------------------------------ the root's own files


def test_i006_a_reinstall_never_deletes_a_users_file_in_a_bytecode_cache(
    project: Path, cli: Cli, places: tuple[Path, Path, Path]
) -> None:
    target, root, _ = places
    assert install(cli, "cursor", target, root).code == 0
    cache = root / "hooks" / "hookmsg_dispatch" / "__pycache__"
    cache.mkdir(exist_ok=True)
    (cache / "notes.txt").write_text("mine", encoding="utf-8")
    (root / "generated" / "skill-index.md").write_text("changed", encoding="utf-8")
    result = install(cli, "cursor", target, root)
    assert result.code == 1
    assert codes(result) == ["I006"]
    assert (cache / "notes.txt").read_text(encoding="utf-8") == "mine"


def _install_process(project: Path, target: Path, root: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-c", "from hookmsg.cli.main import main; main()"]
    command += ["install", "--harness", "cursor"]
    command += ["--project", str(target), "--root", str(root), "--python", PYTHON]
    return subprocess.Popen(
        command, cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


@pytest.mark.slow
def test_an_install_killed_at_random_points_leaves_no_stray_copies(
    project: Path, cli: Cli, places: tuple[Path, Path, Path]
) -> None:
    target, root, _ = places
    assert install(cli, "cursor", target, root).code == 0
    (root / "generated" / "skill-index.md").write_text("changed", encoding="utf-8")
    started = time.monotonic()
    assert _install_process(project, target, root).wait() == 0
    whole = time.monotonic() - started  # the root is laid out near the end of this
    chooser = random.Random(2026)
    interrupted = 0
    for _ in range(int(os.environ.get("HOOKMSG_KILLS", "16"))):
        # a damaged file makes each install lay the whole root out again
        (root / "generated" / "skill-index.md").write_text("changed", encoding="utf-8")
        process = _install_process(project, target, root)
        time.sleep(chooser.uniform(0.5 * whole, 1.05 * whole))
        process.send_signal(signal.SIGKILL)
        process.wait()
        interrupted += len(list(root.parent.iterdir())) > 1  # killed while laying out
    (root / "generated" / "skill-index.md").write_text("changed", encoding="utf-8")
    assert install(cli, "cursor", target, root).code == 0
    assert sorted(p.name for p in root.parent.iterdir()) == [root.name]
    assert [p.name for p in target.rglob("*.tmp")] == []  # no half-written settings file
    assert [p.name for p in root.rglob("*.tmp")] == []  # nor a half-written record
    assert cli("verify", "--harness", "cursor", "--project", str(target)).code == 0
    document = json.loads((target / ".cursor" / "hooks.json").read_bytes())
    assert str(root) in json.dumps(document)
    print(f"{interrupted} kills landed while the root was being laid out")


def test_a_half_written_settings_file_left_by_a_killed_install_is_cleared(
    project: Path, cli: Cli, places: tuple[Path, Path, Path]
) -> None:
    target, root, _ = places
    (target / ".cursor").mkdir()
    left = target / ".cursor" / ".hooks.json.k3x9q_2a.tmp"  # the name write_atomic gives
    left.write_text('{"hooks": {', encoding="utf-8")
    mine = target / ".cursor" / ".hooks.json.backup.tmp"  # a name it never gives
    mine.write_text("mine", encoding="utf-8")
    assert install(cli, "cursor", target, root).code == 0
    assert not left.exists()
    assert mine.read_text(encoding="utf-8") == "mine"
