"""D005: a context message whose answer cannot fit within the cap as a harness counts it.

The dispatcher keeps the cap on what the harness reads (`hookmsg_dispatch/envelope.py`):
the whole standard output (JSON envelope, ASCII-escaped) or, where the contract says
`cap_counts = "field"`, the text it takes out of the envelope, counted in the contract's
`cap_unit`. A message whose text alone is over that in some harness that is wired to
deliver it would always be left out there; this rule says so at build time, measuring
the dispatcher's own envelopes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hookmsg.catalogue.models import Contract, HarnessCatalogue, HookRegistry
from hookmsg.diagnostics import Diagnostic
from hookmsg.harnesses.registration_plan import entries_for
from hookmsg.messages.message import Message
from hookmsg_dispatch.envelope import budget


def _budget(contract: Contract, event: str) -> tuple[int, Callable[[str], int]]:
    """The dispatcher's own (overhead, size) of this contract's answer on `event`."""
    fields = {
        "envelope": contract.envelope,
        "cap_counts": contract.cap_counts,
        "cap_unit": contract.cap_unit,
    }
    return budget(fields, event)


def answer_size(contract: Contract, event: str, text: str) -> int:
    """What the harness counts of the dispatcher's answer carrying `text` on `event`."""
    overhead, size = _budget(contract, event)
    return overhead + size(text)


def check(
    registry: HookRegistry,
    harnesses: HarnessCatalogue,
    messages: Mapping[str, Message],
    cap: int,
) -> list[Diagnostic]:
    """D005 once per context message, for the harness and event where its answer is largest.

    The answer's size is the dispatcher's budget: an overhead per harness and event, and
    the text's own size, so no envelope is built per message (linear in the messages).
    """
    worst: dict[str, tuple[int, str, str]] = {}
    # A text's own size depends on how the contract counts (not on the event): measured
    # once per message and way of counting, not once per harness.
    measured: dict[tuple[str, str, str, str], int] = {}
    for harness in harnesses.harnesses:
        contract = harness.contract
        if contract is None:
            continue
        for entry in entries_for(harness, registry):
            if entry.event not in contract.context_events:
                continue
            overhead, text_size = _budget(contract, entry.spelled)
            for name in entry.messages:
                message = messages.get(name)
                if message is None or name in registry.guards or not message.delivered:
                    continue
                key = (contract.cap_counts, contract.envelope, contract.cap_unit, name)
                if key not in measured:
                    measured[key] = text_size(message.delivered)
                size = overhead + measured[key]
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
