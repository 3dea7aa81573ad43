"""A stand-in model endpoint on 127.0.0.1 for the real clients, with scripted turns.

One threaded `http.server` on an ephemeral port speaks the four wire formats the clients
use: the Anthropic Messages API with streaming events (Claude Code, `POST /v1/messages`),
the OpenAI Responses API streaming (Codex, `POST /v1/responses`), OpenAI Chat
Completions streaming (Qwen Code, Copilot CLI, CodeBuddy Code, oh-my-pi, pi, Factory
Droid: `POST /v1/chat/completions`) and Gemini's `streamGenerateContent?alt=sse` (Gemini
CLI: `POST /v1beta/models/<model>:streamGenerateContent`).

The model's side of the conversation is a script of turns shared by all three: `Write`
(call the client's file-writing tool on a path with a content) and `Finish` (answer with
text and stop). A request that offers tools is a turn of the main conversation and gets
the next scripted turn (`Finish("Done.")` once the script is spent); a request without
tools (a title, a summary, a check the client makes on the side) gets a short text.

Every request is recorded (path and parsed body) so a test can assert what reached the
model. The endpoint is bounded: after `cap` requests it answers every further one with
HTTP 400 (a final error the clients do not retry) and marks itself `capped`, so a client
caught in a loop (a Stop hook re-prompting it) stops and the test fails on `capped`;
after `lifetime` seconds it shuts itself down.
"""

from __future__ import annotations

import gzip
import json
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Write:
    """The model calls the client's write tool: create `path` holding `content`."""

    path: str
    content: str


@dataclass(frozen=True)
class Patch:
    """The model calls Codex's apply_patch with this patch text as it is (an Update File
    edits an existing file); only the Responses API (Codex) has it."""

    patch: str


@dataclass(frozen=True)
class Finish:
    """The model answers with `text` and ends its turn."""

    text: str


@dataclass(frozen=True, eq=False)
class Use:
    """The model calls the first tool in `calls` (name -> arguments) that the request
    offers: a client's own shell, edit or read tool, named as each client names it."""

    calls: dict[str, dict[str, Any]]


Turn = Write | Finish | Patch | Use


@dataclass
class Recorded:
    """One request as it reached the endpoint."""

    path: str
    body: dict[str, Any]
    main: bool  # a turn of the main conversation (it offered tools)
    answered: str  # what the endpoint answered: a turn's repr, "side", "capped", "unknown"


@dataclass
class StandIn:
    """The endpoint's state: the script, the records, the bounds."""

    script: list[Turn]
    cap: int = 40
    lifetime: float = 240.0
    # The prompt size each answer reports (a large one makes a client's context look full).
    usage_tokens: int = 10
    requests: list[Recorded] = field(default_factory=list)
    capped: bool = False
    errors: list[str] = field(default_factory=list)  # scripted turns it could not answer
    _turn: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
    _timer: threading.Timer | None = None

    # -- lifecycle ---------------------------------------------------------------

    def start(self) -> StandIn:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        server.daemon_threads = True
        self._server = server
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        self._timer = threading.Timer(self.lifetime, self.stop)
        self._timer.daemon = True
        self._timer.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if self._timer is not None:
            self._timer.cancel()
        if server is not None:
            server.shutdown()
            server.server_close()

    def __enter__(self) -> StandIn:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "the stand-in is not running"
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- what the tests read -----------------------------------------------------

    def main_requests(self) -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.main]

    # -- scripting ---------------------------------------------------------------

    def _next(self, path: str, body: dict[str, Any]) -> tuple[Turn | None, str, int]:
        """Record the request; the turn to answer with (None: refuse), why, its number."""
        # A request that offers tools but forbids calling them (Copilot CLI's background
        # compaction summary, `tool_choice: "none"`) cannot take a scripted tool turn.
        main = bool(body.get("tools")) and body.get("tool_choice") != "none"
        with self._lock:
            if len(self.requests) >= self.cap:
                self.capped = True
                self.requests.append(Recorded(path, body, main, "capped"))
                return None, "capped", len(self.requests)
            if not main:
                self.requests.append(Recorded(path, body, main, "side"))
                return Finish("OK"), "side", len(self.requests)
            turn = self.script[self._turn] if self._turn < len(self.script) else Finish("Done.")
            self._turn += 1
            self.requests.append(Recorded(path, body, main, repr(turn)))
            return turn, repr(turn), len(self.requests)


