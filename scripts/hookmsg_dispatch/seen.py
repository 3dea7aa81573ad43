"""Once per context: which context messages this context already holds.

A context message whose text does not depend on the call stays in the conversation once
delivered, so it is delivered the first time its event fires in a context and not again,
until a compaction (or a cleared conversation) starts a new context, or its text changes.
A context is a session (`session_id`, else the transcript path) and, where the payload
names one, the subagent inside it (`agent_id`): a subagent's calls get the message in its
own context. A call that names no session cannot be told apart: it is answered as before,
every time.

The record is one small file per context in the state folder (`state.state_dir`), one line
per delivered message (`event name digest`), appended with O_APPEND after the envelope was
written; a compaction removes it. Nothing here ever withholds a message because of a
failure: an unreadable, damaged, oversized or linked record counts as empty (the message
is delivered again: better twice than never), and a record that cannot be written is one
line on standard error. Two hook processes of one context racing may both deliver.
Standard library only, Python 3.9 or newer; no `json` (one line per record).
"""

from __future__ import annotations

from hookmsg_dispatch.system import os, stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from hookmsg_dispatch.call import Call
    from hookmsg_dispatch.main import Dispatch

MAX_RECORD_BYTES = 1 << 16  # a larger record is not ours (or is damaged): started afresh
SUFFIX = ".seen"
# The SessionStart sources that begin a new context in the same session.
NEW_CONTEXT_SOURCES = ("compact", "clear")
# Events that mean the context is being (or was) compacted.
COMPACTION_EVENTS = ("PreCompact", "PostCompact")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def context_key(call: Call) -> str | None:
    """The context this call belongs to, or None when the payload does not tell."""
    session = call.session_id or (
        ("transcript:" + call.transcript_path) if call.transcript_path else ""
    )
    if not session:
        return None
    return f"{session}#agent:{call.agent_id}" if call.agent_id else session


def starts_a_context(call: Call) -> bool:
    """True for the calls after which earlier deliveries are no longer in the context."""
    if call.event in COMPACTION_EVENTS:
        return True
    return call.event == "SessionStart" and call.source in NEW_CONTEXT_SOURCES


def attach(run: Dispatch, environ: Mapping[str, str]) -> None:
    """Give the run its context's record; none where contexts cannot be told apart (then
    every message is delivered on every call)."""
    call = run.call()
    key = context_key(call)
    if key is not None:
        run.seen = Seen(key, environ)
        if starts_a_context(call):
            run.seen.forget()


class Seen:
    """One context's record: what it holds, and what this call adds once delivered."""

    def __init__(self, key: str, environ: Mapping[str, str]) -> None:
        self.key = key
        self.environ = environ
        self._lines: frozenset[str] | None = None
        self._pending: list[str] = []
        self._reset = False
        self._path: str | None = None

    def path(self) -> str:
        if self._path is None:
            from hookmsg_dispatch.statedir import session_file_name, state_dir

            folder = state_dir(dict(self.environ))
            self._path = os.path.join(folder, session_file_name(self.key) + SUFFIX)
        return self._path

    def _read(self) -> frozenset[str]:
        try:
            descriptor = os.open(self.path(), os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
        except OSError:
            return frozenset()  # none yet, a link, or no state folder: nothing is seen
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                return frozenset()
            data = os.read(descriptor, MAX_RECORD_BYTES + 1)
        except OSError:
            return frozenset()
        finally:
            os.close(descriptor)
        if len(data) > MAX_RECORD_BYTES:
            self._reset = True  # rewrite it from this call's deliveries
            return frozenset()
        return frozenset(data.decode("utf-8", "replace").split("\n"))

    def has(self, event: str, name: str, digest: str) -> bool:
        if self._reset:
            return False
        if self._lines is None:
            self._lines = self._read()
        return _line(event, name, digest) in self._lines

    def forget(self) -> None:
        """A new context begins: nothing delivered before is in it."""
        self._reset = True
        self._lines = frozenset()

    def mark(self, event: str, name: str, digest: str) -> None:
        """Record `name` as delivered, once `commit` is called (after the envelope is out)."""
        self._pending.append(_line(event, name, digest))

    def commit(self) -> list[str]:
        """Write what this call delivered (and a reset); the problems met, as lines."""
        if not self._pending and not self._reset:
            return []
        try:
            self._commit()
        except (OSError, ValueError) as error:
            return [f"the once-per-context record cannot be written ({error})"]
        return []

    def _commit(self) -> None:
        from hookmsg_dispatch.statedir import ensure_dir

        path = self.path()
        ensure_dir(os.path.dirname(path))
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | _NOFOLLOW | _NONBLOCK
        if self._reset:
            try:  # noqa: SIM105 (contextlib costs start-up time)
                os.unlink(path)
            except FileNotFoundError:
                pass
        if not self._pending:
            return
        descriptor = os.open(path, flags, 0o600)
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise ValueError(f"{path} is not a regular file")
            # One write of whole lines: appends of other hook processes do not interleave.
            os.write(descriptor, "".join(line + "\n" for line in self._pending).encode())
        finally:
            os.close(descriptor)


def _line(event: str, name: str, digest: str) -> str:
    return f"{event} {name} {digest}"
