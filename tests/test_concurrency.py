"""Concurrent runs in one tree: real processes, a bounded number of rounds, no timing.

Each test also proves that the overlap it is about happened (`tests.support.overlap`):
every run records when its command began and returned, and the test asserts that the
spans it needs share a moment; a test whose runs happened one after the other fails.

- Two `hookmsg build` processes started together, with work to do (the generated
  folder deleted, a message edited, every output hand-edited): both exit 0, the
  outputs are correct (`hookmsg check` passes) and no temporary file is left. The two
  builds start together (each waits for the other first) and were both inside `build`
  at one moment.
- Two `doit` processes started together: both exit 0, the outputs are correct, and
  the state file is usable afterwards (a third `doit` runs no task). Both `doit` runs
  were under way at one moment.
- `hookmsg check` run again and again while a build process keeps rewriting the
  outputs: it never crashes and never sees a build's temporary files. It exits 0
  or 1, and only ever reports G002 (drifted) or G003 (missing), never G004 (stale).
  At least one check ran while a build was under way.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import findings_among
from tests.support.overlap import all_overlap, overlapping, probed, spans
from tests.support.repository import WITH_DODO, copy_repository, files_under, leftovers

pytestmark = pytest.mark.slow

Tree = dict[str, bytes]
HOOKMSG = [sys.executable, "-c", "from hookmsg.cli.main import main; main()"]
DOIT = [sys.executable, "-m", "doit"]


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "NO_COLOR")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def start(root: Path, command: list[str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*command, *args],
        cwd=root,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=300)
    return process.returncode, out, err


def together(root: Path, record: Path, program: str, *args: str) -> list[tuple[int, str, str]]:
    """Start two processes back to back, then wait for both.

    Each runs `program ARGS` only once both have started, and records its span in `record`.
    """
    command = probed(program, record, parties=2)
    processes = [start(root, command, *args), start(root, command, *args)]
    return [finish(p) for p in processes]


def assert_both_at_once(record: Path, name: str) -> None:
    both = spans(record)
    assert len(both) == 2, (name, both)
    assert all_overlap(both), f"{name}: the two runs did not overlap: {both}"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return copy_repository(tmp_path / "repo", WITH_DODO)


def _delete_generated(root: Path) -> None:
    for path in sorted((root / "generated").rglob("*"), reverse=True):
        if path.is_dir():
            path.rmdir()
        else:
            path.unlink()
    (root / "generated").rmdir()


def _edit_message(root: Path) -> None:
    path = root / "messages" / "stop.md"
    text = path.read_text(encoding="utf-8")
    assert text.count("\n## Bindings") == 1
    path.write_text(
        text.replace("\n## Bindings", "\nOne more sentence of procedure.\n\n## Bindings"),
        encoding="utf-8",
    )
    # doit trusts an unchanged mtime without hashing: move it on.
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))


def _hand_edit_outputs(root: Path) -> None:
    for path in sorted((root / "generated").rglob("*")):
        if path.is_file():
            path.write_bytes(path.read_bytes() + b"hand edit\n")


WORK: dict[str, Callable[[Path], None]] = {
    "generated-deleted": _delete_generated,
    "message-edited": _edit_message,
    "outputs-hand-edited": _hand_edit_outputs,
}


def test_two_builds_at_once(repo: Path, tmp_path: Path) -> None:
    committed = files_under(repo / "generated")
    for name, make_work in WORK.items():
        make_work(repo)
        results = together(repo, tmp_path / "spans" / name, "hookmsg", "build")
        for code, out, err in results:
            assert code == 0, (name, out, err)
            assert "Traceback" not in err
        assert_both_at_once(tmp_path / "spans" / name, name)
        code, out, err = finish(start(repo, HOOKMSG, "check"))
        assert code == 0, (name, out, err)
        assert leftovers(repo) == [], name
        if name != "message-edited":
            assert files_under(repo / "generated") == committed, name
        committed = files_under(repo / "generated")


def test_two_doits_at_once(repo: Path, tmp_path: Path) -> None:
    committed = files_under(repo / "generated")
    for name in ("generated-deleted", "message-edited"):
        WORK[name](repo)
        results = together(repo, tmp_path / "spans" / name, "doit")
        for code, out, err in results:
            assert code == 0, (name, out, err)
            assert "Traceback" not in err
        assert_both_at_once(tmp_path / "spans" / name, name)
        assert leftovers(repo) == [], name
        if name == "generated-deleted":
            assert files_under(repo / "generated") == committed
        code, out, err = finish(start(repo, HOOKMSG, "check"))
        assert code == 0, (name, out, err)
        code, out, err = finish(start(repo, DOIT))
        assert code == 0, (name, out, err)
        ran = [line for line in out.split("\n") if line.startswith(". ")]
        assert ran == [], f"{name}: the state file after two runs is usable: {out}"


# Rewrites the outputs round after round: each round deletes or hand-edits every
# output, then builds in-process. Syncs are slowed down a little so that the
# build's temporary files exist for a while. argv: ROUNDS SPANS; the span of every
# round's build goes to the file SPANS.
BUILDER = r"""
import json, os, sys, time
from pathlib import Path
from hookmsg.cli.main import run

real_fsync = os.fsync
def fsync(fd):
    real_fsync(fd)
    time.sleep(0.02)
os.fsync = fsync

folder = Path("generated")
outputs = sorted(p for p in folder.rglob("*") if p.is_file())
spans = []
try:
    for round in range(int(sys.argv[1])):
        for index, path in enumerate(outputs):
            if (index + round) % 3 == 0:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(b"hand edit\n")
        start = time.monotonic()
        code = run(["build"])
        spans.append({"start": start, "end": time.monotonic()})
        if code:
            sys.exit(code)
finally:
    Path(sys.argv[2]).write_text(json.dumps(spans), encoding="utf-8")
"""


def test_check_during_builds_never_sees_temporary_files(repo: Path, tmp_path: Path) -> None:
    committed = files_under(repo / "generated")
    builds, checked = tmp_path / "builds", tmp_path / "checks"
    builds.mkdir()
    builder = start(repo, [sys.executable, "-c", BUILDER], "8", str(builds / "span-builder.json"))
    check = probed("hookmsg", checked)
    checks: list[tuple[int, str, str]] = []
    try:
        # Check again and again while the builder runs (bounded; at least twice).
        while len(checks) < 2 or (builder.poll() is None and len(checks) < 60):
            checks.append(finish(start(repo, check, "check")))
    finally:
        code, out, err = finish(builder)
    assert code == 0, out + err
    for code, out, err in checks:
        assert code in (0, 1), out + err
        assert "Traceback" not in err, err
        found = findings_among(out)
        assert {f.code for f in found} <= {"G002", "G003"}, out
        assert not [f for f in found if f.path.endswith((".tmp", ".bak"))], out
    # The checks were not all before or after the builds: some ran while one was under way.
    build_spans, check_spans = spans(builds), spans(checked)
    assert len(build_spans) == 8 and len(check_spans) == len(checks)
    during = overlapping(check_spans, build_spans)
    assert during, f"no check overlapped a build: builds {build_spans}, checks {check_spans}"
    final = finish(start(repo, HOOKMSG, "check"))
    assert final[0] == 0, final
    assert files_under(repo / "generated") == committed
    assert leftovers(repo) == []
