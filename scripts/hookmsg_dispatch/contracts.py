"""Translate one harness's payload into a `Call`, driven by its contract in the dispatch table.

A contract (generated from the harness facts, `hookmsg/data/harnesses.toml`) names the
payload's key style (`claude`: snake_case as Claude Code sends it; `copilot`: camelCase
with `toolArgs` and `toolResult`), the tool names seen in payloads mapped to registry
tools (anything else becomes `other:<name>`), and the tools whose `tool_input.command`
holds a patch (Codex's `apply_patch`).

It also decides which registry entries apply to one call, where a harness folds several
into one matcher (a contract's fold of its tools). Codex runs one hook for
`Edit|Write|apply_patch`; its registration names the registry entries it stands for
(`--entry Write --entry Edit`): a file the call creates (a Write, a patch's Add File)
belongs to the Write entry, a file it edits (an Edit, a patch's Update File) to the Edit
entry, a notebook cell to the NotebookEdit entry; a patch that does both applies both. A
call that writes no file applies the entries whose matcher names its tool. Each message is
evaluated once, in registry order, on the call narrowed to the files of the entries that
list it, so the Write entry's guards see only created files and the Edit entry's only
edited ones. Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

import sys

from hookmsg_dispatch.call import Call, FileChange

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from hookmsg_dispatch.main import Dispatch

# Alternative spellings of the same tool argument across harnesses, first match wins.
PATH_KEYS = ("file_path", "path", "filePath", "notebook_path")
CONTENT_KEYS = ("content", "file_text", "contents", "new_source")
NEW_KEYS = ("new_string", "new_str", "newString", "new_source")
OLD_KEYS = ("old_string", "old_str", "oldString")
WRITE_TOOLS = ("Write", "Edit", "NotebookEdit")
SHELL_TOOLS = ("Bash", "PowerShell")

PATCH_BEGIN = "*** Begin Patch"
_ADD = "*** Add File: "
_UPDATE = "*** Update File: "
_DELETE = "*** Delete File: "
_MOVE = "*** Move to: "


def _text(data: Mapping[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, str):
            return value
    return None


def parse_patch(patch: str) -> tuple[FileChange, ...]:
    """The files an apply_patch patch writes: Add File is created, Update File an edit.

    An added file's text is its `+` lines; an update's `after` is its `+` lines and its
    `before` its `-` lines. Deleted files write nothing and are left out.
    """
    changes: list[FileChange] = []
    path: str | None = None
    created = False
    added: list[str] = []
    removed: list[str] = []

    def flush() -> None:
        if path is not None:
            before = None if created else "\n".join(removed)
            changes.append(FileChange(path, "\n".join(added), before, created))

    for raw in patch.split("\n"):
        line = raw[:-1] if raw.endswith("\r") else raw
        if line.startswith((_ADD, _UPDATE, _DELETE)) or line.startswith("*** End Patch"):
            flush()
            path, added, removed = None, [], []
            if line.startswith(_ADD):
                path, created = line[len(_ADD) :].strip(), True
            elif line.startswith(_UPDATE):
                path, created = line[len(_UPDATE) :].strip(), False
        elif line.startswith(_MOVE) and path is not None:
            path = line[len(_MOVE) :].strip()
        elif path is not None and line.startswith("+"):
            added.append(line[1:])
        elif path is not None and line.startswith("-") and not created:
            removed.append(line[1:])
    flush()
    return tuple(changes)


def _patch_text(tool_input: Mapping[str, Any]) -> str:
    for key in ("command", "input", "patch"):
        value = tool_input.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list):  # ["apply_patch", "*** Begin Patch ..."]
            for item in value:
                if isinstance(item, str) and item.lstrip().startswith(PATCH_BEGIN):
                    return item
    return ""


def _changes(tool: str, tool_input: Mapping[str, Any]) -> tuple[FileChange, ...]:
    path = _text(tool_input, PATH_KEYS)
    if path is None:
        return ()
    if tool == "Write":
        return (FileChange(path, _text(tool_input, CONTENT_KEYS) or "", None, True),)
    if tool == "Edit":
        edits = tool_input.get("edits")
        if isinstance(edits, list) and _text(tool_input, OLD_KEYS) is None:
            # A MultiEdit: each of its edits is a change of the same file, judged on its own.
            return tuple(
                FileChange(path, _text(edit, NEW_KEYS) or "", _text(edit, OLD_KEYS), False)
                for edit in edits
                if isinstance(edit, dict)
            )
        after = _text(tool_input, NEW_KEYS) or ""
        return (FileChange(path, after, _text(tool_input, OLD_KEYS), False),)
    # NotebookEdit: a cell's new source; whether the notebook is new is not said.
    return (FileChange(path, _text(tool_input, NEW_KEYS) or "", None, None),)


def _object(value: Any) -> dict[str, Any]:
    """A JSON object given as an object or as a JSON string (Copilot's `toolArgs`)."""
    if isinstance(value, str):
        from hookmsg_dispatch.jsonio import loads

        try:
            value = loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}


