"""The doit task graph through doit's real command line, in a copy of the repository.

Each test copies the sources, the committed outputs, `dodo.py` and `scripts/` (dodo.py
puts `scripts/` first on sys.path, so the copy's own hookmsg runs) into a temporary
folder and runs `python -m doit` there. doit reports a task it runs as `.  name` and
a task that is up to date as `-- name`.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.doit import STATE, doit, rewrite
from tests.support.repository import WITH_DODO, copy_repository, files_under

pytestmark = pytest.mark.slow

GENERATORS = {"skill_index", "advisories", "inventory"}


def files(root: Path) -> dict[str, bytes]:
    """Every file of the copy except doit's own state (which doit may rewrite)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.startswith(STATE) and "__pycache__" not in p.parts
    }


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of the repository that doit can run in, without doit state."""
    root = copy_repository(tmp_path / "repo", WITH_DODO)
    assert not (root / STATE).exists()
    return root


@pytest.fixture
def committed(repo: Path) -> dict[str, bytes]:
    return files_under(repo / "generated")


@pytest.fixture
def built(repo: Path, committed: dict[str, bytes]) -> Path:
    """The copy after a first, successful `doit`."""
    first = doit(repo)
    assert first.code == 0, first.output
    return repo


def insert_before_bindings(path: Path, text: str) -> None:
    source = path.read_text(encoding="utf-8")
    assert source.count("\n## Bindings") == 1
    rewrite(path, source.replace("\n## Bindings", f"\n{text}\n\n## Bindings"))


def test_first_run_builds_everything_and_second_run_does_nothing(
    repo: Path, committed: dict[str, bytes]
) -> None:
    first = doit(repo)
    assert first.code == 0, first.output
    assert {"validate", *GENERATORS} <= first.ran, first.output
    assert first.up_to_date == set(), first.output
    assert files_under(repo / "generated") == committed
    assert (repo / STATE).is_file(), "the sqlite3 backend keeps its state in .doit.db"

    second = doit(repo)
    assert second.code == 0, second.output
    assert second.lines, "doit says which tasks are up to date"
    assert all(line.startswith("-- ") for line in second.lines), second.output
    assert {"validate", *GENERATORS} <= second.up_to_date
    assert files_under(repo / "generated") == committed


def test_touching_a_message_without_changing_it_reruns_nothing(built: Path) -> None:
    path = built / "messages/stop.md"
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    again = doit(built)
    assert again.code == 0, again.output
    assert again.ran == set(), again.output


def test_message_body_change_reruns_its_dependents_only(
    built: Path, committed: dict[str, bytes]
) -> None:
    path = built / "messages/stop.md"
    insert_before_bindings(path, "One more sentence of procedure.")
    again = doit(built)
    assert again.code == 0, again.output
    assert {"validate", "advisories", "inventory"} <= again.ran, again.output
    assert "skill_index" in again.up_to_date, again.output
    assert "skill_index" not in again.ran, again.output
    # The guard cases run only guards: a message that is none leaves them be.
    assert "guard_cases" in again.up_to_date, again.output
    now = files_under(built / "generated")
    assert now["skill-index.md"] == committed["skill-index.md"]
    assert now["hook-message-inventory.json"] != committed["hook-message-inventory.json"]
    check = doit(built, "check")
    assert check.code == 0, check.output
    third = doit(built)
    assert third.ran == set(), third.output


def test_a_guard_message_edit_reruns_the_guard_cases(built: Path) -> None:
    insert_before_bindings(built / "messages/pretooluse-eval-guard.md", "One more sentence.")
    again = doit(built)
    assert again.code == 0, again.output
    assert {"validate", "dispatch_table", "guard_cases"} <= again.ran, again.output


def _rewire(path: Path) -> None:
    """Wire the eval guard at one more matcher, one that the registry already has."""
    text = path.read_text(encoding="utf-8")
    line = '  { event = "PreToolUse", matcher = "Edit" },\n'
    assert line in text
    path.write_text(
        text.replace(line, line + '  { event = "PreToolUse", matcher = "NotebookEdit" },\n'),
        encoding="utf-8",
    )


def _widen_a_pattern(path: Path) -> None:
    """Let the eval guard's pickle pattern name one more library."""
    text = path.read_text(encoding="utf-8")
    assert "|dill|cloudpickle|" in text
    path.write_text(text.replace("|dill|cloudpickle|", "|dill|shelve|cloudpickle|", 1), "utf-8")


