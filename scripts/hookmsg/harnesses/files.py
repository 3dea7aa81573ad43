"""Where harness knowledge lives, and how a content repository's override merges over it.

The facts about each harness (events, tools, registration formats, dispatcher contracts,
with their evidence) are hookmsg's own data: `data/harnesses.toml` inside the package. A
content repository may add an optional `harnesses.toml` to its catalogue folder, of the same
shape, that adds a harness or overrides facts of a built-in one (see docs/init.md).

Kept to the standard library and to plain TOML data: `dodo.py` derives its targets from the
merged file names on every `doit`, before any model is loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# hookmsg's own harness facts: part of the package, like its code.
BUILTIN_HARNESSES = Path(__file__).resolve().parent.parent / "data" / "harnesses.toml"
# The name of the optional override inside a content repository's catalogue folder.
OVERRIDE_NAME = "harnesses.toml"
# The built-in file is hookmsg's own: read with this bound, whatever the content's setting.
BUILTIN_MAX_BYTES = 1_000_000


def entry_id(entry: object) -> str | None:
    """The `id` of one `[[harnesses]]` table, or None when it has no string id."""
    if isinstance(entry, dict) and isinstance(entry.get("id"), str):
        return str(entry["id"])
    return None


def _fact_key(fact: object) -> tuple[str, str] | None:
    """What a fact is about: its event, or (for a fact about the whole harness) its text."""
    if not isinstance(fact, dict):
        return None
    if isinstance(fact.get("event"), str):
        return ("event", str(fact["event"]))
    if isinstance(fact.get("fact"), str):
        return ("fact", str(fact["fact"]))
    return None


def _merge_facts(base: list[Any], change: list[Any]) -> list[Any]:
    """The override's facts replace the built-in ones about the same event (or same text)."""
    replaced = {key for key in map(_fact_key, change) if key is not None}
    kept = [fact for fact in base if _fact_key(fact) not in replaced]
    return [*kept, *change]


def merge_harness(base: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """`change` over `base`, key by key: each key the override names replaces the built-in
    value whole (a table too, so a key can be taken out of `events`), except `facts`,
    merged fact by fact (`_merge_facts`)."""
    merged = dict(base)
    for key, value in change.items():
        known = base.get(key)
        if key == "facts" and isinstance(value, list) and isinstance(known, list):
            merged[key] = _merge_facts(known, value)
        else:
            merged[key] = value
    return merged


def overridden_views(builtin: list[Any], override: list[Any]) -> list[Any]:
    """Each override entry as it stands once merged over the built-in harness it names.

    Entry for entry in the override's order (an entry naming no built-in harness is a new
    harness, left as it is), so a finding about view `i` is located at the override's
    `i`-th `[[harnesses]]` table.
    """
    known = {entry_id(entry): entry for entry in builtin if entry_id(entry) is not None}
    views = []
    for entry in override:
        base = known.get(entry_id(entry))
        views.append(merge_harness(base, entry) if base is not None else entry)
    return views


def merged_harnesses(builtin: list[Any], override: list[Any]) -> list[Any]:
    """The built-in harnesses with the override's entries merged in (new ones at the end)."""
    result = list(builtin)
    place = {entry_id(entry): index for index, entry in enumerate(builtin)}
    for entry in override:
        index = place.get(entry_id(entry)) if entry_id(entry) is not None else None
        if index is None:
            place[entry_id(entry)] = len(result)
            result.append(entry)
        else:
            result[index] = merge_harness(result[index], entry)
    return result
