"""Each harness's recorded payloads become the right `Call`; the package stays standard-library."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookmsg_dispatch import jsonio
from hookmsg_dispatch.call import Call, FileChange
from hookmsg_dispatch.contracts import build_call, parse_patch
from tests.support.dispatch import PAYLOADS, payload_fixtures
from tests.support.repository import REPO

PACKAGE = REPO / "scripts" / "hookmsg_dispatch"
TABLE = json.loads((REPO / "generated" / "dispatch-table.json").read_text(encoding="utf-8"))


def _call(contract: str, stem: str) -> Call:
    payload = payload_fixtures(contract)[stem]
    event = stem.split("-", 1)[0]
    return build_call(payload, TABLE["contracts"][contract], contract, event)


def test_every_contract_in_the_table_has_payload_fixtures() -> None:
    assert set(TABLE["contracts"]) == {p.name for p in PAYLOADS.iterdir() if p.is_dir()}


def test_claude_code_calls() -> None:
    write = _call("claude-code", "PreToolUse-Write")
    assert (write.tool, write.cwd, write.harness) == ("Write", "/home/dev/demo", "claude-code")
    assert write.changes == (
        FileChange("/home/dev/demo/src/app.py", "print('hello')\n", None, True),
    )
    assert write.session_id and write.transcript_path.endswith(".jsonl")
    edit = _call("claude-code", "PreToolUse-Edit")
    assert edit.changes == (
        FileChange("/home/dev/demo/src/app.py", "hello, world", "hello", False),
    )
    notebook = _call("claude-code", "PreToolUse-NotebookEdit")
    assert notebook.changes == (FileChange("/home/dev/demo/analysis.ipynb", "df.describe()"),)
    assert _call("claude-code", "PreToolUse-Bash").command == "ls -la"
    assert _call("claude-code", "PreToolUse-PowerShell").tool == "PowerShell"
    ask = _call("claude-code", "PreToolUse-AskUserQuestion")
    assert ask.questions[0]["question"] == "Which database should the service use?"
    post = _call("claude-code", "PostToolUse-Bash")
    assert isinstance(post.tool_response, dict) and post.tool_response["stdout"]
    assert _call("claude-code", "SessionStart-compact").source == "compact"
    assert _call("claude-code", "Stop").tool is None


def test_codex_apply_patch_becomes_file_changes() -> None:
    call = _call("codex", "PreToolUse-apply_patch")
    assert call.tool == "Write"  # the patch adds a file
    assert call.changes == (
        FileChange("src/new_module.py", "def greet(name):\n    return f'hello {name}'", None, True),
        FileChange("src/app.py", "    print(greet('world'))", "    print('hello')", False),
    )
    assert _call("codex", "PreToolUse-Bash").command == "cargo test"
    assert (
        _call("codex", "PostToolUse-Bash").tool_response == "test result: ok. 12 passed; 0 failed"
    )


def test_parse_patch_moves_deletes_and_crlf() -> None:
    patch = (
        "*** Begin Patch\r\n*** Update File: a.py\r\n*** Move to: b.py\r\n@@\r\n-old\r\n+new\r\n"
        "*** Delete File: gone.py\r\n*** Add File: c.txt\r\n+one\r\n+-two\r\n*** End Patch\r\n"
    )
    assert parse_patch(patch) == (
        FileChange("b.py", "new", "old", False),
        FileChange("c.txt", "one\n-two", None, True),
    )
    assert parse_patch("not a patch") == ()


def test_an_update_only_patch_is_an_edit_and_a_list_command_is_read() -> None:
    patch = "*** Begin Patch\n*** Update File: x.py\n-a\n+b\n*** End Patch"
    payload = {"tool_name": "apply_patch", "tool_input": {"command": ["apply_patch", patch]}}
    call = build_call(payload, TABLE["contracts"]["codex"], "codex", "PreToolUse")
    assert (call.tool, call.changes) == ("Edit", (FileChange("x.py", "b", "a", False),))


def test_a_multiedit_is_one_change_per_edit_of_the_same_file() -> None:
    edits = [
        {"old_string": "a", "new_string": "b"},
        "not an edit",
        {"old_string": "c", "new_string": "d"},
    ]
    payload = {"tool_name": "MultiEdit", "tool_input": {"file_path": "x.rs", "edits": edits}}
    call = build_call(payload, TABLE["contracts"]["factory-droid"], "factory-droid", "PreToolUse")
    assert (call.tool, call.changes) == (
        "Edit",
        (FileChange("x.rs", "b", "a", False), FileChange("x.rs", "d", "c", False)),
    )


def test_qwen_code_tools_map_back_to_registry_names() -> None:
    assert _call("qwen-code", "PreToolUse-write_file").changes[0].created is True
    edit = _call("qwen-code", "PreToolUse-edit")
    assert (edit.tool, edit.changes[0].before, edit.changes[0].after) == ("Edit", "hello", "hi")
    shell = _call("qwen-code", "PreToolUse-run_shell_command")
    assert (shell.tool, shell.command) == ("Bash", "npm test")
    post = _call("qwen-code", "PostToolUse-run_shell_command")
    assert isinstance(post.tool_response, str)


def test_copilot_camel_case_payloads() -> None:
    bash = _call("copilot", "PostToolUse-bash")
    assert (bash.tool, bash.command, bash.cwd) == ("Bash", "ls", "/home/dev/demo")
    assert bash.tool_response == {
        "resultType": "success",
        "textResultForLlm": "src\n<shellId: 0 completed with exit code 0>",
    }
    create = _call("copilot", "PostToolUse-create")
    assert create.changes == (FileChange("/home/dev/demo/src/new.py", "x = 1\n", None, True),)


def test_other_harnesses() -> None:
    devin = _call("devin-local", "PostToolUse-exec")
    assert (devin.tool, devin.command, devin.cwd) == ("Bash", "make test", "")
    cursor = _call("cursor", "SessionStart")
    assert (cursor.cwd, cursor.session_id) == ("/home/dev/demo", "c-7f1")
    assert _call("kiro", "SessionStart").cwd == "/home/dev/demo"
    assert _call("codebuddy", "PostToolUse-Write").changes[0].path == "/home/dev/demo/src/new.py"


def test_an_unknown_tool_becomes_other() -> None:
    payload = {"tool_name": "mcp__github__create_issue", "tool_input": {"title": "x"}}
    call = build_call(payload, TABLE["contracts"]["claude-code"], "claude-code", "PreToolUse")
    assert (call.tool, call.changes, call.command) == ("other:mcp__github__create_issue", (), None)


@pytest.mark.parametrize(
    "payload",
    [
        {"tool_name": "Write", "tool_input": "not an object"},
        {"tool_name": "Write", "tool_input": {"file_path": 7, "content": None}},
        {"tool_name": 3, "cwd": ["x"], "session_id": {}},
        {"toolName": "bash", "toolArgs": "{broken"},
    ],
)
def test_odd_payload_values_never_raise(payload: dict[str, Any]) -> None:
    for contract in TABLE["contracts"].values():
        call = build_call(payload, contract, "x", "PreToolUse")
        assert call.changes == ()


# --------------------------------------------------------------------------- JSON without `json`


@pytest.mark.slow
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
        max_leaves=20,
    )
)
def test_loads_agrees_with_json(value: Any) -> None:
    text = json.dumps(value)
    assert jsonio.loads(text) == json.loads(text)
    assert jsonio.loads(f"  {text}\n") == value


@pytest.mark.slow
@given(
    st.dictionaries(st.text(), st.text() | st.dictionaries(st.text(), st.text() | st.booleans()))
)
def test_dumps_round_trips_through_json(value: dict[str, Any]) -> None:
    text = jsonio.dumps(value)
    assert text.isascii()
    assert json.loads(text) == value


@pytest.mark.parametrize("text", ["", "{", "[1,]", '{"a": 1} x', "nul", "[" * 100_000])
def test_loads_refuses_what_json_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        jsonio.loads(text)


# --------------------------------------------------------------------------- imports


def _imports(path: Path) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}:{node.lineno}: use absolute imports"
            found.append((node.module or "", node.lineno))
    return found


def test_the_dispatcher_imports_only_the_standard_library_and_itself() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) >= 6
    for path in modules:
        for name, line in _imports(path):
            top = name.split(".")[0]
            assert top != "hookmsg", f"{path.name}:{line}: imports the build side"
            assert top == "hookmsg_dispatch" or top in sys.stdlib_module_names, (
                f"{path.name}:{line}: '{name}' is not in the standard library"
            )


def test_the_dispatcher_avoids_slow_imports_at_module_level() -> None:
    """Modules slow to import (typing, dataclasses, re, json, pathlib...) are never imported
    at module level: a hook call pays for every import on every tool call."""
    slow = {"re", "json", "pathlib", "typing", "argparse", "subprocess", "contextlib"}
    slow |= {"dataclasses", "inspect", "enum", "collections", "functools"}
    core = ("__init__", "entry", "main", "jsonio", "text", "envelope", "contracts", "call")
    for path in (PACKAGE / f"{name}.py" for name in core):  # what every call may load
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:  # module level only; TYPE_CHECKING blocks are `if` nodes
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = (
                    [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                )
                for name in names:
                    assert (name or "").split(".")[0] not in slow, f"{path.name}: {name}"


def test_call_records_are_frozen_values() -> None:
    change = FileChange("a.py", "x")
    assert change == FileChange(path="a.py", after="x", before=None, created=None)
    assert hash(change) == hash(FileChange("a.py", "x"))
    assert change != FileChange("a.py", "y")
    assert repr(change) == "FileChange(path='a.py', after='x', before=None, created=None)"
    with pytest.raises(AttributeError):
        change.path = "b.py"  # type: ignore[misc]
    call = Call("PreToolUse", "claude-code", tool="Write", changes=(change,))
    assert call.tool_input == {} and call.questions == []
    assert call.tool_input is not Call("PreToolUse", "x").tool_input
    assert call.replace(tool="Edit") == Call(
        "PreToolUse", "claude-code", tool="Edit", changes=(change,)
    )
    assert call != change


def test_copilot_pretooluse_and_cursor_posttooluse() -> None:
    shell = _call("copilot", "PreToolUse-bash")
    assert (shell.tool, shell.command) == ("Bash", "ls")
    edit = _call("copilot", "PreToolUse-edit")
    assert edit.changes == (FileChange("/home/dev/demo/src/app.py", "hi", "hello", False),)
    cursor = _call("cursor", "PostToolUse-Shell")
    assert (cursor.tool, cursor.command, cursor.cwd) == ("Bash", "npm test", "/home/dev/demo")


def test_the_new_harnesses_read_their_own_tool_names_and_inputs() -> None:
    # oh-my-pi's edit input is {input, path, paths}: one patch string naming the file in
    # its header (the payloads are captured from the clients: tests/fixtures/payloads/).
    omp = _call("oh-my-pi", "PostToolUse-edit")
    assert (omp.tool, omp.changes) == (
        "Edit",
        (FileChange("src/app.py", "More notes.", None, False),),
    )
    pi = _call("pi", "PostToolUse-edit")
    assert pi.changes == (FileChange("/home/dev/demo/src/app.py", "hi", "hello", False),)
    gemini = _call("gemini-cli", "PreToolUse-write_file")
    assert (gemini.tool, gemini.changes[0].path) == ("Write", "/home/dev/demo/src/new.py")
    assert _call("gemini-cli", "PreToolUse-run_shell_command").command == "ls"
    droid = _call("factory-droid", "PreToolUse-Create")
    assert (droid.tool, droid.changes[0].created) == ("Write", True)
    assert _call("factory-droid", "PreToolUse-Execute").command == "ls"
