"""The compaction reminder's condition: is the context large, and may the reminder speak?

The context size is what the harness reported with the call (`Call.context_tokens`: xcsh's
module sends `ctx.getContextUsage()`), else the newest usage record the harness has written
down (JSONL, only its last `tail-bytes` read), one small reader per format: Claude Code's
and CodeBuddy's `message.usage` (input_tokens + cache_read_input_tokens +
cache_creation_input_tokens); Codex's `token_usage_record` and `token_count` event
(`input_tokens`, which includes cached input); Qwen Code's `usageMetadata.promptTokenCount`;
Gemini CLI's `tokens.input`; Copilot CLI's `session.usage_record` (`inputTokens`) in
`$COPILOT_HOME/session-state/<session id>/events.jsonl` (its payload names no transcript);
Factory Droid's `lastCallTokenUsage` (inputTokens + cacheReadTokens + cacheCreationTokens)
in the `<id>.settings.json` beside its transcript, which itself records no usage. A
measurement below `drop-fraction` of the previous one marks a compaction and starts a new
cycle. The reminder fires when the context is at least `tokens`, at most `max-per-cycle`
times per cycle, at least `min-calls-between` tool calls apart. With no readable usage
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


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _sum(usage: Any, keys: tuple[str, ...]) -> int | None:
    """The sum of `usage`'s integer fields among `keys`, or None when it has no `keys[0]`."""
    if not isinstance(usage, dict) or keys[0] not in usage:
        return None
    return _positive(sum(v for k in keys for v in [usage.get(k)] if _positive(v)))


# Each transcript format's usage record, newest last in its file. The readers are tried in
# turn on each record that carries one of MARKERS; each answers None for a record not its own.
CLAUDE = ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
# Droid's `inputTokens` leaves out the cached part (a Chat Completions answer reporting
# 150,000 prompt tokens, 50,000 of them cached, is recorded as 100,000 + 50,000).
DROID = ("inputTokens", "cacheReadTokens", "cacheCreationTokens")
MARKERS = (b'"usage"', b'"token_count"', b'"usageMetadata"', b'"tokens"')


def _claude(record: dict[str, Any]) -> int | None:
    """Claude Code, CodeBuddy: `message.usage` (a top-level `usage` in older records)."""
    message = record.get("message")
    usage = message.get("usage") if isinstance(message, dict) else record.get("usage")
    return _sum(usage, CLAUDE)


def _codex(record: dict[str, Any]) -> int | None:
    """Codex: the `token_usage_record` written when a model response ends (before its tool
    calls run) and the `token_count` event written after them; input includes cached input."""
    payload = record.get("payload")
    if not isinstance(payload, dict):
        return None
    if record.get("type") == "token_usage_record":
        usage = payload.get("usage")
        return _positive(usage.get("input_tokens")) if isinstance(usage, dict) else None
    if payload.get("type") != "token_count":
        return None
    info = payload.get("info")
    last = info.get("last_token_usage") if isinstance(info, dict) else None
    return _positive(last.get("input_tokens")) if isinstance(last, dict) else None


def _gemini(record: dict[str, Any]) -> int | None:
    """Qwen Code: an assistant record's `usageMetadata.promptTokenCount`; Gemini CLI: a
    `gemini` record's `tokens.input`. Both prompt counts include cached content."""
    metadata = record.get("usageMetadata")
    if isinstance(metadata, dict):
        return _positive(metadata.get("promptTokenCount"))
    tokens = record.get("tokens")
    if record.get("type") == "gemini" and isinstance(tokens, dict):
        return _positive(tokens.get("input"))
    return None


def _copilot(record: dict[str, Any]) -> int | None:
    """Copilot CLI's `events.jsonl`: a `session.usage_record` event per model call, whose
    `inputTokens` includes the cached part (`cacheReadTokens`)."""
    data = record.get("data")
    if record.get("type") != "session.usage_record" or not isinstance(data, dict):
        return None
    usage = data.get("usage")
    return _positive(usage.get("inputTokens")) if isinstance(usage, dict) else None


READERS = (_claude, _codex, _gemini, _copilot)


def _tokens(record: Any) -> int | None:
    """The context size a transcript record reports, or None when it reports none."""
    if not isinstance(record, dict) or record.get("isSidechain") is True:
        return None
    for reader in READERS:
        found = reader(record)
        if found is not None:
            return found
    return None


def _tail(path: str, tail_bytes: int) -> tuple[bytes, bool] | None:
    """The last `tail_bytes` of a regular file, and whether its start was cut; None if unread."""
    if not path or not os.path.isabs(path):
        return None
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            return None
        start = max(0, info.st_size - tail_bytes)
        os.lseek(descriptor, start, os.SEEK_SET)
        return read_upto(descriptor, info.st_size - start), start > 0
    except OSError:
        return None
    finally:
        os.close(descriptor)


def measure(transcript: str, tail_bytes: int) -> int | None:
    """The context size from the newest usage record in the transcript's tail, or None."""
    read = _tail(transcript, tail_bytes)
    if read is None:
        return None
    tail, cut = read
    lines = tail.split(b"\n")
    if cut:
        lines = lines[1:]  # the first line is cut
    for line in reversed(lines):
        if not any(marker in line for marker in MARKERS):
            continue
        try:
            found = _tokens(json.loads(line.decode("utf-8", errors="replace")))
        except ValueError:
            continue
        if found is not None:
            return found
    return None


def droid_measure(transcript: str, tail_bytes: int) -> int | None:
    """Factory Droid writes no usage into its transcript: the session's settings file beside
    it (`<id>.settings.json`, one JSON object) holds the last model call's usage."""
    if not transcript.endswith(".jsonl"):
        return None
    read = _tail(transcript[: -len(".jsonl")] + ".settings.json", tail_bytes)
    if read is None or read[1]:
        return None  # unreadable, or too large to be the settings file
    try:
        settings = json.loads(read[0].decode("utf-8", errors="replace"))
    except ValueError:
        return None
    usage = settings.get("lastCallTokenUsage") if isinstance(settings, dict) else None
    return _sum(usage, DROID)


def copilot_transcript(session_id: str) -> str:
    """Copilot CLI sends no transcript path: its session's events are in
    `$COPILOT_HOME/session-state/<session id>/events.jsonl` (`~/.copilot` by default)."""
    if not session_id or "/" in session_id or "\\" in session_id or session_id.startswith("."):
        return ""
    home = os.environ.get("COPILOT_HOME") or os.path.join(os.path.expanduser("~"), ".copilot")
    return os.path.join(home, "session-state", session_id, "events.jsonl")


def context_size(call: Call, tail_bytes: int) -> int | None:
    """The context size the call reports (xcsh), else the one its harness last wrote down."""
    if call.context_tokens is not None:
        return call.context_tokens
    if call.harness == "factory-droid":
        return droid_measure(call.transcript_path, tail_bytes)
    transcript = call.transcript_path
    if not transcript and call.harness == "copilot":
        transcript = copilot_transcript(call.session_id)
    return measure(transcript, tail_bytes)


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


# The condition this module answers for; it fills no placeholder (the build side reads
# this with `ast`: hookmsg.catalogue.detectors).
DETECTS = {"compaction": ()}


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    tokens = context_size(call, int(_setting(data, "tail-bytes")))
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
