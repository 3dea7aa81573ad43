"""Every message-level rule, for one parsed message: F008, then each message family."""

from __future__ import annotations

from hookmsg.diagnostics import Diagnostic
from hookmsg.messages.message import NESTING_LIMIT, Message
from hookmsg.messages.rules import advisory, bindings, delivered, licence
from hookmsg.messages.rules.context import MessageContext

__all__ = ["MessageContext", "check_message", "reserved_name"]

# The message families, in the order their findings were always produced.
MESSAGE_FAMILIES = (licence.check, bindings.check, advisory.check, delivered.check)


def check_message(message: Message, context: MessageContext) -> list[Diagnostic]:
    """Every message-level rule, for one parsed message."""
    if message.too_deep_line is not None:
        # Past the nesting limit the parse is incomplete: any other finding would be a guess.
        text = f"nested more than {NESTING_LIMIT} levels deep; the file cannot be checked"
        return [Diagnostic(message.display, message.too_deep_line, 1, "F008", text)]
    return [found for family in MESSAGE_FAMILIES for found in family(message, context)]


def reserved_name(message: Message, reserved: str) -> list[Diagnostic]:
    """R009: an authored file may not take the name of a generated message."""
    if message.name != reserved:
        return []
    text = f"'{reserved}' is the name of the generated skill index"
    return [Diagnostic(message.display, 1, 1, "R009", text)]
