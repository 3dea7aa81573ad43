"""The payloads captured from the live clients (tests/fixtures/payloads/, see its README)
become the calls the live session made: a create of src/new.py, an edit of src/app.py
and the shell command `ls`, under each client's own tool names."""

from __future__ import annotations

import json

import pytest

from hookmsg_dispatch.contracts import build_call
from tests.support.dispatch import payload_fixtures
from tests.support.repository import REPO

TABLE = json.loads((REPO / "generated" / "dispatch-table.json").read_text(encoding="utf-8"))
CAPTURED = ("copilot", "codebuddy", "gemini-cli", "factory-droid", "oh-my-pi", "pi")
# What the scripted session did with each client's tools (path suffix, or the command).
DONE = {"Write": "src/new.py", "Edit": "src/app.py", "Bash": "ls"}
HAND_WRITTEN = {
    ("oh-my-pi", "PreCompact"),
    ("oh-my-pi", "UserPromptSubmit"),
    ("pi", "UserPromptSubmit"),
}
CASES = [
    (contract, stem)
    for contract in CAPTURED
    for stem in payload_fixtures(contract)
    if (contract, stem) not in HAND_WRITTEN
]


@pytest.mark.parametrize(("contract", "stem"), CASES)
def test_each_captured_payload_is_read_as_the_call_the_session_made(
    contract: str, stem: str
) -> None:
    event = stem.split("-", 1)[0]
    call = build_call(
        payload_fixtures(contract)[stem], TABLE["contracts"][contract], contract, event
    )
    assert call.session_id == "00000000-0000-4000-8000-000000000001"
    if event == "SessionStart":
        assert call.tool is None
        # CodeBuddy's SessionStart names no working folder; every other one does.
        assert call.cwd == ("" if contract == "codebuddy" else "/home/dev/demo")
        return
    assert call.cwd == "/home/dev/demo"
    assert call.tool in DONE, call.tool
    if call.tool == "Bash":
        assert call.command == "ls"
    else:
        [change] = call.changes
        assert change.path.endswith(DONE[call.tool])
        assert change.created is (call.tool == "Write")


# Each contract's registered tools, captured on every event it registers (PreToolUse under
# `install --strict` where only a deny reaches the model); left out, and why: Copilot's
# `powershell` (no PowerShell here), Droid's `MultiEdit` (the model's edit was one `Edit`),
# CodeBuddy's PostToolUse of `Edit` (2.117.0 ran no PostToolUse hook for that edit).
EXPECTED = {
    "copilot": {"bash", "create", "edit"},
    "codebuddy": {"Bash", "Write", "Edit"},
    "gemini-cli": {"replace", "run_shell_command", "write_file"},
    "factory-droid": {"Create", "Edit", "Execute"},
    "oh-my-pi": {"bash", "edit", "write"},
    "pi": {"bash", "edit", "write"},
}


@pytest.mark.parametrize("contract", CAPTURED)
def test_each_registered_tool_was_captured(contract: str) -> None:
    stems = set(payload_fixtures(contract))
    assert "SessionStart" in stems
    post = {s.split("-", 1)[1] for s in stems if s.startswith("PostToolUse-")}
    pre = {s.split("-", 1)[1] for s in stems if s.startswith("PreToolUse-")}
    expected = EXPECTED[contract]
    assert post == (expected - {"Edit"} if contract == "codebuddy" else expected)
    assert pre == (set() if contract in ("oh-my-pi", "pi") else expected)
    assert set(TABLE["contracts"][contract]["tools"]) >= expected
