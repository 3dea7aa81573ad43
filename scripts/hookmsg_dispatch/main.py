"""The dispatcher's command line: one payload in, at most one envelope out, exit 0 always.

    dispatch.py [--contract ID] [--strict] [--payload JSON] [--entry KEY ...]
                <Event> [<message> ...]

`Event` is the registry's event name. Messages are evaluated in order: a context message
delivers its text (a conditioned one only when its condition fires); a guard runs its
detector and, when it finds something, delivers its Advisory and its full procedure's path.
`--entry KEY` names a registry entry of the event (its matcher, e.g. `Edit`) instead of its
messages: where a harness folds several entries into one matcher, the dispatcher decides per
call which of them apply (`contracts.py`). A context message that does not depend on the call is
delivered once per context (`seen.py`); guards speak on every call that triggers them. Every
failure is one line on standard error and never a block: the call goes ahead, with whatever
could still be delivered.
Standard library only, Python 3.9 or newer; imports only what the call needs.
"""

from __future__ import annotations

import sys

from hookmsg_dispatch.jsonio import guard_data, read_bounded, read_payload, read_table
from hookmsg_dispatch.system import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any, BinaryIO, Callable, Optional, TextIO

    from hookmsg_dispatch.call import Call
    from hookmsg_dispatch.seen import Seen

    Evaluate = Callable[[str, Call, Mapping[str, Any], str, str], Optional[dict[str, str]]]

PREFIX = "hookmsg-dispatch: "
DEFAULT_CONTRACT = "claude-code"
TABLE = "data/dispatch-table.json"
MAX_MESSAGE = 1024 * 1024  # bytes read from one message file
PRE_TOOL_USE = "PreToolUse"
STOP = "Stop"
# Events whose context messages are delivered every time they fire: a SessionStart is
# itself the start of a context (startup, resume, clear, compact).
ALWAYS_EVENTS = ("SessionStart",)
WENT_AHEAD = "This call went ahead."
REFUSED = "This call was refused."


class Usage(Exception):
    """The command line is wrong: nothing can be delivered."""


class Arguments:
    """The parsed command line."""

    def __init__(self, argv: Sequence[str], environ: Mapping[str, str]) -> None:
        self.contract = DEFAULT_CONTRACT
        self.strict = environ.get("HOOKMSG_STRICT", "") == "1"
        # The payload as an argument, for a harness that gives its hooks no stdin (xcsh).
        self.payload: str | None = None
        self.entries: list[str] = []  # registry entries named by `--entry`, resolved per call
        rest = list(argv)
        while rest and rest[0].startswith("--"):
            option = rest.pop(0)
            name, equals, value = option.partition("=")
            if option == "--strict":
                self.strict = True
            elif name in ("--contract", "--payload", "--entry") and (equals or rest):
                value = value if equals else rest.pop(0)
                if name == "--contract":
                    self.contract = value
                elif name == "--entry":
                    self.entries.append(value)
                else:
                    self.payload = value
            else:
                raise Usage(f"unknown option '{option}'")
        if not rest:
            raise Usage("no event given")
        self.event = rest[0]
        self.names = rest[1:]