@pytest.mark.parametrize(
    ("edit", "outputs"),
    [
        (_widen_a_pattern, {"dispatch_table"}),
        (_rewire, {"advisories", "inventory", "wiring", "dispatch_table", "registrations"}),
    ],
    ids=["pattern", "wiring"],
)
def test_a_guard_file_edit_reruns_every_output_it_feeds(
    built: Path, edit: Callable[[Path], None], outputs: set[str]
) -> None:
    # A guard file extends the registry: its `wired` list and its condition are in the
    # outputs, so `doit` must rebuild them (and `doit check` then find no drift).
    edit(built / "catalog/guards/pretooluse-eval-guard.toml")
    again = doit(built)
    assert again.code == 0, again.output
    assert {"validate", "guard_cases", *outputs} <= again.ran, again.output
    check = doit(built, "check")
    assert check.code == 0, check.output


def test_skill_catalogue_change_reruns_the_skill_index(built: Path) -> None:
    path = built / "catalog/skills.toml"
    text = path.read_text(encoding="utf-8")
    marker = 'hint = "'  # the entries themselves are files; a group's hint is in the TOML
    assert marker in text
    rewrite(path, text.replace(marker, marker + "Now: ", 1))
    again = doit(built)
    assert again.code == 0, again.output
    assert {"validate", "skill_index"} <= again.ran, again.output
    # advisories.json depends on the messages and the hook registry only.
    assert "advisories" in again.up_to_date, again.output
    check = doit(built, "check")
    assert check.code == 0, check.output


