"""What a message rule may know beyond the message itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hookmsg.messages.message import Message


def _no_messages(path: Path) -> Message | None:
    return None


@dataclass(frozen=True)
class MessageContext:
    """Settings and registry facts for checking one message.

    `registered` is False for files outside the configured messages folder: the
    registry rules (guard status, declared placeholders) do not apply to them.
    """

    licence_line: str
    delivered_cap: int
    root: Path
    registered: bool = False
    placeholders: Mapping[str, str] | None = None
    # Paths that will exist once the build has run (generated outputs), relative to root.
    planned_paths: frozenset[str] = frozenset()
    # Finds the parsed message at an absolute path, for cross-binding reciprocity.
    message_at: Callable[[Path], Message | None] = field(default=_no_messages)

    @property
    def is_guard(self) -> bool:
        return self.placeholders is not None
