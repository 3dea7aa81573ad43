"""Fixed vocabularies: hook events, tools, binding directions."""

from __future__ import annotations

# Claude Code's event vocabulary, which the registry speaks; harnesses map it to theirs.
EVENTS: tuple[str, ...] = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "Notification",
    "Stop",
)
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})
TOOLS: tuple[str, ...] = ("Write", "Edit", "NotebookEdit", "Bash", "PowerShell", "AskUserQuestion")
SESSION_START = "SessionStart"
EVERY = "*"

# Binding directions in their canonical order, each with its one glyph.
DIRECTIONS: tuple[tuple[str, str], ...] = (
    ("Drives", "→"),
    ("Driven by", "←"),
    ("Gated by", "←"),
    ("Satisfies", "→"),
    ("Established by", "↑"),
    ("Cross-bound with", "↔"),
)
DIRECTION_ORDER = {direction: index for index, (direction, _) in enumerate(DIRECTIONS)}
DIRECTION_GLYPH = dict(DIRECTIONS)
REQUIRED_DIRECTIONS: tuple[str, ...] = ("Drives", "Established by", "Cross-bound with")
CROSS_BOUND = "Cross-bound with"


def matcher_key(matcher: str | None) -> str:
    """One spelling for 'every occurrence': no matcher, an empty one and `*` are the same."""
    return matcher if matcher not in (None, "", EVERY) else EVERY


# Names that Jinja2 reads as something other than a variable (literals, the template
# itself, loop helpers, default globals): a placeholder may not take them.
RESERVED_NAMES = frozenset(
    {"true", "false", "none", "True", "False", "None", "self", "loop", "super", "caller"}
    | {"varargs", "kwargs", "range", "lipsum", "dict", "cycler", "joiner", "namespace"}
)