def _cwd(payload: Mapping[str, Any]) -> str:
    cwd = payload.get("cwd")
    if isinstance(cwd, str):
        return cwd
    roots = payload.get("workspace_roots")  # Cursor
    if isinstance(roots, list) and roots and isinstance(roots[0], str):
        return roots[0]
    return ""


def build_call(
    payload: Mapping[str, Any], contract: Mapping[str, Any], harness: str, event: str
) -> Call:
    """The registry-vocabulary view of one payload. Never raises on odd values.

    A payload style other than `claude` and `copilot` is read by the module of that name
    in this package (`xcsh`: `hookmsg_dispatch/xcsh.py`), through its own `build_call`.
    """
    style = contract.get("payload", "claude")
    if style not in ("claude", "copilot"):
        module = f"hookmsg_dispatch.{style}"
        __import__(module)  # builtin: no importlib on the start-up path
        reader: Any = sys.modules[module].build_call
        call: Call = reader(payload, contract, harness, event)
        return call
    camel = style == "copilot"
    name_key, input_key, response_key = (
        ("toolName", "toolArgs", "toolResult")
        if camel
        else ("tool_name", "tool_input", "tool_response")
    )
    session = _text(payload, ("session_id", "sessionId", "conversation_id")) or ""
    transcript = _text(payload, ("transcript_path", "transcriptPath")) or ""
    source = _text(payload, ("source",))
    tool_input = _object(payload.get(input_key))
    tool, changes, command, questions = _read_tool(payload.get(name_key), tool_input, contract)
    return Call(
        event=event,
        harness=harness,
        cwd=_cwd(payload),
        session_id=session,
        transcript_path=transcript,
        source=source,
        tool=tool,
        changes=changes,
        command=command,
        tool_input=tool_input,
        tool_response=payload.get(response_key),
        questions=questions,
        agent_id=_text(payload, ("agent_id", "agentId")) or "",
    )


def _read_tool(
    tool_name: Any, tool_input: dict[str, Any], contract: Mapping[str, Any]
) -> tuple[str | None, tuple[FileChange, ...], str | None, list[dict[str, Any]]]:
    """The registry tool a call names, with what it writes, runs or asks."""
    if not isinstance(tool_name, str) or not tool_name:
        return None, (), None, []
    if tool_name in (contract.get("patch_tools") or ()):
        changes = parse_patch(_patch_text(tool_input))
        tool = "Write" if any(change.created for change in changes) else "Edit"
        if not changes:  # deletes only, or no patch at all: no file is written
            tool = f"other:{tool_name}"
        return tool, changes, None, []
    tool = (contract.get("tools") or {}).get(tool_name) or f"other:{tool_name}"
    if tool in WRITE_TOOLS:
        return tool, _changes(tool, tool_input), None, []
    if tool in SHELL_TOOLS:
        return tool, (), _text(tool_input, ("command",)), []
    if tool == "AskUserQuestion":
        found = tool_input.get("questions")
        if isinstance(found, list):
            return tool, (), None, [q for q in found if isinstance(q, dict)]
    return tool, (), None, []


# Folded registrations: which registry entries apply to one call.


def change_tool(change: FileChange) -> str:
    """The registry tool that writes a file this way."""
    if change.created:
        return "Write"
    return "Edit" if change.created is False else "NotebookEdit"


def resolve(
    entries: Sequence[Mapping[str, Any]], keys: Sequence[str], call: Call
) -> list[tuple[str, Call]]:
    """Each message of the named entries that applies to `call`, with the call it sees."""
    chosen: dict[str, tuple[str, list[FileChange]]] = {}
    for entry in entries:
        key = entry.get("matcher")
        messages = entry.get("messages")
        if key not in keys or not isinstance(key, str) or not isinstance(messages, list):
            continue
        tools = key.split("|")
        picked = [change for change in call.changes if change_tool(change) in tools]
        if call.changes and not picked:
            continue
        if not call.changes and call.tool not in tools:
            continue
        tool = change_tool(picked[0]) if picked else call.tool or tools[0]
        for name in messages:
            if not isinstance(name, str):
                continue
            if name in chosen:
                known = chosen[name][1]
                known += [change for change in picked if change not in known]
            else:
                chosen[name] = (tool, list(picked))
    return [
        (name, call.replace(tool=tool, changes=tuple(changes)) if changes else call)
        for name, (tool, changes) in chosen.items()
    ]


def names_of_entries(run: Dispatch, entries: list[str], named: list[str]) -> list[str]:
    """The messages of the registry `entries` (`--entry`) that apply to the call, each with
    the call as its entry sees it (`run.scoped`), then the `named` ones."""
    if run.payload is None:
        return []  # which entry applies cannot be told
    table = run.table.get("entries", {}).get(run.event, [])
    try:
        pairs = resolve(table if isinstance(table, list) else [], entries, run.call())
    except Exception as error:
        from hookmsg_dispatch.main import _brief

        run.problems.append(f"the entries {entries} cannot be resolved ({_brief(error)})")
        return []
    run.scoped = dict(pairs)
    return [*run.scoped, *(name for name in named if name not in run.scoped)]
