"""Message rules, one module per family; each returns diagnostics and renders nothing."""

from __future__ import annotations

from hookmsg.diagnostics import Diagnostic
from hookmsg.message import NESTING_LIMIT, Message
from hookmsg.rules import advisory, bindings, delivered, licence
from hookmsg.rules.context import MessageContext

__all__ = ["MessageContext", "check_message"]


def check_message(message: Message, context: MessageContext) -> list[Diagnostic]:
    """Every message-level rule, for one parsed message."""
    if message.too_deep_line is not None:
        # Past the nesting limit the parse is incomplete: any other finding would be a guess.
        text = f"nested more than {NESTING_LIMIT} levels deep; the file cannot be checked"
        return [Diagnostic(message.display, message.too_deep_line, 1, "F008", text)]
    return [
        *licence.check(message, context),
        *bindings.check(message, context),
        *advisory.check(message, context),
        *delivered.check(message, context),
    ]
