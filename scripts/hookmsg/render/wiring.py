"""`hook-wiring.md`: Mermaid pictures of events, matchers, messages and harnesses."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from hookmsg.catalogue.models import Harness, HookRegistry
from hookmsg.render.inventory import cell
from hookmsg.render.loaded import LoadedProject
from hookmsg.render.templates import render
from hookmsg.vocabulary import EVENTS, EVERY, TOOL_EVENTS


def node_id(kind: str, *parts: str) -> str:
    """A stable id from a hash of the names: `com-pact` and `com.pact` stay two nodes."""
    key = "\0".join((kind, *parts)).encode("utf-8", "surrogatepass")
    return f"{kind}_{hashlib.sha256(key).hexdigest()[:12]}"


_LABEL_ENTITIES = {"&": "#amp;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "`": "#96;"}


def label(text: str) -> str:
    """A quoted Mermaid label on one line; quotes, angle brackets and backticks as entities."""
    flat = " ".join(text.split())
    return '"' + "".join(_LABEL_ENTITIES.get(c, c) for c in flat) + '"'


def render_wiring(loaded: LoadedProject) -> str:
    registry = loaded.catalogue.registry
    harnesses = loaded.catalogue.harnesses.harnesses
    cross = [
        f"  {node_id('message', a)} <-.-> {node_id('message', b)}"
        for a, b in loaded.cross_bindings()
    ]
    return render(
        "hook-wiring.md.j2",
        registrations=_registrations(registry, harnesses),
        licence_line=loaded.project.settings.licence_line,
        wiring=_wiring(registry),
        cross=cross,
        delivery=_delivery(harnesses),
    )


def _wiring(registry: HookRegistry) -> list[str]:
    """The registry's graph: events, their matchers, the messages each loads, the unwired."""
    wiring: list[str] = []
    used = {entry.event for entry in registry.dispatch}
    for event in (event for event in EVENTS if event in used):
        wiring.append(f"  {node_id('event', event)}([{label(event)}])")
    for entry in registry.dispatch:
        event, matcher = entry.key
        source = node_id("event", event)
        if matcher != EVERY or event in TOOL_EVENTS:
            # A matcher gets its own node; an event without one loads messages directly.
            text = "every tool" if matcher == EVERY else matcher
            matcher_node = node_id("matcher", event, matcher)
            wiring.append(f"  {source} --> {matcher_node}{{{{{label(text)}}}}}")
            source = matcher_node
        for name in entry.messages:
            wiring.append(f"  {source} --> {node_id('message', name)}[{label(name)}]")
    for name in sorted(registry.unwired):
        target = f"{node_id('message', name)}[{label(name)}]"
        wiring.append(f"  unwired([{label('unwired on purpose')}]) -.-> {target}")
    return wiring


def _delivery(harnesses: Sequence[Harness]) -> list[str]:
    """The harnesses' graph: each harness, the events it delivers and how it spells them."""
    delivery = [
        f"  {node_id('event', event)}([{label(event)}])"
        for event in EVENTS
        if any(event in harness.events or event in harness.deny_events for harness in harnesses)
    ]
    for harness in harnesses:
        source = node_id("harness", harness.id)
        delivery.append(f"  {source}[{label(harness.name)}]")
        for event in EVENTS:
            spelling = harness.events.get(event)
            if spelling is None:
                continue
            arrow = "-->" if spelling == event else f"-->|{label(spelling)}|"
            delivery.append(f"  {source} {arrow} {node_id('event', event)}")
        for event, spelling in harness.deny_events.items():
            # Reaches the model only as a refusal: registered by `install --strict` alone.
            text = f"{spelling}: deny only" if spelling != event else "deny only"
            delivery.append(f"  {source} -.->|{label(text)}| {node_id('event', event)}")
    return delivery


def _registrations(registry: HookRegistry, harnesses: Sequence[Harness]) -> list[list[str]]:
    """One row per generated registration: its file, where it installs, its events."""
    from hookmsg.harnesses.registration_plan import entries_for

    registrations = []
    for harness in harnesses:
        if harness.registration is None:
            continue
        events = sorted({entry.spelled for entry in entries_for(harness, registry)})
        registrations.append(
            [
                f"`{harness.id}/{harness.registration.file}`",
                cell(harness.registration.installed_as),
                f"`{harness.registration.project_file}`"
                if harness.registration.project_file
                else "— (not installed into a project)",
                cell(", ".join(events)),
                cell(harness.registration.contract or ""),
            ]
        )
    return registrations
