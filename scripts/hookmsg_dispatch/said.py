"""Guards that speak once per change (`once-per-change` in their data): the same advisory
again in the same context lets the call go ahead.

For a guard whose remedy leaves nothing its detector could see (the dependency guard's
"tell the user why"): without it, a strict install, where a firing guard refuses the call,
would refuse that change for good. The record is the context's once-per-context record
(`seen.py`), or one of its own where the harness keeps no context messages; a call that
names no context is answered every time. Loaded only when such a guard fires.
Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

    from hookmsg_dispatch.main import Dispatch
    from hookmsg_dispatch.seen import Seen


def already_said(run: Dispatch, name: str, text: str) -> bool:
    """True when this context was already given this very advisory (the same change);
    else the advisory is remembered in `run.said`, to be recorded once it is out."""
    record = _record(run)
    if record is None:
        return False  # no context to tell calls apart by: it speaks every time
    import zlib

    digest = f"change-{zlib.crc32(text.encode('utf-8')):08x}-{len(text)}"
    if record.has(run.event, name, digest):
        return True
    run.said[name] = digest
    return False


def _record(run: Dispatch) -> Seen | None:
    if run.seen is None and run.record is None and run.payload is not None:
        from hookmsg_dispatch.seen import Seen, context_key

        key = context_key(run.call())
        if key is not None:
            run.record = Seen(key, run.environ)
    return run.seen or run.record


def record_said(
    run: Dispatch,
    names: list[str],
    after: list[Callable[[], list[str]]] | None,
    queued: bool,
) -> None:
    """Record the advisories among `names` as given, once the answer is out: `after`
    commits the record, unless its commit is `queued` already (the once-per-context
    record's, on an answer that is not a refusal)."""
    record = _record(run)
    if record is None:
        return
    for name in names:
        if name in run.said:
            record.mark(run.event, name, run.said[name])
    if after is not None and not queued:
        after.append(record.commit)
