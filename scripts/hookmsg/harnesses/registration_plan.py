"""What each harness registers: its dispatcher entries, tokens and bootstrap, as data.

Part of the model: the renderer (`render/registrations.py`) writes these entries in each
harness's format, the contract rules (`rules/contract.py`) check them, and the installer
recognises our commands by the bootstrap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from hookmsg.catalogue.models import Harness, HookRegistry
from hookmsg.harnesses.delivery import why_not_delivered
from hookmsg.vocabulary import EVERY, TOOL_EVENTS

INSTALL_TOKENS = ("PYTHON_BIN", "HARNESS_ROOT")
# No `$`, backtick, double quote or backslash: safe inside double quotes in sh and PowerShell.
# It runs the dispatcher's file itself with `exec` on its bytes: runpy would import pkgutil,
# and with it typing, re and enum, on every call, and `compile()` builds Python's AST types
# first (about a third of the interpreter's own start-up). Whatever goes wrong before the
# dispatcher's own fail-open handling takes over (the file missing, unreadable, truncated,
# undecodable, a syntax error, an exception while it loads) reaches the exception hook,
# which ends the process with exit 0 and no output: Python's own answer would be exit 1 or
# 2 and a traceback, which blocks a PreToolUse call and keeps Codex's Stop looping. The
# file is read up to 1 MiB (the dispatcher's is about 1 KB): a damaged huge file fails.
# `os` is imported by the hook only when it fails: its import costs every call about a
# fifth of the interpreter's start-up, and the dispatcher itself does without it.
BOOT = (
    "import sys;sys.excepthook=lambda*a:__import__('os')._exit(0);f=sys.argv[1];"
    "del sys.argv[0];exec(open(f,'rb').read(1<<20),{'__name__':'__main__','__file__':f})"
)
# Bootstraps of earlier releases: a command running through one of them is still ours (an
# upgrade replaces it), though new registrations use only BOOT.
LEGACY_BOOTS = (
    "import os,sys;sys.excepthook=lambda*a:os._exit(0);f=sys.argv[1];del sys.argv[0];"
    "exec(open(f,'rb').read(1<<20),{'__name__':'__main__','__file__':f})",
    "import os,sys,runpy;f=sys.argv[1];del sys.argv[0];"
    "os.path.isfile(f) and runpy.run_path(f,run_name='__main__')",
)
INTERPRETER_FLAGS = ("-I", "-S", "-c", BOOT)
PLUGIN_ROOT = "CLAUDE_PLUGIN_ROOT"  # Claude Code substitutes it when it runs the hook
TOKEN = re.compile(r"\$\{([^}]*)\}")
DEFAULT_TIMEOUT = 30
# Formats whose matchers are unanchored regular expressions over tool ids.
REGEX_FORMATS = ("qwen", "gemini")


@dataclass(frozen=True)
class Entry:
    """One dispatcher entry in one harness's registration."""

    event: str  # the registry's spelling
    spelled: str  # the harness's spelling
    matcher: str | None  # in the harness's terms; None: no matcher at all
    messages: tuple[str, ...]  # every message it may evaluate, in registry order, once each
    timeout: int  # in the harness's unit
    # The registry entries (their matcher keys, in registry order) that the harness folds
    # into this one: the command names them (`--entry KEY`) and the dispatcher decides per
    # call which apply. Empty: the command names `messages` itself.
    folded: tuple[str, ...] = ()


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
        return ".*" if kind in REGEX_FORMATS else "*"
    if event not in TOOL_EVENTS:
        # A SessionStart source such as `compact`; Qwen reads matchers as regexes.
        return f"^{key}$" if kind in REGEX_FORMATS else key
    names = [harness.tools[tool] for tool in key.split("|") if tool in harness.tools]
    if kind in REGEX_FORMATS:
        # Qwen and Gemini match unanchored regexes against runtime tool ids; anchor them.
        return f"^{names[0]}$" if len(names) == 1 else "^(?:" + "|".join(names) + ")$"
    return "|".join(names)


def entries_for(harness: Harness, registry: HookRegistry, *, strict: bool = False) -> list[Entry]:
    """The dispatcher entries of `harness`, in registry order.

    `strict`: also the events whose output reaches the model only as a refusal. Where the
    harness folds several tools into one matcher, their entries of one event become one
    entry, at the place of the first, that names them all (`folded`).
    """
    registration = harness.registration
    if registration is None:
        return []
    scale = 1000 if registration.timeout_unit == "ms" else 1
    fold = registration.fold
    entries: list[Entry] = []
    folds: dict[str, int] = {}  # event -> index of its folded entry in `entries`
    for entry in registry.dispatch:
        event, key = entry.key
        if why_not_delivered(harness, event, entry.matcher, strict=strict) is not None:
            continue
        seconds = registry.timeouts.get(event, DEFAULT_TIMEOUT)
        spelled = harness.events.get(event) or harness.deny_events[event]
        if fold is not None and event in TOOL_EVENTS and key in fold.tools:
            at = folds.get(event)
            if at is None:
                folds[event] = len(entries)
                entries.append(Entry(event, spelled, fold.matcher, (), seconds * scale, folded=()))
                at = folds[event]
            first = entries[at]
            names = tuple(dict.fromkeys([*first.messages, *entry.messages]))
            entries[at] = replace(first, messages=names, folded=(*first.folded, key))
            continue
        matcher = _matcher(harness, event, key)
        entries.append(Entry(event, spelled, matcher, tuple(entry.messages), seconds * scale))
    return entries


def is_module(harness: Harness) -> bool:
    """True where the registration is the xcsh extension module, not a JSON hook file."""
    registration = harness.registration
    return registration is not None and registration.format == "xcsh"


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


def boot_prefix(command: str) -> str | None:
    """The command up to its dispatcher path's opening quote, when it runs the interpreter,
    isolated, on the fail-open bootstrap (this release's or an earlier one); else None."""
    body = command[2:] if command.startswith("& ") else command
    if not body.startswith('"'):
        return None
    end = body.find('"', 1)
    if end <= 1:
        return None
    for boot in (BOOT, *LEGACY_BOOTS):
        flags = f' -I -S -c "{boot}" "'
        if body[end + 1 :].startswith(flags):
            return body[: end + 1] + flags
    return None


def runs_through_boot(command: str) -> bool:
    """True when `command` starts the interpreter, isolated, on the fail-open bootstrap."""
    return boot_prefix(command) is not None


def registered_messages(harness: Harness, registry: HookRegistry) -> set[str]:
    return {name for entry in entries_for(harness, registry) for name in entry.messages}
