"""What install will change in a project's settings file, and what uninstall takes out:
read and decided before anything is written, with the record that lets it be undone."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hookmsg.catalogue.models import Harness, HookRegistry
from hookmsg.install import record as records
from hookmsg.install.merge import HOOKS, added_by_merge, command_target, merge, our_commands
from hookmsg.install.merge import remove as remove_ours
from hookmsg.install.record import Record
from hookmsg.install.steps import Change
from hookmsg.install.target import HarnessSettingsFile, fill_tokens, read_settings
from hookmsg.render.registrations import registration_data


def installed_root(settings: HarnessSettingsFile) -> str | None:
    """The install root the file's registration runs now (None: none, or several)."""
    targets = {command_target(c) for c in our_commands(settings.document, settings.script)}
    if len(targets) != 1:
        return None
    found = next(iter(targets))
    if found is None:
        return None
    return found[1][: -len("/" + settings.script)]


@dataclass(frozen=True)
class SettingsPlan:
    settings: HarnessSettingsFile
    change: Change
    record: Record
    previous: str | None  # the root the file pointed at before


def plan_settings(
    harness: Harness,
    registry: HookRegistry,
    project: str,
    *,
    tokens: dict[str, str],
    strict: bool,
) -> SettingsPlan:
    """The merge of our registration into the project's settings file (JsonRefusal when
    the file cannot be reached or kept exactly)."""
    settings = read_settings(harness, registry, project)
    previous = installed_root(settings)
    before = records.load(Path(previous), project, harness.id) if previous else None
    ours = fill_tokens(registration_data(harness, registry, strict=strict), tokens)
    known: frozenset[str] | None = frozenset(before.events) if before is not None else None
    if before is None and not our_commands(settings.document, settings.script):
        known = frozenset()  # nothing of ours is there: every list in the file is the user's
    merged = merge(settings.document, ours, settings.container, settings.script, known)
    keys, events = added_by_merge(settings.document, ours)
    base = Record(
        os.path.realpath(project),
        harness.id,
        settings=harness.registration.project_file if harness.registration else None,
        settings_created=settings.raw is None,
    )
    start = before if before is not None else base
    hooks = merged.get(HOOKS)
    kept_events = [e for e in start.events if isinstance(hooks, dict) and e in hooks]
    record = replace(
        start,
        keys=tuple(dict.fromkeys([*start.keys, *keys])),
        events=tuple(dict.fromkeys([*kept_events, *events])),
    )
    change = Change(settings.target, settings.raw, settings.render(merged))
    return SettingsPlan(settings, change, record, previous)


def unmerged(
    settings: HarnessSettingsFile, record: Record | None, ours: dict[str, Any]
) -> dict[str, Any]:
    """The settings document without our entries, guided by the record when there is one."""
    if record is None:
        return remove_ours(settings.document, settings.container, settings.script)
    return remove_ours(
        settings.document,
        settings.container,
        settings.script,
        created=frozenset(record.events),
        added={key: ours.get(key) for key in record.keys},
    )
