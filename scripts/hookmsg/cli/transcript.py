"""A recorded session, read as the hook events it would raise: Claude Code transcripts
(`~/.claude/projects/<project>/<session>.jsonl`) and Codex rollout files
(`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`).

One pass over the file, a line at a time; a line longer than `MAX_LINE` bytes is skipped
(counted, never parsed) and so is a line that is not a JSON object, so time is linear in
the file and memory bounded by the line cap plus the calls kept. The events: SessionStart
(source `startup`, and `compact` after each compaction), UserPromptSubmit for each prompt,
PreToolUse and PostToolUse for each tool call (with its input and, when recorded, its
output), and Stop at the end of each turn.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

MAX_LINE = 4 * 1024 * 1024  # bytes; a longer line is skipped
MAX_OUTPUT = 64 * 1024  # characters of a tool output kept for PostToolUse


@dataclass
class Event:
    """One hook event of the session, in the harness's own tool names."""

    event: str  # the registry's event name
    tool: str | None = None
    tool_input: Any = None
    tool_output: Any = None
    source: str | None = None  # SessionStart: startup or compact
    prompt: str | None = None
    line: int = 0  # where it was recorded


@dataclass
class Session:
    """The events, the session's working directory and id, and what could not be read."""

    kind: str  # "claude-code" or "codex"
    events: list[Event] = field(default_factory=list)
    cwd: str = ""
    session_id: str = ""
    skipped: int = 0  # lines over the cap or not JSON objects


def _lines(handle: BinaryIO) -> Iterator[tuple[int, dict[str, Any] | None]]:
    number = 0
    while True:
        raw = handle.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # drain the rest of the long line
                raw = handle.readline(MAX_LINE + 1)
            yield number, None
            continue
        try:
            data = json.loads(raw)
        except ValueError:
            yield number, None
            continue
        yield number, data if isinstance(data, dict) else None


def _clip(value: Any) -> Any:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text[:MAX_OUTPUT] if isinstance(text, str) else text


def _prompt_text(content: Any) -> str | None:
    """A user message's prompt text; None for tool results and client-made context."""
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        kinds = {b.get("type") for b in content if isinstance(b, dict)}
        if "tool_result" in kinds:
            return None
        text = "\n".join(
            str(b.get("text", "")) for b in content if isinstance(b, dict) and "text" in b
        )
    else:
        return None
    if not text.strip() or text.lstrip().startswith(("<", "Caveat:")):
        return None
    return text


def read_session(path: Path) -> Session:
    """The session recorded at `path`; ValueError when it is neither known format."""
    with path.open("rb") as handle:
        kind = ""
        reader = None
        session: Session | None = None
        for number, data in _lines(handle):
            if data is None:
                if session is not None:
                    session.skipped += 1
                continue
            if session is None:
                kind = "codex" if "payload" in data and "type" in data else "claude-code"
                session = Session(kind, [Event("SessionStart", source="startup", line=number)])
                reader = _Codex(session) if kind == "codex" else _Claude(session)
            assert reader is not None
            reader.take(number, data)
        if session is None or reader is None:
            raise ValueError("holds no JSON lines: not a transcript")
        reader.finish()
        return session


class _Claude:
    """Claude Code's transcript: `user` and `assistant` lines carrying API messages."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.pending: dict[str, Event] = {}
        self.turn_open = False

    def take(self, number: int, data: dict[str, Any]) -> None:
        session = self.session
        session.cwd = session.cwd or str(data.get("cwd") or "")
        session.session_id = session.session_id or str(data.get("sessionId") or "")
        kind = data.get("type")
        if kind == "system" and data.get("subtype") == "compact_boundary":
            self._close()
            session.events.append(Event("SessionStart", source="compact", line=number))
            return
        message = data.get("message")
        if kind not in ("user", "assistant") or not isinstance(message, dict):
            return
        if data.get("isSidechain") or data.get("isCompactSummary") or data.get("isMeta"):
            return
        content = message.get("content")
        if kind == "user":
            self._user(number, content)
            return
        self.turn_open = True
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_use":
                event = Event("PreToolUse", str(block.get("name", "")), block.get("input"))
                event.line = number
                session.events.append(event)
                self.pending[str(block.get("id", ""))] = event

    def _user(self, number: int, content: Any) -> None:
        prompt = _prompt_text(content)
        if prompt is not None:
            self._close()
            self.session.events.append(Event("UserPromptSubmit", prompt=prompt, line=number))
            return
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                call = self.pending.pop(str(block.get("tool_use_id", "")), None)
                if call is not None:
                    output = _clip(block.get("content"))
                    self.session.events.append(
                        Event("PostToolUse", call.tool, call.tool_input, output, line=number)
                    )

    def _close(self) -> None:
        if self.turn_open:
            self.session.events.append(Event("Stop", line=self.session.events[-1].line))
            self.turn_open = False

    def finish(self) -> None:
        self._close()


class _Codex:
    """Codex's rollout: `session_meta`, then `response_item` and `event_msg` lines."""

    TOOL_CALLS = ("function_call", "custom_tool_call", "local_shell_call")
    OUTPUTS = ("function_call_output", "custom_tool_call_output", "local_shell_call_output")

    def __init__(self, session: Session) -> None:
        self.session = session
        self.pending: dict[str, Event] = {}

    def take(self, number: int, data: dict[str, Any]) -> None:
        session = self.session
        payload = data.get("payload")
        if not isinstance(payload, dict):
            return
        kind, item = data.get("type"), payload.get("type")
        if kind == "session_meta":
            session.cwd = session.cwd or str(payload.get("cwd") or "")
            session.session_id = session.session_id or str(payload.get("id") or "")
        elif kind == "compacted":
            session.events.append(Event("SessionStart", source="compact", line=number))
        elif kind == "event_msg" and item == "task_complete":
            session.events.append(Event("Stop", line=number))
        elif kind == "response_item" and item in self.TOOL_CALLS:
            event = Event("PreToolUse", str(payload.get("name") or "shell"), line=number)
            event.tool_input = self._input(payload)
            session.events.append(event)
            self.pending[str(payload.get("call_id", ""))] = event
        elif kind == "response_item" and item in self.OUTPUTS:
            call = self.pending.pop(str(payload.get("call_id", "")), None)
            if call is not None:
                output = _clip(payload.get("output"))
                session.events.append(
                    Event("PostToolUse", call.tool, call.tool_input, output, line=number)
                )
        elif kind == "response_item" and item == "message" and payload.get("role") == "user":
            prompt = _prompt_text(payload.get("content"))
            if prompt is not None:
                session.events.append(Event("UserPromptSubmit", prompt=prompt, line=number))

    @staticmethod
    def _input(payload: dict[str, Any]) -> Any:
        """The tool input as Codex hands it to hooks: a patch as `command`, JSON arguments
        parsed."""
        if payload.get("type") == "custom_tool_call":
            return {"command": payload.get("input", "")}
        arguments = payload.get("arguments")
        if isinstance(arguments, str):
            try:
                return json.loads(arguments)
            except ValueError:
                return {"command": arguments}
        return payload.get("action") or arguments

    def finish(self) -> None:
        return None
