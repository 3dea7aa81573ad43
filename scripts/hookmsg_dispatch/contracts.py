"""Translate one harness's payload into a `Call`, driven by its contract in the dispatch table.

A contract (generated from the harness facts, `hookmsg/data/harnesses.toml`) names the
payload's key style (`claude`: snake_case as Claude Code sends it; `copilot`: camelCase
with `toolArgs` and `toolResult`), the tool names seen in payloads mapped to registry
tools (anything else becomes `other:<name>`), and the tools whose `tool_input.command`
holds a patch (Codex's `apply_patch`). Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

import sys

from hookmsg_dispatch.call import Call, FileChange

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

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
