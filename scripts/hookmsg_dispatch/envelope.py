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
    from collections.abc import Mapping
    from typing import Callable

# How a harness counts what it reads: UTF-8 bytes, UTF-16 code units (JavaScript's string
# length) or Unicode characters. Unknown: bytes, which is never fewer than either of the others.
UNITS = ("bytes", "utf16", "chars")


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
        return (text + "\n").encode("utf-8", "replace")
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


def length(text: str, unit: str) -> int:
    """`text` counted in `unit` (one of UNITS)."""
    if unit == "chars" or text.isascii():
        return len(text)
    if unit == "utf16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "replace"))


def _escaped(text: str) -> int:
    """The length of `text` inside an ASCII JSON string (every unit counts it the same)."""
    return len(dumps(text)) - 2


def budget(
    contract: Mapping[str, object], event: str, *, refusal: bool = False
) -> tuple[int, Callable[[str], int]]:
    """(overhead, size) of this contract's answer on `event`: what the harness counts of the
    answer beyond the text, and how it counts a text placed in it. Additive: the size of a
    joined text is the sum of its pieces' sizes, so a cap can be kept part by part.

    `cap_counts` "field": the harness measures the text it takes out of the envelope;
    otherwise ("stdout", the default) the whole standard output as written.
    """
    unit = contract.get("cap_unit")
    unit = unit if isinstance(unit, str) and unit in UNITS else "bytes"
    style = str(contract.get("envelope", ""))
    if contract.get("cap_counts") == "field":
        return 0, lambda text: length(text, unit)
    empty = deny(style, event, "") if refusal else context(style, event, "")
    overhead = 0 if empty is None else length(empty.decode("utf-8"), unit)
    if style == "text":
        return overhead, lambda text: length(text, unit)
    return overhead, _escaped
