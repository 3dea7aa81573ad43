"""Contract rules for the generated registrations: H002, H004 and H006."""

from __future__ import annotations

from collections import Counter

from hookmsg.catalogue.models import HarnessCatalogue, HookRegistry
from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic
from hookmsg.harnesses.registration_plan import entries_for
from hookmsg.tomlpos import locate


def check(
    registry: HookRegistry,
    registry_text: str,
    registry_display: str,
    harnesses: HarnessCatalogue,
    generated: str,
) -> list[Diagnostic]:
    """Check every harness's registration against its contract.

    `generated` is the generated folder as shown in diagnostics. That each registration
    parses, holds only delivered events and install tokens, and runs every command through
    the fail-open bootstrap no registry can break: the renderer's own tests prove it
    (tests/test_registrations.py).
    """
    found: list[Diagnostic] = []
    reached: set[str] = set()
    for harness in harnesses.harnesses:
        registration = harness.registration
        if registration is None:
            continue
        shown = f"{generated}/{harness.id}/{registration.file}"

        def report(code: Code, message: str, *, path: str = shown, line: int = 1) -> None:
            found.append(Diagnostic(path, line, 1, code, message))

        entries = entries_for(harness, registry)
        # A repeat inside one registry entry is R003's; count each entry's messages once.
        keys = Counter(
            (entry.event, entry.matcher, name) for entry in entries for name in set(entry.messages)
        )
        for (event, matcher, name), count in sorted(keys.items(), key=str):
            if count > 1:
                where = f"{event} {matcher}" if matcher else event
                report("H002", f"'{name}' is registered {count} times for {where}")
        for entry in entries:
            reached.update(entry.messages)
            limit = registration.timeout_max
            if not 0 < entry.timeout <= limit:
                report(
                    "H006",
                    f"{entry.event} timeout {entry.timeout} {registration.timeout_unit} is outside "
                    f"{harness.id}'s range 1..{limit} {registration.timeout_unit}",
                    path=registry_display,
                    line=locate(registry_text, ("timeouts", entry.event)),
                )
    if not any(h.registration is not None for h in harnesses.harnesses):
        return found  # no registrations are generated at all: nothing to be reachable on
    for name in sorted(registry.guards):
        if name in registry.unwired or name not in registry.wired_names():
            continue  # unwired guards are run by a gate, not a hook (R007 covers the rest)
        if name not in reached:
            found.append(
                Diagnostic(
                    registry_display,
                    locate(registry_text, ("guards", name)),
                    1,
                    "H004",
                    f"guard '{name}' is registered on no harness: none delivers its event",
                )
            )
    return found
