"""`hookmsg replay TRANSCRIPT [--harness ID] [--project DIR] [--format text|json]`: a recorded
session run through the dispatcher, call by call, with what each message costs.

Each hook event of the transcript (`transcript.py`) is matched against the harness's
registration (the entries `install` writes, in the registry's order), and every entry
that matches runs through the real dispatcher (`local_dispatch`) with the payload that
harness would send: the messages that fire, the characters each costs, and the total the
harness reads. State (once-per-context delivery, the compaction reminder) carries across
the session as it would in the installed hooks. The guards read the project at
`--project` (default: the session's recorded working directory).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookmsg.catalogue.models import Harness
from hookmsg.cli.transcript import Event, Session, read_session
from hookmsg.errors import EXIT_OK, UsageError
from hookmsg.harnesses.registration_plan import Entry, entries_for
from hookmsg.install.local_dispatch import LocalRoot
from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.settings import Project
from hookmsg.report import note

DEFAULT_HARNESS = {"claude-code": "claude-code-engine", "codex": "codex"}
FRAMING = "(framing)"  # the went-ahead line, separators and any omission line
# The payload keys: session, transcript, event, tool, its input, its output.
SNAKE_KEYS: tuple[str, ...] = (
    "session_id",
    "transcript_path",
    "hook_event_name",
    "tool_name",
    "tool_input",
    "tool_response",
)
CAMEL_KEYS: tuple[str, ...] = (
    "sessionId",
    "transcriptPath",
    "hookEventName",
    "toolName",
    "toolArgs",
    "toolResult",
)


@dataclass
class Row:
    """One hook call: which event, which tool, what fired and what it cost."""

    index: int
    line: int
    event: str
    tool: str | None
    costs: list[tuple[str, int]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(cost for _, cost in self.costs)


def _matches(matcher: str | None, value: str | None) -> bool:
    if matcher in (None, "", "*", ".*"):
        return True
    if value is None:
        return False
    try:
        return re.fullmatch(matcher, value) is not None
    except re.error:
        return matcher == value


def payload(harness: Harness, session: Session, event: Event, spelled: str) -> dict[str, Any]:
    """What `harness` sends its hook for `event` (its key style), from the recording."""
    camel = harness.contract is not None and harness.contract.payload == "copilot"
    keys = CAMEL_KEYS if camel else SNAKE_KEYS
    data: dict[str, Any] = {keys[0]: session.session_id or "replay", keys[2]: spelled}
    data["cwd"] = session.cwd
    if event.tool is not None:
        data[keys[3]] = event.tool
        data[keys[4]] = event.tool_input if event.tool_input is not None else {}
    if event.tool_output is not None:
        data[keys[5]] = event.tool_output
    if event.source is not None:
        data["source"] = event.source
    if event.prompt is not None:
        data["prompt"] = event.prompt
    return data


def attribute(
    text: str, names: Sequence[str], local: LocalRoot, contract: str
) -> list[tuple[str, int]]:
    """Each message's share of `text` (the parts the dispatcher joined), and the framing."""
    costs: list[tuple[str, int]] = []
    position = 0
    for name in names:
        procedure = f"Full procedure: {local.shown}/messages/{name}.md"
        start = text.find(procedure, position)
        if start >= 0:  # a guard: its advisory ends with this line
            part_start = text.rfind("\n\n", position, start - 2)
            begin = position if part_start < 0 else part_start + 2
            end = start + len(procedure)
        else:
            body = local.text_of(name, contract)
            begin = text.find(body, position) if body else -1
            if begin < 0:
                continue
            end = begin + len(body)
        costs.append((name, end - begin))
        position = end
    framing = len(text) - sum(cost for _, cost in costs)
    if framing:
        costs.append((FRAMING, framing))
    return costs


def _replay_event(
    local: LocalRoot, harness: Harness, session: Session, event: Event, entries: Sequence[Entry]
) -> list[tuple[str, int]]:
    costs: list[tuple[str, int]] = []
    value = event.source if event.event == "SessionStart" else event.tool
    for entry in entries:
        if entry.event != event.event or not _matches(entry.matcher, value):
            continue
        argv = ["--contract", harness.contract_id, entry.event, *entry.messages]
        answer = local.call(argv, payload(harness, session, event, entry.spelled))
        if answer.text:
            costs += attribute(answer.text, entry.messages, local, harness.contract_id)
    return costs


