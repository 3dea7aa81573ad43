"""Each harness's hook registration file, generated from the one registry.

Per harness: one dispatcher entry per event and matcher, listing every message that
matcher evaluates in registry order, only where the harness hands that event's output
to the model, with matchers in the harness's tool names and timeouts in its unit.

Every command runs the dispatcher through a fail-open bootstrap (BOOT): the interpreter
in isolated mode (`-I`: neither the opened project's files nor PYTHON* variables reach
sys.path) without `site` (`-S`) runs a one-line program that starts the dispatcher only
if its file exists, so a deleted or superseded install root exits 0 with no output
instead of Python's exit 2 (which blocks PreToolUse and keeps Codex's Stop looping).
"""

from __future__ import annotations

import json
from typing import Any

from hookmsg.catalogue import Harness, HookRegistry
from hookmsg.registration_plan import (
    BOOT,
    PLUGIN_ROOT,
    Entry,
    entries_for,
    is_module,
)


def _argv(harness: Harness, entry: Entry, strict: bool) -> list[str]:
    contract = harness.registration.contract if harness.registration else None
    return [
        *(["--contract", contract] if contract else []),
        *(["--strict"] if strict else []),
        entry.event,
        *entry.messages,
    ]


def shell_command(python: str, dispatcher: str, argv: list[str]) -> str:
    """One shell line (sh or PowerShell after `& `) that runs `dispatcher` through BOOT."""
    return f'"{python}" -I -S -c "{BOOT}" "{dispatcher}" ' + " ".join(argv)


def _shell(script: str, argv: list[str]) -> str:
    return shell_command("${PYTHON_BIN}", f"${{HARNESS_ROOT}}/{script}", argv)


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


def registration_data(
    harness: Harness, registry: HookRegistry, *, strict: bool = False
) -> dict[str, Any]:
    """The registration of `harness` as JSON-ready data, tokens unrendered.

    `strict`: every command passes `--strict`, and deny-only events are registered too.
    """
    registration = harness.registration
    if registration is None:
        raise ValueError(f"harness '{harness.id}' has no registration")
    if is_module(harness):
        raise ValueError(f"harness '{harness.id}' has a module, not a JSON registration")
    script = registry.dispatcher.script
    entries = entries_for(harness, registry, strict=strict)
    kind = registration.format

    def line(entry: Entry) -> str:
        return _shell(script, _argv(harness, entry, strict))

    def command(entry: Entry) -> dict[str, Any]:
        return {"type": "command", "command": line(entry), "timeout": entry.timeout}

    if kind == "claude-settings":
        # One shell string: the exec form (command + args) exists only since 2.1.139.
        return _claude_like(harness, entries, script, command)
    if kind == "claude-plugin":
        data = _claude_like(
            harness,
            entries,
            script,
            lambda e: {
                "type": "command",
                "command": shell_command(
                    "python3", f"${{{PLUGIN_ROOT}}}/{script}", _argv(harness, e, strict)
                ),
                "timeout": e.timeout,
            },
        )
        return {"description": "hookmsg: hook messages for Claude Code (generated)", **data}
    if kind == "codex":
        return _claude_like(
            harness,
            entries,
            script,
            lambda e: {**command(e), "commandWindows": "& " + line(e)},
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
                "action": {"type": "command", "command": line(entry)},
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
            handler: dict[str, Any] = {
                "type": "command",
                "bash": line(entry),
                "powershell": "& " + line(entry),
                "timeoutSec": entry.timeout,
            }
            if entry.matcher is not None:
                handler["matcher"] = entry.matcher
            events.setdefault(entry.spelled, []).append(handler)
        return {"version": 1, "hooks": events}
    # cursor
    cursor: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        item: dict[str, Any] = {
            "command": line(entry),
            "timeout": entry.timeout,
        }
        if entry.matcher is not None:
            item["matcher"] = entry.matcher
        cursor.setdefault(entry.spelled, []).append(item)
    return {"version": 1, "hooks": cursor}


def render_registration(harness: Harness, registry: HookRegistry, *, strict: bool = False) -> str:
    if is_module(harness):
        from hookmsg.render.xcsh_module import render_xcsh_module

        return render_xcsh_module(harness, registry)
    data = registration_data(harness, registry, strict=strict)
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
