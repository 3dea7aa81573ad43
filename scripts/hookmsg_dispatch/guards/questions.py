"""The question guard: a multiple-choice question that marks no option as recommended.

Claude Code's AskUserQuestion input is `{"questions": [{"question": str, "header": str,
"options": [{"label": str, "description": str}], "multiSelect": bool}]}`. Data: `marker`
(the suffix of a recommended option's label, "(Recommended)") and `min-options` (how many
options make a question a choice, 2). The marker counts in any letter case, anywhere in a
label. `equal-options`: a pattern that, in the question text, says that no option is
better (the procedure's one alternative to marking one): then the guard is silent.
"""

from __future__ import annotations

from hookmsg_dispatch.guards.common import cap, number, pattern

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookmsg_dispatch.call import Call


def _questions(call: Call) -> list[Any]:
    if call.questions:
        return list(call.questions)
    found = call.tool_input.get("questions") if isinstance(call.tool_input, dict) else None
    return found if isinstance(found, list) else []


def _label(option: Any) -> str:
    if isinstance(option, dict):
        label = option.get("label")
        return label if isinstance(label, str) else ""
    return option if isinstance(option, str) else ""


# The detectors this module answers for, and the placeholders each fills when it fires
# (the build side reads this with `ast`: hookmsg.catalogue.detectors).
DETECTS = {"askuserquestion": ("question",)}


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    marker = data.get("marker", "(Recommended)")
    if not isinstance(marker, str) or not marker:
        return None
    least = int(number(data, "min-options", 2))
    wanted = marker.casefold()
    equal = data.get("equal-options")
    for question in _questions(call):
        if not isinstance(question, dict):
            continue
        options = question.get("options")
        if not isinstance(options, list) or len(options) < least:
            continue
        # The marker in any letter case, anywhere in a label ("Postgres (recommended)",
        # "(Recommended) Postgres"): the advisory would be untrue saying none is marked.
        if any(wanted in _label(option).casefold() for option in options):
            continue
        text = question.get("question")
        text = text if isinstance(text, str) else ""
        if isinstance(equal, str) and equal and pattern(equal).search(text) is not None:
            continue  # the question says why no option is better, as the procedure allows
        return {"question": cap(text)}
    return None