def test_an_edit_to_code_one_task_runs_reruns_that_task_even_with_its_stat_put_back(
    built: Path,
) -> None:
    """The code stamp keys on the change time too: an edit that keeps the size and puts
    the modification time back (`touch -r`, `cp -p`) still reruns the task that runs it,
    and only that one (the module is declared as the `rules` task's own code)."""
    path = built / "scripts/hookmsg/render/rules_table.py"
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    assert text.startswith('"""`rules.md`: the table')
    path.write_text(text.replace("the table", "THE table", 1), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    again = doit(built)
    assert again.code == 0, again.output
    assert again.ran == {"rules", "publish"}, again.output


def test_doit_check_passes_clean_and_fails_on_a_hand_edit_without_writing(
    built: Path,
) -> None:
    before = files(built)
    clean = doit(built, "check")
    assert clean.code == 0, clean.output
    assert files(built) == before

    path = built / "generated/advisories.json"
    path.write_bytes(
        path.read_bytes().replace(b"Full procedure: ", b"Full procedure (edited): ", 1)
    )
    edited = files(built)
    drift = doit(built, "check")
    assert drift.code != 0, drift.output
    assert "generated/advisories.json" in drift.output
    assert "G002" in drift.output
    assert files(built) == edited


def test_doit_repairs_a_hand_edited_output_and_only_that_one(
    built: Path, committed: dict[str, bytes]
) -> None:
    # doit alone reruns a task when its inputs change, not when its output is edited;
    # the generator tasks also compare their targets with what they last wrote.
    path = built / "generated/advisories.json"
    path.write_bytes(path.read_bytes() + b"\n")
    again = doit(built)
    assert again.code == 0, again.output
    assert again.ran == {"advisories", "publish"}, again.output
    assert files_under(built / "generated") == committed


def test_losing_the_state_file_only_costs_a_rebuild(
    built: Path, committed: dict[str, bytes]
) -> None:
    (built / STATE).unlink()
    again = doit(built)
    assert again.code == 0, again.output
    assert {"validate", *GENERATORS} <= again.ran, again.output
    assert files_under(built / "generated") == committed
    quiet = doit(built)
    assert quiet.ran == set(), quiet.output


def test_validation_error_fails_doit_and_leaves_outputs_alone(
    built: Path, committed: dict[str, bytes]
) -> None:
    path = built / "messages/stop.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("<!-- SPDX-License-Identifier")
    # No licence line, and a body change that would alter the inventory.
    rewrite(path, "\n".join(lines[1:]))
    insert_before_bindings(path, "One more sentence of procedure.")
    before = files(built)
    failed = doit(built)
    assert failed.code != 0, failed.output
    assert "L001" in failed.output
    assert files_under(built / "generated") == committed
    assert files(built) == before
    assert not any(p.name.endswith(".tmp") for p in built.rglob("*"))
    # Still failing on the next run: a failed task is never recorded as done.
    again = doit(built)
    assert again.code != 0, again.output
    assert files_under(built / "generated") == committed


def test_deleted_output_is_rebuilt_by_its_task_alone(
    built: Path, committed: dict[str, bytes]
) -> None:
    (built / "generated/advisories.json").unlink()
    again = doit(built)
    assert again.code == 0, again.output
    assert "advisories" in again.ran, again.output
    assert {"validate", "skill_index"} <= again.up_to_date, again.output
    assert files_under(built / "generated") == committed


def test_deleting_a_bindings_named_file_fails_the_next_doit(built: Path) -> None:
    # A path named in a Bindings section is one of validate's inputs: doit notices it go.
    extra = built / "docs/extra.md"
    extra.parent.mkdir()
    extra.write_text("Extra notes.\n", encoding="utf-8")
    path = built / "messages/stop.md"
    text = path.read_text(encoding="utf-8")
    rewrite(
        path,
        text.replace("`catalog/hooks.toml`, the", "`catalog/hooks.toml` and `docs/extra.md`, the"),
    )
    first = doit(built)
    assert first.code == 0, first.output
    assert "validate" in first.ran
    extra.unlink()
    second = doit(built)
    assert second.code != 0, second.output
    assert "B009" in second.output
    extra.write_text("Extra notes, edited.\n", encoding="utf-8")
    third = doit(built)
    assert third.code == 0, third.output
    assert "validate" in third.ran


def test_doit_info_names_its_reasons_in_words(built: Path) -> None:
    path = built / "generated/advisories.json"
    path.write_bytes(path.read_bytes() + b"\n")
    info = doit(built, "info", "advisories")
    assert "a target differs from the bytes this task last wrote" in info.output
    assert "<function" not in info.output


def test_default_doit_removes_a_stale_output(built: Path, committed: dict[str, bytes]) -> None:
    stale = built / "generated/codex/old-hooks.json"
    stale.write_text("{}\n", encoding="utf-8")
    manifest = built / "generated/outputs.json"
    record = json.loads(manifest.read_text(encoding="utf-8"))
    record["outputs"] = sorted([*record["outputs"], "codex/old-hooks.json"])
    manifest.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    again = doit(built)
    assert again.code == 0, again.output
    assert "outputs" in again.ran
    assert not stale.exists()
    assert files_under(built / "generated") == committed


def _killed_doit(root: Path, signum: int, after_lines: int, delay: float) -> str:
    """Start `doit`, wait for `after_lines` lines of its report and `delay` seconds, then
    send `signum`: a kill at a chosen point of a real run, between tasks or inside one."""
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "NO_COLOR")}
    env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "doit"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    seen = []
    try:
        while len(seen) < after_lines:
            line = process.stdout.readline()
            if not line:
                break
            seen.append(line)
        time.sleep(delay)
        if process.poll() is None:
            process.send_signal(signum)
        rest, _ = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return "".join(seen) + rest