def replay(
    project: Project,
    transcript: str,
    *,
    harness_id: str | None = None,
    target: str | None = None,
    fmt: str = "text",
) -> int:
    from hookmsg.install.identity import content_root
    from hookmsg.install.local_dispatch import local_root

    path = Path(transcript)
    try:
        session = read_session(path)
    except (OSError, ValueError) as error:
        raise UsageError(f"{transcript}: cannot be replayed: {error}") from None
    if target is not None:
        _move(session, target)
    workspace = load_workspace(project)
    catalogue, registry = workspace.catalogue.harnesses, workspace.catalogue.registry
    if catalogue is None or registry is None:
        raise UsageError("the catalogue does not load; run `hookmsg validate`")
    wanted = harness_id or DEFAULT_HARNESS[session.kind]
    harness = next((h for h in catalogue.harnesses if h.id == wanted), None)
    if harness is None or harness.contract is None:
        raise UsageError(f"unknown harness '{wanted}'")
    entries = entries_for(harness, registry)
    rows: list[Row] = []
    with local_root(workspace, content_root(project, workspace)) as local:
        for index, event in enumerate(session.events, start=1):
            row = Row(index, event.line, event.event, event.tool)
            row.costs = _replay_event(local, harness, session, event, entries)
            rows.append(row)
    _report(rows, session, harness, fmt)
    return EXIT_OK


def _move(session: Session, target: str) -> None:
    """Every recorded path under the session's working directory, moved to `target`."""
    recorded, session.cwd = session.cwd, target
    if not recorded or recorded == target:
        return
    old, new = json.dumps(recorded)[1:-1], json.dumps(target)[1:-1]
    for event in session.events:
        for key in ("tool_input", "tool_output"):
            value = getattr(event, key)
            if value is not None:
                moved = json.dumps(value).replace(old, new)
                setattr(event, key, json.loads(moved))


def totals(rows: Sequence[Row]) -> dict[str, tuple[int, int]]:
    """{message: (calls it fired on, characters)}, sorted by characters, largest first."""
    found: dict[str, list[int]] = {}
    for row in rows:
        for name, cost in row.costs:
            entry = found.setdefault(name, [0, 0])
            entry[0] += 1
            entry[1] += cost
    ordered = sorted(found.items(), key=lambda item: (-item[1][1], item[0]))
    return {name: (count, chars) for name, (count, chars) in ordered}


def _report(rows: Sequence[Row], session: Session, harness: Harness, fmt: str) -> None:
    summed = totals(rows)
    grand = sum(row.total for row in rows)
    if fmt == "json":
        data = {
            "calls": [
                {"index": r.index, "line": r.line, "event": r.event, "tool": r.tool}
                | {"messages": dict(r.costs), "total": r.total}
                for r in rows
            ],
            "harness": harness.id,
            "skipped_lines": session.skipped,
            "total": grand,
            "totals": {name: {"calls": n, "characters": c} for name, (n, c) in summed.items()},
        }
        sys.stdout.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
        return
    out = [f"replay of a {session.kind} session for {harness.id}: {len(rows)} hook calls"]
    for row in rows:
        what = f"{row.event} {row.tool}" if row.tool else row.event
        fired = ", ".join(f"{name} {cost:,}" for name, cost in row.costs) or "nothing"
        out.append(f"{row.index:>4}  line {row.line:<5} {what}: {fired} = {row.total:,}")
    out.append("")
    out.append("per message (calls, characters):")
    out += [f"  {name}: {n:,} calls, {chars:,}" for name, (n, chars) in summed.items()]
    out.append(f"total: {grand:,} characters over {len(rows)} hook calls")
    sys.stdout.write("\n".join(out) + "\n")
    if session.skipped:
        note(f"{session.skipped} line(s) skipped: not JSON objects, or over the line cap")
