"""The compaction reminder's condition: transcript measurement, cycles, caps, fallback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookmsg_dispatch.call import Call
from hookmsg_dispatch.compaction import measure
from tests.support.guards import conditions, detect, run

MESSAGE = "posttooluse-proactive-compaction"


@pytest.fixture(autouse=True)
def _state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "state"
    monkeypatch.setenv("HOOKMSG_HOOK_STATE_DIR", str(folder))
    return folder


def claude_usage(context: int) -> dict[str, Any]:
    return {
        "type": "assistant",
        "message": {
            "role": "assistant",
            "usage": {
                "input_tokens": 10,
                "cache_creation_input_tokens": 990,
                "cache_read_input_tokens": context - 1000,
                "output_tokens": 77,
            },
        },
    }


def codex_usage(context: int) -> dict[str, Any]:
    usage = {"input_tokens": context, "cached_input_tokens": context // 2, "output_tokens": 5}
    return {
        "type": "event_msg",
        "payload": {"type": "token_count", "info": {"last_token_usage": usage}},
    }


class Transcript:
    def __init__(self, path: Path) -> None:
        self.path = path

    def add(self, record: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
            # A tool result after the usage record, as in a real transcript.
            handle.write(json.dumps({"type": "user", "message": {"content": "x" * 300}}) + "\n")


def post(transcript: str = "", session: str = "s1", response: Any = None) -> Call:
    return Call(
        event="PostToolUse",
        harness="claude",
        cwd="/",
        session_id=session,
        transcript_path=transcript,
        tool="Bash",
        tool_response=response if response is not None else {"stdout": "ok"},
    )


def test_fires_above_the_threshold_twice_per_cycle_spaced(tmp_path: Path) -> None:
    data = conditions()[MESSAGE]
    spacing = data["min-calls-between"]
    transcript = Transcript(tmp_path / "t.jsonl")
    transcript.add(claude_usage(50_000))
    assert run(MESSAGE, post(str(transcript.path))) is None
    transcript.add(claude_usage(data["tokens"] + 5_000))
    assert run(MESSAGE, post(str(transcript.path))) == {}
    results = [run(MESSAGE, post(str(transcript.path))) for _ in range(spacing)]
    assert results == [None] * (spacing - 1) + [{}]
    later = [run(MESSAGE, post(str(transcript.path))) for _ in range(3 * spacing)]
    assert later == [None] * (3 * spacing)  # at most twice per cycle
    transcript.add(claude_usage(30_000))  # a compaction: a new cycle
    assert run(MESSAGE, post(str(transcript.path))) is None
    transcript.add(claude_usage(data["tokens"] + 1))
    assert run(MESSAGE, post(str(transcript.path))) == {}


def test_sessions_are_counted_separately(tmp_path: Path) -> None:
    transcript = Transcript(tmp_path / "t.jsonl")
    transcript.add(claude_usage(conditions()[MESSAGE]["tokens"] * 2))
    assert run(MESSAGE, post(str(transcript.path), session="a")) == {}
    assert run(MESSAGE, post(str(transcript.path), session="b")) == {}


def test_codex_token_count_records_are_read(tmp_path: Path) -> None:
    transcript = Transcript(tmp_path / "rollout.jsonl")
    transcript.add(codex_usage(conditions()[MESSAGE]["tokens"] + 10))
    assert run(MESSAGE, post(str(transcript.path))) == {}


def test_measure_reads_the_newest_record_from_a_bounded_tail(tmp_path: Path) -> None:
    transcript = Transcript(tmp_path / "t.jsonl")
    transcript.add(claude_usage(10_000))
    for _ in range(200):
        transcript.add({"type": "user", "message": {"content": "y" * 1000}})
    transcript.add(claude_usage(90_000))
    assert measure(str(transcript.path), 8192) == 90_000
    # A sub-agent's record and a zero (synthetic) record do not count.
    transcript.add({**claude_usage(5_000), "isSidechain": True})
    transcript.add(claude_usage(1000) | {"message": {"usage": {"input_tokens": 0}}})
    assert measure(str(transcript.path), 8192) == 90_000
    for _ in range(10):
        transcript.add({"type": "user", "message": {"content": "w" * 1000}})
    assert measure(str(transcript.path), 4096) is None  # the newest usage is beyond the tail
    assert measure(str(transcript.path), 65536) == 90_000
    assert measure(str(tmp_path / "missing.jsonl"), 8192) is None
    assert measure("relative.jsonl", 8192) is None


def test_fallback_counts_calls_and_output_bytes(tmp_path: Path) -> None:
    data = dict(conditions()[MESSAGE])
    big = "z" * data["fallback-output-bytes"]
    assert detect("compaction", post(session="f1", response="small"), data, "/") is None
    assert detect("compaction", post(session="f1", response=big), data, "/") == {}
    small = {**data, "fallback-calls": 3}
    found = [detect("compaction", post(session="f2"), small, "/") for _ in range(3)]
    assert found == [None, None, {}]
    # A FIFO is not a transcript: it is never opened for reading.
    fifo = tmp_path / "fifo"
    import os

    os.mkfifo(fifo)
    assert measure(str(fifo), 4096) is None


def test_unwritable_state_raises_so_the_core_fails_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("HOOKMSG_HOOK_STATE_DIR", str(blocker / "state"))
    with pytest.raises(OSError):
        run(MESSAGE, post())
