"""Fail open, always: every fault gives exit 0, valid output, no block, one line on stderr."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.dispatch import (
    PREFIX,
    Ran,
    build_install_root,
    clean_env,
    copy_root,
    delivered,
    dispatch,
    payload_fixtures,
    remove_guards,
    table,
    with_guards,
    write_table,
)

WRITE = ["PreToolUse", "pretooluse-write", "pretooluse-dependency-guard"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_install_root(tmp_path_factory.mktemp("install"))


@pytest.fixture
def root(built: Path, tmp_path: Path) -> Path:
    """A private copy of the install root, free to break."""
    return copy_root(built, tmp_path / "root")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return clean_env(tmp_path / "state")


def _write_payload() -> dict[str, Any]:
    return payload_fixtures("claude-code")["PreToolUse-Write"]


def _no_block(ran: Ran) -> None:
    """Exit 0; stdout empty or one JSON object that neither denies, blocks nor continues."""
    assert ran.code == 0
    if ran.out:
        data = ran.json()
        text = json.dumps(data)
        for word in ("permissionDecision", '"decision"', '"continue"', "stopReason"):
            assert word not in text


def _one_line(ran: Ran, *words: str) -> None:
    assert len(ran.err_lines) == 1, ran.err
    assert ran.err_lines[0].startswith(PREFIX)
    for word in words:
        assert word in ran.err_lines[0], ran.err


def _context(ran: Ran) -> str:
    return str(ran.json()["hookSpecificOutput"]["additionalContext"])


@pytest.mark.slow
def test_a_missing_message_is_left_out_and_the_rest_delivered(root: Path, env: Any) -> None:
    (root / "messages" / "sessionstart.md").unlink()
    payload = payload_fixtures("claude-code")["SessionStart"]
    ran = dispatch(root, "SessionStart", "sessionstart", "skill-index", payload=payload, env=env)
    _no_block(ran)
    _one_line(ran, "sessionstart")
    assert _context(ran) == delivered(root, "skill-index")


@pytest.mark.slow
def test_an_unreadable_message_is_left_out(root: Path, env: Any) -> None:
    path = root / "messages" / "pretooluse-write.md"
    path.unlink()
    path.mkdir()  # a folder where the file should be: unreadable whoever runs the test
    ran = dispatch(root, *WRITE, payload=_write_payload(), env=env)
    _no_block(ran)
    _one_line(ran, "pretooluse-write")
    assert ran.out == b""


@pytest.mark.parametrize("damage", ["missing", "invalid", "not-an-object", "no-contracts"])
def test_a_broken_dispatch_table_delivers_nothing(root: Path, env: Any, damage: str) -> None:
    path = root / "data" / "dispatch-table.json"
    if damage == "missing":
        path.unlink()
    else:
        path.write_text(
            {"invalid": "{", "not-an-object": "[1]", "no-contracts": '{"messages": {}}'}[damage],
            encoding="utf-8",
        )
    ran = dispatch(root, *WRITE, payload=_write_payload(), env=env)
    _no_block(ran)
    _one_line(ran, "dispatch table")
    assert ran.out == b""


@pytest.mark.slow
@pytest.mark.parametrize(
    "payload",
    [b"", b"   \n", b"{not json", b"[1, 2]", b'"text"', b"\xff\xfe\x00", b'{"a": 1} {"b": 2}'],
    ids=["empty", "blank", "invalid", "array", "string", "not-utf8", "two-documents"],
)
def test_a_bad_payload_still_delivers_context_and_keeps_guards_silent(
    root: Path, env: Any, payload: bytes
) -> None:
    with_guards(
        root, {"pretooluse-dependency-guard": {"detector": "values", "values": {"path": "x"}}}
    )
    ran = dispatch(root, *WRITE, payload=payload, env=env)
    _no_block(ran)
    _one_line(ran, "payload")
    assert _context(ran) == delivered(root, "pretooluse-write")


def test_a_payload_of_several_megabytes_is_refused_not_read(root: Path, env: Any) -> None:
    payload = dict(_write_payload())
    payload["tool_input"] = {"file_path": "big.txt", "content": "x" * (6 * 1024 * 1024)}
    with_guards(root, {"pretooluse-dependency-guard": {"detector": "first-path"}})
    ran = dispatch(root, *WRITE, payload=payload, env=env)
    _no_block(ran)
    _one_line(ran, "larger than")
    assert _context(ran) == delivered(root, "pretooluse-write")


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (["NoSuchEvent", "stop"], "unknown event"),
        (["--contract", "no-such-harness", "SessionStart", "sessionstart"], "unknown contract"),
        (["--frobnicate", "SessionStart", "sessionstart"], "unknown option"),
        ([], "no event"),
    ],
    ids=["event", "contract", "option", "nothing"],
)
def test_a_bad_command_line_delivers_nothing(
    root: Path, env: Any, argv: list[str], word: str
) -> None:
    ran = dispatch(root, *argv, payload=payload_fixtures("claude-code")["SessionStart"], env=env)
    _no_block(ran)
    _one_line(ran, word)
    assert ran.out == b""


def test_an_unknown_message_name_is_reported_and_the_rest_delivered(root: Path, env: Any) -> None:
    payload = payload_fixtures("claude-code")["SessionStart"]
    ran = dispatch(
        root, "SessionStart", "no-such-message", "sessionstart", payload=payload, env=env
    )
    _no_block(ran)
    _one_line(ran, "no-such-message")
    assert _context(ran) == delivered(root, "sessionstart")


def test_an_unknown_tool_is_evaluated_as_other(root: Path, env: Any) -> None:
    with_guards(root, {"pretooluse-dependency-guard": {"detector": "first-path"}})
    payload = {**_write_payload(), "tool_name": "mcp__fs__write", "tool_input": {"x": 1}}
    ran = dispatch(root, *WRITE, payload=payload, env=env)
    _no_block(ran)
    assert ran.err == ""
    assert _context(ran) == delivered(root, "pretooluse-write")


def test_an_exception_inside_a_guard_silences_only_that_guard(root: Path, env: Any) -> None:
    with_guards(
        root,
        {
            "pretooluse-write-header-guard": {"detector": "explode"},
            "pretooluse-dependency-guard": {"detector": "first-path"},
        },
    )
    argv = ["PreToolUse", "pretooluse-write", "pretooluse-write-header-guard"]
    ran = dispatch(root, *argv, "pretooluse-dependency-guard", payload=_write_payload(), env=env)
    _no_block(ran)
    _one_line(ran, "pretooluse-write-header-guard", "exploded")
    text = _context(ran)
    assert delivered(root, "pretooluse-write") in text
    assert "src/app.py" in text  # the dependency guard (the double) still spoke


@pytest.mark.parametrize("damage", ["missing", "not json", "no condition"])
def test_a_broken_guard_data_file_silences_only_that_guard(
    root: Path, env: Any, damage: str, tmp_path: Path
) -> None:
    path = root / "data" / "guards" / "pretooluse-write-header-guard.json"
    if damage == "missing":
        path.unlink()
    else:
        path.write_text("{" if damage == "not json" else '{"literals": {}}', encoding="utf-8")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    payload = {**_write_payload(), "cwd": str(project)}
    # The eval guard fires on this file.
    payload["tool_input"] = {"file_path": str(project / "app.py"), "content": "eval(input())\n"}
    argv = ["PreToolUse", "pretooluse-write", "pretooluse-write-header-guard"]
    ran = dispatch(root, *argv, "pretooluse-eval-guard", payload=payload, env=env)
    _no_block(ran)
    _one_line(ran, "pretooluse-write-header-guard", "guard data")
    text = _context(ran)
    assert delivered(root, "pretooluse-write") in text
    assert "pretooluse-eval-guard.md" in text  # the other guard still spoke


def test_a_missing_guards_module_fails_open_per_message(root: Path, env: Any) -> None:
    with_guards(root, {"pretooluse-dependency-guard": {"detector": "first-path"}})
    remove_guards(root)
    ran = dispatch(root, *WRITE, payload=_write_payload(), env=env)
    _no_block(ran)
    _one_line(ran, "guards module")
    assert _context(ran) == delivered(root, "pretooluse-write")


def test_a_guard_whose_detector_omits_a_placeholder_is_dropped(root: Path, env: Any) -> None:
    with_guards(root, {"pretooluse-eval-guard": {"detector": "values", "values": {"x": "1"}}})
    argv = ["PreToolUse", "pretooluse-write", "pretooluse-eval-guard"]
    ran = dispatch(root, *argv, payload=_write_payload(), env=env)
    _no_block(ran)
    _one_line(ran, "pretooluse-eval-guard", "placeholder")
    assert _context(ran) == delivered(root, "pretooluse-write")


def test_a_missing_dispatcher_package_fails_open(root: Path, env: Any) -> None:
    shutil.rmtree(root / "hooks" / "hookmsg_dispatch")
    ran = dispatch(root, *WRITE, payload=_write_payload(), env=env, isolated=True)
    _no_block(ran)
    _one_line(ran, "cannot start")
    assert ran.out == b""


@pytest.mark.slow
def test_stop_never_blocks_nor_continues(root: Path, env: Any) -> None:
    for contract in ("claude-code", "codex", "qwen-code"):
        payload = payload_fixtures(contract)["Stop"]
        argv = [] if contract == "claude-code" else ["--contract", contract]
        for strict in ({}, {"HOOKMSG_STRICT": "1"}):
            # A context of its own each time (the stop text is delivered once per context).
            fresh = {**env, **strict, "HOOKMSG_HOOK_STATE_DIR": f"{root}-state-{contract}{strict}"}
            ran = dispatch(root, *argv, "Stop", "stop", payload=payload, env=fresh)
            _no_block(ran)
            assert ran.err == ""
            if contract == "claude-code":
                assert _context(ran) == delivered(root, "stop")
            else:
                assert ran.out == b"", f"{contract}: Stop output reaches its model only as a block"


@pytest.mark.slow
def test_a_stop_after_a_continued_turn_says_nothing(root: Path, env: Any) -> None:
    """Claude Code prompts the model again with Stop context and then sends the next Stop
    with `stop_hook_active: true`; answering that one too would keep the model going."""
    payload = dict(payload_fixtures("claude-code")["Stop"], stop_hook_active=True)
    ran = dispatch(root, "Stop", "stop", payload=payload, env=env)
    _no_block(ran)
    assert ran.err == ""
    assert ran.out == b""
    again = dict(payload, stop_hook_active=False)
    assert _context(dispatch(root, "Stop", "stop", payload=again, env=env)) == delivered(
        root, "stop"
    )


def test_a_bad_cap_setting_is_reported_and_ignored(root: Path, env: Any) -> None:
    payload = payload_fixtures("claude-code")["SessionStart"]
    ran = dispatch(
        root, "SessionStart", "sessionstart", payload=payload, env={**env, "HOOKMSG_CAP": "lots"}
    )
    _no_block(ran)
    _one_line(ran, "HOOKMSG_CAP")
    assert _context(ran) == delivered(root, "sessionstart")


def test_the_table_is_read_even_when_a_guards_data_is_odd(root: Path, env: Any) -> None:
    data = table(root)
    data.setdefault("conditions", {})["pretooluse-dependency-guard"] = "not a table"
    data["messages"]["pretooluse-dependency-guard"]["condition"] = "first-path"
    write_table(root, data)
    remove_guards(root)
    (root / "hooks" / "hookmsg_dispatch" / "guards.py").write_text(
        "def evaluate(detector, call, data, root, module):\n"
        "    return {'path': str(data.get('x'))}\n",
        encoding="utf-8",
    )
    ran = dispatch(root, *WRITE, payload=_write_payload(), env=env)
    _no_block(ran)
    _one_line(ran, "pretooluse-dependency-guard")
    assert _context(ran) == delivered(root, "pretooluse-write")


def test_nothing_is_imported_from_the_opened_project(root: Path, env: Any, tmp_path: Path) -> None:
    """Run as `python -c BOOT` without -I, so the working directory is on sys.path."""
    from tests.support.dispatch import BOOT

    project = tmp_path / "project"
    (project / "hookmsg_dispatch").mkdir(parents=True)
    marker = tmp_path / "imported"
    hostile = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    for name in (
        "_json.py",
        "json.py",
        "hookmsg_dispatch/__init__.py",
        "hookmsg_dispatch/guards.py",
    ):
        (project / name).write_text(hostile, encoding="utf-8")
    with_guards(root, {"pretooluse-dependency-guard": {"detector": "first-path"}})
    done = subprocess.run(
        [sys.executable, "-S", "-c", BOOT, str(root / "hooks" / "dispatch.py"), *WRITE],
        input=json.dumps(_write_payload()).encode(),
        capture_output=True,
        cwd=project,
        env=env,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert "src/app.py" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_payload_with_a_byte_order_mark_is_read(root: Path, env: Any) -> None:
    payload = json.dumps(payload_fixtures("claude-code")["SessionStart"]).encode()
    ran = dispatch(root, "SessionStart", "sessionstart", payload=b"\xef\xbb\xbf" + payload, env=env)
    assert ran.err == ""
    assert _context(ran) == delivered(root, "sessionstart")


@pytest.mark.parametrize("module", [None, "", "../guards/dependency", "os", "guards.nowhere"])
def test_a_guard_whose_module_the_table_misnames_fails_open(
    root: Path, env: Any, module: str | None
) -> None:
    # The table names the module that declares each detector; a missing, malformed or
    # unknown one is the table's fault: that guard stays silent, the rest is delivered.
    data = table(root)
    data["messages"]["pretooluse-dependency-guard"]["module"] = module
    write_table(root, data)
    ran = dispatch(root, *WRITE, payload=_write_payload(), env=env)
    _no_block(ran)
    _one_line(ran, "pretooluse-dependency-guard", "detector failed")
    assert _context(ran) == delivered(root, "pretooluse-write")
