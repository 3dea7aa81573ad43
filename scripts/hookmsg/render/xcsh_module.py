"""`generated/xcsh/hookmsg.js`: the xcsh extension module, from the registry and the harness.

xcsh has no hook file to register commands in; it loads extension modules that subscribe
to its events with `pi.on(event, handler)`. The module generated here runs the same
dispatcher, with the same message lists, as every other harness's registration, and
hands the dispatcher's text to the channel xcsh offers on each event (`hookmsg.catalogue.xcsh`).
Its JavaScript is fixed (a template); only the table of events and messages varies.
"""

from __future__ import annotations

import json
from typing import Any

from hookmsg.catalogue.models import Harness, HookRegistry
from hookmsg.catalogue.xcsh import CHANNELS
from hookmsg.harnesses.registration_plan import BOOT, entries_for
from hookmsg.render.templates import render
from hookmsg.vocabulary import TOOL_EVENTS

TEMPLATE = "xcsh-hookmsg.js.j2"
CUSTOM_TYPE = "hookmsg"
MAX_PAYLOAD = 65536  # UTF-8 bytes; Linux caps one argument at 128 KiB (MAX_ARG_STRLEN)


def module_table(harness: Harness, registry: HookRegistry) -> dict[str, dict[str, Any]]:
    """xcsh event -> {"event", "timeout", "entries": [{"messages", "tools"}]}, in registry order.

    Only events with an xcsh channel appear (X001 reports any other mapping); an entry's
    `tools` is the xcsh tool names its matcher allows, or None for every tool.
    """
    table: dict[str, dict[str, Any]] = {}
    for entry in entries_for(harness, registry):
        if entry.spelled not in CHANNELS:
            continue
        tools = (
            entry.matcher.split("|")
            if entry.event in TOOL_EVENTS and entry.matcher not in (None, "*")
            else None
        )
        hook = table.setdefault(
            entry.spelled, {"event": entry.event, "timeout": entry.timeout, "entries": []}
        )
        hook["timeout"] = max(hook["timeout"], entry.timeout)
        hook["entries"].append({"messages": list(entry.messages), "tools": tools})
    return table


def _js(value: Any) -> str:
    """A JavaScript literal for `value` (JSON is valid JavaScript since ES2019)."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def render_xcsh_module(harness: Harness, registry: HookRegistry) -> str:
    """The module's text, with ${PYTHON_BIN} and ${HARNESS_ROOT} left for install time."""
    registration = harness.registration
    if registration is None or registration.contract is None:
        raise ValueError(f"harness '{harness.id}' has no xcsh registration with a contract")
    return render(
        TEMPLATE,
        sources="catalog/hooks.toml and the harness facts",
        script=_js(registry.dispatcher.script),
        contract=_js(registration.contract),
        boot=_js(BOOT),
        custom_type=_js(CUSTOM_TYPE),
        max_payload=MAX_PAYLOAD,
        hooks=_js(module_table(harness, registry)),
    )


def fill_tokens(text: str, tokens: dict[str, str]) -> str:
    """Fill `${NAME}` tokens inside the module's JavaScript string literals.

    Each value is escaped as a JSON string body, so no value can end the literal early.
    """
    for token, value in tokens.items():
        text = text.replace("${" + token + "}", json.dumps(value, ensure_ascii=False)[1:-1])
    return text
