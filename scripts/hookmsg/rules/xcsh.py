"""xcsh rules: X001-X003 on a harness whose registration is the xcsh extension module."""

from __future__ import annotations

from hookmsg.catalogue import Harness
from hookmsg.diagnostics import Diagnostic
from hookmsg.tomlpos import locate
from hookmsg.xcsh import CHANNELS, FORMAT, NO_CHANNEL


def check_xcsh_harness(harness: Harness, index: int, text: str, display: str) -> list[Diagnostic]:
    """X001-X003 for a harness whose registration is the xcsh module; nothing otherwise."""
    registration = harness.registration
    if registration is None or registration.format != FORMAT:
        return []
    found: list[Diagnostic] = []
    for event, spelled in harness.events.items():
        if spelled not in CHANNELS:
            why = NO_CHANNEL.get(spelled, "is not an xcsh event the module can deliver on")
            found.append(
                Diagnostic(
                    display,
                    locate(text, ("harnesses", index, "events", event)),
                    1,
                    "X001",
                    f"harness '{harness.id}' maps {event} to xcsh event '{spelled}', which {why}; "
                    f"channels: {', '.join(CHANNELS)}",
                )
            )
    if harness.session_start_sources:
        found.append(
            Diagnostic(
                display,
                locate(text, ("harnesses", index, "session_start_sources")),
                1,
                "X002",
                f"harness '{harness.id}': xcsh's session_start event does not say why a session "
                "started, so the module cannot register per-source context",
            )
        )
    if not registration.file.endswith(".js"):
        found.append(
            Diagnostic(
                display,
                locate(text, ("harnesses", index, "registration", "file")),
                1,
                "X003",
                f"harness '{harness.id}': the xcsh module file '{registration.file}' must end "
                "in .js (xcsh loads *.js and *.ts extensions; the module is plain JavaScript)",
            )
        )
    return found
