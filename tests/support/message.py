"""A minimal valid message, to break one thing at a time."""

from __future__ import annotations

from tests.support.text import replace

LICENCE = "<!-- SPDX-License-Identifier: MIT -->"
TITLE = "Title sentence for the test message."
BODY = "Body text that the assistant receives."
BINDINGS = "## Bindings\n"
DRIVES = "- **Drives →** the assistant to do the thing under test.\n"
ESTABLISHED = "- **Established by ↑** `catalog/hooks.toml`, nothing else.\n"
CROSS = "- **Cross-bound with ↔** no other message in particular.\n"
# Line  1: licence          Line  7: ## Bindings
# Line  2: (blank)          Line  8: (blank)
# Line  3: title            Line  9: Drives →
# Line  4: (blank)          Line 10: Established by ↑  (path at column 25)
# Line  5: body             Line 11: Cross-bound with ↔ (text at column 27)
# Line  6: (blank)
VALID = f"{LICENCE}\n\n{TITLE}\n\n{BODY}\n\n{BINDINGS}\n{DRIVES}{ESTABLISHED}{CROSS}"


def with_advisory(advisory: str) -> str:
    """The valid message with an `## Advisory` section holding `advisory`."""
    return replace(VALID, BINDINGS, f"## Advisory\n\n{advisory}\n\n{BINDINGS}")
