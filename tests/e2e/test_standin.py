"""The stand-in model endpoint on its own (no client needed; part of the default run)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.e2e.standin import Finish, StandIn, Use, Write, apply_patch_text


def post(standin: StandIn, path: str, body: dict[str, Any]) -> tuple[int, bytes]:
    request = urllib.request.Request(
        standin.url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def events(raw: bytes) -> list[dict[str, Any]]:
    """The JSON data lines of a server-sent event stream (the final [DONE] left out)."""
    found = []
    for line in raw.decode().split("\n"):
        if line.startswith("data: ") and line != "data: [DONE]":
            found.append(json.loads(line[len("data: ") :]))
    return found


SCRIPT = [Write("/p/package.json", '{"dependencies": {}}\n'), Finish("Finished.")]


def test_anthropic_turns_follow_the_script_and_side_requests_do_not_consume_it() -> None:
    tools = {"tools": [{"name": "Write"}, {"name": "Read"}], "stream": True}
    with StandIn(list(SCRIPT)) as standin:
        side = events(post(standin, "/v1/messages?beta=true", {"stream": True})[1])
        first = events(post(standin, "/v1/messages?beta=true", tools)[1])
        second = events(post(standin, "/v1/messages", tools)[1])
        third = events(post(standin, "/v1/messages", tools)[1])
    assert [e["type"] for e in first] == [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert first[1]["content_block"]["name"] == "Write"
    arguments = json.loads(first[2]["delta"]["partial_json"])
    assert arguments == {"file_path": "/p/package.json", "content": '{"dependencies": {}}\n'}
    assert first[4]["delta"]["stop_reason"] == "tool_use"
    assert second[2]["delta"]["text"] == "Finished."
    assert third[2]["delta"]["text"] == "Done."
    assert side[2]["delta"]["text"] == "OK"
    assert [r.main for r in standin.requests] == [False, True, True, True]
    assert standin.requests[1].body == tools


def test_responses_call_apply_patch_in_the_form_the_tool_is_offered() -> None:
    custom = {"tools": [{"type": "custom", "name": "apply_patch"}], "stream": True}
    function = {"tools": [{"type": "function", "name": "apply_patch"}], "stream": True}
    with StandIn([SCRIPT[0], SCRIPT[0]]) as standin:
        freeform = events(post(standin, "/v1/responses", custom)[1])
        as_function = events(post(standin, "/v1/responses", function)[1])
    patch = apply_patch_text(Write("/p/package.json", '{"dependencies": {}}\n'))
    assert patch == (
        '*** Begin Patch\n*** Add File: /p/package.json\n+{"dependencies": {}}\n*** End Patch\n'
    )
    assert freeform[-1]["type"] == "response.completed"
    assert freeform[-1]["response"]["output"][0]["input"] == patch
    assert json.loads(as_function[-1]["response"]["output"][0]["arguments"]) == {"input": patch}


def test_chat_completions_stream_and_whole_answers() -> None:
    tools = {"tools": [{"type": "function", "function": {"name": "write_file"}}]}
    with StandIn(list(SCRIPT)) as standin:
        streamed = events(post(standin, "/v1/chat/completions", dict(tools, stream=True))[1])
        whole = json.loads(post(standin, "/v1/chat/completions", tools)[1])
    call = streamed[0]["choices"][0]["delta"]["tool_calls"][0]
    assert call["function"]["name"] == "write_file"
    assert json.loads(call["function"]["arguments"])["file_path"] == "/p/package.json"
    assert streamed[1]["choices"][0]["finish_reason"] == "tool_calls"
    assert whole["choices"][0]["message"]["content"] == "Finished."


def test_the_request_cap_stops_a_loop_and_says_so() -> None:
    body = {"tools": [{"name": "Write"}], "stream": True}
    with StandIn([], cap=3) as standin:
        statuses = [post(standin, "/v1/messages", body)[0] for _ in range(5)]
    assert statuses == [200, 200, 200, 400, 400]
    assert standin.capped
    assert len(standin.requests) == 5


def test_a_tool_the_client_does_not_offer_is_a_test_error_not_a_silent_answer() -> None:
    with StandIn([SCRIPT[0]]) as standin:
        status, _ = post(standin, "/v1/chat/completions", {"tools": [{"name": "other"}]})
    assert status == 500
    assert "write_file" in standin.errors[0]


@pytest.mark.parametrize("path", ["/v1/unknown", "/v2/messages/other"])
def test_an_unknown_endpoint_is_recorded_and_refused(path: str) -> None:
    with StandIn([]) as standin:
        status, _ = post(standin, path, {})
    assert status == 404
    assert standin.requests[0].answered == "unknown"


def test_a_request_that_forbids_tool_calls_does_not_take_a_scripted_turn() -> None:
    tools = [{"type": "function", "function": {"name": "create"}}]
    summary = {"model": "m", "tools": tools, "tool_choice": "none", "messages": []}
    with StandIn(SCRIPT) as standin:
        status, raw = post(standin, "/v1/chat/completions", summary)
        assert status == 200 and b"OK" in raw
        status, raw = post(standin, "/v1/chat/completions", dict(summary, tool_choice="auto"))
        assert status == 200 and b'"create"' in raw
    assert [r.main for r in standin.requests] == [False, True]


def test_a_use_turn_calls_the_first_offered_tool_with_its_arguments() -> None:
    tools = [{"type": "function", "function": {"name": "bash"}}]
    script = [Use({"run_shell_command": {"command": "x"}, "bash": {"command": "ls"}})]
    with StandIn(script) as standin:
        status, raw = post(standin, "/v1/chat/completions", {"tools": tools, "messages": []})
    call = json.loads(raw)["choices"][0]["message"]["tool_calls"][0]["function"]
    assert status == 200 and call == {"name": "bash", "arguments": '{"command": "ls"}'}
