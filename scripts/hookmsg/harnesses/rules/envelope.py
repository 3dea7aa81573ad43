"""D005: a context message whose answer cannot fit within the cap as a harness counts it.

The dispatcher keeps the cap on what the harness reads (`hookmsg_dispatch/envelope.py`):
the whole standard output (JSON envelope, ASCII-escaped) or, where the contract says
`cap_counts = "field"`, the text it takes out of the envelope, counted in the contract's
`cap_unit`. A message whose text alone is over that in some harness that is wired to
deliver it would always be left out there; this rule says so at build time, measuring
the dispatcher's own envelopes.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookmsg.catalogue.models import Contract, HarnessCatalogue, HookRegistry
from hookmsg.diagnostics import Diagnostic
from hookmsg.harnesses.registration_plan import entries_for
from hookmsg.messages.message import Message
from hookmsg_dispatch.envelope import context, length


def answer_size(contract: Contract, event: str, text: str) -> int:
    """What the harness counts of the dispatcher's answer carrying `text` on `event`."""
    if contract.cap_counts == "field":
        return length(text, contract.cap_unit)
    if contract.envelope == "text":  # the text itself on standard output
        return length(text + "\n", contract.cap_unit)
    return len(context(contract.envelope, event, text))  # ASCII: every unit counts it alike


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
