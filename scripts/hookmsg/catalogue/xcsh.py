"""What xcsh's extension API lets a module hand to the model (its X rules: `rules/xcsh.py`).

xcsh (read from its `packages/coding-agent/src/extensibility/extensions/types.ts`) gives an
extension four ways to put text in front of the model, one per event; every other event
either returns nothing that reaches the model or, like `tool_call`, can only block.
The generated module (`render/xcsh_module.py`) implements exactly these channels.
"""

from __future__ import annotations

FORMAT = "xcsh"

# xcsh event -> how the module hands the dispatcher's text over on it.
CHANNELS: dict[str, str] = {
    "session_start": "pi.sendMessage(hidden message, deliverAs nextTurn)",
    "before_agent_start": "returns {message}",
    "tool_result": "returns {content} with a text part appended",
    "session.compacting": "returns {context} (read by the summariser)",
}
# xcsh events that exist but cannot carry context, with the reason.
NO_CHANNEL: dict[str, str] = {
    "tool_call": "can only block a call with a reason",
    "context": "rewrites the whole message list; not a place to add a message per event",
    "session_compact": "returns nothing",
    "session_shutdown": "returns nothing",
}
