"""Once per context: a context message that does not depend on the call is delivered the
first time its event fires in a context, again after a compaction or when its text
changed, and not on every call; guards speak on every call that triggers them; a
subagent's calls are a context of their own; any failure of the record delivers.

Run in-process against an unpacked release archive (its table and messages), with the
real guards, as the registered commands name them.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hookmsg_dispatch.main import run
from tests.support.dispatch import (
    build_install_root,
    clean_env,
    copy_root,
    delivered,
    table,
    write_table,
)

pytestmark = pytest.mark.slow

HEADER = "# SPDX-License-Identifier: MIT"
BASH = ["PreToolUse", "pretooluse-bash", "pretooluse-bash-plan-guard", "pretooluse-eval-guard"]
WRITE = [
    "PreToolUse",
    "pretooluse-write",
    "pretooluse-write-header-guard",
    "pretooluse-write-plan-guard",
    "pretooluse-dependency-guard",
    "pretooluse-eval-guard",
]
EDIT = [
    "PreToolUse",
    "pretooluse-edit",
    "pretooluse-edit-header-guard",
    "pretooluse-write-plan-guard",
    "pretooluse-dependency-guard",
    "pretooluse-eval-guard",
]
POST = ["PostToolUse", "posttooluse-proactive-compaction"]
SESSION_BUDGET = 10_000


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_install_root(tmp_path_factory.mktemp("install"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    for index in range(6):
        (folder / "src" / f"m{index}.py").write_text(f"{HEADER}\n\nVALUE = {index}\n", "utf-8")
    return folder


class Session:
    """One context's calls through the dispatcher, in-process, with one state folder."""

    def __init__(self, root: Path, project: Path, state: Path, session: str = "s-1") -> None:
        self.root, self.project, self.session = root, project, session
        self.env = clean_env(state)
        self.errors: list[str] = []

    def call(self, argv: list[str], **fields: Any) -> str:
        payload = {
            "cwd": str(self.project),
            "hook_event_name": argv[0],
            "session_id": self.session,
            "transcript_path": "",
            **fields,
        }
        out, err = io.BytesIO(), io.StringIO()
        code = run(
            argv,
            root=str(self.root),
            stdin=io.BytesIO(json.dumps(payload).encode()),
            stdout=out,
            stderr=err,
            environ=self.env,
        )
        assert code == 0
        self.errors += err.getvalue().splitlines()
        if not out.getvalue():
            return ""
        return str(json.loads(out.getvalue())["hookSpecificOutput"]["additionalContext"])

    def bash(self, command: str, **extra: Any) -> str:
        return self.call(BASH, tool_name="Bash", tool_input={"command": command}, **extra)

    def edit(self, path: str, old: str, new: str) -> str:
        tool_input = {"file_path": str(self.project / path), "old_string": old, "new_string": new}
        return self.call(EDIT, tool_name="Edit", tool_input=tool_input)

    def write(self, path: str, content: str) -> str:
        tool_input = {"file_path": str(self.project / path), "content": content}
        return self.call(WRITE, tool_name="Write", tool_input=tool_input)

    def post(self, tool: str) -> str:
        return self.call(POST, tool_name=tool, tool_input={}, tool_response={"ok": True})


@pytest.fixture(autouse=True)
def _state_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The compaction condition finds its folder in this process's environment.
    monkeypatch.setenv("HOOKMSG_HOOK_STATE_DIR", str(tmp_path / "state"))


@pytest.fixture
def session(built: Path, project: Path, tmp_path: Path) -> Session:
    return Session(built, project, tmp_path / "state")


def test_a_context_message_is_delivered_once_per_context(session: Session) -> None:
    text = delivered(session.root, "pretooluse-bash")
    assert session.bash("ls") == text
    assert session.bash("git status") == ""
    assert session.bash("ls -la") == ""
    assert session.errors == []


def test_guards_still_speak_on_every_call(session: Session) -> None:
    # A new Python file without the licence header its siblings carry.
    guard = "Full procedure: " + str(session.root / "messages" / "pretooluse-write-header-guard.md")
    first = session.write("src/bare.py", "VALUE = 9\n")
    second = session.write("src/bare.py", "VALUE = 10\n")
    assert guard in first and guard in second
    assert delivered(session.root, "pretooluse-write") in first
    assert delivered(session.root, "pretooluse-write") not in second
    assert second.startswith("This call went ahead.")


def test_another_session_and_a_subagent_are_contexts_of_their_own(
    built: Path, project: Path, tmp_path: Path
) -> None:
    text = delivered(built, "pretooluse-bash")
    main = Session(built, project, tmp_path / "state", "s-main")
    assert main.bash("ls") == text
    assert main.bash("ls", agent_id="agent-7f") == text  # a subagent: its own context
    assert main.bash("pwd", agent_id="agent-7f") == ""
    assert main.bash("pwd") == ""  # the main context still holds it
    other = Session(built, project, tmp_path / "state", "s-other")
    assert other.bash("ls") == text


def test_after_a_compaction_it_is_delivered_again(session: Session) -> None:
    text = delivered(session.root, "pretooluse-bash")
    assert session.bash("ls") == text
    assert session.bash("ls") == ""
    started = session.call(["SessionStart", "postcompact"], source="compact")
    assert delivered(session.root, "postcompact") in started
    assert session.bash("ls") == text
    assert session.bash("ls") == ""
    session.call(["SessionStart", "sessionstart"], source="resume")  # the same context
    assert session.bash("ls") == ""


