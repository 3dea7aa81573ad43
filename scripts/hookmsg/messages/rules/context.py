"""What a message rule may know beyond the message itself.

This is a view of one message, not the loaded project: the settings the message rules
apply, what the registry says of this message, and what its Bindings name as found on disk
when the view was built (`messages/referenced.py`). The project-level rules read the
loaded project itself (`pipeline/workspace.Workspace`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hookmsg.messages.referenced import Referenced


@dataclass(frozen=True)
class MessageContext:
    """Settings, registry facts and named paths for checking one message.

    `registered` is False for files outside the configured messages folder: the
    registry rules (guard status, declared placeholders) do not apply to them.
    `referenced` is None when no path was looked up: the path rules are then skipped.
    """

    licence_line: str
    delivered_cap: int
    registered: bool = False
    placeholders: Mapping[str, str] | None = None
    # Paths that will exist once the build has run (generated outputs), relative to root.
    planned_paths: frozenset[str] = frozenset()
    # The paths the message's bindings name and the messages they name, as found on disk.
    referenced: Referenced | None = None

    @property
    def is_guard(self) -> bool:
        return self.placeholders is not None
