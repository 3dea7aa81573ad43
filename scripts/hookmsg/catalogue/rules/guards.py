"""Guard data rules: U001-U007 on `catalog/guards.toml`, each table and its references."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from hookmsg.catalogue.guards import (
    DETECTORS,
    EvalData,
    GuardEntry,
    LoadedGuards,
    MatchData,
    regexes,
)
from hookmsg.catalogue.models import HookRegistry
from hookmsg.catalogue.regexcheck import nested_quantifier
from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic
from hookmsg.tomlpos import locate
from hookmsg.vocabulary import TOOLS


@dataclass(frozen=True)
class _At:
    """Places a finding about guard `name` at a key of its table in the guard data."""

    name: str
    text: str
    display: str

    def __call__(self, loc: tuple[str | int, ...], code: Code, message: str) -> Diagnostic:
        return Diagnostic(self.display, locate(self.text, (self.name, *loc)), 1, code, message)


def check_entry(
    name: str, raw: Any, text: str, display: str
) -> tuple[GuardEntry | None, list[Diagnostic]]:
    at = _At(name, text, display)
    data, found = _validate(name, raw, at)
    if data is None:
        return None, found
    found += _regex_findings(name, data, at)
    if isinstance(data, EvalData):
        found += _language_findings(name, data, at)
    if isinstance(data, MatchData):
        found += [
            at(
                ("rules",),
                "U012",
                f"'{name}': rule '{rule.name}' names no paths, content or command",
            )
            for rule in data.rules
            if not rule.paths and rule.content is None and rule.command is None
        ]
    return (data if not found else None), found


def _validate(name: str, raw: Any, at: _At) -> tuple[GuardEntry | None, list[Diagnostic]]:
    """U001 and U002: the table names a known detector and has the shape its model wants."""
    if not isinstance(raw, dict):
        return None, [at((), "U002", f"'{name}' must be a table with a `detector` key")]
    detector = raw.get("detector")
    spec = DETECTORS.get(detector) if isinstance(detector, str) else None
    if spec is None:
        known = ", ".join(DETECTORS)
        return None, [
            at(("detector",), "U001", f"'{name}': unknown detector {detector!r}; known: {known}")
        ]
    try:
        return spec.model.model_validate(raw), []
    except ValidationError as error:
        return None, [
            at(
                tuple(str(part) for part in item["loc"]),
                "U002",
                f"'{name}' ({detector}), {'.'.join(str(p) for p in item['loc']) or 'table'}: "
                f"{item['msg']}",
            )
            for item in error.errors()
        ]


def _regex_findings(name: str, data: GuardEntry, at: _At) -> list[Diagnostic]:
    """U003 for a pattern that does not compile, U004 for one that can take exponential time."""
    found: list[Diagnostic] = []
    for loc, source in regexes(data):
        try:
            re.compile(source, re.MULTILINE)
        except re.error as error:
            found.append(at(loc, "U003", f"'{name}', {'.'.join(loc)}: {error}"))
            continue
        position = nested_quantifier(source)
        if position is not None:
            found.append(
                at(
                    loc,
                    "U004",
                    f"'{name}', {'.'.join(loc)}: a repeated group holds an unbounded quantifier "
                    f"(at character {position + 1}); it can take exponential time",
                )
            )
    return found


def _language_findings(name: str, data: EvalData, at: _At) -> list[Diagnostic]:
    """U007 for an unknown tool, and for a tool or interpreter read as an undefined language."""
    found: list[Diagnostic] = []
    for tool, language in data.commands.items():
        if tool not in TOOLS:
            found.append(at(("commands", tool), "U007", f"'{name}': unknown tool '{tool}'"))
        if language not in data.languages:
            found.append(
                at(
                    ("commands", tool),
                    "U007",
                    f"'{name}': tool '{tool}' is read as undefined language '{language}'",
                )
            )
    for program, language in data.interpreters.items():
        if language not in data.languages:
            found.append(
                at(
                    ("interpreters", program),
                    "U007",
                    f"'{name}': interpreter '{program}' is read as undefined language '{language}'",
                )
            )
    return found


def dead_guards(
    raw: dict[str, Any], registry: HookRegistry, registry_text: str, registry_display: str
) -> list[Diagnostic]:
    """U008: a wired guard with no table in the guard data has no detector: it would ship
    dead, silent on every call (the dispatcher says so only at run time)."""
    wired = registry.wired_names()
    return [
        Diagnostic(
            registry_display,
            locate(registry_text, ("guards", name)),
            1,
            "U008",
            f"guard '{name}' has no table in catalog/guards.toml, so no detector: it would never "
            "fire; add `[" + name + ']` with a `detector` ("match" for paths, patterns and '
            "commands) and its data",
        )
        for name in sorted(registry.guards)
        if name in wired and name not in raw
    ]


def check_references(
    loaded: LoadedGuards,
    registry: HookRegistry,
    registry_display: str,
    messages: set[str],
    registry_text: str = "",
) -> list[Diagnostic]:
    """U005, U006: each table names a wired message of the right kind, and the placeholders
    its detector fills are those the registry declares; U008: every wired guard has one."""
    found: list[Diagnostic] = []
    text, display = loaded.text, loaded.display
    try:
        raw = tomllib.loads(text) if text else {}
    except tomllib.TOMLDecodeError:
        return []
    wired = registry.wired_names()
    found += dead_guards(raw, registry, registry_text, registry_display)
    for name, table in raw.items():
        detector = table.get("detector") if isinstance(table, dict) else None
        spec = DETECTORS.get(detector) if isinstance(detector, str) else None
        line = locate(text, (name,))

        def at(code: Code, message: str, line: int = line) -> None:
            found.append(Diagnostic(display, line, 1, code, message))

        if name not in messages:
            at("U005", f"'{name}' names no message")
            continue
        if spec is None:
            continue
        if spec.condition:
            if name in registry.guards or name not in wired:
                at("U005", f"'{name}': a {detector} condition needs a wired context message")
            continue
        if name not in registry.guards or name not in wired:
            at("U005", f"'{name}' is not a wired guard in {registry_display}")
            continue
        declared = set(registry.guards[name].placeholders)
        if declared != spec.placeholders:
            at(
                "U006",
                f"'{name}': detector '{detector}' fills {sorted(spec.placeholders)}, but the "
                f"registry declares {sorted(declared)}",
            )
    return found