class Dispatch:
    """One hook call: the table, the contract, the payload, and the problems met so far."""

    def __init__(  # noqa: PLR0913 (keyword-only: the call's parts, handed in whole)
        self,
        root: str,
        *,
        table: Mapping[str, Any],
        contract_id: str,
        event: str,
        payload: dict[str, Any] | None,
        evaluate: Evaluate | None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.root = root
        self.environ: Mapping[str, str] = environ or {}
        self.table = table
        self.contract_id = contract_id
        self.contract: Mapping[str, Any] = table["contracts"][contract_id]
        self.event = event
        self.payload = payload
        self.problems: list[str] = []
        self._evaluate = evaluate
        self._call: Call | None = None
        # Per message, the call as its registry entry sees it (a folded registration's
        # resolution); a message not named here sees the whole call.
        self.scoped: dict[str, Call] = {}
        self.seen: Seen | None = None  # None: every context message on every call
        self.once: dict[str, str] = {}  # context message -> digest, to record once delivered
        self.once_per_change: set[str] = set()  # guards whose data says `once-per-change`
        self.said: dict[str, str] = {}  # such a guard -> its advisory's digest, to record
        self.record: Seen | None = None  # their record where no once-per-context one is

    def stem(self, name: str) -> str:
        """The message whose text `name` delivers on this contract: itself, or the one the
        contract's `message_files` names for it (its harness's skill index form; "": none)."""
        files = self.contract.get("message_files")
        return files.get(name, name) if isinstance(files, dict) else name

    def message_file(self, name: str) -> str:
        """The one place a message's name becomes its file (relative to the install root)."""
        stem = self.stem(name)
        return f"messages/{stem}.md" if stem else ""

    def message_text(self, name: str) -> str:
        relative = self.message_file(name)
        if not relative:  # the contract delivers no file for it ("": no skills there)
            return ""
        path = os.path.join(self.root, *relative.split("/"))
        return read_bounded(path, MAX_MESSAGE).decode("utf-8").strip()

    def full_procedure(self, name: str) -> str:
        return "Full procedure: " + os.path.join(self.root, *self.message_file(name).split("/"))

    def digest(self, name: str) -> str | None:
        """The table's digest of the text `name` delivers on this contract, if it has one."""
        entry = self.table["messages"].get(self.stem(name))
        found = entry.get("digest") if isinstance(entry, dict) else None
        return found if isinstance(found, str) and found else None

    def context_text(self, name: str) -> str | None:
        """A context message's text, or None where this context already holds it."""
        if self.seen is None or self.event in ALWAYS_EVENTS:
            return self.message_text(name)
        digest = self.digest(name)
        if digest is not None and self.seen.has(self.event, name, digest):
            return None  # known unchanged: not even read
        text = self.message_text(name)
        if digest is None:
            import zlib

            digest = f"crc-{zlib.crc32(text.encode('utf-8')):08x}-{len(text)}"
            if self.seen.has(self.event, name, digest):
                return None
        self.once[name] = digest
        return text

    def evaluator(self) -> Evaluate | None:
        if self._evaluate is None:
            try:
                from hookmsg_dispatch.guards import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
                    evaluate,
                )
            except Exception as error:
                self.problems.append(f"the guards module cannot be loaded ({_brief(error)})")
                self._evaluate = _missing
            else:
                self._evaluate = evaluate
        return None if self._evaluate is _missing else self._evaluate

    def call(self) -> Call:
        if self._call is None:
            from hookmsg_dispatch.contracts import build_call

            assert self.payload is not None
            self._call = build_call(self.payload, self.contract, self.contract_id, self.event)
        return self._call

    def condition(self, name: str, detector: str, module: str) -> dict[str, str] | None:
        """What the detector (in `module`) found, placeholder values, or None: silent or failed."""
        if self.payload is None:
            return None  # the payload's problem is already reported
        evaluate = self.evaluator()
        if evaluate is None:
            return None
        try:
            data = guard_data(self.table, self.root, name)
        except (OSError, ValueError) as error:
            self.problems.append(f"{name}: its guard data cannot be read ({_brief(error)})")
            return None
        if data.get("once-per-change") is True:
            self.once_per_change.add(name)
        try:
            call = self.scoped.get(name) or self.call()
            found = evaluate(detector, call, data, self.root, module)
        except (Exception, SystemExit) as error:
            self.problems.append(f"{name}: the {detector} detector failed ({_brief(error)})")
            return None
        if found is not None and not isinstance(found, dict):
            self.problems.append(f"{name}: the {detector} detector returned {type(found).__name__}")
            return None
        return found

    def evaluate(
        self, names: Sequence[str], guards_only: bool
    ) -> tuple[list[tuple[str, str]], int]:
        """Each delivered `(name, text)` in order, and how many of them are guards."""
        messages = self.table["messages"]
        parts: list[tuple[str, str]] = []
        fired = 0
        for name in names:
            entry = messages.get(name)
            if not isinstance(entry, dict):
                self.problems.append(f"{name}: no such message in the dispatch table")
                continue
            is_guard = entry.get("kind") == "guard"
            if guards_only and not is_guard:
                continue
            try:
                if is_guard:
                    text = self._guard(name, entry)
                    fired += text is not None
                elif entry.get("condition"):
                    found = self.condition(name, entry["condition"], entry.get("module", ""))
                    text = self.message_text(name) if found is not None else None
                else:
                    text = self.context_text(name)
            except (OSError, ValueError, KeyError, TypeError) as error:
                self.problems.append(f"{name}: cannot be delivered ({_brief(error)})")
                continue
            if text:
                parts.append((name, text))
        return parts, fired

    def _guard(self, name: str, entry: Mapping[str, Any]) -> str | None:
        detector = entry.get("condition")
        advisory = entry.get("advisory")
        if not detector or not advisory:
            self.problems.append(f"{name}: the guard has no detector or Advisory in the table")
            return None
        values = self.condition(name, detector, entry.get("module", ""))
        if values is None:
            return None
        from hookmsg_dispatch.text import fill

        try:
            filled = fill(advisory, values)
        except KeyError as error:
            raise KeyError(f"the detector gave no value for placeholder {error}") from None
        text = f"{filled.strip()}\n\n{self.full_procedure(name)}"
        if name not in self.once_per_change:
            return text
        from hookmsg_dispatch.said import already_said

        return None if already_said(self, name, text) else text


