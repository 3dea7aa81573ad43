"""Catalogue rules: C001-C006 and C013 on the catalogue files, I001/I002 on the harness facts.

The loader (`loading.py`) parses each file with its model and calls these on what it
found; the registry's links to message files are the wiring rules (`rules/wiring.py`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from hookmsg.catalogue.models import (
    Contract,
    Fact,
    Harness,
    HarnessCatalogue,
    HookRegistry,
    SkillCatalogue,
)
from hookmsg.catalogue.rules.xcsh import check_xcsh_harness
from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic
from hookmsg.tomlpos import locate
from hookmsg.vocabulary import EVENTS, TOOL_EVENTS, TOOLS, matcher_key

_ENTRY_KEYS = ("name", "id", "event")


def _describe(data: Any, loc: tuple[str | int, ...]) -> str:
    """'skills entry 4 (name 'plan'), field 'manual'' from a pydantic location."""
    words: list[str] = []
    node = data
    for index, part in enumerate(loc):
        if isinstance(part, int):
            label = f"entry {part + 1}"
            item = node[part] if isinstance(node, list) and part < len(node) else None
            if isinstance(item, dict):
                for key in _ENTRY_KEYS:
                    if isinstance(item.get(key), str):
                        label += f" ({key} '{item[key]}')"
                        break
            words.append(label)
            node = item
        else:
            is_last = index == len(loc) - 1
            words.append(f"field '{part}'" if is_last else f"'{part}'")
            node = node.get(part) if isinstance(node, dict) else None
    return ", ".join(words) if words else "top level"


def missing(display: str) -> Diagnostic:
    """C003: the catalogue file does not exist."""
    return Diagnostic(display, 1, 1, "C003", "catalogue file is missing")


def not_toml(display: str, line: int, col: int, message: str) -> Diagnostic:
    """C001: the file is not valid TOML (`message` says where and why)."""
    return Diagnostic(display, line, col, "C001", message)


def schema_errors(
    display: str, data: Any, text: str, errors: Iterable[tuple[tuple[str | int, ...], str]]
) -> list[Diagnostic]:
    """C002 for each (location, message) the file's model rejected, naming entry and field."""
    return [
        Diagnostic(display, locate(text, loc), 1, "C002", f"{_describe(data, loc)}: {message}")
        for loc, message in errors
    ]


def _duplicates(
    names: list[str], what: str, display: str, line_of: Callable[[int], int]
) -> list[Diagnostic]:
    counts = Counter(names)
    seen: set[str] = set()
    found = []
    for index, name in enumerate(names):
        if counts[name] > 1 and name in seen:
            found.append(
                Diagnostic(display, line_of(index), 1, "C004", f"{what} '{name}' is defined twice")
            )
        seen.add(name)
    return found


def check_skills(skills: SkillCatalogue, text: str, display: str) -> list[Diagnostic]:
    found = _duplicates(
        [g.id for g in skills.groups], "task group", display, lambda i: locate(text, ("groups", i))
    )
    found += _duplicates(
        [s.name for s in skills.skills], "skill", display, lambda i: locate(text, ("skills", i))
    )
    return found


def _check_facts(harness: Harness, index: int, text: str, display: str) -> list[Diagnostic]:
    """Once a harness records facts, every delivered event carries one with its evidence;
    no fact contradicts the event lists."""
    found = []
    for number, fact in enumerate(harness.facts):
        where = locate(text, ("harnesses", index, "facts", number))
        problem = _fact_problem(harness, fact)
        if problem is not None:
            found.append(Diagnostic(display, where, 1, *problem))
    return found + _check_evidence(harness, index, text, display)


def _fact_problem(harness: Harness, fact: Fact) -> tuple[Code, str] | None:
    """C005 for a fact about an unknown event, I002 for one the event lists contradict."""
    if fact.event is not None and fact.event not in EVENTS:
        return "C005", f"harness '{harness.id}' has a fact about unknown event '{fact.event}'"
    if fact.delivered is None:
        return None
    if fact.event is None:
        return "I002", f"harness '{harness.id}': a fact with `delivered` must name its event"
    if fact.delivered != (fact.event in harness.events):
        listed = "lists" if fact.event in harness.events else "does not list"
        return (
            "I002",
            f"harness '{harness.id}' {listed} {fact.event} among its delivered events, "
            f"but its fact says delivered = {str(fact.delivered).lower()}",
        )
    return None


def _check_evidence(harness: Harness, index: int, text: str, display: str) -> list[Diagnostic]:
    """I001 for a delivered event with no fact, I002 for one both delivered and deny-only."""
    found = []
    evidenced = {f.event for f in harness.facts if f.delivered}
    # A harness that records its facts records them all: each delivered event has one.
    for event in harness.events if harness.facts else ():
        if event in EVENTS and event not in evidenced:
            found.append(
                Diagnostic(
                    display,
                    locate(text, ("harnesses", index, "events", event)),
                    1,
                    "I001",
                    f"harness '{harness.id}' delivers {event} without a fact giving its "
                    "evidence (add a [[harnesses.facts]] entry with delivered = true)",
                )
            )
    for event in harness.deny_events:
        if event in harness.events:
            found.append(
                Diagnostic(
                    display,
                    locate(text, ("harnesses", index, "deny_events", event)),
                    1,
                    "I002",
                    f"harness '{harness.id}' lists {event} both as delivered and as deny-only",
                )
            )
    return found


