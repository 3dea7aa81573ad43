"""Wiring rules: R001-R008, the links between the hook registry and the message files.

The hook registry is `catalog/hooks.toml`; this module checks what it wires.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from hookmsg.catalogue.models import Dispatch, HookRegistry
from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic
from hookmsg.tomlpos import locate
from hookmsg.vocabulary import EVENTS, TOOL_EVENTS


@dataclass(frozen=True)
class _Registry:
    """The registry's text and the findings it collects, each placed at its key in the file."""

    text: str
    display: str
    found: list[Diagnostic]

    def at(
        self,
        loc: tuple[str | int, ...],
        code: Code,
        message: str,
        needle: str | None = None,
        nth: int = 1,
    ) -> None:
        line = locate(self.text, loc, needle, nth)
        self.found.append(Diagnostic(self.display, line, 1, code, message))


def check(
    registry: HookRegistry,
    text: str,
    display: str,
    messages: Mapping[str, str],
    readable: Collection[str] | None = None,
) -> list[Diagnostic]:
    """`messages` maps every message name that exists to the path shown for it.

    `readable` (default: all of them) are those that could be read; only they can be
    said to be unregistered, since an unreadable file is already reported as such.
    """
    into = _Registry(text, display, [])
    _check_dispatch(registry, messages, into)
    for key in registry.timeouts:
        if key not in EVENTS:
            into.at(("timeouts", key), "R004", f"unknown event '{key}' in [timeouts]")
    _check_unwired(registry, messages, into)
    found = into.found
    known = registry.wired_names() | set(registry.unwired)
    for name, path in sorted(messages.items()):
        if name not in known and (readable is None or name in readable):
            found += unregistered(registry, display, name, path)
    return found


def _check_dispatch(registry: HookRegistry, messages: Mapping[str, str], into: _Registry) -> None:
    """R002-R005 and R008 on each `[[dispatch]]` entry."""
    first_entry: dict[tuple[str, str], int] = {}
    for index, entry in enumerate(registry.dispatch):
        where = ("dispatch", index)
        if entry.event not in EVENTS:
            into.at(
                (*where, "event"),
                "R004",
                f"unknown event '{entry.event}'; known: {', '.join(EVENTS)}",
            )
        elif entry.event not in registry.timeouts:
            into.at((*where, "event"), "R008", f"event '{entry.event}' has no entry in [timeouts]")
        if entry.key in first_entry:
            event, matcher = entry.key
            into.at(
                where,
                "R005",
                f"second dispatcher entry for {event} {matcher} (first is entry "
                f"{first_entry[entry.key] + 1}); merge them",
            )
        else:
            first_entry[entry.key] = index
        _check_entry_messages(entry, messages, into, where)
        if not entry.messages:
            message = "the entry runs no message: list one, or wire a guard into it"
            into.at((*where, "messages"), "C002", message)
        if entry.matcher not in (None, "", "*") and entry.event not in TOOL_EVENTS | {
            "SessionStart"
        }:
            into.at((*where, "matcher"), "R004", f"event '{entry.event}' takes no matcher")


def _check_entry_messages(
    entry: Dispatch,
    messages: Mapping[str, str],
    into: _Registry,
    where: tuple[str, int],
) -> None:
    """R003 for a message listed twice in one entry, R002 for one that does not exist."""
    seen: dict[str, int] = {}
    for name in entry.messages:
        needle = f'"{name}"'
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            repeat = f"'{name}' is listed twice for {entry.event} {entry.key[1]}"
            into.at((*where, "messages"), "R003", repeat, needle, seen[name])
        if name not in messages:
            into.at(
                (*where, "messages"),
                "R002",
                f"registered message '{name}' does not exist",
                needle,
            )


def _check_unwired(registry: HookRegistry, messages: Mapping[str, str], into: _Registry) -> None:
    """R002 and R006 on the `[unwired]` table (the guard files: rules/guards.py)."""
    wired = registry.wired_names()
    for name in registry.unwired:
        if name not in messages:
            into.at(("unwired", name), "R002", f"unwired message '{name}' does not exist")
        if name in wired:
            into.at(("unwired", name), "R006", f"'{name}' is both registered and listed as unwired")


def unregistered(registry: HookRegistry, display: str, name: str, path: str) -> list[Diagnostic]:
    """R001 for a message file that the registry neither wires nor lists as unwired."""
    if name in registry.wired_names() or name in registry.unwired:
        return []
    message = f"message '{name}' is not registered in {display} nor listed under [unwired]"
    return [Diagnostic(path, 1, 1, "R001", message)]
