"""The one shape every harness's payload is translated into before messages are evaluated.

Contracts (one per harness) build a `Call` from that harness's JSON payload; guards and
conditions read only a `Call`, never a raw payload, so a guard works on every harness whose
payload carries what it needs. Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class FileChange:
    """One file that a tool call writes.

    `path` is as the harness gave it (absolute or relative to `Call.cwd`). `after` is the
    text the call puts in: the whole new content for a created or overwritten file, the
    replacement text (`new_string`, or a patch's added lines) for an edit. `before` is the
    text it replaces, where the payload says (`old_string`, a patch's removed lines).
    `created` is True for a new or wholly rewritten file (Write, a patch's Add File), False
    for an edit, None when the payload does not tell.
    """

    path: str
    after: str = ""
    before: str | None = None
    created: bool | None = None


@dataclass(frozen=True)
class Call:
    """A hook event in the registry's vocabulary.

    `event` is the registry's event name (SessionStart, PreToolUse, PostToolUse, Stop,
    PreCompact, UserPromptSubmit). `tool` is the registry's tool name (Write, Edit,
    NotebookEdit, Bash, PowerShell, AskUserQuestion) or, for a tool the registry does not
    name, the harness's own name prefixed with `other:`; None outside tool events.
    `source` is SessionStart's reason (startup, resume, clear, compact) where reported.
    `tool_input` and `tool_response` are kept as the payload gave them, for conditions
    that need more than the fields above.
    """

    event: str
    harness: str
    cwd: str = ""
    session_id: str = ""
    transcript_path: str = ""
    source: str | None = None
    tool: str | None = None
    changes: tuple[FileChange, ...] = ()
    command: str | None = None
    tool_input: dict[str, Any] = field(default_factory=dict)
    tool_response: Any = None
    questions: list[dict[str, Any]] = field(default_factory=list)
