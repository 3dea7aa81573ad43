"""The dispatcher's xcsh contract: the generated module's payload read into a `Call`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hookmsg_dispatch.call import FileChange
from hookmsg_dispatch.xcsh import build_call, context_tokens
from tests.support.repository import REPO

# As the dispatch table holds it: xcsh's tool names -> the registry's.
CONTRACT = {"tools": {"write": "Write", "edit": "Edit", "bash": "Bash"}}


def call_for(payload: dict[str, Any], event: str = "PostToolUse") -> Any:
    return build_call(payload, CONTRACT, "xcsh", event)


def test_session_fields_and_no_tool_outside_tool_events() -> None:
    call = call_for({"type": "session_start", "cwd": "/work/p", "sessionId": "s-1"}, "SessionStart")
    assert (call.event, call.harness, call.cwd, call.session_id) == (
        "SessionStart",
        "xcsh",
        "/work/p",
        "s-1",
    )
    assert call.tool is None
    assert call.changes == ()
    assert call.command is None


def test_write_is_a_created_file() -> None:
    call = call_for({"toolName": "write", "input": {"path": "src/a.py", "content": "x = 1\n"}})
    assert call.tool == "Write"
    assert call.changes == (FileChange("src/a.py", "x = 1\n", None, True),)


@pytest.mark.parametrize(
    ("tool_input", "change"),
    [
        (
            {"path": "a.py", "edits": [{"oldText": "a", "newText": "b"}, {"oldText": "c"}]},
            FileChange("a.py", "b\n", "a\nc", False),
        ),
        ({"path": "a.py", "old_text": "a", "new_text": "b"}, FileChange("a.py", "b", "a", False)),
        (
            {"path": "a.py", "op": "update", "diff": "@@\n-old line\n+new line\n context"},
            FileChange("a.py", "new line", "old line", False),
        ),
        (
            {"path": "n.py", "op": "create", "diff": "print(1)\n"},
            FileChange("n.py", "print(1)\n", None, True),
        ),
    ],
    ids=["edits", "replace", "patch-update", "patch-create"],
)
def test_each_edit_mode_is_one_change(tool_input: dict[str, Any], change: FileChange) -> None:
    call = call_for({"toolName": "edit", "input": tool_input})
    assert call.tool == "Edit"
    assert call.changes == (change,)


def test_bash_carries_its_command_and_unknown_tools_are_other() -> None:
    assert call_for({"toolName": "bash", "input": {"command": "ls -la"}}).command == "ls -la"
    call = call_for({"toolName": "grep", "input": {"pattern": "x"}})
    assert call.tool == "other:grep"
    assert call.tool_input == {"pattern": "x"}


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"toolName": 5, "input": "not an object", "cwd": ["x"], "sessionId": None},
        {"toolName": "write", "input": {"content": "no path"}},
        {"toolName": "edit", "input": {"path": "a.py", "edits": ["not", "objects"]}},
        {"toolName": "", "truncated": True},
    ],
)
def test_odd_payloads_never_raise(payload: dict[str, Any]) -> None:
    call = call_for(payload)
    assert call.event == "PostToolUse"
    assert isinstance(call.cwd, str)
    assert all(isinstance(change.path, str) and change.path for change in call.changes)


@pytest.mark.parametrize(
    ("usage", "tokens"),
    [
        ({"tokens": 91000, "contextWindow": 100000, "percent": 91}, 91000),
        ({"tokens": None, "contextWindow": 100000, "percent": None}, None),
        ({"tokens": True}, None),
        ({"tokens": 0}, None),
        (None, None),
        ("91000", None),
    ],
)
def test_context_tokens_from_the_reported_usage(usage: Any, tokens: int | None) -> None:
    assert context_tokens({"contextUsage": usage}) == tokens


def test_the_reported_context_size_travels_with_the_call() -> None:
    usage = {"tokens": 91000, "contextWindow": 100000, "percent": 91}
    assert call_for({"toolName": "bash", "contextUsage": usage}).context_tokens == 91000
    assert call_for({"toolName": "bash", "contextUsage": None}).context_tokens is None


def test_the_recorded_module_payloads_through_the_dispatch_table() -> None:
    # Recorded from the generated module; read through the contract the table names.
    from hookmsg_dispatch import contracts
    from tests.support.dispatch import payload_fixtures

    table = json.loads((REPO / "generated" / "dispatch-table.json").read_text(encoding="utf-8"))
    contract = table["contracts"]["xcsh"]
    assert (contract["payload"], contract["envelope"]) == ("xcsh", "xcsh")
    fixtures = payload_fixtures("xcsh")
    assert sorted(fixtures) == [
        "PostToolUse-bash",
        "PostToolUse-edit",
        "PostToolUse-write",
        "PreCompact",
        "SessionStart",
        "UserPromptSubmit",
    ]

    def call(stem: str) -> Any:
        return contracts.build_call(fixtures[stem], contract, "xcsh", stem.split("-", 1)[0])

    start = call("SessionStart")
    assert (start.cwd, start.session_id, start.tool, start.context_tokens) == (
        "/home/dev/demo",
        "019a6f1e-xcsh",
        None,
        None,
    )
    write = call("PostToolUse-write")
    assert write.changes == (
        FileChange(
            "src/new_module.py", "def greet(name):\n    return f'hello {name}'\n", None, True
        ),
    )
    edit = call("PostToolUse-edit")
    assert edit.changes == (
        FileChange("src/app.py", "print(greet('world'))", "print('hello')", False),
    )
    bash = call("PostToolUse-bash")
    assert (bash.tool, bash.command, bash.context_tokens) == ("Bash", "pytest -q", 131000)
    assert call("PreCompact").context_tokens == 190000
