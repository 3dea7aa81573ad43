"""The compaction reminder's condition: is the context large, and may the reminder speak?

The context size is what the harness reported with the call (`Call.context_tokens`: xcsh's
module sends `ctx.getContextUsage()`), else the newest usage record in the session
transcript (JSONL, only its last `tail-bytes` read): Claude Code's `message.usage`
(input_tokens + cache_read_input_tokens + cache_creation_input_tokens) or Codex's
`token_count` event (`last_token_usage.input_tokens`, which includes cached input). A
measurement below `drop-fraction` of the previous one marks a compaction and starts a new
cycle. The reminder fires when the context is at least `tokens`, at most `max-per-cycle`
times per cycle, at least `min-calls-between` tool calls apart. With no readable transcript
it counts tool calls and output bytes in the session state instead (`fallback-calls`,
`fallback-output-bytes`). Returns {} when it fires. A state folder that is refused (not the
user's own) is not used: the call is judged as the first of its session.
"""

from __future__ import annotations

import json

from hookmsg_dispatch import state
from hookmsg_dispatch.project import read_upto
from hookmsg_dispatch.system import os, stat

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookmsg_dispatch.call import Call

DEFAULTS: dict[str, float] = {
    "tokens": 120_000,
    "drop-fraction": 0.5,
    "max-per-cycle": 2,
    "min-calls-between": 20,
    "tail-bytes": 1 << 20,
    "fallback-calls": 150,
    "fallback-output-bytes": 400_000,
}
SECTION = "compaction"


def _setting(data: Mapping[str, Any], key: str) -> float:
    value = data.get(key, DEFAULTS[key])
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return DEFAULTS[key]
    return value


def _tokens(record: Any) -> int | None:
    """The context size a transcript record reports, or None when it reports none."""
    if not isinstance(record, dict) or record.get("isSidechain") is True:
        return None
    message = record.get("message")
    usage = message.get("usage") if isinstance(message, dict) else record.get("usage")
    if isinstance(usage, dict) and "input_tokens" in usage:
        keys = ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
        total = sum(v for k in keys for v in [usage.get(k)] if isinstance(v, int))
        return total or None
    payload = record.get("payload")
    if isinstance(payload, dict) and payload.get("type") == "token_count":
        info = payload.get("info")
        last = info.get("last_token_usage") if isinstance(info, dict) else None
        value = last.get("input_tokens") if isinstance(last, dict) else None
        return value if isinstance(value, int) and value > 0 else None
    return None


def measure(transcript: str, tail_bytes: int) -> int | None:
    """The context size from the newest usage record in the transcript's tail, or None."""
    if not transcript or not os.path.isabs(transcript):
        return None
    try:
        descriptor = os.open(transcript, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            return None
        start = max(0, info.st_size - tail_bytes)
        os.lseek(descriptor, start, os.SEEK_SET)
        tail = read_upto(descriptor, info.st_size - start)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    lines = tail.split(b"\n")
    if start > 0:
        lines = lines[1:]  # the first line is cut
    for line in reversed(lines):
        if b'"usage"' not in line and b'"token_count"' not in line:
            continue
        try:
            found = _tokens(json.loads(line.decode("utf-8", errors="replace")))
        except ValueError:
            continue
        if found is not None:
            return found
    return None


def output_size(response: Any) -> int:
    if response is None:
        return 0
    if isinstance(response, str):
        return len(response.encode("utf-8", errors="replace"))
    try:
        return len(json.dumps(response, ensure_ascii=False).encode("utf-8", errors="replace"))
    except (TypeError, ValueError):
        return 0


def step(record: dict[str, Any], tokens: int | None, size: int, data: Mapping[str, Any]) -> bool:
    """Advance one session's compaction record by one tool call; True when the reminder fires."""

    def count(key: str) -> int:
        value = record.get(key, 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    record["since"] = count("since") + 1
    if tokens is not None:
        last = count("tokens")
        if last and tokens < last * _setting(data, "drop-fraction"):
            record["fired"] = 0  # a compaction: a new cycle
            record["calls"] = record["bytes"] = 0
        record["tokens"] = tokens
        over = tokens >= _setting(data, "tokens")
    else:
        record["calls"] = count("calls") + 1
        record["bytes"] = count("bytes") + size
        over = record["calls"] >= _setting(data, "fallback-calls") or record["bytes"] >= _setting(
            data, "fallback-output-bytes"
        )
    fired = count("fired")
    if not over or fired >= _setting(data, "max-per-cycle"):
        return False
    if fired and record["since"] < _setting(data, "min-calls-between"):
        return False
    record["fired"] = fired + 1
    record["since"] = 0
    return True


def session_key(call: Call) -> str:
    if call.session_id:
        return call.session_id
    return "transcript-" + call.transcript_path if call.transcript_path else "no-session"


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    tokens = call.context_tokens  # reported with the call (xcsh); else read the transcript
    if tokens is None:
        tokens = measure(call.transcript_path, int(_setting(data, "tail-bytes")))
    size = output_size(call.tool_response)

    def change(value: dict[str, Any]) -> bool:
        record = value.get(SECTION)
        if not isinstance(record, dict):
            record = value[SECTION] = {}
        return step(record, tokens, size, data)

    try:
        fired = state.update(session_key(call), change)
    except state.Refused:
        # The folder is not the user's own: its counters cannot be trusted (planted ones
        # would silence the reminder), so this call is judged as a session's first.
        fired = change({})
    return {} if fired else None
