"""`dispatch-table.json`: everything the runtime dispatcher reads, as data.

The dispatcher (`scripts/hookmsg_dispatch/`, standard library only) never imports the
build side; this table is the one thing the two share. It holds the delivered cap, one
contract per dispatcher contract id (how that harness's payload is read and how it is
answered), every message's kind, file, Advisory template and condition, and each guard
file's `[condition]`, taken verbatim.

The install root carries it split (`installed_tables`): the dispatcher parses the table on
every call, and most calls run a few guards, so each guard's data is a file of its own,
read only when that guard runs.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from hookmsg.catalogue.guards import detectors
from hookmsg.catalogue.models import Harness
from hookmsg.harnesses.delivery import once_per_context
from hookmsg.jsonout import dump_json
from hookmsg.messages.template import scan_template
from hookmsg.render.loaded import INDEX_FILES, SKILL_INDEX, LoadedProject
from hookmsg.vocabulary import EVENTS
from hookmsg_dispatch.literal import required

TABLE_VERSION = 1
# Where the install root keeps the table and each message's guard data (relative to it);
# `hookmsg_dispatch.main` reads them under the same names.
INSTALLED_TABLE = "data/dispatch-table.json"
GUARD_DATA = "data/guards"


def text_digest(text: str) -> str:
    """A short, stable name for one delivered text (the first 16 hex digits of its SHA-256)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


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
        # Context messages once per context (hookmsg_dispatch/seen.py): every harness
        # that hands hook context to the model keeps it in the conversation.
        "once_per_context": once_per_context(harness),
        "patch_tools": list(contract.patch_tools),
        # What of the answer the harness's output cap counts, and in which unit.
        "cap_counts": contract.cap_counts,
        "cap_unit": contract.cap_unit,
        "payload": contract.payload,
        "tools": tools,
    }


def guard_conditions(loaded: LoadedProject) -> dict[str, Any]:
    """Each message's condition (its detector and its data), verbatim from its guard file."""
    return {name: dict(table) for name, table in loaded.catalogue.conditions.items()}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


# What makes a guard data string a pattern rather than a plain literal.
PATTERN_CHARACTERS = frozenset("\\()[]*+?|{}^$")


def pattern_literals(conditions: dict[str, Any]) -> dict[str, Any]:
    """For each pattern in the guard data, the literals one of which every match contains
    (the dispatcher's own reading, `hookmsg_dispatch.literal.required`), as
    `[ignore case, literals]`, or None where there is no such set: the dispatcher then
    skips reading each pattern on every call."""
    found: dict[str, Any] = {}
    for text in sorted(set(_strings(conditions))):
        if PATTERN_CHARACTERS.isdisjoint(text):
            continue
        literals = required(text)
        found[text] = None if literals is None else [literals[1], sorted(literals[0])]
    return found


def dispatch_table_data(loaded: LoadedProject) -> dict[str, Any]:
    registry = loaded.catalogue.registry
    harnesses = loaded.catalogue.harnesses
    contracts: dict[str, Any] = {}
    for harness in harnesses.harnesses:
        if harness.contract is not None and harness.contract_id not in contracts:
            contracts[harness.contract_id] = contract_data(harness)
    conditions = guard_conditions(loaded)
    known = detectors()
    messages: dict[str, Any] = {}
    for name, message in sorted(loaded.all_messages().items()):
        is_guard = name in registry.guards
        advisory = message.advisory[0] if is_guard and message.advisory is not None else None
        placeholders = (
            sorted({p.name for p in scan_template(advisory).placeholders}) if advisory else []
        )
        detector = conditions.get(name, {}).get("detector")
        found = known.get(detector) if isinstance(detector, str) else None
        messages[name] = {
            "advisory": advisory,
            "condition": detector if isinstance(detector, str) else None,
            # What the delivered text's `once per context` record names it by: a changed
            # text is delivered again. Computed here, so the dispatcher never hashes.
            "digest": text_digest(message.delivered.strip()),
            "file": f"messages/{name}.md",
            "kind": "guard" if is_guard else "context",
            # Where the dispatcher finds the detector (its module declares it).
            "module": found.module if found is not None else None,
            "placeholders": placeholders,
        }
    # Each event's registry entries, in registry order: what a folded registration names
    # (`--entry KEY`) and the dispatcher resolves per call.
    entries: dict[str, list[dict[str, Any]]] = {}
    for entry in registry.dispatch:
        event, key = entry.key
        entries.setdefault(event, []).append({"matcher": key, "messages": list(entry.messages)})
    return {
        "cap": loaded.project.settings.delivered_cap,
        "conditions": conditions,
        "contracts": contracts,
        "entries": entries,
        "events": list(EVENTS),
        "literals": pattern_literals(conditions),
        # The largest project file a guard reads (the build's own bound on its inputs).
        "max_file_bytes": loaded.project.settings.max_file_bytes,
        "messages": messages,
        "version": TABLE_VERSION,
    }


def render_dispatch_table(loaded: LoadedProject) -> str:
    return dump_json(dispatch_table_data(loaded))


def _compact(data: Any) -> bytes:
    # No indentation: the dispatcher parses these on every call, and whitespace is a
    # sixth of the parse.
    return (json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


def _core(table: dict[str, Any]) -> bytes:
    """The installed table: keys sorted, but `contracts` last, so that the dispatcher parses
    the rest whole and of the contracts only its own (`hookmsg_dispatch.jsonio.read_table`
    finds it by its quoted id). Where an id is also a member name inside the contracts, the
    keys are all sorted instead: the dispatcher then parses the whole table."""
    rest = {key: value for key, value in table.items() if key != "contracts"}
    text = json.dumps(table["contracts"], sort_keys=True, separators=(",", ":"))
    found = [
        sum(text.count(before + json.dumps(contract) + ":") for before in ",{")
        for contract in table["contracts"]
    ]
    if any(count != 1 for count in found) or ',"contracts":{' in text:
        return _compact(table)
    head = json.dumps(rest, sort_keys=True, separators=(",", ":"))
    return f'{head[:-1]},"contracts":{text}}}\n'.encode()


def installed_tables(content: bytes) -> dict[str, bytes]:
    """The install root's form of `dispatch-table.json`, by path inside the root: the table
    without conditions and literals (naming in `guard_data` the messages that have them),
    and per such message `data/guards/<name>.json`, its condition and the literals of its
    patterns. The same data: nothing is added or dropped."""
    table = json.loads(content)
    conditions: dict[str, Any] = table.pop("conditions", {})
    literals: dict[str, Any] = table.pop("literals", {})
    table["guard_data"] = sorted(conditions)
    found = {INSTALLED_TABLE: _core(table)}
    for name, condition in sorted(conditions.items()):
        texts = sorted(set(_strings(condition)))
        own = {text: literals[text] for text in texts if text in literals}
        found[f"{GUARD_DATA}/{name}.json"] = _compact({"condition": condition, "literals": own})
    return found
