"""`advisories.json`: every guard's Advisory template, for the dispatcher."""

from __future__ import annotations

from typing import Any

from hookmsg.jsonout import dump_json
from hookmsg.messages.template import scan_template
from hookmsg.render.advisory_text import FULL_PROCEDURE
from hookmsg.render.loaded import LoadedProject


def advisories_data(loaded: LoadedProject) -> dict[str, Any]:
    registry = loaded.catalogue.registry
    entries = []
    for name in sorted(registry.guards):
        message = loaded.authored.get(name)
        advisory = message.advisory if message is not None else None
        if message is None or advisory is None:
            continue
        template = advisory[0]
        file = loaded.project.relative(message.path)
        placeholders = sorted({p.name for p in scan_template(template).placeholders})
        entries.append(
            {
                "name": name,
                "file": file,
                "loaded_by": [
                    {"event": event, "matcher": matcher}
                    for event, matcher in registry.loaded_by(name)
                ],
                "template": template,
                "placeholders": placeholders,
                "full_procedure": FULL_PROCEDURE.format(file=file),
            }
        )
    return {"advisories": entries}


def render_advisories(loaded: LoadedProject) -> str:
    return dump_json(advisories_data(loaded))
