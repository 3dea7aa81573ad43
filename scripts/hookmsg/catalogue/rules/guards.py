"""Guard data rules: U001-U008 and U012 on the guard files (`catalog/guards/<name>.toml`):
each condition, and each file against its message and its detector."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from hookmsg.catalogue.guards import (
    EvalData,
    GuardEntry,
    MatchData,
    detectors,
    regexes,
)
from hookmsg.catalogue.models import HookRegistry
from hookmsg.catalogue.regexcheck import nested_quantifier
from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic
from hookmsg.tomlpos import locate
from hookmsg.vocabulary import TOOLS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from hookmsg.catalogue.guard_files import GuardSource


@dataclass(frozen=True)
class _At:
    """Places a finding about guard `name` at a key of its condition table."""

    text: str
    display: str
    table: tuple[str, ...]

    def __call__(self, loc: tuple[str | int, ...], code: Code, message: str) -> Diagnostic:
        return Diagnostic(self.display, locate(self.text, (*self.table, *loc)), 1, code, message)


def check_entry(
    name: str, raw: Any, text: str, display: str, at: tuple[str, ...] = ()
) -> tuple[GuardEntry | None, list[Diagnostic]]:
    """One condition table (`raw`, found at the keys `at` of `text`), validated by the
    model of its detector: the entry, or None with the findings."""
    return _check(name, raw, _At(text, display, at))


def _check(name: str, raw: Any, at: _At) -> tuple[GuardEntry | None, list[Diagnostic]]:
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
    known_detectors = detectors()
    spec = known_detectors.get(detector) if isinstance(detector, str) else None
    if spec is None:
        known = ", ".join(known_detectors)
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


def check_references(
    files: Mapping[str, GuardSource], registry: HookRegistry, messages: set[str]
) -> list[Diagnostic]:
    """U005-U006, U008 and R007: each guard file names a message of the right kind, has a
    detector, and declares the placeholders its detector fills."""
    found = []
    for name, source in sorted(files.items()):
        finding = _reference_finding(name, source, registry, messages)
        if finding is not None:
            code, message, loc = finding
            found.append(Diagnostic(source.display, source.line(*loc), 1, code, message))
    return found


Finding = tuple[Code, str, tuple[str, ...]]  # a code, its message, the key it is found at


def _reference_finding(
    name: str, source: GuardSource, registry: HookRegistry, messages: set[str]
) -> Finding | None:
    if name not in messages:
        return "U005", f"'{name}' names no message (messages/{name}.md)", ()
    if source.file.condition is None and source.file.wired:
        return "U008", f"guard '{name}' has no [condition], so no detector: it would never fire", ()
    if source.file.condition is None:
        return _unreachable(name, source, registry)
    detector = source.file.condition.get("detector")
    spec = detectors().get(detector) if isinstance(detector, str) else None
    if spec is None or not isinstance(detector, str):
        return None  # U001, reported as the file was read
    if spec.condition:
        return _condition_finding(name, detector, source, registry)
    return _guard_finding(name, detector, spec.placeholders, source, registry)


def _condition_finding(
    name: str, detector: str, source: GuardSource, registry: HookRegistry
) -> Finding | None:
    """U005 for a context message's condition that is wired as a guard, or not at all."""
    if source.is_guard:
        message = f"'{name}': a {detector} condition belongs to a context message wired in"
        return "U005", message + " catalog/hooks.toml; it takes no wiring or cases", ()
    if name not in registry.wired_names():
        return "U005", f"'{name}': a {detector} condition needs a wired context message", ()
    return None


def _guard_finding(
    name: str, detector: str, fills: frozenset[str], source: GuardSource, registry: HookRegistry
) -> Finding | None:
    """U005 for a guard's detector given to a context message, R007 for a guard wired
    nowhere, U006 for placeholders other than its detector's."""
    if not source.file.wired and name in registry.wired_names():
        message = f"'{name}' is a context message of catalog/hooks.toml: detector '{detector}'"
        return "U005", message + " belongs to a guard, wired by its own file's `wired`", ()
    unreachable = _unreachable(name, source, registry)
    if unreachable is not None:
        return unreachable
    declared = sorted(source.file.placeholders)
    if set(declared) != fills:
        message = f"'{name}': detector '{detector}' fills {sorted(fills)}"
        return "U006", f"{message}, but [placeholders] declares {declared}", ("placeholders",)
    return None


def _unreachable(name: str, source: GuardSource, registry: HookRegistry) -> Finding | None:
    """R007 for a guard wired into no entry and not listed as unwired."""
    if not source.file.wired and name not in registry.unwired:
        message = f"guard '{name}' is wired into no hook entry (`wired`)"
        return "R007", message + " and is not listed as unwired", ()
    return None
