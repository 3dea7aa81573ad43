"""The envelope each harness reads, by the style its contract names.

Context: `hook-specific` is Claude Code's `hookSpecificOutput` (also Codex, Qwen Code,
CodeBuddy, Devin Local); `additional-context` is Copilot's top-level `additionalContext`;
`additional_context` is Cursor's; `text` is the text itself (Kiro reads raw stdout);
`xcsh` is `{"text": T}`, which the generated xcsh module reads; `gemini` is
`hook-specific`, with a deny as Gemini CLI reads one (`decision` and `reason`). A deny
exists only where a harness honours one. Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

from hookmsg_dispatch.jsonio import dumps

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass


def context(style: str, event: str, text: str) -> bytes:
    """The envelope that hands `text` to the model on `event` (the harness's spelling)."""
    data: dict[str, object]
    if style in ("hook-specific", "gemini"):
        data = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    elif style == "additional-context":
        data = {"additionalContext": text}
    elif style == "additional_context":
        data = {"additional_context": text}
    elif style == "xcsh":
        data = {"text": text}
    elif style == "text":
        return (text + "\n").encode("utf-8")
    else:
        raise ValueError(f"unknown envelope style '{style}'")
    return (dumps(data) + "\n").encode("ascii")


def deny(style: str, event: str, reason: str) -> bytes | None:
    """A PreToolUse deny with `reason`, or None where the style has no deny."""
    data: dict[str, object]
    if style == "hook-specific":
        data = {
            "hookSpecificOutput": {
                "hookEventName": event,
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }
    elif style == "additional-context":
        data = {"permissionDecision": "deny", "permissionDecisionReason": reason}
    elif style == "gemini":  # Gemini CLI reads a top-level decision, no permissionDecision
        data = {"decision": "deny", "reason": reason}
    else:
        return None
    return (dumps(data) + "\n").encode("ascii")
