"""The dispatcher's command line: one payload in, at most one envelope out, exit 0 always.

    dispatch.py [--contract ID] [--strict] [--payload JSON] <Event> [<message> ...]

`Event` is the registry's event name. Messages are evaluated in the order given: a
context message delivers its text (a conditioned one only when its condition fires); a
guard runs its detector and, when it finds something, delivers its Advisory filled in
and the path of its full procedure. Every failure is one line on standard error and
never a block: the call goes ahead, with whatever could still be delivered.
Standard library only, Python 3.9 or newer; imports only what the call needs.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any, BinaryIO, Callable, Optional, TextIO

    from hookmsg_dispatch.call import Call

    Evaluate = Callable[[str, Call, Mapping[str, Any], str], Optional[dict[str, str]]]

PREFIX = "hookmsg-dispatch: "
DEFAULT_CONTRACT = "claude-code"
TABLE = "data/dispatch-table.json"
MAX_PAYLOAD = 4 * 1024 * 1024  # bytes read from stdin; a larger payload is refused
MAX_MESSAGE = 1024 * 1024  # bytes read from one message file
PRE_TOOL_USE = "PreToolUse"
STOP = "Stop"
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
        rest = list(argv)
        while rest and rest[0].startswith("--"):
            option = rest.pop(0)
            name, equals, value = option.partition("=")
            if option == "--strict":
                self.strict = True
            elif name in ("--contract", "--payload") and (equals or rest):
                value = value if equals else rest.pop(0)
                if name == "--contract":
                    self.contract = value
                else:
                    self.payload = value
            else:
                raise Usage(f"unknown option '{option}'")
        if not rest:
            raise Usage("no event given")
        self.event = rest[0]
        self.names = rest[1:]


def _read(path: str, limit: int) -> bytes:
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit} bytes")
    return data


def _payload(stdin: BinaryIO, given: str | None) -> dict[str, Any]:
    from hookmsg_dispatch.jsonio import loads

    raw = stdin.read(MAX_PAYLOAD + 1) if given is None else given.encode("utf-8", "replace")
    if len(raw) > MAX_PAYLOAD:
        raise ValueError(f"the payload is larger than {MAX_PAYLOAD} bytes")
    if not raw.strip():
        raise ValueError("the payload is empty")
    payload = loads(raw.decode("utf-8-sig"))
    if not isinstance(payload, dict):
        raise ValueError("the payload is not a JSON object")
    return payload


class Dispatch:
    """One hook call: the table, the contract, the payload, and the problems met so far."""

    def __init__(
        self,
        root: str,
        *,
        table: Mapping[str, Any],
        contract_id: str,
        event: str,
        payload: dict[str, Any] | None,
        evaluate: Evaluate | None,
    ) -> None:
        self.root = root
        self.table = table
        self.contract_id = contract_id
        self.contract: Mapping[str, Any] = table["contracts"][contract_id]
        self.event = event
        self.payload = payload
        self.problems: list[str] = []
        self._evaluate = evaluate
        self._call: Call | None = None

    def message_text(self, name: str) -> str:
        # A contract may deliver another file for a message (its harness's skill index
        # form), or none at all ("": that harness loads no skills).
        name = self.contract.get("message_files", {}).get(name, name)
        if not name:
            return ""
        path = os.path.join(self.root, "messages", f"{name}.md")
        return _read(path, MAX_MESSAGE).decode("utf-8").strip()

    def full_procedure(self, name: str) -> str:
        return "Full procedure: " + os.path.join(self.root, "messages", f"{name}.md")

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

    def condition(self, name: str, detector: str) -> dict[str, str] | None:
        """What the detector found (placeholder values), or None: silent or failed."""
        if self.payload is None:
            return None  # the payload's problem is already reported
        evaluate = self.evaluator()
        if evaluate is None:
            return None
        data = self.table.get("conditions", {}).get(name, {})
        try:
            found = evaluate(detector, self.call(), data, self.root)
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
                    found = self.condition(name, entry["condition"])
                    text = self.message_text(name) if found is not None else None
                else:
                    text = self.message_text(name)
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
        values = self.condition(name, detector)
        if values is None:
            return None
        from hookmsg_dispatch.text import fill

        try:
            filled = fill(advisory, values)
        except KeyError as error:
            raise KeyError(f"the detector gave no value for placeholder {error}") from None
        return f"{filled.strip()}\n\n{self.full_procedure(name)}"


def _missing(*_: Any) -> None:  # pragma: no cover - a marker, never called
    return None


def _brief(error: BaseException) -> str:
    text = str(error).replace("\n", " ").strip()
    return f"{type(error).__name__}: {text}"[:300] if text else type(error).__name__


def _cap(table: Mapping[str, Any], environ: Mapping[str, str], problems: list[str]) -> int:
    value = environ.get("HOOKMSG_CAP", "")
    if value:
        if value.isdigit() and int(value) > 0:
            return int(value)
        problems.append(f"HOOKMSG_CAP='{value[:40]}' is not a positive whole number; ignored")
    cap = table.get("cap")
    return cap if isinstance(cap, int) and cap > 0 else 10_000


def dispatch(
    argv: Sequence[str],
    root: str,
    *,
    stdin: BinaryIO,
    environ: Mapping[str, str],
    evaluate: Evaluate | None,
    problems: list[str],
) -> bytes:
    """The bytes to write on stdout (empty: nothing). Appends every failure to `problems`."""
    from hookmsg_dispatch.jsonio import loads

    arguments = Arguments(argv, environ)
    contract_id, strict, event = arguments.contract, arguments.strict, arguments.event
    try:
        table = loads(_read(os.path.join(root, TABLE), 64 * 1024 * 1024).decode("utf-8"))
        if not isinstance(table.get("contracts"), dict) or not isinstance(
            table.get("messages"), dict
        ):
            raise ValueError("it lacks contracts or messages")
    except (OSError, ValueError, AttributeError) as error:
        raise Usage(f"cannot read the dispatch table {TABLE} ({_brief(error)})") from None
    contract = table["contracts"].get(contract_id)
    if not isinstance(contract, dict):
        raise Usage(f"unknown contract '{contract_id}'")
    if event not in table.get("events", ()):
        raise Usage(f"unknown event '{event}'")
    try:
        payload: dict[str, Any] | None = _payload(stdin, arguments.payload)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        problems.append(f"unusable payload ({_brief(error)}); guards stay silent")
        payload = None
    if event == STOP and payload is not None and payload.get("stop_hook_active") is True:
        # This Stop follows a turn a Stop hook already continued. Claude Code hands Stop
        # context to the model by prompting it again, so answering every Stop would keep
        # it going (the real client gives up only after eight rounds): say it once.
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
    )
    try:
        parts, fired = run.evaluate(arguments.names, guards_only=not delivered)
    finally:
        problems += run.problems
    from hookmsg_dispatch import envelope
    from hookmsg_dispatch.text import within_cap

    cap = _cap(table, environ, problems)
    style = contract.get("envelope", "")
    spelled = contract.get("event_names", {}).get(event, event)
    where = os.path.join(root, "messages")
    if fired and can_deny:
        guards = [part for part in parts if table["messages"][part[0]].get("kind") == "guard"]
        reason, _ = within_cap(guards, cap, REFUSED, where)
        denied = envelope.deny(style, spelled, reason)
        if denied is not None:
            return denied
    if not delivered:
        return b""
    head = WENT_AHEAD if fired and event == PRE_TOOL_USE else ""
    if not parts:
        return b""
    text, _ = within_cap(parts, cap, head, where)
    return envelope.context(style, spelled, text)


def install_root() -> str:
    """The install root this package sits in: `<root>/hooks/hookmsg_dispatch/`."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(
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
    out = b""
    try:
        out = dispatch(
            argv,
            os.path.abspath(root or install_root()),
            stdin=stdin if stdin is not None else sys.stdin.buffer,
            environ=os.environ if environ is None else environ,
            evaluate=evaluate,
            problems=problems,
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
    except BaseException as error:
        problems.append(f"cannot write the envelope ({_brief(error)})")
    if problems:
        try:  # noqa: SIM105 (contextlib costs start-up time)
            (stderr or sys.stderr).write(PREFIX + "; ".join(problems).replace("\n", " ") + "\n")
        except BaseException:
            pass
    return 0