def test_a_changed_text_is_delivered_again(built: Path, project: Path, tmp_path: Path) -> None:
    root = copy_root(built, tmp_path / "root")
    session = Session(root, project, tmp_path / "state")
    assert session.bash("ls") == delivered(root, "pretooluse-bash")
    path = root / "messages" / "pretooluse-bash.md"
    path.write_text("Shell commands: a new text.\n", encoding="utf-8")
    data = table(root)
    data["messages"]["pretooluse-bash"]["digest"] = "0123456789abcdef"
    write_table(root, data)
    assert session.bash("ls") == "Shell commands: a new text."
    assert session.bash("ls") == ""


def test_without_a_table_digest_the_text_itself_decides(
    built: Path, project: Path, tmp_path: Path
) -> None:
    root = copy_root(built, tmp_path / "root")
    data = table(root)
    del data["messages"]["pretooluse-bash"]["digest"]
    write_table(root, data)
    session = Session(root, project, tmp_path / "state")
    assert session.bash("ls") == delivered(root, "pretooluse-bash")
    assert session.bash("ls") == ""
    (root / "messages" / "pretooluse-bash.md").write_text("Changed.\n", encoding="utf-8")
    assert session.bash("ls") == "Changed."


@pytest.mark.parametrize("damage", ["folder-is-a-file", "record-is-a-folder", "record-is-a-link"])
def test_a_failing_record_delivers_every_time(
    built: Path, project: Path, tmp_path: Path, damage: str
) -> None:
    state = tmp_path / "state"
    session = Session(built, project, state)
    record = state / "s-1.seen"
    if damage == "folder-is-a-file":
        state.write_text("not a folder\n", encoding="utf-8")
    else:
        state.mkdir(mode=0o700)
        if damage == "record-is-a-folder":
            record.mkdir()
        else:
            target = tmp_path / "elsewhere"
            target.write_text("PreToolUse pretooluse-bash anything\n", encoding="utf-8")
            record.symlink_to(target)
    text = delivered(built, "pretooluse-bash")
    assert session.bash("ls") == text
    assert session.bash("ls") == text
    assert all(line.startswith("hookmsg-dispatch: ") for line in session.errors)
    if damage == "record-is-a-link":
        # Never written through: the planted file is as it was.
        assert (tmp_path / "elsewhere").read_text(encoding="utf-8").count("\n") == 1


def test_a_damaged_or_oversized_record_is_started_afresh(session: Session, tmp_path: Path) -> None:
    text = delivered(session.root, "pretooluse-bash")
    assert session.bash("ls") == text
    record = tmp_path / "state" / "s-1.seen"
    record.write_bytes(b"\xff\x00" * (1 << 16))
    assert session.bash("ls") == text
    assert session.bash("ls") == ""
    assert record.stat().st_size < 1024


def test_a_message_left_out_by_the_cap_is_not_counted_as_delivered(session: Session) -> None:
    text = delivered(session.root, "pretooluse-bash")
    session.env["HOOKMSG_CAP"] = "200"
    assert text not in session.bash("ls")
    del session.env["HOOKMSG_CAP"]
    assert session.bash("ls") == text


def test_a_call_that_names_no_session_gets_every_message_every_time(session: Session) -> None:
    session.session = ""
    text = delivered(session.root, "pretooluse-bash")
    assert session.bash("ls") == text
    assert session.bash("ls") == text


COMMANDS = (
    "pytest -q tests/test_models.py",
    "git status --short",
    "git diff -- src/m1.py",
    "ls -la src",
    "ruff check src",
    "python -m mypy src",
    "grep -rn VALUE src",
    "cat src/m2.py",
    "git log --oneline -5",
    "make test",
)


def session_of_180_calls(session: Session) -> list[str]:
    """100 Bash, 60 Edit and 20 Write calls (each followed by its PostToolUse), interleaved
    as a working session: read and test, edit, now and then a new file."""
    said: list[str] = []
    for index in range(100):
        said += [session.bash(COMMANDS[index % len(COMMANDS)]), session.post("Bash")]
        if index % 5 < 3:  # 60 edits
            name = f"src/m{index % 6}.py"
            said += [session.edit(name, "VALUE = ", "VALUE: int = "), session.post("Edit")]
        if index % 5 == 4:  # 20 new files
            content = f"{HEADER}\n\n\ndef helper_{index}() -> int:\n    return {index}\n"
            said += [session.write(f"src/new_{index}.py", content), session.post("Write")]
    return said


def test_a_session_of_180_calls_carries_at_most_10_000_characters(session: Session) -> None:
    said = session_of_180_calls(session)
    calls = sum(1 for _ in said) // 2
    assert calls == 180
    total = sum(len(text) for text in said)
    everything = "\n".join(said)
    assert total <= SESSION_BUDGET, total
    # Without a transcript the compaction reminder counts tool calls: past the 150th it
    # speaks (by its own rule, not once per context), and is part of the budget.
    reminder = delivered(session.root, "posttooluse-proactive-compaction")
    assert everything.count(reminder) >= 1
    # Each tool's context message arrived, once.
    for name in ("pretooluse-bash", "pretooluse-edit", "pretooluse-write"):
        assert everything.count(delivered(session.root, name)) == 1, name
    assert session.errors == []
