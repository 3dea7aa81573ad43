"""Per-session state: where it lives, its permissions, atomic updates under concurrency."""

from __future__ import annotations

import json
import multiprocessing
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from hookmsg_dispatch import state


def test_state_folder_follows_the_documented_order(tmp_path: Path) -> None:
    default = str(Path("~").expanduser() / ".local" / "state" / "hookmsg")
    assert state.state_dir({"HOOKMSG_HOOK_STATE_DIR": "/x/s", "CLAUDE_PLUGIN_DATA": "/p"}) == "/x/s"
    assert state.state_dir({"CLAUDE_PLUGIN_DATA": "/p", "XDG_STATE_HOME": "/x"}) == "/p/state"
    assert state.state_dir({"XDG_STATE_HOME": "/xdg"}) == "/xdg/hookmsg"
    relative_xdg = state.state_dir({"XDG_STATE_HOME": "relative/dir"})
    assert relative_xdg == default
    assert state.state_dir({}) == default


def test_folder_is_created_0700_and_files_are_per_session(tmp_path: Path) -> None:
    folder = tmp_path / "deep" / "state"
    state.update("abc", lambda s: s.update(n=1), folder=str(folder))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert state.read("abc", folder=str(folder)) == {"n": 1}
    assert state.read("other", folder=str(folder)) == {}


def test_session_ids_become_safe_distinct_file_names(tmp_path: Path) -> None:
    names = {state.session_file_name(s) for s in ("../../etc/passwd", "a/b", "a_b", "", "ok-1")}
    assert len(names) == 5
    assert all("/" not in n and not n.startswith(".") and n for n in names)
    assert state.session_file_name("ok-1") == "ok-1"
    state.update("../../escape", lambda s: s.update(x=1), folder=str(tmp_path / "s"))
    assert sorted(p.parent for p in tmp_path.rglob("*.json")) == [tmp_path / "s"]


