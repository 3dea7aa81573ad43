"""`hookmsg preview NAME [--set key=value ...] [--harness ID] [--root DIR]`: exactly what the
assistant receives, rendered by the dispatcher itself.

The message runs through the real dispatcher (`local_dispatch`) on the install root this
checkout would install: a guard fires with its `--set` values (else the registry's samples),
cleaned as the dispatcher cleans what a detector found, under "This call went ahead." on
PreToolUse, with its `Full procedure:` path inside `--root` (default: the default install
root). Without `--harness`, the text the first harness that delivers the message receives;
with it, that harness's envelope, as its hook reads it. The size is measured against the
cap, or for the skill index against its budget.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from hookmsg.catalogue.models import Harness
from hookmsg.errors import EXIT_OK, FindingsError, UsageError
from hookmsg.messages.rules.advisory import check as check_advisory
from hookmsg.pipeline.workspace import Workspace, load_workspace
from hookmsg.project.settings import Project
from hookmsg.render.loaded import SKILL_INDEX
from hookmsg.report import emit, note


def _parse_assignments(assignments: Sequence[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--set takes key=value, got '{item}'")
        values[key.strip()] = value
    return values


def _guard_values(workspace: Workspace, name: str, values: dict[str, str]) -> dict[str, str]:
    """The placeholder values a preview fills in: `--set`, else the registry's samples."""
    registry = workspace.catalogue.registry
    guard = registry.guards.get(name) if registry is not None else None
    message = workspace.all_messages()[name]
    if guard is None:
        if values:
            raise UsageError(f"'{name}' is not a guard: it takes no --set values")
        return {}
    if message.advisory is None:
        raise UsageError(f"guard '{name}' has no `## Advisory` section")
    problems = check_advisory(message, workspace.context_for(message, registered=True))
    if problems:
        emit(problems, "text")
        raise FindingsError(f"'{name}' cannot be previewed: fix its Advisory first")
    unknown = sorted(set(values) - set(guard.placeholders))
    if unknown:
        declared = ", ".join(sorted(guard.placeholders)) or "none"
        raise UsageError(
            f"unknown placeholder {', '.join(unknown)} for '{name}' (declared: {declared})"
        )
    filled = {**guard.placeholders, **values}
    missing = sorted(key for key, value in filled.items() if value == "" and key not in values)
    if missing:
        raise UsageError(f"no value for placeholder {', '.join(missing)}: pass --set KEY=VALUE")
    return filled


def _event_of(workspace: Workspace, name: str) -> tuple[str, str | None]:
    """The event (and matcher) the message is first loaded on; SessionStart if unwired."""
    registry = workspace.catalogue.registry
    loaders = registry.loaded_by(name) if registry is not None else []
    if not loaders:
        return "SessionStart", None
    event, matcher = loaders[0]
    return event, (matcher if matcher not in ("", "*") else None)


def _harnesses(workspace: Workspace, wanted: str | None, event: str) -> list[Harness]:
    """The harness asked for, or every harness that delivers `event`, in catalogue order."""
    catalogue = workspace.catalogue.harnesses
    known = [h for h in catalogue.harnesses if h.contract is not None] if catalogue else []
    if wanted is not None:
        found = [h for h in known if h.id == wanted]
        if not found:
            names = ", ".join(h.id for h in known)
            raise UsageError(f"unknown harness '{wanted}'; known: {names}")
        return found
    delivering = [h for h in known if h.contract and event in h.contract.context_events]
    return delivering or known[:1]


def payload_for(harness: Harness, event: str, tool: str | None) -> dict[str, Any]:
    """The smallest payload of `event` in this harness's key style."""
    spelled = harness.events.get(event, event)
    style = harness.contract.payload if harness.contract is not None else "claude"
    tool_name = harness.tools.get(tool, tool) if tool is not None else None
    if style == "copilot":
        data: dict[str, Any] = {"sessionId": "preview", "hookEventName": spelled}
        return data | ({"toolName": tool_name, "toolArgs": {}} if tool_name else {})
    data = {"session_id": "preview", "hook_event_name": spelled, "source": "startup"}
    return data | ({"tool_name": tool_name, "tool_input": {}} if tool_name else {})


def preview(
    project: Project,
    name: str,
    assignments: Sequence[str],
    *,
    harness: str | None = None,
    root: str | None = None,
) -> int:
    from hookmsg.install.identity import content_root
    from hookmsg.install.local_dispatch import local_root

    workspace = load_workspace(project)
    messages = workspace.all_messages()
    name = name.removesuffix(".md")
    if name not in messages:
        raise UsageError(f"unknown message '{name}'; known: {', '.join(sorted(messages))}")
    values = _guard_values(workspace, name, _parse_assignments(assignments))
    event, matcher = _event_of(workspace, name)
    target = _harnesses(workspace, harness, event)[0]

    def found(
        _detector: str, _call: Any, _data: Mapping[str, Any], _root: str, _module: str
    ) -> dict[str, str]:
        return values  # the detector "finds" the preview's values; a condition holds

    argv = ["--contract", target.contract_id, event, name]
    with local_root(workspace, root or content_root(project, workspace)) as local:
        answer = local.call(argv, payload_for(target, event, matcher), evaluate=found)
    for problem in answer.problems:
        note(f"dispatcher: {problem}")
    if not answer.envelope:
        note(f"{target.name} hands the model nothing from {name} on {event}")
        return EXIT_OK
    sys.stdout.buffer.write(answer.envelope if harness else (answer.text + "\n").encode())
    sys.stdout.flush()
    _size_note(project, workspace, name, target, answer.text)
    return EXIT_OK


def _size_note(
    project: Project, workspace: Workspace, name: str, target: Harness, text: str
) -> None:
    registry = workspace.catalogue.registry
    kind = "advisory" if registry is not None and name in registry.guards else "delivered text"
    if name == SKILL_INDEX:
        size = len(text)
        budget = project.settings.skill_index_budget
        note(f"{name}: {target.index_form} form, {size:,} characters (budget {budget:,})")
        return
    cap = project.settings.delivered_cap
    note(f"{name}: {kind} for {target.id}, {len(text):,} characters (cap {cap:,})")
