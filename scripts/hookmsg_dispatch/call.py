"""The one shape every harness's payload is translated into before messages are evaluated.

Contracts (one per harness) build a `Call` from that harness's JSON payload; guards and
conditions read only a `Call`, never a raw payload, so a guard works on every harness whose
payload carries what it needs. Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class _Record:
    """A frozen record with equality, hashing and a repr, like a frozen dataclass.

    Not a dataclass: `dataclasses` imports `inspect`, which would cost every hook call
    several milliseconds of start-up.
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field '{name}'")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field '{name}'")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, _Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed (what `dataclasses.replace` does)."""
        values = {name: getattr(self, name) for name in self._fields}
        values.update(changes)
        return type(self)(**values)


class FileChange(_Record):
    """One file that a tool call writes.

    `path` is as the harness gave it (absolute or relative to `Call.cwd`). `after` is the
    text the call puts in: the whole new content for a created or overwritten file, the
    replacement text (`new_string`, or a patch's added lines) for an edit. `before` is the
    text it replaces, where the payload says (`old_string`, a patch's removed lines).
    `created` is True for a new or wholly rewritten file (Write, a patch's Add File), False
    for an edit, None when the payload does not tell.
    """

    __slots__ = ("after", "before", "created", "path")
    _fields = ("path", "after", "before", "created")
    path: str
    after: str
    before: str | None
    created: bool | None

    def __init__(
        self, path: str, after: str = "", before: str | None = None, created: bool | None = None
    ) -> None:
        setter = object.__setattr__
        setter(self, "path", path)
        setter(self, "after", after)
        setter(self, "before", before)
        setter(self, "created", created)


class Call(_Record):
    """A hook event in the registry's vocabulary.

    `event` is the registry's event name (SessionStart, PreToolUse, PostToolUse, Stop,
    PreCompact, UserPromptSubmit). `tool` is the registry's tool name (Write, Edit,
    NotebookEdit, Bash, PowerShell, AskUserQuestion) or, for a tool the registry does not
    name, the harness's own name prefixed with `other:`; None outside tool events.
    `source` is SessionStart's reason (startup, resume, clear, compact) where reported.
    `tool_input` and `tool_response` are kept as the payload gave them, for conditions
    that need more than the fields above. `context_tokens` is the context size where the
    harness reports it with the call (xcsh's module does); None: read the transcript.
    `agent_id` names the subagent whose call this is, where the payload says (Claude Code
    sends `agent_id` only from inside a subagent); empty for the main conversation.
    """

    __slots__ = (
        "agent_id",
        "changes",
        "command",
        "context_tokens",
        "cwd",
        "event",
        "harness",
        "questions",
        "session_id",
        "source",
        "tool",
        "tool_input",
        "tool_response",
        "transcript_path",
    )
    _fields = (
        "event",
        "harness",
        "cwd",
        "session_id",
        "transcript_path",
        "source",
        "tool",
        "changes",
        "command",
        "tool_input",
        "tool_response",
        "questions",
        "context_tokens",
        "agent_id",
    )
    event: str
    harness: str
    cwd: str
    session_id: str
    transcript_path: str
    source: str | None
    tool: str | None
    changes: tuple[FileChange, ...]
    command: str | None
    tool_input: dict[str, Any]
    tool_response: Any
    questions: list[dict[str, Any]]
    context_tokens: int | None
    agent_id: str

    def __init__(  # noqa: PLR0913, PLR0917 (one field each, as the dataclass it replaces)
        self,
        event: str,
        harness: str,
        cwd: str = "",
        session_id: str = "",
        transcript_path: str = "",
        source: str | None = None,
        tool: str | None = None,
        changes: tuple[FileChange, ...] = (),
        command: str | None = None,
        tool_input: dict[str, Any] | None = None,
        tool_response: Any = None,
        questions: list[dict[str, Any]] | None = None,
        context_tokens: int | None = None,
        agent_id: str = "",
    ) -> None:
        setter = object.__setattr__
        setter(self, "event", event)
        setter(self, "harness", harness)
        setter(self, "cwd", cwd)
        setter(self, "session_id", session_id)
        setter(self, "transcript_path", transcript_path)
        setter(self, "source", source)
        setter(self, "tool", tool)
        setter(self, "changes", changes)
        setter(self, "command", command)
        setter(self, "tool_input", {} if tool_input is None else tool_input)
        setter(self, "tool_response", tool_response)
        setter(self, "questions", [] if questions is None else questions)
        setter(self, "context_tokens", context_tokens)
        setter(self, "agent_id", agent_id)
