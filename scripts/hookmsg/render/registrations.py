"""Each harness's hook registration file, generated from the one registry.

Per harness: one dispatcher entry per event and matcher, listing every message that
matcher evaluates in registry order, only where the harness hands that event's output
to the model, with matchers in the harness's tool names and timeouts in its unit.

Every command runs the dispatcher through a fail-open bootstrap (BOOT): the interpreter
in isolated mode (`-I`: neither the opened project's files nor PYTHON* variables reach
sys.path) without `site` (`-S`) runs a one-line program that compiles and runs the
dispatcher's file and turns any failure to load or run it into exit 0 with no output, so
a deleted, superseded or damaged install root blocks nothing, instead of Python's exit 1
or 2 (2 blocks PreToolUse and keeps Codex's Stop looping).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hookmsg.catalogue.models import Harness, HookRegistry
from hookmsg.harnesses.registration_plan import (
    BOOT,
    PLUGIN_ROOT,
    Entry,
    entries_for,
    is_module,
)
from hookmsg.jsonout import dump_json


def _argv(harness: Harness, entry: Entry, strict: bool) -> list[str]:
    contract = harness.registration.contract if harness.registration else None
    # A folded entry names the registry entries it stands for; the dispatcher picks per call.
    named = [word for key in entry.folded for word in ("--entry", key)]
    return [
        *(["--contract", contract] if contract else []),
        *(["--strict"] if strict else []),
        *named,
        entry.event,
        *(() if entry.folded else entry.messages),
    ]


def shell_command(python: str, dispatcher: str, argv: list[str]) -> str:
    """One shell line (sh or PowerShell after `& `) that runs `dispatcher` through BOOT."""
    return f'"{python}" -I -S -c "{BOOT}" "{dispatcher}" ' + " ".join(argv)


def _shell(script: str, argv: list[str]) -> str:
    return shell_command("${PYTHON_BIN}", f"${{HARNESS_ROOT}}/{script}", argv)


def _claude_like(entries: list[Entry], handler_for: Callable[[Entry], Any]) -> dict[str, Any]:
    events: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        group: dict[str, Any] = {"hooks": [handler_for(entry)]}
        if entry.matcher is not None:
            group["matcher"] = entry.matcher
        events.setdefault(entry.spelled, []).append(group)
    return {"hooks": events}


@dataclass(frozen=True)
class _Job:
    """What every format writes: one harness's entries, and how each runs the dispatcher."""

    harness: Harness
    entries: list[Entry]
    script: str
    strict: bool

    def line(self, entry: Entry) -> str:
        return _shell(self.script, _argv(self.harness, entry, self.strict))

    def command(self, entry: Entry) -> dict[str, Any]:
        return {"type": "command", "command": self.line(entry), "timeout": entry.timeout}


def _claude_settings(job: _Job) -> dict[str, Any]:
    # One shell string: the exec form (command + args) exists only since 2.1.139.
    return _claude_like(job.entries, job.command)


def _claude_plugin(job: _Job) -> dict[str, Any]:
    def handler(entry: Entry) -> dict[str, Any]:
        argv = _argv(job.harness, entry, job.strict)
        command = shell_command("python3", f"${{{PLUGIN_ROOT}}}/{job.script}", argv)
        return {"type": "command", "command": command, "timeout": entry.timeout}

    data = _claude_like(job.entries, handler)
    return {"description": "hookmsg: hook messages for Claude Code (generated)", **data}


def _codex(job: _Job) -> dict[str, Any]:
    return _claude_like(
        job.entries, lambda e: {**job.command(e), "commandWindows": "& " + job.line(e)}
    )


def _kiro(job: _Job) -> dict[str, Any]:
    hooks = []
    for number, entry in enumerate(job.entries, start=1):
        hook: dict[str, Any] = {
            "name": f"hookmsg-{entry.event.lower()}-{number}",
            "trigger": entry.spelled,
            "action": {"type": "command", "command": job.line(entry)},
            "timeout": entry.timeout,
            "enabled": True,
        }
        if entry.matcher is not None:
            hook["matcher"] = entry.matcher
        hooks.append(hook)
    return {"version": "v1", "hooks": hooks}


def _copilot(job: _Job) -> dict[str, Any]:
    events: dict[str, list[dict[str, Any]]] = {}
    for entry in job.entries:
        handler: dict[str, Any] = {
            "type": "command",
            "bash": job.line(entry),
            "powershell": "& " + job.line(entry),
            "timeoutSec": entry.timeout,
        }
        if entry.matcher is not None:
            handler["matcher"] = entry.matcher
        events.setdefault(entry.spelled, []).append(handler)
    return {"version": 1, "hooks": events}


def _cursor(job: _Job) -> dict[str, Any]:
    cursor: dict[str, list[dict[str, Any]]] = {}
    for entry in job.entries:
        item: dict[str, Any] = {"command": job.line(entry), "timeout": entry.timeout}
        if entry.matcher is not None:
            item["matcher"] = entry.matcher
        cursor.setdefault(entry.spelled, []).append(item)
    return {"version": 1, "hooks": cursor}


# One function per JSON registration format (`[harnesses.registration] format`); the xcsh
# module is JavaScript, rendered by render/xcsh_module.py.
FORMATS: dict[str, Callable[[_Job], dict[str, Any]]] = {
    "claude-settings": _claude_settings,
    "claude-plugin": _claude_plugin,
    "codex": _codex,
    "qwen": _claude_settings,
    "claude-compatible": _claude_settings,
    "devin": _claude_settings,
    "kiro": _kiro,
    "copilot": _copilot,
    "cursor": _cursor,
    # Claude Code's shape; Gemini's event names and milliseconds come from the harness.
    "gemini": _claude_settings,
}


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
    write = FORMATS.get(registration.format)
    if write is None:
        raise ValueError(f"harness '{harness.id}': no writer for format '{registration.format}'")
    entries = entries_for(harness, registry, strict=strict)
    return write(_Job(harness, entries, registry.dispatcher.script, strict))


def render_registration(harness: Harness, registry: HookRegistry, *, strict: bool = False) -> str:
    if is_module(harness):
        from hookmsg.render.xcsh_module import render_xcsh_module

        return render_xcsh_module(harness, registry)
    data = registration_data(harness, registry, strict=strict)
    return dump_json(data)
