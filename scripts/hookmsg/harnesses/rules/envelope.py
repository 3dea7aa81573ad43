"""D005: a context message whose answer cannot fit within the cap as a harness counts it.

The dispatcher keeps the cap on what the harness reads (`hookmsg_dispatch/envelope.py`):
the whole standard output (JSON envelope, ASCII-escaped) or, where the contract says
`cap_counts = "field"`, the text it takes out of the envelope, counted in the contract's
`cap_unit`. A message whose text alone is over that in some harness that is wired to
deliver it would always be left out there; this rule says so at build time. The sizes
here mirror the dispatcher's envelopes (a test holds the two to the same bytes).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from hookmsg.catalogue.models import Contract, HarnessCatalogue, HookRegistry
from hookmsg.diagnostics import Diagnostic
from hookmsg.harnesses.registration_plan import entries_for
from hookmsg.messages.message import Message


def _length(text: str, unit: str) -> int:
    if unit == "chars" or text.isascii():
        return len(text)
    if unit == "utf16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "replace"))


def _context_json(style: str, event: str, text: str) -> str | None:
    data: dict[str, object]
    if style in ("hook-specific", "gemini"):  # Gemini reads Claude Code's context shape
        data = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    elif style == "additional-context":
        data = {"additionalContext": text}
    elif style == "additional_context":
        data = {"additional_context": text}
    elif style == "xcsh":
        data = {"text": text}
    else:
        return None
    return json.dumps(data, ensure_ascii=True) + "\n"


def answer_size(contract: Contract, event: str, text: str) -> int:
    """What the harness counts of the dispatcher's answer carrying `text` on `event`."""
    if contract.cap_counts == "field":
        return _length(text, contract.cap_unit)
    answer = _context_json(contract.envelope, event, text)
    if answer is None:  # `text`: the text itself on standard output
        return _length(text + "\n", contract.cap_unit)
    return len(answer)


def check(
    registry: HookRegistry,
    harnesses: HarnessCatalogue,
    messages: Mapping[str, Message],
    cap: int,
) -> list[Diagnostic]:
    """D005 once per context message, for the harness and event where its answer is largest."""
    worst: dict[str, tuple[int, str, str]] = {}
    for harness in harnesses.harnesses:
        contract = harness.contract
        if contract is None:
            continue
        for entry in entries_for(harness, registry):
            if entry.event not in contract.context_events:
                continue
            for name in entry.messages:
                message = messages.get(name)
                if message is None or name in registry.guards or not message.delivered:
                    continue
                size = answer_size(contract, entry.spelled, message.delivered)
                if size > cap and size > worst.get(name, (0, "", ""))[0]:
                    worst[name] = (size, harness.id, entry.spelled)
    found = []
    for name, (size, harness_id, event) in sorted(worst.items()):
        message = messages[name]
        found.append(
            Diagnostic(
                message.display,
                1,
                1,
                "D005",
                f"as {harness_id} reads it on {event}, the answer carrying this text is "
                f"{size} characters, {size - cap} over the {cap} cap (JSON escaping included)",
            )
        )
    return found
