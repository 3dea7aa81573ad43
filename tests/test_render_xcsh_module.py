"""The xcsh extension module, run under Node with a recorded stand-in of xcsh's `pi`.

`hookmsg install-render --harness xcsh` fills the generated module's interpreter and install
root; `tests/xcsh_standin.mjs` imports it the way xcsh loads an extension, fires events at
it and records every call it makes. The dispatcher it runs is a fake written by each test
under `<root>/hooks/dispatch.py`, reached through the real fail-open bootstrap, that answers
with the arguments and stdin it saw, so the tests read exactly what the dispatcher got.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookmsg.render.xcsh_module import BOOT, MAX_PAYLOAD
from tests.support.diagnostics import Result
from tests.support.dispatch import build_install_root, clean_env, delivered
from tests.support.repository import REPO
from tests.support.text import edit, write

Cli = Callable[..., Result]

NODE = shutil.which("node")


def _cached_bun() -> str | None:
    """Bun as scripts/e2e_clients.py installs it from npm beside oh-my-pi, if cached."""
    home = Path(os.environ.get("HOME") or Path.home())
    root = Path(
        os.environ.get("HOOKMSG_E2E_CACHE")
        or Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache") / "hookmsg" / "e2e"
    )
    found = sorted(root.glob("*/node_modules/.bin/bun"))
    return str(found[-1]) if found else None


# xcsh itself runs under Bun (`npm install bun` puts it in node_modules/.bin); used when found.
BUN = shutil.which("bun") or _cached_bun()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(NODE is None, reason="node is not installed: cannot run the module"),
]

STANDIN = Path(__file__).resolve().parent / "xcsh_standin.mjs"
SCRIPT = "hooks/dispatch.py"
SESSION_MESSAGES = ["sessionstart", "skill-index"]
POST_MESSAGES = ["posttooluse-proactive-compaction"]

# A dispatcher that answers with what it was given: argv (as the bootstrap left it) and stdin.
ECHO = """\
import json, sys
seen = {"argv": sys.argv, "stdin": sys.stdin.read()}
print(json.dumps({"text": json.dumps(seen)}))
"""

TOOL_CONTENT = [{"type": "text", "text": "wrote 12 bytes to src/app.py"}]
EVENTS: list[dict[str, Any]] = [
    {"name": "session_start", "event": {"type": "session_start"}},
    {
        "name": "tool_result",
        "event": {
            "type": "tool_result",
            "toolName": "write",
            "toolCallId": "call-7",
            "input": {"path": "src/app.py", "content": "print('hi')\n"},
            "content": TOOL_CONTENT,
            "isError": False,
        },
        "ctx": {"contextUsage": {"tokens": 91000, "contextWindow": 100000, "percent": 91}},
    },
    {"name": "session.compacting", "event": {"type": "session.compacting", "sessionId": "s-9"}},
]


def install(cli: Cli, root: Path, python: str = sys.executable) -> Path:
    """The module as `install-render` writes it for `python` and `root`, saved under `root`."""
    result = cli("install-render", "--harness", "xcsh", "--python", python, "--root", str(root))
    assert result.code == 0, result.out + result.err
    assert "${" not in result.out
    return write(root.parent / f"{root.name}-module" / "hookmsg.js", result.out)


def dispatcher(root: Path, source: str) -> None:
    write(root / SCRIPT, source)


def fire(
    module: Path,
    events: list[dict[str, Any]],
    runtime: str | None = None,
    env: dict[str, str] | None = None,
    **scenario: Any,
) -> dict[str, Any]:
    """Load `module` in the stand-in under `runtime` (default: node), fire `events`.

    `env` is the environment xcsh (and so the dispatcher it starts) runs in.
    """
    runtime = runtime or NODE
    assert runtime is not None
    done = subprocess.run(
        [runtime, str(STANDIN), str(module)],
        input=json.dumps({"events": events, **scenario}),
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,  # a safety net for a hung child, not a measured duration
    )
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(done.stdout)
    return record


def execs(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [call for call in record["calls"] if call["kind"] == "exec"]


def seen_by_dispatcher(text: str) -> dict[str, Any]:
    seen: dict[str, Any] = json.loads(text)
    return seen


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "install root"
    dispatcher(folder, ECHO)
    return folder


def expected_args(root: Path, event: str, messages: list[str], payload: str) -> list[str]:
    return [
        "-I",
        "-S",
        "-c",
        BOOT,
        f"{root}/{SCRIPT}",
        "--contract",
        "xcsh",
        "--payload",
        payload,
        event,
        *messages,
    ]


def test_the_module_subscribes_to_the_events_with_a_channel(
    project: Path, cli: Cli, root: Path
) -> None:
    record = fire(install(cli, root), [])
    assert record["factory"] == "ok"
    # No tool_call (it can only block) and no before_agent_start (no UserPromptSubmit message).
    assert record["subscribed"] == ["session_start", "session.compacting", "tool_result"]
    assert record["calls"] == []


def test_session_start_queues_a_hidden_message_for_the_next_turn(
    project: Path, cli: Cli, root: Path
) -> None:
    record = fire(install(cli, root), [EVENTS[0] | {"ctx": {"cwd": str(project)}}])
    [call] = execs(record)
    assert call["command"] == sys.executable
    assert call["options"] == {"timeout": 30000, "cwd": str(project)}
    payload = json.loads(call["args"][8])
    assert payload == {
        "type": "session_start",
        "cwd": str(project),
        "sessionId": "session-1",
        "contextUsage": None,
    }
    assert call["args"] == expected_args(root, "SessionStart", SESSION_MESSAGES, call["args"][8])
    [sent] = [c for c in record["calls"] if c["kind"] == "sendMessage"]
    assert sent["options"] == {"deliverAs": "nextTurn"}
    assert sent["message"]["customType"] == "hookmsg"
    assert sent["message"]["display"] is False
    # The dispatcher ran through the bootstrap exactly as if run directly, stdin empty.
    seen = seen_by_dispatcher(sent["message"]["content"])
    assert seen["argv"] == [f"{root}/{SCRIPT}", *call["args"][5:]]
    assert seen["stdin"] == ""
    assert record["fired"] == [{"name": "session_start", "handlers": 1, "returned": "undefined"}]


def test_tool_result_appends_the_text_to_the_tool_content(
    project: Path, cli: Cli, root: Path
) -> None:
    record = fire(install(cli, root), [EVENTS[1]])
    [call] = execs(record)
    assert call["options"]["timeout"] == 10000
    payload = json.loads(call["args"][8])
    assert payload == {
        "type": "tool_result",
        "cwd": payload["cwd"],
        "sessionId": "session-1",
        "contextUsage": {"tokens": 91000, "contextWindow": 100000, "percent": 91},
        "toolName": "write",
        "toolCallId": "call-7",
        "isError": False,
        "input": {"path": "src/app.py", "content": "print('hi')\n"},
    }
    assert call["args"] == expected_args(root, "PostToolUse", POST_MESSAGES, call["args"][8])
    [fired] = record["fired"]
    content = fired["returned"]["content"]
    assert content[:-1] == TOOL_CONTENT
    assert content[-1]["type"] == "text"
    assert seen_by_dispatcher(content[-1]["text"])["argv"][-2:] == ["PostToolUse", *POST_MESSAGES]
    assert [c["kind"] for c in record["calls"]] == ["exec"]


def test_compaction_hands_the_text_to_the_summariser(project: Path, cli: Cli, root: Path) -> None:
    record = fire(install(cli, root), [EVENTS[2]])
    [call] = execs(record)
    payload = json.loads(call["args"][8])
    assert payload["type"] == "session.compacting"
    assert payload["sessionId"] == "s-9"  # the event's own session id wins
    assert call["args"][-2:] == ["PreCompact", "precompact"]
    [fired] = record["fired"]
    [text] = fired["returned"]["context"]
    assert seen_by_dispatcher(text)["argv"][-2:] == ["PreCompact", "precompact"]


@pytest.mark.parametrize("runtime", ["node", "bun"])
def test_every_channel_under_each_javascript_runtime(
    project: Path, cli: Cli, root: Path, runtime: str
) -> None:
    found = {"node": NODE, "bun": BUN}[runtime]
    if found is None:
        pytest.skip(f"{runtime} is not on PATH")
    record = fire(install(cli, root), EVENTS, runtime=found)
    assert record["factory"] == "ok"
    assert [c["kind"] for c in record["calls"]] == ["exec", "sendMessage", "exec", "exec"]
    session, tool, compaction = record["fired"]
    assert session["returned"] == "undefined"
    assert tool["returned"]["content"][:-1] == TOOL_CONTENT
    assert seen_by_dispatcher(tool["returned"]["content"][-1]["text"])["stdin"] == ""
    assert seen_by_dispatcher(compaction["returned"]["context"][0])["argv"][-1] == "precompact"


def test_a_large_tool_input_is_dropped_from_the_payload_not_the_call(
    project: Path, cli: Cli, root: Path
) -> None:
    event = json.loads(json.dumps(EVENTS[1]))
    event["event"]["input"]["content"] = "x" * (MAX_PAYLOAD * 2)
    record = fire(install(cli, root), [event])
    [call] = execs(record)
    assert len(call["args"][8]) <= MAX_PAYLOAD
    payload = json.loads(call["args"][8])
    assert payload["truncated"] is True
    assert "input" not in payload
    assert payload["toolName"] == "write"
    assert "content" in record["fired"][0]["returned"]


def test_the_payload_limit_counts_utf8_bytes_as_the_kernel_does(
    project: Path, cli: Cli, root: Path
) -> None:
    # 50,000 characters of a three-byte script: under the limit in string length, but
    # 150 KB as the argument the kernel measures (over its 128 KiB), so it must be cut.
    event = json.loads(json.dumps(EVENTS[1]))
    event["event"]["input"]["content"] = "\u20ac" * 50_000
    record = fire(install(cli, root), [event])
    [call] = execs(record)
    assert len(call["args"][8].encode("utf-8")) <= MAX_PAYLOAD
    payload = json.loads(call["args"][8])
    assert payload["truncated"] is True
    assert "input" not in payload


def test_a_prompt_message_and_a_tool_matcher_follow_the_registry(
    project: Path, cli: Cli, root: Path
) -> None:
    # A registry with a UserPromptSubmit entry and a second, bash-only post-tool entry.
    hooks = project / "catalog" / "hooks.toml"
    text = hooks.read_text(encoding="utf-8")
    text += '\n[[dispatch]]\nevent = "UserPromptSubmit"\nmessages = ["stop"]\n'
    text += '\n[[dispatch]]\nevent = "PostToolUse"\nmatcher = "Bash"\nmessages = ["stop"]\n'
    hooks.write_text(text, encoding="utf-8")
    module = install(cli, root)
    bash = json.loads(json.dumps(EVENTS[1]))
    bash["event"]["toolName"] = "bash"
    record = fire(
        module,
        [{"name": "before_agent_start", "event": {"prompt": "fix the bug"}}, EVENTS[1], bash],
    )
    assert "before_agent_start" in record["subscribed"]
    prompt, write_call, bash_call = execs(record)
    assert prompt["args"][-2:] == ["UserPromptSubmit", "stop"]
    assert json.loads(prompt["args"][8])["prompt"] == "fix the bug"
    assert write_call["args"][9:] == ["PostToolUse", *POST_MESSAGES]
    assert bash_call["args"][9:] == ["PostToolUse", *POST_MESSAGES, "stop"]
    message = record["fired"][0]["returned"]["message"]
    assert message["customType"] == "hookmsg"
    assert message["display"] is False
    assert seen_by_dispatcher(message["content"])["argv"][-1] == "stop"


def test_the_install_root_is_written_into_the_javascript_verbatim(
    project: Path, cli: Cli, tmp_path: Path
) -> None:
    # A space, non-ASCII and characters special elsewhere must come through unchanged.
    odd = tmp_path / "the ümlaut root (v1) & <x>"
    dispatcher(odd, ECHO)
    record = fire(install(cli, odd), [EVENTS[0]])
    [call] = execs(record)
    assert call["args"][4] == f"{odd}/{SCRIPT}"
    [sent] = [c for c in record["calls"] if c["kind"] == "sendMessage"]
    assert seen_by_dispatcher(sent["message"]["content"])["argv"][0] == f"{odd}/{SCRIPT}"


FAILING_DISPATCHERS = {
    "exits non-zero": 'print(\'{"text": "must not be used"}\'); raise SystemExit(3)',
    "raises": "raise RuntimeError('broken dispatcher')",
    "prints garbage": "print('this is not json')",
    "prints two envelopes": 'print(\'{"text": "a"}\'); print(\'{"text": "b"}\')',
    "prints an array": "print('[1, 2]')",
    "prints null": "print('null')",
    "text is empty": 'print(\'{"text": ""}\')',
    "text is a number": "print('{\"text\": 5}')",
    "no text key": "print('{\"hookSpecificOutput\": {}}')",
    "prints nothing": "pass",
}


def assert_silent(record: dict[str, Any]) -> None:
    """Nothing reached a channel and nothing was thrown into xcsh."""
    assert record["factory"] == "ok"
    assert [c for c in record["calls"] if c["kind"] != "exec"] == []
    assert len(record["fired"]) == len(EVENTS)
    for fired in record["fired"]:
        assert fired == {"name": fired["name"], "handlers": 1, "returned": "undefined"}


@pytest.mark.parametrize("case", sorted(FAILING_DISPATCHERS))
def test_a_failing_dispatcher_yields_nothing(
    project: Path, cli: Cli, root: Path, case: str
) -> None:
    dispatcher(root, FAILING_DISPATCHERS[case])
    record = fire(install(cli, root), EVENTS)
    assert len(execs(record)) == len(EVENTS)
    assert_silent(record)


def test_a_missing_dispatcher_yields_nothing(project: Path, cli: Cli, tmp_path: Path) -> None:
    empty = tmp_path / "empty root"
    empty.mkdir()
    record = fire(install(cli, empty), EVENTS)
    assert len(execs(record)) == len(EVENTS)
    assert_silent(record)


def test_a_missing_interpreter_yields_nothing(project: Path, cli: Cli, root: Path) -> None:
    record = fire(install(cli, root, python=str(root / "no-such-python")), EVENTS)
    assert len(execs(record)) == len(EVENTS)
    assert_silent(record)


@pytest.mark.parametrize(
    "exec_mode",
    [
        {"throw": "exec is broken"},
        {"reject": "spawn failed"},
        {"result": None},
        {"result": {"code": 0, "stdout": 5}},
        {"result": {"code": 0, "stdout": '{"text": "late"}', "killed": True}},
        {"result": {"code": 0, "stdout": '{"text": "ok"}', "killed": False, "extra": 1}},
    ],
    ids=["throws", "rejects", "null", "stdout-not-text", "killed", "valid"],
)
def test_whatever_exec_does_nothing_is_thrown(
    project: Path, cli: Cli, root: Path, exec_mode: dict[str, Any]
) -> None:
    record = fire(install(cli, root), EVENTS, exec=exec_mode)
    assert all("threw" not in fired for fired in record["fired"])
    if exec_mode.get("result", {}) and exec_mode["result"].get("extra"):
        # The one well-formed answer is delivered on every channel.
        assert record["fired"][1]["returned"]["content"][-1]["text"] == "ok"
        assert record["fired"][2]["returned"] == {"context": ["ok"]}
        assert [c["message"]["content"] for c in record["calls"] if "message" in c] == ["ok"]
    else:
        assert_silent(record)


def test_a_throwing_send_message_is_not_thrown_into_xcsh(
    project: Path, cli: Cli, root: Path
) -> None:
    record = fire(install(cli, root), [EVENTS[0]], sendMessage="throw")
    assert [c["kind"] for c in record["calls"]] == ["exec", "sendMessage"]
    assert record["fired"] == [{"name": "session_start", "handlers": 1, "returned": "undefined"}]


def test_an_api_without_on_does_not_break_loading(project: Path, cli: Cli, root: Path) -> None:
    record = fire(install(cli, root), EVENTS, api="no-on")
    assert record["factory"] == "ok"
    assert record["subscribed"] == []
    assert record["calls"] == []


def test_the_uninstalled_module_runs_nothing(project: Path) -> None:
    # The committed file still holds ${PYTHON_BIN} and ${HARNESS_ROOT}: it must stay inert.
    record = fire(project / "generated" / "xcsh" / "hookmsg.js", EVENTS)
    assert record["calls"] == []
    assert_silent(record)


def test_a_hand_edit_of_the_module_is_drift(project: Path, cli: Cli) -> None:
    module = project / "generated" / "xcsh" / "hookmsg.js"
    edit(module, '"timeout": 10000', '"timeout": 1')
    result = cli("check")
    assert result.code != 0
    assert "generated/xcsh/hookmsg.js:1:1: G002" in result.out
    assert cli("build").code == 0
    assert cli("check").code == 0


# --------------------------------------------------------------------------- the real dispatcher


@pytest.fixture(scope="module")
def packaged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`hookmsg package` of this repository, unpacked: a real install root."""
    return build_install_root(tmp_path_factory.mktemp("xcsh-install"))


