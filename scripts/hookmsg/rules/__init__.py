"""Message rules, one module per family; each returns diagnostics and renders nothing."""

from __future__ import annotations

from hookmsg.diagnostics import Diagnostic
from hookmsg.message import Message
from hookmsg.rules import advisory, bindings, delivered, licence
from hookmsg.rules.context import MessageContext

__all__ = ["MessageContext", "check_message"]


def check_message(message: Message, context: MessageContext) -> list[Diagnostic]:
    """Every message-level rule, for one parsed message."""
    return [
        *licence.check(message, context),
        *bindings.check(message, context),
        *advisory.check(message, context),
        *delivered.check(message, context),
    ]