def _missing(*_: Any) -> None:  # pragma: no cover - a marker, never called
    return None


def _brief(error: BaseException) -> str:
    text = str(error).replace("\n", " ").strip()
    return f"{type(error).__name__}: {text}"[:300] if text else type(error).__name__


def _table(root: str, contract: str) -> dict[str, Any]:
    try:
        return read_table(os.path.join(root, TABLE), contract)
    except (OSError, ValueError) as error:
        raise Usage(f"cannot read the dispatch table {TABLE} ({_brief(error)})") from None


def _names(run: Dispatch, arguments: Arguments) -> list[str]:
    """The messages to evaluate: those named, after those of the entries that apply."""
    if not arguments.entries:
        return arguments.names
    from hookmsg_dispatch.contracts import names_of_entries

    return names_of_entries(run, arguments.entries, arguments.names)


def _once(run: Dispatch, environ: Mapping[str, str]) -> None:
    """Give the run its once-per-context record, where the contract and payload allow."""
    if run.payload is not None and run.contract.get("once_per_context") is True:
        from hookmsg_dispatch.seen import attach

        attach(run, environ)


def dispatch(  # noqa: PLR0913 (keyword-only seams: input, environment, test hooks)
    argv: Sequence[str],
    root: str,
    *,
    stdin: BinaryIO,
    environ: Mapping[str, str],
    evaluate: Evaluate | None,
    problems: list[str],
    after: list[Callable[[], list[str]]] | None = None,
) -> bytes:
    """The bytes to write on stdout (empty: nothing). Appends every failure to `problems`.

    `after` receives what to do once those bytes are written (record what was delivered);
    each returns its problems.
    """
    arguments = Arguments(argv, environ)
    contract_id, strict, event = arguments.contract, arguments.strict, arguments.event
    table = _table(root, contract_id)
    contract = table["contracts"].get(contract_id)
    if not isinstance(contract, dict):
        raise Usage(f"unknown contract '{contract_id}'")
    if event not in table.get("events", ()):
        raise Usage(f"unknown event '{event}'")
    try:
        payload: dict[str, Any] | None = read_payload(stdin, arguments.payload)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        problems.append(f"unusable payload ({_brief(error)}); guards stay silent")
        payload = None
    if event == STOP and (payload is None or payload.get("stop_hook_active") is True):
        # This Stop follows a turn a Stop hook already continued. Claude Code hands Stop context
        # to the model by prompting it again, so answering every Stop would keep it going (it
        # gives up after eight rounds): say it once; an unreadable payload may be one: say none.
        return b""
    delivered = event in contract.get("context_events", ())
    can_deny = strict and event == PRE_TOOL_USE and bool(contract.get("deny"))
    if not delivered and not can_deny:
        return b""  # this harness shows the model nothing from this event
    run = Dispatch(
        root,
        table=table,
        contract_id=contract_id,
        event=event,
        payload=payload,
        evaluate=evaluate,
        environ=environ,
    )
    try:
        names = _names(run, arguments)
        if delivered:
            _once(run, environ)
        parts, fired = run.evaluate(names, guards_only=not delivered)
    finally:
        problems += run.problems
    return _answer(run, parts, fired, delivered, can_deny, problems, after)


