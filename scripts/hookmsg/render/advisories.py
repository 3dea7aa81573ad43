"""`advisories.json`: every guard's Advisory template, for the dispatcher."""

from __future__ import annotations

from typing import Any

from hookmsg.render.advisory import FULL_PROCEDURE
from hookmsg.render.jsonout import dump_json
from hookmsg.rules.advisory import scan_template
from hookmsg.workspace import Workspace


def advisories_data(workspace: Workspace) -> dict[str, Any]:
    registry = workspace.catalogue.registry
    entries = []
    if registry is not None:
        for name in sorted(registry.guards):
            message = workspace.messages.get(name)
            advisory = message.advisory if message is not None else None
            if message is None or advisory is None:
                continue
            template = advisory[0]
            file = workspace.project.relative(message.path)
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


def render_advisories(workspace: Workspace) -> str:
    return dump_json(advisories_data(workspace))
