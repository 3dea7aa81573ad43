"""xcsh rules: X001-X004 on a harness whose registration is the xcsh extension module."""

from __future__ import annotations

from hookmsg.catalogue.models import Harness
from hookmsg.catalogue.xcsh import CHANNELS, FORMAT, NO_CHANNEL
from hookmsg.diagnostics import Diagnostic
from hookmsg.tomlpos import locate


def check_xcsh_harness(harness: Harness, index: int, text: str, display: str) -> list[Diagnostic]:
    """X001-X003 for a harness whose registration is the xcsh module; nothing otherwise."""
    registration = harness.registration
    if registration is None:
        return []
    if registration.format != FORMAT:
        return _user_file(harness, index, text, display, module=False)
    found: list[Diagnostic] = _user_file(harness, index, text, display, module=True)
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


def _user_file(
    harness: Harness, index: int, text: str, display: str, *, module: bool
) -> list[Diagnostic]:
    """X004: `user_file` names a `.js` module, and only on a module harness."""
    registration = harness.registration
    user_file = registration.user_file if registration is not None else None
    if user_file is None or (module and user_file.endswith(".js")):
        return []
    why = (
        f"the module's user folder file '{user_file}' must end in .js"
        if module
        else "user_file applies to an extension module only; this registration is a settings file"
    )
    return [
        Diagnostic(
            display,
            locate(text, ("harnesses", index, "registration", "user_file")),
            1,
            "X004",
            f"harness '{harness.id}': {why}",
        )
    ]
