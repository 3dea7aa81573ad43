"""Which harness hands which registration's output to the model, and why not."""

from __future__ import annotations

from hookmsg.catalogue.models import Harness
from hookmsg.vocabulary import EVERY, SESSION_START, TOOL_EVENTS, matcher_key


def _not_handed(harness: Harness, event: str, *, strict: bool) -> str | None:
    """Why an event outside `harness.events` is not delivered (None: strict takes a refusal)."""
    if event not in harness.deny_events:
        return f"does not hand {event} output to the model"
    if strict:
        return None
    return (
        f"hands {event} output to the model only as a refusal, so it is "
        "registered only by `hookmsg install --strict`"
    )


def why_not_delivered(
    harness: Harness, event: str, matcher: str | None, *, strict: bool = False
) -> str | None:
    """None when `harness` delivers a hook on `event` with `matcher`; else the reason.

    A SessionStart matcher names a start source (e.g. `compact`): only a harness that
    reports the source can register it. A tool matcher needs one of its alternatives
    among the harness's tools, and a harness without matchers takes only `*`. An event
    whose output reaches the model only as a refusal counts in strict mode alone.
    """
    if event not in harness.events:
        refused = _not_handed(harness, event, strict=strict)
        if refused is not None:
            return refused
    key = matcher_key(matcher)
    if key == EVERY:
        return None
    if event == SESSION_START:
        return None if harness.session_start_sources else "does not report why a session started"
    if not harness.matchers:
        return "has no matchers"
    if event in TOOL_EVENTS and not any(tool in harness.tools for tool in key.split("|")):
        return f"has no tool matching {key}"
    return None


COMPACTION_EVENTS = ("PreCompact", "PostCompact")


def compaction_signals(harness: Harness) -> list[str]:
    """How the dispatcher learns that this harness compacted the context (none: [])."""
    signals = []
    if harness.session_start_sources and SESSION_START in harness.events:
        signals.append(f"{harness.events[SESSION_START]} with source compact")
    signals += [harness.events[event] for event in COMPACTION_EVENTS if event in harness.events]
    return signals


def once_per_context(harness: Harness) -> bool:
    """Does the dispatcher deliver this harness's context messages once per context?

    Where a hook's context reaches the model and the harness tells hooks when it compacts:
    what a hook handed the model stays in the conversation until then. A harness that does
    not report compaction gets every message on every call, since a message delivered once
    could be summarised away unseen (better twice than never).
    """
    contract = harness.contract
    return (
        contract is not None and bool(contract.context_events) and bool(compaction_signals(harness))
    )


def delivery_policy(harness: Harness) -> str:
    """One sentence: how often this harness's model receives each kind of message."""
    contract = harness.contract
    if contract is None or not contract.context_events:
        return "No hook context reaches the model, so nothing is delivered or repeated."
    if not once_per_context(harness):
        return (
            "Every context message on every call that fires its event: this harness does not "
            "tell hooks when it compacts, so a message delivered once could be lost unseen. "
            "Guards speak on every call that triggers them."
        )
    return (
        "Context messages once per context: the first time their event fires in a session "
        "(a subagent's calls, where the payload names the subagent, in a context of their "
        f"own), again after a compaction ({' or '.join(compaction_signals(harness))}) and "
        "when their text changed; SessionStart messages at every start; a payload that "
        "names no session gets them on every call. Guards speak on every call that "
        "triggers them."
    )
