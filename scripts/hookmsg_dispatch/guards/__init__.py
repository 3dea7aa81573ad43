"""Guards and conditions: what each detector looks for in a tool call.

`evaluate(detector, call, data, root, module)` runs one detector over a `Call` with that
guard's catalogue data (the `[condition]` of its guard file, carried in the dispatch table).
It returns the placeholder values when the guard fires and None when it stays silent; it may
raise, and the dispatcher then fails open for that message. Each detector lives in a module
of its own, which declares the detectors it answers for (`DETECTS`); the dispatch table names
each message's module, so no table here lists them. A module is imported only when the call
needs it, and compiles only the patterns it uses.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookmsg_dispatch.call import Call

PACKAGE = "hookmsg_dispatch"


def evaluate(
    detector: str, call: Call, data: Mapping[str, Any], root: str, module: str
) -> dict[str, str] | None:
    """The placeholder values when `detector` (in `module`, a dotted name inside the
    dispatcher package: `guards.plans`) fires on `call`, None when it is silent."""
    if not module or not all(part.isidentifier() for part in module.split(".")):
        raise ValueError(f"detector {detector!r} has no module in the dispatch table")
    qualified = f"{PACKAGE}.{module}"
    __import__(qualified)  # builtin: no importlib import on the hook's start-up path
    found: dict[str, str] | None = sys.modules[qualified].detect(detector, call, data, root)
    return found
