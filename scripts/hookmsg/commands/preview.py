"""`hookmsg preview NAME [--set key=value ...]`: exactly what the assistant receives."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from hookmsg.config import Project
from hookmsg.errors import EXIT_OK, FindingsError, UsageError
from hookmsg.render.advisory_text import render_advisory
from hookmsg.report import emit, note
from hookmsg.rules.advisory import check as check_advisory
from hookmsg.workspace import load_workspace


def _parse_assignments(assignments: Sequence[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--set takes key=value, got '{item}'")
        values[key.strip()] = value
    return values


def preview(project: Project, name: str, assignments: Sequence[str]) -> int:
    workspace = load_workspace(project)
    messages = workspace.all_messages()
    message = messages.get(name.removesuffix(".md"))
    if message is None:
        raise UsageError(f"unknown message '{name}'; known: {', '.join(sorted(messages))}")
    values = _parse_assignments(assignments)
    registry = workspace.catalogue.registry
    guard = registry.guards.get(message.name) if registry is not None else None
    cap = project.settings.delivered_cap

    if guard is None:
        if values:
            raise UsageError(f"'{message.name}' is not a guard: it takes no --set values")
        text = message.delivered
    else:
        advisory = message.advisory
        if advisory is None:
            raise UsageError(f"guard '{message.name}' has no `## Advisory` section")
        problems = check_advisory(message, workspace.context_for(message, registered=True))
        if problems:
            emit(problems, "text")
            raise FindingsError(f"'{message.name}' cannot be previewed: fix its Advisory first")
        unknown = sorted(set(values) - set(guard.placeholders))
        if unknown:
            declared = ", ".join(sorted(guard.placeholders)) or "none"
            names = ", ".join(unknown)
            raise UsageError(
                f"unknown placeholder {names} for '{message.name}' (declared: {declared})"
            )
        filled = {**guard.placeholders, **values}
        missing = sorted(key for key, value in filled.items() if value == "" and key not in values)
        if missing:
            raise UsageError(f"no value for placeholder {', '.join(missing)}: pass --set KEY=VALUE")
        text = render_advisory(advisory[0], filled, project.relative(message.path))

    sys.stdout.write(text + "\n")
    kind = "advisory" if guard is not None else "delivered text"
    note(f"{message.name}: {kind} of {len(text):,} characters (cap {cap:,})")
    return EXIT_OK
