"""The xcsh contract: the generated extension module's payload, read into a `Call`.

xcsh has no hook commands. The generated module (`generated/xcsh/hookmsg.js`) runs the
dispatcher through `pi.exec`, which gives it no stdin, so the event arrives as the
`--payload` argument: a JSON object in xcsh's own names,

    {"type": <xcsh event>, "cwd", "sessionId", "contextUsage": {"tokens", ...} | null,
     "toolName", "toolCallId", "isError", "input": {...}, "prompt", "truncated"}

(tool fields on `tool_result` only; `input` and `prompt` are left out above 64 KiB and
`truncated` is then true). xcsh's tools are `write` ({path, content}), `edit` (one of
{path, edits: [{oldText, newText}]}, {path, old_text, new_text} or {path, op, diff}) and
`bash` ({command}); oh-my-pi's `edit` is `{i, input}`, one patch string. The contract's
tool map turns their names into the registry's.
The answer is `{"text": T}` (envelope style `xcsh`). Standard library only, Python 3.9+.
"""

from __future__ import annotations

from hookmsg_dispatch.call import Call, FileChange

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def _string(data: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, str):
            return value
    return None


def _diff_lines(diff: str, mark: str) -> str:
    return "\n".join(
        line[1:]
        for line in diff.split("\n")
        if line.startswith(mark) and not line.startswith(mark * 3)
    )


def _edit_change(path: str, tool_input: Mapping[str, Any]) -> FileChange:
    edits = tool_input.get("edits")
    if isinstance(edits, list):
        pairs = [edit for edit in edits if isinstance(edit, dict)]
        after = "\n".join(_string(edit, "newText", "new_text") or "" for edit in pairs)
        before = "\n".join(_string(edit, "oldText", "old_text") or "" for edit in pairs)
        return FileChange(path, after, before, False)
    diff = _string(tool_input, "diff")
    if diff is not None:
        if tool_input.get("op") == "create":  # the diff is the new file's whole content
            return FileChange(path, diff, None, True)
        return FileChange(path, _diff_lines(diff, "+"), _diff_lines(diff, "-"), False)
    after = _string(tool_input, "new_text", "newText") or ""
    return FileChange(path, after, _string(tool_input, "old_text", "oldText"), False)


def _patch_changes(patch: str) -> tuple[FileChange, ...]:
    """oh-my-pi's edit input `{i, input}`: one patch string, an apply_patch patch or a
    hashline patch (`[PATH#TAG]` heads each file's section, `+` lines are its new text)."""
    if "*** Add File: " in patch or "*** Update File: " in patch:
        from hookmsg_dispatch.contracts import parse_patch

        return parse_patch(patch)
    changes: list[FileChange] = []
    path: str | None = None
    added: list[str] = []
    for raw in [*patch.split("\n"), "[]"]:
        line = raw.rstrip("\r")
        if line.startswith("[") and line.endswith("]"):
            if path:
                changes.append(FileChange(path, "\n".join(added), None, False))
            path, added = line[1:-1].rsplit("#", 1)[0].strip(), []
        elif path and line.startswith("+"):
            added.append(line[1:])
    return tuple(changes)


def _changes(tool: str, tool_input: Mapping[str, Any]) -> tuple[FileChange, ...]:
    path = _string(tool_input, "path", "file_path")
    patch = tool_input.get("input")
    if tool == "Edit" and isinstance(patch, str):
        # oh-my-pi's patch; its tool_result adds the `path` and `paths` the patch names
        return _patch_changes(patch)
    if not path:
        return ()
    if tool == "Write":
        return (FileChange(path, _string(tool_input, "content") or "", None, True),)
    if tool == "Edit":
        return (_edit_change(path, tool_input),)
    return ()


def context_tokens(payload: Mapping[str, Any]) -> int | None:
    """The context size xcsh reported to the module (`ctx.getContextUsage().tokens`)."""
    usage = payload.get("contextUsage")
    tokens = usage.get("tokens") if isinstance(usage, dict) else None
    if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens > 0:
        return tokens
    return None


def build_call(
    payload: Mapping[str, Any], contract: Mapping[str, Any], harness: str, event: str
) -> Call:
    """The registry-vocabulary view of one xcsh payload. Never raises on odd values."""
    tool_name = payload.get("toolName")
    tool: str | None = None
    changes: tuple[FileChange, ...] = ()
    command: str | None = None
    raw_input = payload.get("input")
    tool_input: dict[str, Any] = raw_input if isinstance(raw_input, dict) else {}
    if isinstance(tool_name, str) and tool_name:
        tools = contract.get("tools") or {}
        mapped = tools.get(tool_name)
        tool = mapped if isinstance(mapped, str) else f"other:{tool_name}"
        if tool in ("Write", "Edit"):
            changes = _changes(tool, tool_input)
        elif tool in ("Bash", "PowerShell"):
            command = _string(tool_input, "command")
    return Call(
        event=event,
        harness=harness,
        cwd=_string(payload, "cwd") or "",
        session_id=_string(payload, "sessionId") or "",
        tool=tool,
        changes=changes,
        command=command,
        tool_input=tool_input,
        context_tokens=context_tokens(payload),
    )
