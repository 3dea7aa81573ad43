"""What a message's Bindings name, looked up on disk when its context is built.

The Bindings rules judge paths (B009 missing, B012 out of the repository) and the messages
they name (B010 reciprocity), but read no file themselves: this lookup resolves each named
path, notes whether it exists and reads each message a cross-bound binding names, and the
rules read only its result (`rules/context.MessageContext.referenced`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from hookmsg.inputs.paths import real, real_inside
from hookmsg.messages.message import Message, is_repository_path
from hookmsg.vocabulary import CROSS_BOUND


@dataclass(frozen=True)
class Referenced:
    """A message's named paths as they were found on disk."""

    # This message's real path, and the repository's.
    me: str
    real_root: str
    # Each named path, as written, to its real path inside the repository (None: it leaves
    # the repository); the cross-bound spans of the messages named are here too.
    targets: Mapping[str, str | None]
    # The real paths among `targets` that exist.
    existing: frozenset[str]
    # The message at each real path a cross-bound binding names, where one could be read.
    messages: Mapping[str, Message]


def look_up(
    message: Message, root: Path, message_at: Callable[[Path], Message | None]
) -> Referenced:
    """Resolve every repository path `message`'s bindings name; read the messages its
    cross-bound bindings name (`message_at`: the parsed message at a real path, or None)."""
    base = str(root)
    targets: dict[str, str | None] = {}
    existing: set[str] = set()
    messages: dict[str, Message] = {}
    for binding in message.bindings:
        for span in binding.code_spans:
            if not is_repository_path(span.text):
                continue
            target = real_inside(base, span.text)
            targets[span.text] = target
            if target is None:
                continue
            if os.path.exists(target):  # noqa: PTH110 (hot path: str)
                existing.add(target)
            if binding.direction != CROSS_BOUND or not target.endswith(".md"):
                continue
            other = messages.get(target) or message_at(Path(target))
            if other is None:
                continue
            messages[target] = other
            for back in (b for b in other.bindings if b.direction == CROSS_BOUND):
                for span_back in back.code_spans:
                    if span_back.text not in targets:
                        targets[span_back.text] = real_inside(base, span_back.text)
    path = str(message.path)  # a string: once per message of a run
    me = real(path if os.path.isabs(path) else os.path.abspath(path))  # noqa: PTH100, PTH117
    return Referenced(me, real(base), targets, frozenset(existing), messages)
