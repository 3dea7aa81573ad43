"""Guards and conditions: what each detector looks for in a tool call.

`evaluate(detector, call, data, root)` runs one detector over a `Call` with that guard's
catalogue data (the `[condition]` of its guard file, carried in the dispatch table). It returns
the placeholder values when the guard fires and None when it stays silent; it may raise, and
the dispatcher then fails open for that message. Each detector lives in its own module,
imported only when the call needs it, and compiles only the patterns it uses.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookmsg_dispatch.call import Call

# detector id -> the module (in this package, or the dispatcher's own) holding `detect`
DETECTORS: dict[str, str] = {
    "dependency": "dependency",
    "eval": "evaluation",
    "write-header": "headers",
    "edit-header": "notices",
    "write-plan": "plans",
    "bash-plan": "plans",
    "askuserquestion": "questions",
    "match": "match",
    "compaction": "compaction",
}

# The placeholders each detector fills when it fires (the compaction condition fills none).
PLACEHOLDERS: dict[str, tuple[str, ...]] = {
    "dependency": ("change", "path"),
    "eval": ("location", "primitive"),
    "write-header": ("header", "path"),
    "edit-header": ("header", "path"),
    "write-plan": ("path", "plan"),
    "bash-plan": ("action", "command", "plan"),
    "askuserquestion": ("question",),
    "match": ("found", "where"),
    "compaction": (),
}


def evaluate(
    detector: str, call: Call, data: Mapping[str, Any], root: str
) -> dict[str, str] | None:
    """The placeholder values when `detector` fires on `call`, None when it is silent."""
    module_name = DETECTORS.get(detector)
    if module_name is None:
        raise ValueError(f"unknown detector {detector!r}")
    # The compaction condition is a dispatcher module of its own; the guards live here.
    package = "hookmsg_dispatch" if module_name == "compaction" else __name__
    qualified = f"{package}.{module_name}"
    __import__(qualified)  # builtin: no importlib import on the hook's start-up path
    found: dict[str, str] | None = sys.modules[qualified].detect(detector, call, data, root)
    return found
