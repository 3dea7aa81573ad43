"""The hook message inventory, as a Markdown table and as JSON."""

from __future__ import annotations

from typing import Any

from hookmsg.harnesses.delivery import delivery_policy, why_not_delivered
from hookmsg.jsonout import dump_json
from hookmsg.messages.template import scan_template
from hookmsg.render.loaded import SKILL_INDEX, LoadedProject
from hookmsg.render.templates import render
from hookmsg.vocabulary import EVENTS, EVERY, TOOL_EVENTS


def _kind(loaded: LoadedProject, name: str) -> str:
    registry = loaded.catalogue.registry
    if name == SKILL_INDEX:
        return "generated"
    return "guard" if name in registry.guards else "context"


def inventory_data(loaded: LoadedProject) -> dict[str, Any]:
    registry = loaded.catalogue.registry
    harnesses = loaded.catalogue.harnesses.harnesses
    cap = loaded.project.settings.delivered_cap
    from hookmsg.harnesses.registration_plan import registered_messages

    surfaces = {
        h.id: registered_messages(h, registry) for h in harnesses if h.registration is not None
    }
    rows = []
    for name, message in sorted(loaded.all_messages().items()):
        loaded_by = registry.loaded_by(name)
        delivered, missed = [], []
        for harness in harnesses:
            reasons = [why_not_delivered(harness, event, matcher) for event, matcher in loaded_by]
            if any(reason is None for reason in reasons):
                delivered.append(harness.id)
            elif reasons:
                missed.append({"harness": harness.id, "reason": reasons[0]})
        advisory = message.advisory
        placeholders = (
            sorted({p.name for p in scan_template(advisory[0]).placeholders}) if advisory else []
        )
        rows.append(
            {
                "name": name,
                "file": message.display,
                "kind": _kind(loaded, name),
                "loaded_by": [{"event": e, "matcher": m} for e, m in loaded_by],
                "unwired": registry.unwired.get(name),
                "delivered_by": delivered,
                "registered_on": [hid for hid, names in surfaces.items() if name in names],
                "not_delivered_by": missed,
                "size": len(message.delivered),
                "placeholders": placeholders,
                "description": message.title or "",
            }
        )
    used = {e for h in harnesses for e in [*h.events, *h.deny_events]} | {
        entry.event for entry in registry.dispatch
    }
    return {
        "cap": cap,
        "events": [event for event in EVENTS if event in used],
        "harnesses": [
            {
                "id": h.id,
                "name": h.name,
                "events": dict(sorted(h.events.items())),
                "deny_events": dict(sorted(h.deny_events.items())),
                "checked": h.checked,
                "delivery_policy": delivery_policy(h),
                "facts": [fact.model_dump() for fact in h.facts],
            }
            for h in harnesses
        ],
        "messages": rows,
        "skills": skill_rows(loaded),
    }


def skill_rows(loaded: LoadedProject) -> list[dict[str, Any]]:
    """Every skill and command the catalogue knows, with the file that defines it."""
    entries = loaded.catalogue.entries
    skills = loaded.catalogue.skills
    rows = [
        {
            "name": entry.name,
            "kind": entry.kind,
            "group": entry.group,
            "manual": entry.manual,
            "source": entry.source,
            "omitted": skills.omit.get(entry.name),
        }
        for entry in [*entries.entries, *entries.omitted]
    ]
    return sorted(rows, key=lambda row: row["name"])


_CELL_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def cell(text: str) -> str:
    """Make text safe inside a Markdown table cell: one line, pipes and HTML escaped."""
    flat = "".join(_CELL_ENTITIES.get(c, c) for c in " ".join(text.split()))
    return flat.replace("\\", "\\\\").replace("|", "\\|") or "—"


def _loaded(event: str, matcher: str) -> str:
    return event if matcher == EVERY and event not in TOOL_EVENTS else f"{event} {matcher}"


def render_inventory_json(loaded: LoadedProject) -> str:
    return dump_json(inventory_data(loaded))


def render_inventory_markdown(loaded: LoadedProject) -> str:
    data = inventory_data(loaded)
    rows, gaps = _message_rows(data)
    harnesses = data["harnesses"]
    return render(
        "hook-message-inventory.md.j2",
        licence_line=loaded.project.settings.licence_line,
        rows=rows,
        gaps=gaps,
        events=data["events"],
        matrix=[
            [cell(h["name"]), *[cell(_spelled(h, event)) for event in data["events"]]]
            for h in harnesses
        ],
        policies=[[cell(h["name"]), cell(h["delivery_policy"])] for h in harnesses],
        skills=_skill_rows(data),
        facts=_fact_rows(harnesses),
        # A `checked` version is one the end-to-end tier runs live (tests/test_e2e_clients.py).
        checked=[[cell(h["name"]), _checked(h)] for h in harnesses],
    )


def _message_rows(data: dict[str, Any]) -> tuple[list[list[str]], list[tuple[str, str]]]:
    """One table row per message, and the harnesses that do not deliver each loaded one."""
    cap = data["cap"]
    rows = []
    gaps = []
    for row in data["messages"]:
        loaders = [_loaded(item["event"], item["matcher"]) for item in row["loaded_by"]]
        if row["unwired"]:
            loaders.append(f"unwired: {row['unwired']}")
        rows.append(
            [
                f"`{row['name']}`",
                row["kind"],
                cell("; ".join(loaders)),
                cell(", ".join(row["delivered_by"])),
                cell(", ".join(row["registered_on"])),
                f"{row['size']:,} / {cap:,}",
                cell(", ".join(f"`{p}`" for p in row["placeholders"])),
                cell(row["description"]),
            ]
        )
        if row["not_delivered_by"] and row["loaded_by"]:
            reasons: dict[str, list[str]] = {}
            for item in row["not_delivered_by"]:
                reasons.setdefault(item["reason"], []).append(item["harness"])
            gaps.append(
                (
                    row["name"],
                    "; ".join(f"{', '.join(ids)} ({reason})" for reason, ids in reasons.items()),
                )
            )
    return rows, gaps


def _skill_rows(data: dict[str, Any]) -> list[list[str]]:
    return [
        [
            f"`{row['name']}`",
            row["kind"],
            cell(f"left out: {row['omitted']}" if row["omitted"] else row["group"] or ""),
            "user" if row["manual"] else "model",
            f"`{cell(row['source'])}`",
        ]
        for row in data["skills"]
    ]


def _spelled(harness: dict[str, Any], event: str) -> str:
    """How a harness spells an event, and whether it only takes a deny there."""
    if event in harness["deny_events"]:
        return f"{harness['deny_events'][event]} (deny only: `install --strict`)"
    return str(harness["events"].get(event, ""))


def _checked(harness: dict[str, Any]) -> str:
    return f"live: {cell(harness['checked'])}" if harness["checked"] else "documentation only"


def _fact_rows(harnesses: list[dict[str, Any]]) -> list[list[str]]:
    return [
        [
            cell(h["name"]),
            cell(fact["event"] or "(all)"),
            {True: "yes", False: "no", None: "—"}[fact["delivered"]],
            cell(fact["since"] or ""),
            cell(fact["fact"]),
            cell(fact["evidence"]),
        ]
        for h in harnesses
        for fact in h["facts"]
    ]
