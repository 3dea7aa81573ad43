"""Which harness hands which registration's output to the model, and why not."""

from __future__ import annotations

from hookmsg.catalogue import Harness
from hookmsg.vocabulary import EVERY, SESSION_START, TOOL_EVENTS, matcher_key


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
        if event in harness.deny_events:
            if not strict:
                return (
                    f"hands {event} output to the model only as a refusal, so it is "
                    "registered only by `hookmsg install --strict`"
                )
        else:
            return f"does not hand {event} output to the model"
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