def _handler_for(state: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the records say what happened."""

        def _body(self) -> dict[str, Any]:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            encoding = (self.headers.get("Content-Encoding") or "").lower()
            if encoding == "gzip":
                raw = gzip.decompress(raw)
            elif encoding == "deflate":
                raw = zlib.decompress(raw)
            try:
                parsed = json.loads(raw or b"{}")
            except ValueError:
                return {"_unparsed": raw.decode("utf-8", "replace")}
            return parsed if isinstance(parsed, dict) else {"_value": parsed}

        def _send(self, status: int, content_type: str, chunks: Iterator[bytes]) -> None:
            data = b"".join(chunks)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
            self.close_connection = True

        def _error(self, status: int, message: str) -> None:
            body = json.dumps(
                {
                    "type": "error",
                    "error": {"type": "invalid_request_error", "message": message},
                }
            ).encode()
            self._send(status, "application/json", iter([body]))

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            with state._lock:
                state.requests.append(Recorded(self.path, {}, False, "get"))
            if path.endswith("/models"):
                models = {"object": "list", "data": [{"id": MODEL, "object": "model"}]}
                self._send(200, "application/json", iter([json.dumps(models).encode()]))
            else:
                self._error(404, f"no such endpoint: GET {path}")

        def do_HEAD(self) -> None:
            self._send(200, "text/plain", iter([b""]))

        def do_POST(self) -> None:
            path = self.path.split("?", 1)[0]
            body = self._body()
            if path.endswith("/messages/count_tokens") or path.endswith(":countTokens"):
                with state._lock:
                    state.requests.append(Recorded(self.path, body, False, "count"))
                data = b'{"input_tokens": 100, "totalTokens": 100}'
                self._send(200, "application/json", iter([data]))
                return
            gemini = path.endswith(":streamGenerateContent") or path.endswith(":generateContent")
            if not (
                gemini
                or path.endswith("/messages")
                or path.endswith("/responses")
                or path.endswith("/chat/completions")
            ):
                with state._lock:
                    state.requests.append(Recorded(self.path, body, False, "unknown"))
                self._error(404, f"no such endpoint: POST {path}")
                return
            turn, _, n = state._next(self.path, body)
            if turn is None:
                self._error(400, "stand-in model: request cap reached (a loop?)")
                return
            try:
                kind, data = _answer(path, body, turn, n, state.usage_tokens)
            except ScriptError as error:
                with state._lock:
                    state.errors.append(str(error))
                self._error(500, f"stand-in model: {error}")
                return
            self._send(200, kind, iter([data]))

    return Handler


MODEL = "stand-in-model"


def _answer(path: str, body: dict[str, Any], turn: Turn, n: int, tokens: int) -> tuple[str, bytes]:
    """The content type and body answering one scripted turn in the path's wire format."""
    sse = "text/event-stream"
    if path.endswith(":streamGenerateContent"):
        return sse, b"".join(gemini_stream(body, turn, n, tokens))
    if path.endswith(":generateContent"):
        return "application/json", json.dumps(gemini_answer(body, turn, tokens)).encode()
    if path.endswith("/messages"):
        return sse, b"".join(anthropic_stream(body, turn, n, tokens))
    if path.endswith("/responses"):
        return sse, b"".join(responses_stream(body, turn, n, tokens))
    if body.get("stream"):
        return sse, b"".join(chat_stream(body, turn, n, tokens))
    return "application/json", chat_whole(body, turn, n, tokens)


def _sse(event: str | None, data: dict[str, Any] | str) -> bytes:
    text = data if isinstance(data, str) else json.dumps(data)
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {text}\n\n".encode()


def _tool_names(body: dict[str, Any]) -> list[str]:
    names = []
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            name = tool.get("name") or (tool.get("function") or {}).get("name")
            if isinstance(name, str):
                names.append(name)
            for declared in tool.get("functionDeclarations") or []:  # Gemini
                if isinstance(declared, dict) and isinstance(declared.get("name"), str):
                    names.append(declared["name"])
    return names


# Each client's file-writing tool as the model sees it: its name -> (path key, content key).
WRITE_TOOLS: dict[str, tuple[str, str]] = {
    "write_file": ("file_path", "content"),  # Qwen Code, Gemini CLI
    "create": ("path", "file_text"),  # Copilot CLI
    "Write": ("file_path", "content"),  # Claude Code, CodeBuddy Code
    "Create": ("file_path", "content"),  # Factory Droid
    "write": ("path", "content"),  # oh-my-pi, pi
}


def write_call(body: dict[str, Any], turn: Write) -> tuple[str, dict[str, str]]:
    """The write tool this request offers, and its arguments for `turn`."""
    name = _pick(body, *WRITE_TOOLS)
    path_key, content_key = WRITE_TOOLS[name]
    return name, {path_key: turn.path, content_key: turn.content}


def tool_call(body: dict[str, Any], turn: Write | Use) -> tuple[str, dict[str, Any]]:
    """The tool this request offers for `turn`, and its arguments."""
    if isinstance(turn, Write):
        return write_call(body, turn)
    name = _pick(body, *turn.calls)
    return name, turn.calls[name]


class ScriptError(Exception):
    """The script asks for something the request does not allow (a tool not offered)."""


def _pick(body: dict[str, Any], *candidates: str) -> str:
    names = _tool_names(body)
    for name in candidates:
        if name in names:
            return name
    raise ScriptError(f"none of the tools {candidates} is offered; offered: {names}")


# -- Anthropic Messages (Claude Code) ----------------------------------------------


def anthropic_stream(
    body: dict[str, Any], turn: Turn, n: int = 0, tokens: int = 10
) -> Iterator[bytes]:
    message = {
        "id": f"msg_standin_{n}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", MODEL),
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": tokens, "output_tokens": 1},
    }
    yield _sse("message_start", {"type": "message_start", "message": message})
    if isinstance(turn, Patch):
        raise ScriptError("a raw apply_patch turn is for Codex only")
    if isinstance(turn, (Write, Use)):
        name, call = tool_call(body, turn)
        block = {"type": "tool_use", "id": f"toolu_standin_{n}", "name": name, "input": {}}
        arguments = json.dumps(call)
        delta = {"type": "input_json_delta", "partial_json": arguments}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": turn.text}
        stop = "end_turn"
    yield _sse(
        "content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}
    )
    yield _sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta})
    yield _sse("content_block_stop", {"type": "content_block_stop", "index": 0})
    yield _sse(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": 5},
        },
    )
    yield _sse("message_stop", {"type": "message_stop"})


