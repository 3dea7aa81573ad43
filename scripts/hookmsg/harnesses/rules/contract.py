"""Contract rules for the generated registrations: H002, H004 and H006."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING

from hookmsg.catalogue.models import Harness, HarnessCatalogue, HookRegistry, Registration
from hookmsg.diagnostics import Diagnostic
from hookmsg.harnesses.registration_plan import Entry, entries_for
from hookmsg.tomlpos import locate

if TYPE_CHECKING:
    from hookmsg.catalogue.guard_files import GuardSource


def check(
    registry: HookRegistry,
    registry_text: str,
    registry_display: str,
    harnesses: HarnessCatalogue,
    generated: str,
    guard_files: Mapping[str, GuardSource],
) -> list[Diagnostic]:
    """Check every harness's registration against its contract.

    `generated` is the generated folder as shown in diagnostics. That each registration
    parses, holds only delivered events and install tokens, and runs every command through
    the fail-open bootstrap no registry can break: the renderer's own tests prove it
    (tests/test_render_registrations.py). A guard no harness reaches is shown at its guard file's
    `wired`.
    """
    found: list[Diagnostic] = []
    reached: set[str] = set()
    for harness in harnesses.harnesses:
        registration = harness.registration
        if registration is None:
            continue
        entries = entries_for(harness, registry)
        for entry in entries:
            reached.update(entry.messages)
        shown = f"{generated}/{harness.id}/{registration.file}"
        found += _check_registration(
            harness, registration, entries, (registry_text, registry_display), shown
        )
    if not any(h.registration is not None for h in harnesses.harnesses):
        return found  # no registrations are generated at all: nothing to be reachable on
    for name in sorted(registry.guards):
        if name in registry.unwired or name not in registry.wired_names():
            continue  # unwired guards are run by a gate, not a hook (R007 covers the rest)
        if name not in reached:
            source = guard_files.get(name)
            at = (source.display, source.line("wired")) if source else (registry_display, 1)
            shown, line = at
            message = f"guard '{name}' is registered on no harness: none delivers its event"
            found.append(Diagnostic(shown, line, 1, "H004", message))
    return found


def _check_registration(
    harness: Harness,
    registration: Registration,
    entries: list[Entry],
    registry_at: tuple[str, str],
    shown: str,
) -> list[Diagnostic]:
    """H002 for a message registered twice on one event, H006 for a timeout out of range."""
    registry_text, registry_display = registry_at
    found: list[Diagnostic] = []
    # A repeat inside one registry entry is R003's; count each entry's messages once.
    keys = Counter(
        (entry.event, entry.matcher, name) for entry in entries for name in set(entry.messages)
    )
    for (event, matcher, name), count in sorted(keys.items(), key=str):
        if count > 1:
            where = f"{event} {matcher}" if matcher else event
            message = f"'{name}' is registered {count} times for {where}"
            found.append(Diagnostic(shown, 1, 1, "H002", message))
    for entry in entries:
        limit = registration.timeout_max
        if not 0 < entry.timeout <= limit:
            found.append(
                Diagnostic(
                    registry_display,
                    locate(registry_text, ("timeouts", entry.event)),
                    1,
                    "H006",
                    f"{entry.event} timeout {entry.timeout} {registration.timeout_unit} is "
                    f"outside {harness.id}'s range 1..{limit} {registration.timeout_unit}",
                )
            )
    return found