def test_a_killed_doit_leaves_the_outputs_wholly_old_or_wholly_new(built: Path) -> None:
    """SIGTERM and SIGKILL at random points of real `doit` runs (between tasks, inside a
    task, during the commit): after each kill, `generated/` is exactly the outputs before
    the run or exactly the outputs after it, never some of each."""
    # An advisory's text reaches three tasks' outputs: advisories, inventory, dispatch table.
    stop = built / "messages/pretooluse-eval-guard.md"
    sources = {"old": stop.read_text(encoding="utf-8")}
    sources["new"] = sources["old"].replace(
        "it runs text as code", "it runs text as program code", 1
    )
    assert sources["new"] != sources["old"]
    outputs = {"old": files_under(built / "generated")}
    rewrite(stop, sources["new"])
    assert doit(built).code == 0
    outputs["new"] = files_under(built / "generated")
    changed = [name for name in outputs["new"] if outputs["new"][name] != outputs["old"][name]]
    assert len(changed) >= 4, f"the change reaches outputs of several tasks: {changed}"
    chooser = random.Random(22)
    state, outcomes = "new", []
    for trial in range(24):
        target = "old" if state == "new" else "new"
        rewrite(stop, sources[target])
        signum = (signal.SIGTERM, signal.SIGKILL)[trial % 2]
        report = _killed_doit(built, signum, chooser.randint(0, 8), chooser.uniform(0, 0.15))
        now = files_under(built / "generated")
        assert now in (outputs[state], outputs[target]), (
            f"trial {trial} ({signal.Signals(signum).name}): a mix of old and new outputs:\n"
            + "\n".join(n for n in changed if now.get(n) not in (None, outputs[state][n]))
            + "\n"
            + report
        )
        outcomes.append(now == outputs[target])
        finished = doit(built)
        assert finished.code == 0, finished.output
        assert files_under(built / "generated") == outputs[target]
        assert not (built / ".hookmsg-cache").exists(), "the next run cleans up the stage"
        state = target
    assert doit(built, "check").code == 0


_COUNTING = """
import atexit, hashlib, sys
calls = []
real = hashlib.file_digest
def counted(handle, digest):
    calls.append(getattr(handle, "name", "?"))
    return real(handle, digest)
hashlib.file_digest = counted
atexit.register(lambda: print(f"hashed {len(calls)} files", file=sys.stderr))
import runpy
sys.argv = ["doit"]
runpy.run_module("doit", run_name="__main__")
"""


def _hashed_by_noop_doit(root: Path) -> int:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "NO_COLOR")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", _COUNTING],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert all(line.startswith("-- ") for line in done.stdout.split("\n") if line), done.stdout
    return int(done.stderr.rsplit("hashed ", 1)[1].split()[0])


def test_records_taken_right_after_a_clone_are_sealed_once_the_files_settle(repo: Path) -> None:
    """A first `doit` right after a copy or clone records files that changed within the
    last 3 s ("racy": their stat alone proves nothing). Once they are older, one no-op run
    proves them by hashing and seals them; every no-op run after it reads none of them."""
    first = doit(repo)
    assert first.code == 0, first.output
    time.sleep(3.2)  # every source and output is now older than the settle window
    assert _hashed_by_noop_doit(repo) > 0, "the racy records are proven by hashing once"
    assert _hashed_by_noop_doit(repo) == 0, "and then believed by their stamp"
    assert _hashed_by_noop_doit(repo) == 0


def test_a_no_op_doit_removes_what_a_killed_run_left_in_the_scratch_folder(
    built: Path, committed: dict[str, bytes]
) -> None:
    scratch = built / ".hookmsg-cache"
    (scratch / "stage/registrations").mkdir(parents=True)
    (scratch / "stage/skill-index.md").write_text("half a build\n", encoding="utf-8")
    (scratch / "stage.123.tmp").mkdir()
    (scratch / ".gitignore").write_text("*\n", encoding="utf-8")
    again = doit(built)
    assert again.code == 0 and again.ran == set(), again.output
    assert not scratch.exists()
    assert files_under(built / "generated") == committed
