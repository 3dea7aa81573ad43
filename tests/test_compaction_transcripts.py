"""The compaction reminder reads each real client's usage record where the client writes it.

The files under tests/fixtures/transcripts/at-posttooluse/ are what each client had written
when its PostToolUse hook ran, captured from the pinned client against the stand-in model
reporting 150,000 prompt tokens (see the README there); the reader must find that figure in
each, and nothing in a file that holds none.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hookmsg_dispatch.call import Call
from hookmsg_dispatch.compaction import context_size, droid_measure, measure
from tests.support.guards import run
from tests.support.repository import REPO

AT_POST = REPO / "tests" / "fixtures" / "transcripts" / "at-posttooluse"
REPORTED = 150_000  # what the stand-in's answers reported as the prompt size
TAIL = 1 << 20
MESSAGE = "posttooluse-proactive-compaction"


@pytest.fixture(autouse=True)
def _state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKMSG_HOOK_STATE_DIR", str(tmp_path / "state"))


def post(harness: str, transcript: str = "", session: str = "s1") -> Call:
    return Call(
        event="PostToolUse",
        harness=harness,
        cwd="/home/dev/demo",
        session_id=session,
        transcript_path=transcript,
        tool="Write",
        tool_response="ok",
    )


@pytest.mark.parametrize("client", ["codex", "qwen-code", "gemini-cli", "copilot"])
def test_each_clients_usage_record_is_read_as_it_stood_at_posttooluse(client: str) -> None:
    assert measure(str(AT_POST / f"{client}.jsonl"), TAIL) == REPORTED


def test_codex_is_read_from_the_record_written_before_the_tool_ran() -> None:
    """Codex writes its `token_count` event only after the tool's output: at PostToolUse
    the rollout holds the answer's `token_usage_record` and no `token_count` yet."""
    text = (AT_POST / "codex.jsonl").read_text(encoding="utf-8")
    assert '"token_count"' not in text and '"token_usage_record"' in text


def test_factory_droid_is_read_from_the_settings_file_beside_its_transcript(
    tmp_path: Path,
) -> None:
    transcript = AT_POST / "factory-droid.jsonl"
    assert measure(str(transcript), TAIL) is None  # its transcript records no usage
    assert droid_measure(str(transcript), TAIL) == REPORTED
    assert context_size(post("factory-droid", str(transcript)), TAIL) == REPORTED
    copy = tmp_path / "s.jsonl"
    shutil.copy(transcript, copy)
    assert droid_measure(str(copy), TAIL) is None  # no settings file: nothing to read
    (tmp_path / "s.settings.json").write_text("{not json", encoding="utf-8")
    assert droid_measure(str(copy), TAIL) is None
    (tmp_path / "s.settings.json").write_bytes(
        (AT_POST / "factory-droid.settings.json").read_bytes()
    )
    assert droid_measure(str(copy), 64) is None  # larger than the tail: not read at all
    assert droid_measure(str(tmp_path / "s.json"), TAIL) is None


def test_copilot_events_are_found_by_session_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Copilot CLI's payload names no transcript: the session's `events.jsonl` is in its
    home folder (`$COPILOT_HOME`, else `~/.copilot`) under `session-state/<id>/`."""
    session = "00000000-0000-4000-8000-000000000001"
    folder = tmp_path / "copilot-home" / "session-state" / session
    folder.mkdir(parents=True)
    shutil.copy(AT_POST / "copilot.jsonl", folder / "events.jsonl")
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "copilot-home"))
    assert context_size(post("copilot", session=session), TAIL) == REPORTED
    assert run(MESSAGE, post("copilot", session=session)) == {}
    monkeypatch.delenv("COPILOT_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / ".copilot").symlink_to(tmp_path / "copilot-home")
    assert context_size(post("copilot", session=session), TAIL) == REPORTED
    for hostile in ("", "../session-state/" + session, ".", "a\\b"):
        assert context_size(post("copilot", session=hostile), TAIL) is None
    # Another harness's call with the same session id is not looked up there.
    assert context_size(post("codebuddy", session=session), TAIL) is None


def test_the_reminder_speaks_on_each_captured_file(tmp_path: Path) -> None:
    for client in ("codex", "qwen-code", "gemini-cli"):
        call = post(client, str(AT_POST / f"{client}.jsonl"), session=client)
        assert run(MESSAGE, call) == {}, client
    call = post("factory-droid", str(AT_POST / "factory-droid.jsonl"), session="droid")
    assert run(MESSAGE, call) == {}


def test_a_small_context_in_each_format_keeps_it_silent(tmp_path: Path) -> None:
    for client in ("codex", "qwen-code", "gemini-cli", "copilot"):
        text = (AT_POST / f"{client}.jsonl").read_text(encoding="utf-8")
        small = tmp_path / f"{client}.jsonl"
        small.write_text(text.replace(str(REPORTED), "1200"), encoding="utf-8")
        assert measure(str(small), TAIL) == 1200, client
        assert run(MESSAGE, post(client, str(small), session=client)) is None, client


def test_records_of_other_shapes_report_nothing(tmp_path: Path) -> None:
    records = [
        {"type": "gemini", "tokens": {"input": "150000"}},
        {"type": "assistant", "usageMetadata": {"promptTokenCount": True}},
        {"type": "session.usage_record", "data": {"usage": {"outputTokens": 5}}},
        {"type": "token_usage_record", "payload": {"usage": [150000]}},
        {"type": "user", "tokens": {"input": 150000}},
    ]
    path = tmp_path / "odd.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert measure(str(path), TAIL) is None


def test_cached_input_is_counted_once_in_each_clients_own_convention(tmp_path: Path) -> None:
    """With the stand-in reporting 150,000 prompt tokens of which 50,000 cached, Copilot CLI
    1.0.102 recorded `inputTokens` 150,000 and `cacheReadTokens` 50,000 (a part of it);
    Factory Droid 0.225.2 recorded `inputTokens` 100,000 and `cacheReadTokens` 50,000."""
    usage = {"inputTokens": 150_000, "outputTokens": 5, "cacheReadTokens": 50_000}
    path = tmp_path / "events.jsonl"
    record = {"type": "session.usage_record", "data": {"usage": usage}}
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert measure(str(path), TAIL) == REPORTED
    droid = {"lastCallTokenUsage": {"inputTokens": 100_000, "cacheReadTokens": 50_000}}
    (tmp_path / "d.settings.json").write_text(json.dumps(droid), encoding="utf-8")
    assert droid_measure(str(tmp_path / "d.jsonl"), TAIL) == REPORTED
