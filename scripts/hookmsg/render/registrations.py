"""Each harness's hook registration file, generated from the one registry.

Per harness: one dispatcher entry per event and matcher, listing every message that
matcher evaluates in registry order, only where the harness hands that event's output
to the model, with matchers in the harness's tool names and timeouts in its unit.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from hookmsg.catalogue import Harness, HookRegistry
from hookmsg.delivery import why_not_delivered
from hookmsg.vocabulary import EVERY, TOOL_EVENTS

INSTALL_TOKENS = ("PYTHON_BIN", "HARNESS_ROOT")
PLUGIN_ROOT = "CLAUDE_PLUGIN_ROOT"  # Claude Code substitutes it when it runs the hook
TOKEN = re.compile(r"\$\{([^}]*)\}")
DEFAULT_TIMEOUT = 30


@dataclass(frozen=True)
class Entry:
    """One dispatcher entry in one harness's registration."""

    event: str  # the registry's spelling
    spelled: str  # the harness's spelling
    matcher: str | None  # in the harness's terms; None: no matcher at all
    messages: tuple[str, ...]
    timeout: int  # in the harness's unit


def allowed_tokens(harness: Harness) -> frozenset[str]:
    """The `${...}` tokens that may stay unrendered in this harness's file."""
    registration = harness.registration
    if registration is not None and registration.format == "claude-plugin":
        return frozenset({PLUGIN_ROOT})
    return frozenset(INSTALL_TOKENS)


def _matcher(harness: Harness, event: str, key: str) -> str | None:
    registration = harness.registration
    if key == EVERY:
        # Devin takes no matcher; elsewhere `*` is spelled out only where a matcher applies.
        if not harness.matchers or event not in TOOL_EVENTS:
            return None
        return ".*" if registration is not None and registration.format == "qwen" else "*"
    if event not in TOOL_EVENTS:
        return key  # a SessionStart source such as `compact`
    names = [harness.tools[tool] for tool in key.split("|") if tool in harness.tools]
    if registration is not None and registration.format == "qwen":
        # Qwen matches regexes against runtime tool ids; anchor them.
        return f"^{names[0]}$" if len(names) == 1 else "^(?:" + "|".join(names) + ")$"
    return "|".join(names)


def entries_for(harness: Harness, registry: HookRegistry) -> list[Entry]:
    """The dispatcher entries of `harness`, in registry order."""
    registration = harness.registration
    if registration is None:
        return []
    scale = 1000 if registration.timeout_unit == "ms" else 1
    fold = registration.fold
    entries = []
    for entry in registry.dispatch:
        event, key = entry.key
        if why_not_delivered(harness, event, entry.matcher) is not None:
            continue
        if fold is not None and event in TOOL_EVENTS and key in fold.tools:
            if key != fold.messages_from:
                continue  # folded into the messages_from entry's matcher
            matcher: str | None = fold.matcher
        else:
            matcher = _matcher(harness, event, key)
        seconds = registry.timeouts.get(event, DEFAULT_TIMEOUT)
        entries.append(
            Entry(event, harness.events[event], matcher, tuple(entry.messages), seconds * scale)
        )
    return entries


def _argv(harness: Harness, entry: Entry) -> list[str]:
    contract = harness.registration.contract if harness.registration else None
    return [*(["--contract", contract] if contract else []), entry.event, *entry.messages]


def _shell(script: str, argv: list[str], *, root: str = "${HARNESS_ROOT}") -> str:
    return f'"${{PYTHON_BIN}}" "{root}/{script}" ' + " ".join(argv)


def _claude_like(
    harness: Harness, entries: list[Entry], script: str, handler_for: Any
) -> dict[str, Any]:
    events: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        group: dict[str, Any] = {"hooks": [handler_for(entry)]}
        if entry.matcher is not None:
            group["matcher"] = entry.matcher
        events.setdefault(entry.spelled, []).append(group)
    return {"hooks": events}


def registration_data(harness: Harness, registry: HookRegistry) -> dict[str, Any] | list[Any]:
    """The registration of `harness` as JSON-ready data, tokens unrendered."""
    registration = harness.registration
    if registration is None or is_module(harness):
        raise ValueError(f"harness '{harness.id}' has no JSON registration")
    script = registry.dispatcher.script
    entries = entries_for(harness, registry)
    kind = registration.format

    def command(entry: Entry) -> dict[str, Any]:
        return {
            "type": "command",
            "command": _shell(script, _argv(harness, entry)),
            "timeout": entry.timeout,
        }

    if kind == "claude-settings":
        return _claude_like(
            harness,
            entries,
            script,
            lambda e: {
                "type": "command",
                "command": "${PYTHON_BIN}",
                "args": [f"${{HARNESS_ROOT}}/{script}", *_argv(harness, e)],
                "timeout": e.timeout,
            },
        )
    if kind == "claude-plugin":
        data = _claude_like(
            harness,
            entries,
            script,
            lambda e: {
                "type": "command",
                "command": f'python3 "${{{PLUGIN_ROOT}}}/{script}" ' + " ".join(_argv(harness, e)),
                "timeout": e.timeout,
            },
        )
        return {"description": "hookmsg: hook messages for Claude Code (generated)", **data}
    if kind == "codex":
        return _claude_like(
            harness,
            entries,
            script,
            lambda e: {
                **command(e),
                "commandWindows": "& " + _shell(script, _argv(harness, e)),
            },
        )
    if kind in ("qwen", "claude-compatible"):
        return _claude_like(harness, entries, script, command)
    if kind == "devin":
        return _claude_like(harness, entries, script, command)
    if kind == "kiro":
        hooks = []
        for number, entry in enumerate(entries, start=1):
            hook: dict[str, Any] = {
                "name": f"hookmsg-{entry.event.lower()}-{number}",
                "trigger": entry.spelled,
                "action": {"type": "command", "command": _shell(script, _argv(harness, entry))},
                "timeout": entry.timeout,
                "enabled": True,
            }
            if entry.matcher is not None:
                hook["matcher"] = entry.matcher
            hooks.append(hook)
        return {"version": "v1", "hooks": hooks}
    if kind == "copilot":
        events: dict[str, list[dict[str, Any]]] = {}
        for entry in entries:
            line = _shell(script, _argv(harness, entry))
            events.setdefault(entry.spelled, []).append(
                {
                    "type": "command",
                    "bash": line,
                    "powershell": "& " + line,
                    "timeoutSec": entry.timeout,
                }
            )
        return {"version": 1, "hooks": events}
    # cursor
    cursor: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        item: dict[str, Any] = {
            "command": _shell(script, _argv(harness, entry)),
            "timeout": entry.timeout,
        }
        if entry.matcher is not None:
            item["matcher"] = entry.matcher
        cursor.setdefault(entry.spelled, []).append(item)
    return {"version": 1, "hooks": cursor}


def is_module(harness: Harness) -> bool:
    """True where the registration is the xcsh extension module, not a JSON hook file."""
    registration = harness.registration
    return registration is not None and registration.format == "xcsh"


def render_registration(harness: Harness, registry: HookRegistry) -> str:
    if is_module(harness):
        from hookmsg.render.xcsh_module import render_xcsh_module

        return render_xcsh_module(harness, registry)
    return (
        json.dumps(
            registration_data(harness, registry), indent=2, sort_keys=True, ensure_ascii=False
        )
        + "\n"
    )


def registered_messages(harness: Harness, registry: HookRegistry) -> set[str]:
    return {name for entry in entries_for(harness, registry) for name in entry.messages}
