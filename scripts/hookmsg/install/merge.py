"""Merge our registration into a harness's settings document, or take it out again.

Which entries are ours: every item (matcher group, handler or hook object) holding a
command that runs `<root>/<script>` through the fail-open bootstrap. A user's own
`dispatch.py`, run any other way, is not ours. Ours are replaced in place (where the
first of them stood), never duplicated; everything else keeps its order and value.

How a format holds its hooks is table data (CONTAINERS): adding a surface is one entry.
"""

from __future__ import annotations

from typing import Any, Literal

from hookmsg.diagnostics import Diagnostic
from hookmsg.harnesses.registration_plan import boot_prefix, command_strings
from hookmsg.install.jsonfile import JsonRefusal

# `events`: "hooks" maps an event to a list of items; `list`: "hooks" is a list of items.
Container = Literal["events", "list"]
CONTAINERS: dict[str, Container] = {
    "claude-settings": "events",
    "claude-plugin": "events",
    "claude-compatible": "events",
    "codex": "events",
    "qwen": "events",
    "devin": "events",
    "copilot": "events",
    "cursor": "events",
    "kiro": "list",
    "gemini": "events",
}
HOOKS = "hooks"


def command_target(command: str) -> tuple[str, str] | None:
    """(interpreter, dispatcher path) of a command run through BOOT; None otherwise."""
    prefix = boot_prefix(command)
    if prefix is None:
        return None
    body = command[2:] if command.startswith("& ") else command
    python = body[1:].split('"', 1)[0]
    dispatcher = body[len(prefix) :].split('"', 1)[0]
    return python, dispatcher


def is_ours(item: Any, script: str) -> bool:
    for command in command_strings(item):
        target = command_target(command)
        if target is not None and target[1].endswith("/" + script):
            return True
    return False


def _refuse(display: str, message: str) -> JsonRefusal:
    return JsonRefusal(Diagnostic(display, 1, 1, "I005", message))


def check_shape(
    document: Any, container: Container, display: str, top_level_keys: list[str]
) -> None:
    if not isinstance(document, dict):
        raise _refuse(display, "the file is not a JSON object")
    if top_level_keys:
        extra = [key for key in document if key not in top_level_keys]
        if extra:
            raise _refuse(
                display,
                f"top-level key '{extra[0]}' is not one of {', '.join(top_level_keys)}; "
                "the harness would ignore the whole file",
            )
    hooks = document.get(HOOKS)
    if hooks is None:
        return
    if container == "list":
        if not isinstance(hooks, list):
            raise _refuse(display, "'hooks' is not a list")
        return
    if not isinstance(hooks, dict):
        raise _refuse(display, "'hooks' is not an object")
    for event, items in hooks.items():
        if not isinstance(items, list):
            raise _refuse(display, f"'hooks.{event}' is not a list")


def _replace(items: list[Any], new: list[Any], script: str) -> list[Any]:
    """`items` with ours taken out and `new` put where the first of ours stood (else last)."""
    kept: list[Any] = []
    position: int | None = None
    for item in items:
        if not is_ours(item, script):
            kept.append(item)
            continue
        handlers = item.get(HOOKS) if isinstance(item, dict) else None
        if isinstance(handlers, list) and any(not is_ours(h, script) for h in handlers):
            # A group that also holds someone else's handlers: keep it, without ours.
            kept.append({**item, HOOKS: [h for h in handlers if not is_ours(h, script)]})
        if position is None:
            position = len(kept)
    if position is None:
        position = len(kept)
    return kept[:position] + new + kept[position:]


def merge(
    document: dict[str, Any],
    ours: dict[str, Any],
    container: Container,
    script: str,
    created: frozenset[str] | None = None,
) -> dict[str, Any]:
    """`document` with our registration `ours` merged in; `document` is not changed.

    `created`: the event lists an earlier install added (None: not known). An event no
    longer registered loses our entries; its list goes only when install had added it
    (or, not known, when it held nothing but ours): a user's own empty list stays.
    """
    result = dict(document)
    for key, value in ours.items():
        if key != HOOKS and key not in result:
            result[key] = value
    if container == "list":
        result[HOOKS] = _replace(list(document.get(HOOKS, [])), list(ours[HOOKS]), script)
        return result
    hooks: dict[str, Any] = dict(document.get(HOOKS, {}))
    for event in list(hooks):
        if event not in ours[HOOKS]:
            left = _replace(hooks[event], [], script)
            if left or not _ours_to_drop(event, hooks[event], created):
                hooks[event] = left
            else:
                del hooks[event]
    for event, items in ours[HOOKS].items():
        hooks[event] = _replace(hooks.get(event, []), list(items), script)
    result[HOOKS] = hooks
    return result


def _ours_to_drop(event: str, items: list[Any], created: frozenset[str] | None) -> bool:
    """Whether an event list left empty by taking our entries out goes too."""
    if created is not None:
        return event in created
    return bool(items)  # not known: a list that held only ours was ours


def added_by_merge(document: dict[str, Any], ours: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(top-level keys, event lists) that merging `ours` into `document` adds."""
    keys = [key for key in ours if key not in document]
    hooks = document.get(HOOKS)
    registered = ours.get(HOOKS)
    events = []
    if isinstance(registered, dict):
        present = hooks if isinstance(hooks, dict) else {}
        events = [event for event in registered if event not in present]
    return keys, events


def remove(
    document: dict[str, Any],
    container: Container,
    script: str,
    *,
    created: frozenset[str] | None = None,
    added: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`document` without our entries.

    `created`: event lists install added, removed once empty (None: not known, and a
    list that held only ours is removed). `added`: top-level keys install added, with
    the values it wrote: each is removed while it still holds that value (`hooks` while
    it is empty); a user's own keys and empty lists stay.
    """
    result = dict(document)
    if HOOKS in result:
        if container == "list":
            result[HOOKS] = _replace(list(document[HOOKS]), [], script)
        else:
            hooks: dict[str, Any] = {}
            for event, items in document[HOOKS].items():
                left = _replace(items, [], script)
                if left or not _ours_to_drop(event, items, created):
                    hooks[event] = left
            result[HOOKS] = hooks
    for key, value in (added or {}).items():
        if key not in result:
            continue
        if key == HOOKS:
            if result[key] in ({}, []):
                del result[key]
        elif result[key] == value and type(result[key]) is type(value):
            del result[key]
    return result


def our_commands(document: Any, script: str) -> list[str]:
    """Every command of ours in the document, in order."""
    hooks = document.get(HOOKS) if isinstance(document, dict) else None
    items: list[Any] = []
    if isinstance(hooks, list):
        items = hooks
    elif isinstance(hooks, dict):
        items = [item for value in hooks.values() if isinstance(value, list) for item in value]
    return [
        command
        for item in items
        if is_ours(item, script)
        for command in command_strings(item)
        if command_target(command) is not None
    ]


def only_ours_left(document: dict[str, Any], ours: dict[str, Any]) -> bool:
    """True when nothing but our own keys with our own values, and no hooks, is left."""
    hooks = document.get(HOOKS)
    if hooks:
        return False
    return all(key == HOOKS or ours.get(key) == value for key, value in document.items())
