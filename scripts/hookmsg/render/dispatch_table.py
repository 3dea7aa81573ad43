"""`dispatch-table.json`: everything the runtime dispatcher reads, as data.

The dispatcher (`scripts/hookmsg_dispatch/`, standard library only) never imports the
build side; this table is the one thing the two share. It holds the delivered cap, one
contract per dispatcher contract id (how that harness's payload is read and how it is
answered), every message's kind, file, Advisory template and condition, and the guard
data of `catalog/guards.toml`, taken verbatim.
"""

from __future__ import annotations

import tomllib
from typing import Any

from hookmsg.catalogue import Harness
from hookmsg.jsonout import dump_json
from hookmsg.loaded import INDEX_FILES, SKILL_INDEX, LoadedProject
from hookmsg.template import scan_template
from hookmsg.vocabulary import EVENTS

GUARDS_FILE = "guards.toml"
TABLE_VERSION = 1


def contract_data(harness: Harness) -> dict[str, Any]:
    """One harness's contract: what the dispatcher needs to read and answer its payloads."""
    contract = harness.contract
    if contract is None:
        raise ValueError(f"harness '{harness.id}' has a registration but no [harnesses.contract]")
    tools = {spelled: tool for tool, spelled in harness.tools.items()}
    tools.update(contract.tools)
    # The skill index form this harness loads ("" for none: it loads no skills or commands).
    form = harness.index_form
    index_file = INDEX_FILES[form] if form is not None else ""
    files = {SKILL_INDEX: index_file} if index_file != SKILL_INDEX else {}
    return {
        **({"message_files": files} if files else {}),
        "context_events": list(contract.context_events),
        "deny": contract.deny,
        "envelope": contract.envelope,
        # Deny-only events (registered by `install --strict`) are spelled too.
        "event_names": dict(sorted({**harness.deny_events, **harness.events}.items())),
        "patch_tools": list(contract.patch_tools),
        "payload": contract.payload,
        "tools": tools,
    }


def guard_conditions(loaded: LoadedProject) -> dict[str, Any]:
    """The tables of `catalog/guards.toml` (each message's detector and its data), verbatim.

    Read raw: the file is validated by `hookmsg validate`, not here. Absent: no conditions.
    """
    path = loaded.project.catalog_file(GUARDS_FILE)
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ValueError(f"{loaded.project.relative(path)} cannot be read: {error}") from None
    nested = data.get("guards")
    source: dict[str, Any] = nested if isinstance(nested, dict) else data
    return {name: table for name, table in source.items() if isinstance(table, dict)}


def dispatch_table_data(loaded: LoadedProject) -> dict[str, Any]:
    registry = loaded.catalogue.registry
    harnesses = loaded.catalogue.harnesses
    contracts: dict[str, Any] = {}
    for harness in harnesses.harnesses:
        if harness.contract is not None and harness.contract_id not in contracts:
            contracts[harness.contract_id] = contract_data(harness)
    conditions = guard_conditions(loaded)
    messages: dict[str, Any] = {}
    for name, message in sorted(loaded.all_messages().items()):
        is_guard = name in registry.guards
        advisory = message.advisory[0] if is_guard and message.advisory is not None else None
        placeholders = (
            sorted({p.name for p in scan_template(advisory).placeholders}) if advisory else []
        )
        detector = conditions.get(name, {}).get("detector")
        messages[name] = {
            "advisory": advisory,
            "condition": detector if isinstance(detector, str) else None,
            "file": f"messages/{name}.md",
            "kind": "guard" if is_guard else "context",
            "placeholders": placeholders,
        }
    return {
        "cap": loaded.project.settings.delivered_cap,
        "conditions": conditions,
        "contracts": contracts,
        "events": list(EVENTS),
        "messages": messages,
        "version": TABLE_VERSION,
    }


def render_dispatch_table(loaded: LoadedProject) -> str:
    return dump_json(dispatch_table_data(loaded))
