"""Rebuild a file's new text from a Codex `apply_patch` envelope (for detectors that compare
a whole file before and after, such as the dependency guard).

The format: `*** Begin Patch`, then per file `*** Add File: p` / `*** Delete File: p` /
`*** Update File: p` (optionally `*** Move to: q`), hunks introduced by `@@` whose lines start
with ` ` (context), `-` (removed) or `+` (added), and `*** End Patch`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from typing import Any, Callable

_FILE_MARKERS = ("*** Add File: ", "*** Delete File: ", "*** Update File: ")


def patch_text(tool_input: Any) -> str | None:
    """The patch a Codex apply_patch call carries, or None."""
    if not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command", tool_input.get("input"))
    if isinstance(command, list):
        command = next((c for c in command if isinstance(c, str) and "*** Begin Patch" in c), None)
    if isinstance(command, str) and "*** Begin Patch" in command:
        return command
    return None


def _hunks(lines: list[str]) -> list[list[str]]:
    hunks: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        if line.startswith("@@"):
            if current:
                hunks.append(current)
            current = []
        elif line.startswith("*** "):
            continue  # *** End of File
        else:
            current.append(line)
    if current:
        hunks.append(current)
    return hunks


def _apply(original: str, hunk_lines: list[list[str]]) -> str | None:
    lines = original.split("\n")
    cursor = 0
    for hunk in hunk_lines:
        old = [h[1:] for h in hunk if h[:1] in (" ", "-") or h == ""]
        new = [h[1:] for h in hunk if h[:1] in (" ", "+") or h == ""]
        if not old:  # pure addition without context: append at the end
            lines[len(lines) :] = new
            continue
        at = _find(lines, old, cursor)
        if at is None:
            return None
        lines[at : at + len(old)] = new
        cursor = at + len(new)
    return "\n".join(lines)


def _find(lines: list[str], block: list[str], start: int) -> int | None:
    size = len(block)
    for at in range(start, len(lines) - size + 1):
        if lines[at : at + size] == block:
            return at
    stripped = [b.rstrip() for b in block]
    for at in range(start, len(lines) - size + 1):
        if [x.rstrip() for x in lines[at : at + size]] == stripped:
            return at
    return None


def patched_text(
    tool_input: Any, same_file: Callable[[str], bool], original: str | None
) -> str | None:
    """The new text of the file `same_file` accepts, per the patch; None when not derivable."""
    patch = patch_text(tool_input)
    if patch is None:
        return None
    sections: list[list[str]] = []
    target: list[str] | None = None
    for line in patch.split("\n"):
        marker = next((m for m in _FILE_MARKERS if line.startswith(m)), None)
        if marker is not None:
            target = None
            if same_file(line[len(marker) :].strip()):
                target = [marker]
                sections.append(target)
        elif line.startswith("*** End Patch"):
            target = None
        elif target is not None and not line.startswith("*** Move to: "):
            target.append(line)
    if len(sections) != 1:
        return None
    marker, *body = sections[0]
    if marker == "*** Add File: ":
        return "\n".join(line[1:] for line in body if line.startswith("+"))
    if marker == "*** Delete File: " or original is None:
        return None
    return _apply(original, _hunks(body))
