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
import re
from dataclasses import dataclass
from typing import Any

from hookmsg.catalogue import Harness, HookRegistry
from hookmsg.delivery import why_not_delivered
from hookmsg.vocabulary import EVERY, TOOL_EVENTS

INSTALL_TOKENS = ("PYTHON_BIN", "HARNESS_ROOT")
# No `$`, backtick, double quote or backslash: safe inside double quotes in sh and PowerShell.
BOOT = (
    "import os,sys,runpy;f=sys.argv[1];del sys.argv[0];"
    "os.path.isfile(f) and runpy.run_path(f,run_name='__main__')"
)
INTERPRETER_FLAGS = ("-I", "-S", "-c", BOOT)
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
    kind = registration.format if registration is not None else ""
    if key == EVERY:
        # Devin takes no matcher, and an omitted handler matcher matches every tool in
        # Copilot and Cursor; elsewhere `*` is spelled out only where a matcher applies.
        if not harness.matchers or event not in TOOL_EVENTS or kind in ("copilot", "cursor"):
            return None
        return ".*" if kind == "qwen" else "*"
    if event not in TOOL_EVENTS:
        # A SessionStart source such as `compact`; Qwen reads matchers as regexes.
        return f"^{key}$" if kind == "qwen" else key
    names = [harness.tools[tool] for tool in key.split("|") if tool in harness.tools]
    if kind == "qwen":
        # Qwen matches regexes against runtime tool ids; anchor them.
        return f"^{names[0]}$" if len(names) == 1 else "^(?:" + "|".join(names) + ")$"
    return "|".join(names)


def entries_for(harness: Harness, registry: HookRegistry, *, strict: bool = False) -> list[Entry]:
    """The dispatcher entries of `harness`, in registry order.

    `strict`: also the events whose output reaches the model only as a refusal.
    """
    registration = harness.registration
    if registration is None:
        return []
    scale = 1000 if registration.timeout_unit == "ms" else 1
    fold = registration.fold
    entries = []
    for entry in registry.dispatch:
        event, key = entry.key
        if why_not_delivered(harness, event, entry.matcher, strict=strict) is not None:
            continue
        if fold is not None and event in TOOL_EVENTS and key == fold.messages_from:
            matcher: str | None = fold.matcher  # the folded entries' matcher
        else:
            matcher = _matcher(harness, event, key)
        seconds = registry.timeouts.get(event, DEFAULT_TIMEOUT)
        spelled = harness.events.get(event) or harness.deny_events[event]
        entries.append(Entry(event, spelled, matcher, tuple(entry.messages), seconds * scale))
    return entries


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


def is_module(harness: Harness) -> bool:
    """True where the registration is the xcsh extension module, not a JSON hook file."""
    registration = harness.registration
    return registration is not None and registration.format == "xcsh"


def render_registration(harness: Harness, registry: HookRegistry, *, strict: bool = False) -> str:
    if is_module(harness):
        from hookmsg.render.xcsh_module import render_xcsh_module

        return render_xcsh_module(harness, registry)
    data = registration_data(harness, registry, strict=strict)
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


COMMAND_KEYS = frozenset({"command", "commandWindows", "bash", "powershell"})


def command_strings(value: Any) -> list[str]:
    """Every command line in registration data, in document order."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in COMMAND_KEYS and isinstance(item, str):
                found.append(item)
            else:
                found += command_strings(item)
    elif isinstance(value, list):
        for item in value:
            found += command_strings(item)
    return found


def runs_through_boot(command: str) -> bool:
    """True when `command` starts the interpreter, isolated, on the fail-open bootstrap."""
    body = command[2:] if command.startswith("& ") else command
    if not body.startswith('"'):
        return False
    end = body.find('"', 1)
    return end > 1 and body[end + 1 :].startswith(f' -I -S -c "{BOOT}" "')


def registered_messages(harness: Harness, registry: HookRegistry) -> set[str]:
    return {name for entry in entries_for(harness, registry) for name in entry.messages}
