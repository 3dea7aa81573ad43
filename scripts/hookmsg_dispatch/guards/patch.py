"""Rebuild a file's new text from a Codex `apply_patch` envelope (for detectors that compare
a whole file before and after, such as the dependency guard).

The format: `*** Begin Patch`, then per file `*** Add File: p` / `*** Delete File: p` /
`*** Update File: p` (optionally `*** Move to: q`), hunks introduced by `@@` whose lines start
with ` ` (context), `-` (removed) or `+` (added), and `*** End Patch`.

Bounded and linear: the patch is split into sections once per patch (not once per file it
names), each distinct path is resolved once per question, and hunks are placed by one
forward search through the file, so a patch of many sections or hunks costs what it weighs.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from typing import Any, Callable

    Section = tuple[str, list[str]]  # (file marker, body lines)

_FILE_MARKERS = ("*** Add File: ", "*** Delete File: ", "*** Update File: ")

# The last patch split into sections, by the path each names: detectors ask about every
# file of one call's patch, and the split is the same every time.
_split: list[Any] = [None, {}]


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


def sections(patch: str) -> dict[str, list[Section]]:
    """Each path the patch names -> its sections in order (one pass, kept for the next ask)."""
    if _split[0] is patch:
        found: dict[str, list[Section]] = _split[1]
        return found
    found = {}
    target: list[str] | None = None
    for line in patch.split("\n"):
        marker = next((m for m in _FILE_MARKERS if line.startswith(m)), None)
        if marker is not None:
            target = []
            found.setdefault(line[len(marker) :].strip(), []).append((marker, target))
        elif line.startswith("*** End Patch"):
            target = None
        elif target is not None and not line.startswith("*** Move to: "):
            target.append(line)
    _split[0], _split[1] = patch, found
    return found


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
    """The original with each hunk's old lines replaced by its new ones, in order.

    A hunk's old lines are looked for from where the previous hunk ended, compared without
    trailing whitespace, by one search in a text of the file's lines with a newline before
    and after each (so a match is whole lines): the cursor only moves forward, and every
    part of the file is searched and counted once.
    """
    lines = original.split("\n")
    stripped = "\n" + "\n".join(line.rstrip() for line in lines) + "\n"
    out: list[str] = []
    appended: list[str] = []
    line_at = 0  # the first line not yet copied to `out`
    offset = 0  # in `stripped`: the newline before line `line_at`
    for hunk in hunk_lines:
        old = [h[1:] for h in hunk if h[:1] in (" ", "-") or h == ""]
        new = [h[1:] for h in hunk if h[:1] in (" ", "+") or h == ""]
        if not old:  # pure addition without context: append at the end
            appended += new
            continue
        needle = "\n" + "\n".join(line.rstrip() for line in old) + "\n"
        found = stripped.find(needle, offset)
        if found < 0:
            return None
        at = line_at + stripped.count("\n", offset, found)
        out += lines[line_at:at]
        out += new
        line_at = at + len(old)
        offset = found + len(needle) - 1
    out += lines[line_at:]
    out += appended
    return "\n".join(out)


def patched_text(
    tool_input: Any, same_file: Callable[[str], bool], original: str | None
) -> str | None:
    """The new text of the file `same_file` accepts, per the patch; None when not derivable."""
    patch = patch_text(tool_input)
    if patch is None:
        return None
    mine = [
        section for path, found in sections(patch).items() if same_file(path) for section in found
    ]
    if len(mine) != 1:
        return None
    marker, body = mine[0]
    if marker == "*** Add File: ":
        return "\n".join(line[1:] for line in body if line.startswith("+"))
    if marker == "*** Delete File: " or original is None:
        return None
    return _apply(original, _hunks(body))