def _answer(  # noqa: PLR0913, PLR0917 (one call's findings, handed on whole)
    run: Dispatch,
    parts: list[tuple[str, str]],
    fired: int,
    delivered: bool,
    can_deny: bool,
    problems: list[str],
    after: list[Callable[[], list[str]]] | None,
) -> bytes:
    table, event = run.table, run.event
    style = run.contract.get("envelope", "")
    spelled = run.contract.get("event_names", {}).get(event, event)
    where = os.path.join(run.root, "messages")
    if parts:  # only then (a guard that fired is a part): nothing to say loads neither
        from hookmsg_dispatch import envelope
        from hookmsg_dispatch.text import cap_of, within_cap

        cap = cap_of(table, run.environ, problems)
    if fired and can_deny:
        guards = [part for part in parts if table["messages"][part[0]].get("kind") == "guard"]
        overhead, size = envelope.budget(run.contract, spelled, refusal=True)
        reason, _ = within_cap(guards, cap, REFUSED, where, size=size, overhead=overhead)
        denied = envelope.deny(style, spelled, reason)
        if denied is not None:
            if run.said:
                from hookmsg_dispatch.said import record_said

                record_said(run, [name for name, _ in guards], after, queued=False)
            return denied
    if not delivered:
        return b""
    head = WENT_AHEAD if fired and event == PRE_TOOL_USE else ""
    seen = run.seen
    if seen is not None and after is not None:
        after.append(seen.commit)  # a compaction's reset is recorded even when nothing is said
    if not parts:
        return b""
    overhead, size = envelope.budget(run.contract, spelled)  # the cap counts the whole answer
    text, left_out = within_cap(parts, cap, head, where, size=size, overhead=overhead)
    if seen is not None:
        for name, _ in parts:
            if name in run.once and name not in left_out:
                seen.mark(event, name, run.once[name])
    if run.said:
        from hookmsg_dispatch.said import record_said

        said = [name for name, _ in parts if name not in left_out]
        record_said(run, said, after, queued=run.seen is not None)
    return envelope.context(style, spelled, text) if text else b""


def install_root() -> str:
    """The install root this package sits in: `<root>/hooks/hookmsg_dispatch/`."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(  # noqa: PLR0913 (keyword-only seams: the process's streams and environment)
    argv: Sequence[str],
    *,
    root: str | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    stderr: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
    evaluate: Evaluate | None = None,
) -> int:
    """Answer one hook call. Always returns 0; failures are one line on `stderr`.

    `evaluate` replaces `hookmsg_dispatch.guards.evaluate` (a seam for tests).
    """
    problems: list[str] = []
    after: list[Callable[[], list[str]]] = []
    out = b""
    try:
        out = dispatch(
            argv,
            os.path.abspath(root or install_root()),
            stdin=stdin if stdin is not None else sys.stdin.buffer,
            environ=os.environ if environ is None else environ,
            evaluate=evaluate,
            problems=problems,
            after=after,
        )
    except Usage as error:
        problems.append(str(error))
    except BaseException as error:  # fail open, whatever happened
        problems.append(f"internal error ({_brief(error)})")
    try:
        if out:
            target = stdout if stdout is not None else sys.stdout.buffer
            target.write(out)
            target.flush()
        for step in after:  # only once the envelope is out: never recorded, never lost
            problems += step()
    except BaseException as error:
        problems.append(f"cannot write the envelope ({_brief(error)})")
    if problems:
        try:  # noqa: SIM105 (contextlib costs start-up time)
            (stderr or sys.stderr).write(PREFIX + "; ".join(problems).replace("\n", " ") + "\n")
        except BaseException:
            pass
    return 0