# -- OpenAI Responses (Codex) -------------------------------------------------------


def apply_patch_text(turn: Write) -> str:
    lines = turn.content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    added = "".join(f"+{line}\n" for line in lines)
    return f"*** Begin Patch\n*** Add File: {turn.path}\n{added}*** End Patch\n"


def responses_stream(
    body: dict[str, Any], turn: Turn, n: int = 0, tokens: int = 10
) -> Iterator[bytes]:
    response = {
        "id": f"resp_standin_{n}",
        "object": "response",
        "status": "in_progress",
        "model": body.get("model", MODEL),
        "output": [],
    }
    yield _sse("response.created", {"type": "response.created", "response": response})
    item: dict[str, Any]
    if isinstance(turn, Use):
        name, arguments = tool_call(body, turn)
        item = {
            "type": "function_call",
            "id": f"fc_standin_{n}",
            "status": "completed",
            "call_id": f"call_standin_{n}",
            "name": name,
            "arguments": json.dumps(arguments),
        }
    elif isinstance(turn, (Write, Patch)):
        tools = {t.get("name"): t for t in body.get("tools") or [] if isinstance(t, dict)}
        tool = tools.get("apply_patch")
        if tool is None:
            raise ScriptError(f"no apply_patch tool offered: {sorted(map(str, tools))}")
        patch = turn.patch if isinstance(turn, Patch) else apply_patch_text(turn)
        if tool.get("type") == "custom":
            item = {
                "type": "custom_tool_call",
                "id": f"ctc_standin_{n}",
                "status": "completed",
                "call_id": f"call_standin_{n}",
                "name": "apply_patch",
                "input": patch,
            }
        else:
            item = {
                "type": "function_call",
                "id": f"fc_standin_{n}",
                "status": "completed",
                "call_id": f"call_standin_{n}",
                "name": "apply_patch",
                "arguments": json.dumps({"input": patch}),
            }
    else:
        item = {
            "type": "message",
            "id": f"msg_standin_{n}",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
        }
    yield _sse(
        "response.output_item.added",
        {"type": "response.output_item.added", "output_index": 0, "item": item},
    )
    yield _sse(
        "response.output_item.done",
        {"type": "response.output_item.done", "output_index": 0, "item": item},
    )
    done = dict(
        response,
        status="completed",
        output=[item],
        usage={
            "input_tokens": tokens,
            "output_tokens": 5,
            "total_tokens": tokens + 5,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    )
    yield _sse("response.completed", {"type": "response.completed", "response": done})


# -- OpenAI Chat Completions (Qwen Code) --------------------------------------------


def _chat_message(body: dict[str, Any], turn: Turn, n: int) -> tuple[dict[str, Any], str]:
    if isinstance(turn, Patch):
        raise ScriptError("a raw apply_patch turn is for Codex only")
    if isinstance(turn, (Write, Use)):
        name, arguments = tool_call(body, turn)
        call = {
            "id": f"call_standin_{n}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
    return {"role": "assistant", "content": turn.text}, "stop"


def _usage(tokens: int) -> dict[str, int]:
    return {"prompt_tokens": tokens, "completion_tokens": 5, "total_tokens": tokens + 5}


def chat_stream(body: dict[str, Any], turn: Turn, n: int = 0, tokens: int = 10) -> Iterator[bytes]:
    message, reason = _chat_message(body, turn, n)
    delta: dict[str, Any] = {"role": "assistant"}
    if "tool_calls" in message:
        delta["tool_calls"] = [dict(message["tool_calls"][0], index=0)]
    else:
        delta["content"] = message["content"]
    head = {
        "id": f"chatcmpl-standin-{n}",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": body.get("model", MODEL),
    }
    yield _sse(None, dict(head, choices=[{"index": 0, "delta": delta, "finish_reason": None}]))
    last = [{"index": 0, "delta": {}, "finish_reason": reason}]
    yield _sse(None, dict(head, choices=last, usage=_usage(tokens)))
    yield _sse(None, "[DONE]")


def chat_whole(body: dict[str, Any], turn: Turn, n: int = 0, tokens: int = 10) -> bytes:
    message, reason = _chat_message(body, turn, n)
    answer = {
        "id": f"chatcmpl-standin-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", MODEL),
        "choices": [{"index": 0, "message": message, "finish_reason": reason}],
        "usage": _usage(tokens),
    }
    return json.dumps(answer).encode()


# -- Gemini generateContent (Gemini CLI) --------------------------------------------


def gemini_answer(body: dict[str, Any], turn: Turn, tokens: int = 10) -> dict[str, Any]:
    """One GenerateContentResponse: a function call or a text, finished."""
    if isinstance(turn, (Write, Use)):
        name, arguments = tool_call(body, turn)
        part: dict[str, Any] = {"functionCall": {"name": name, "args": arguments}}
    else:
        part = {"text": turn.text}
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": tokens,
            "candidatesTokenCount": 5,
            "totalTokenCount": tokens + 5,
        },
        "modelVersion": body.get("model", MODEL),
    }


def gemini_stream(
    body: dict[str, Any], turn: Turn, n: int = 0, tokens: int = 10
) -> Iterator[bytes]:
    yield _sse(None, gemini_answer(body, turn, tokens))
