"""Wiring rules: R001-R008, the links between the hook registry and the message files.

The hook registry is `catalog/hooks.toml`; this module checks what it wires.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from hookmsg.catalogue.models import HookRegistry
from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic
from hookmsg.tomlpos import locate
from hookmsg.vocabulary import EVENTS, TOOL_EVENTS


def check(  # noqa: PLR0912
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
    found: list[Diagnostic] = []

    def at(
        loc: tuple[str | int, ...],
        code: Code,
        message: str,
        needle: str | None = None,
        nth: int = 1,
    ) -> None:
        found.append(Diagnostic(display, locate(text, loc, needle, nth), 1, code, message))

    first_entry: dict[tuple[str, str], int] = {}
    for index, entry in enumerate(registry.dispatch):
        where = ("dispatch", index)
        if entry.event not in EVENTS:
            at(
                (*where, "event"),
                "R004",
                f"unknown event '{entry.event}'; known: {', '.join(EVENTS)}",
            )
        elif entry.event not in registry.timeouts:
            at((*where, "event"), "R008", f"event '{entry.event}' has no entry in [timeouts]")
        if entry.key in first_entry:
            event, matcher = entry.key
            at(
                where,
                "R005",
                f"second dispatcher entry for {event} {matcher} (first is entry "
                f"{first_entry[entry.key] + 1}); merge them",
            )
        else:
            first_entry[entry.key] = index
        seen: dict[str, int] = {}
        for name in entry.messages:
            needle = f'"{name}"'
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                repeat = f"'{name}' is listed twice for {entry.event} {entry.key[1]}"
                at((*where, "messages"), "R003", repeat, needle, seen[name])
            if name not in messages:
                at(
                    (*where, "messages"),
                    "R002",
                    f"registered message '{name}' does not exist",
                    needle,
                )
        if entry.matcher not in (None, "", "*") and entry.event not in TOOL_EVENTS | {
            "SessionStart"
        }:
            at((*where, "matcher"), "R004", f"event '{entry.event}' takes no matcher")

    for key in registry.timeouts:
        if key not in EVENTS:
            at(("timeouts", key), "R004", f"unknown event '{key}' in [timeouts]")

    wired = registry.wired_names()
    for name in registry.guards:
        if name not in messages:
            at(("guards", name), "R002", f"guard '{name}' names no existing message")
        elif name not in wired and name not in registry.unwired:
            at(
                ("guards", name),
                "R007",
                f"guard '{name}' is loaded by no event and not listed as unwired",
            )
    for name in registry.unwired:
        if name not in messages:
            at(("unwired", name), "R002", f"unwired message '{name}' does not exist")
        if name in wired:
            at(("unwired", name), "R006", f"'{name}' is both registered and listed as unwired")

    known = wired | set(registry.unwired)
    for name, path in sorted(messages.items()):
        if name not in known and (readable is None or name in readable):
            found += unregistered(registry, display, name, path)
    return found


def unregistered(registry: HookRegistry, display: str, name: str, path: str) -> list[Diagnostic]:
    """R001 for a message file that the registry neither wires nor lists as unwired."""
    if name in registry.wired_names() or name in registry.unwired:
        return []
    message = f"message '{name}' is not registered in {display} nor listed under [unwired]"
    return [Diagnostic(path, 1, 1, "R001", message)]
