"""What xcsh's extension API lets a module hand to the model, and the X rules on it.

xcsh (read from its `packages/coding-agent/src/extensibility/extensions/types.ts`) gives an
extension four ways to put text in front of the model, one per event; every other event
either returns nothing that reaches the model or, like `tool_call`, can only block.
The generated module (`render/xcsh_module.py`) implements exactly these channels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookmsg.diagnostics import Diagnostic
from hookmsg.tomlpos import locate

if TYPE_CHECKING:
    from hookmsg.catalogue import Harness

FORMAT = "xcsh"

# xcsh event -> how the module hands the dispatcher's text over on it.
CHANNELS: dict[str, str] = {
    "session_start": "pi.sendMessage(hidden message, deliverAs nextTurn)",
    "before_agent_start": "returns {message}",
    "tool_result": "returns {content} with a text part appended",
    "session.compacting": "returns {context} (read by the summariser)",
}
# xcsh events that exist but cannot carry context, with the reason.
NO_CHANNEL: dict[str, str] = {
    "tool_call": "can only block a call with a reason",
    "context": "rewrites the whole message list; not a place to add a message per event",
    "session_compact": "returns nothing",
    "session_shutdown": "returns nothing",
}


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