def check_harnesses(harnesses: HarnessCatalogue, text: str, display: str) -> list[Diagnostic]:
    found = _duplicates(
        [h.id for h in harnesses.harnesses],
        "harness",
        display,
        lambda i: locate(text, ("harnesses", i)),
    )
    for index, harness in enumerate(harnesses.harnesses):
        fold = harness.registration.fold if harness.registration is not None else None
        if fold is not None:
            for tool in fold.tools:
                if tool not in TOOLS:
                    found.append(
                        Diagnostic(
                            display,
                            locate(text, ("harnesses", index, "registration", "fold")),
                            1,
                            "C005",
                            f"harness '{harness.id}' folds unknown tool '{tool}'",
                        )
                    )
        found += _check_facts(harness, index, text, display)
        for kind, keys, known in (
            ("event", harness.events, EVENTS),
            ("event", harness.deny_events, EVENTS),
            ("tool", harness.tools, TOOLS),
        ):
            for key in keys:
                if key not in known:
                    found.append(
                        Diagnostic(
                            display,
                            locate(text, ("harnesses", index, f"{kind}s", key)),
                            1,
                            "C005",
                            f"harness '{harness.id}' names unknown {kind} '{key}'; "
                            f"known: {', '.join(known)}",
                        )
                    )
        found += check_xcsh_harness(harness, index, text, display)
        found += _check_contract(harness, index, text, display)
    found += _shared_contracts(harnesses, text, display)
    return found


def _check_contract(harness: Harness, index: int, text: str, display: str) -> list[Diagnostic]:
    contract = harness.contract
    where = ("harnesses", index, "contract")
    if contract is None:
        if harness.registration is None:
            return []
        problem = f"harness '{harness.id}' has a registration but no [harnesses.contract]"
        return [Diagnostic(display, locate(text, ("harnesses", index)), 1, "C002", problem)]
    found = []
    named = [("event", name, EVENTS) for name in contract.context_events]
    named += [("tool", name, TOOLS) for name in contract.tools.values()]
    for kind, name, known in named:
        if name not in known:
            found.append(
                Diagnostic(
                    display,
                    locate(text, where),
                    1,
                    "C005",
                    f"harness '{harness.id}' contract names unknown {kind} '{name}'; "
                    f"known: {', '.join(known)}",
                )
            )
    return found


def _shared_contracts(harnesses: HarnessCatalogue, text: str, display: str) -> list[Diagnostic]:
    """Harnesses that share a contract id must state the same contract."""
    first: dict[str, Contract | None] = {}
    found = []
    for index, harness in enumerate(harnesses.harnesses):
        if harness.contract is None:
            continue
        key = harness.contract_id
        if key not in first:
            first[key] = harness.contract
        elif first[key] != harness.contract:
            found.append(
                Diagnostic(
                    display,
                    locate(text, ("harnesses", index, "contract")),
                    1,
                    "C004",
                    f"contract '{key}' is defined twice, differently (harness '{harness.id}')",
                )
            )
    return found


def check_matchers(registry: HookRegistry, text: str, display: str) -> list[Diagnostic]:
    """A tool event's matcher names only known tools (else it silently never fires)."""
    found = []
    for index, entry in enumerate(registry.dispatch):
        if entry.event not in TOOL_EVENTS or matcher_key(entry.matcher) == "*":
            continue
        for name in (entry.matcher or "").split("|"):
            if name not in TOOLS:
                found.append(
                    Diagnostic(
                        display,
                        locate(text, ("dispatch", index, "matcher")),
                        1,
                        "C005",
                        f"matcher names unknown tool '{name}'; known: {', '.join(TOOLS)}",
                    )
                )
    return found


# Keys of a harness that only describe it to people: changing them needs no evidence.
_DESCRIPTIVE = frozenset({"id", "name", "notes", "wiring", "facts"})


def unevidenced_overrides(
    builtin: list[Any], entries: list[Any], views: list[Any], text: str, display: str
) -> list[Diagnostic]:
    """C013 for each override entry that changes a built-in harness's facts with no evidence.

    `views[i]` is `entries[i]` merged over the built-in harness it names. A change counts
    when a key other than the descriptive ones ends up different; evidence is at least one
    `[[harnesses.facts]]` entry in the override entry (each fact names its evidence).
    """
    known = {h["id"]: h for h in builtin if isinstance(h, dict) and isinstance(h.get("id"), str)}
    found = []
    for index, (entry, view) in enumerate(zip(entries, views, strict=True)):
        base = known.get(entry.get("id")) if isinstance(entry, dict) else None
        if base is None or entry.get("facts"):
            continue
        changed = sorted(k for k in view if k not in _DESCRIPTIVE and view[k] != base.get(k))
        if changed:
            found.append(
                Diagnostic(
                    display,
                    locate(text, ("harnesses", index)),
                    1,
                    "C013",
                    f"override of built-in harness '{base['id']}' changes "
                    f"{', '.join(changed)} with no evidence (add a [[harnesses.facts]] "
                    "entry saying what shows it)",
                )
            )
    return found


def contracts_against_builtin(
    builtin: HarnessCatalogue, views: HarnessCatalogue, text: str, display: str
) -> list[Diagnostic]:
    """C004 for an override entry whose contract id a built-in harness it leaves alone
    states differently (the entries among themselves: `check_harnesses`)."""
    named = {view.id for view in views.harnesses}
    kept = {
        harness.contract_id: harness.contract
        for harness in builtin.harnesses
        if harness.contract is not None and harness.id not in named
    }
    found = []
    for index, view in enumerate(views.harnesses):
        key = view.contract_id
        if view.contract is not None and key in kept and kept[key] != view.contract:
            found.append(
                Diagnostic(
                    display,
                    locate(text, ("harnesses", index, "contract")),
                    1,
                    "C004",
                    f"contract '{key}' is defined twice, differently (harness '{view.id}' "
                    "and a built-in harness)",
                )
            )
    return found