def installed(cli: Cli, root: Path, folder: Path) -> Path:
    """The repository's module, filled in for `root` by `install-render`, under `folder`."""
    result = cli(
        "install-render", "--harness", "xcsh", "--python", sys.executable, "--root", str(root)
    )
    assert result.code == 0, result.err
    return write(folder / "hookmsg.js", result.out)


def with_tokens(tokens: int) -> dict[str, Any]:
    event: dict[str, Any] = json.loads(json.dumps(EVENTS[1]))
    event["ctx"] = {"contextUsage": {"tokens": tokens, "contextWindow": 200000, "percent": 1}}
    return event


def test_the_packaged_dispatcher_delivers_through_every_channel(
    packaged: Path, cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    module = installed(cli, packaged, tmp_path / "extensions")
    record = fire(module, EVENTS, env=clean_env(tmp_path / "state"))
    assert [c["kind"] for c in record["calls"]] == ["exec", "sendMessage", "exec", "exec"]
    session, tool, compaction = record["fired"]
    assert all("threw" not in fired for fired in record["fired"])
    # Session start: the orientation as one hidden next-turn message, and no skill index
    # (xcsh loads no skill files, so an index would name what it cannot load).
    [sent] = [c for c in record["calls"] if c["kind"] == "sendMessage"]
    text = sent["message"]["content"]
    assert delivered(packaged, "sessionstart") in text
    assert delivered(packaged, "skill-index").split("\n", 1)[0] not in text
    assert sent["options"] == {"deliverAs": "nextTurn"}
    assert session["returned"] == "undefined"
    # After a tool: the compaction reminder is silent at 91,000 of 120,000 tokens.
    assert tool["returned"] == "undefined"
    # Compaction: the pre-compaction message, for the summariser.
    assert compaction["returned"] == {"context": [delivered(packaged, "precompact")]}


def test_the_compaction_reminder_follows_the_context_size_xcsh_reports(
    packaged: Path, cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    module = installed(cli, packaged, tmp_path / "extensions")
    env = clean_env(tmp_path / "state")
    # Below the threshold: silent; at it: the reminder, appended to the tool's own content.
    record = fire(module, [with_tokens(119_999), with_tokens(120_000)], env=env)
    below, at = record["fired"]
    assert below["returned"] == "undefined"
    content = at["returned"]["content"]
    assert content[:-1] == TOOL_CONTENT
    assert content[-1] == {
        "type": "text",
        "text": delivered(packaged, "posttooluse-proactive-compaction"),
    }
    # The same session's next call, right after it fired: silent (calls apart, per cycle).
    again = fire(module, [with_tokens(130_000)], env=env)
    assert again["fired"][0]["returned"] == "undefined"