def test_damaged_state_starts_afresh(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    state.update("s1", lambda s: s.update(n=1), folder=str(folder))
    (folder / "s1.json").write_text("{not json", encoding="utf-8")
    assert state.update("s1", lambda s: s.setdefault("n", 5), folder=str(folder)) == 5


def test_unusable_folder_raises_oserror(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(OSError):
        state.update("s1", lambda s: None, folder=str(blocker / "state"))
    with pytest.raises(OSError):
        state.update("s1", lambda s: None, folder=str(blocker))


def test_environment_variable_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKMSG_HOOK_STATE_DIR", str(tmp_path / "env-state"))
    state.update("s9", lambda s: s.update(v=2))
    assert (tmp_path / "env-state" / "s9.json").is_file()


# --------------------------------------------------------------------------- concurrency

WORKERS = 4
ROUNDS = 40


def _worker(index: int, folder: str, shared: Any) -> None:
    started, in_flight_seen, first_inside, others_started = shared
    if index != 0:
        first_inside.wait()  # worker 0 holds the lock first

    def bump(value: dict[str, Any]) -> None:
        if index == 0 and not first_inside.is_set():
            first_inside.set()
            others_started.wait()  # every other worker is now inside update(), blocked
        with started.get_lock():
            others = started.value - 1  # updates begun by other processes, still unfinished
        if others > 0:
            with in_flight_seen.get_lock():
                in_flight_seen.value += 1
        value["count"] = int(value.get("count", 0)) + 1

    for round_number in range(ROUNDS):
        with started.get_lock():
            started.value += 1
            if index != 0 and round_number == 0:
                others_started.release()
        state.update("shared-session", bump, folder=folder)
        with started.get_lock():
            started.value -= 1


@pytest.mark.slow
def test_concurrent_updates_of_one_session_lose_nothing(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    started = context.Value("i", 0)
    in_flight_seen = context.Value("i", 0)
    first_inside = context.Event()
    others_started = _Semaphore(context, WORKERS - 1)
    shared = (started, in_flight_seen, first_inside, others_started)
    processes = [
        context.Process(target=_worker, args=(i, str(tmp_path / "s"), shared))
        for i in range(WORKERS)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join()
    assert [p.exitcode for p in processes] == [0] * WORKERS
    assert state.read("shared-session", folder=str(tmp_path / "s")) == {"count": WORKERS * ROUNDS}
    # Worker 0 held the lock until every other worker had entered update(): the updates
    # overlapped, and the lock serialised them.
    assert in_flight_seen.value >= 1
    assert not list((tmp_path / "s").glob(".tmp-*"))


class _Semaphore:
    """Wait until `count` releases have happened (a countdown latch across processes)."""

    def __init__(self, context: Any, count: int) -> None:
        self._semaphore = context.Semaphore(0)
        self._count = count

    def release(self) -> None:
        self._semaphore.release()

    def wait(self) -> None:
        for _ in range(self._count):
            self._semaphore.acquire()


# --------------------------------------------------------------------------- trust


def _shared_folder(tmp_path: Path) -> Path:
    """A state folder anyone may write to (as a shared /tmp folder is): another user's plants."""
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    return folder


def test_relative_state_variables_are_ignored(tmp_path: Path) -> None:
    home = tmp_path / "home"
    default = str(home / ".local" / "state" / "hookmsg")
    assert state.state_dir({"HOOKMSG_HOOK_STATE_DIR": "state", "HOME": str(home)}) == default
    assert state.state_dir({"CLAUDE_PLUGIN_DATA": "data", "HOME": str(home)}) == default
    assert state.state_dir({"XDG_STATE_HOME": "xdg", "HOME": str(home)}) == default
    assert Path(state.state_dir({"HOME": "."})).is_absolute()


def test_a_relative_home_never_puts_state_in_the_opened_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    for name in ("HOOKMSG_HOOK_STATE_DIR", "CLAUDE_PLUGIN_DATA", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", ".")
    folder = Path(state.state_dir())  # not created here: it is the account's real home
    assert folder.is_absolute()
    assert project not in folder.resolve().parents
    with pytest.raises(OSError, match="not an absolute path"):
        state.update("s1", lambda s: s.update(n=1), folder="relative/state")
    assert list(project.iterdir()) == []


@pytest.mark.parametrize("planted", ["s1.lock", "s1.json"])
def test_a_link_planted_in_a_shared_folder_creates_nothing(tmp_path: Path, planted: str) -> None:
    folder = _shared_folder(tmp_path)
    victim = tmp_path / "victim" / "created-by-the-hook"
    victim.parent.mkdir()
    (folder / planted).symlink_to(victim)
    with pytest.raises(OSError):
        state.update("s1", lambda s: s.update(n=1), folder=str(folder))
    assert not victim.exists()
    assert state.read("s1", folder=str(folder)) == {}


def test_a_link_in_the_users_own_folder_is_never_followed(tmp_path: Path) -> None:
    folder = tmp_path / "own"
    state.update("s0", lambda s: None, folder=str(folder))  # created 0700 by the hook
    outside = tmp_path / "outside.json"
    outside.write_text('{"secret": 1}', encoding="utf-8")
    (folder / "s1.json").symlink_to(outside)
    assert state.read("s1", folder=str(folder)) == {}  # not read through the link
    state.update("s1", lambda s: s.update(n=2), folder=str(folder))
    assert outside.read_text(encoding="utf-8") == '{"secret": 1}'
    assert not (folder / "s1.json").is_symlink()
    assert state.read("s1", folder=str(folder)) == {"n": 2}
    victim = tmp_path / "victim"
    (folder / "s2.lock").symlink_to(victim)
    with pytest.raises(OSError):
        state.update("s2", lambda s: None, folder=str(folder))
    assert not victim.exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown")
def test_a_folder_owned_by_another_user_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir(mode=0o700)
    os.chown(folder, 54321, 54321)
    with pytest.raises(OSError, match="not owned"):
        state.update("s1", lambda s: s.update(n=1), folder=str(folder))
    assert list(folder.iterdir()) == []


def test_planted_counters_do_not_silence_the_compaction_reminder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookmsg_dispatch.call import Call
    from tests.support.guards import conditions, run

    message = "posttooluse-proactive-compaction"
    folder = _shared_folder(tmp_path)
    counters = {"compaction": {"fired": 99, "since": 0, "tokens": 10**9}}
    (folder / "s1.json").write_text(json.dumps(counters), encoding="utf-8")
    monkeypatch.setenv("HOOKMSG_HOOK_STATE_DIR", str(folder))
    transcript = tmp_path / "t.jsonl"
    usage = {"input_tokens": conditions()[message]["tokens"] + 1}
    transcript.write_text(json.dumps({"message": {"usage": usage}}) + "\n", encoding="utf-8")
    call = Call(
        event="PostToolUse",
        harness="claude",
        cwd="/",
        session_id="s1",
        transcript_path=str(transcript),
        tool="Bash",
        tool_response={"stdout": "ok"},
    )
    assert run(message, call) == {}
    assert json.loads((folder / "s1.json").read_text(encoding="utf-8")) == counters
