"""`catalog/guards/<name>.toml`: one file per guard, everything about it but its message and
its detector's code.

    wired = [{ event = "PreToolUse", matcher = "Write" }]   # the hook entries it joins
    [placeholders]                  # a sample value per placeholder (previews, tests)
    path = "src/billing/invoice.py"
    [condition]                     # the detector and its data (rules/guards.py)
    detector = "write-plan"
    plans = ["PLAN.md"]
    [[cases]]                       # calls it must and must not fire on (rules/guard_cases.py)
    id = "new-module-outside-plan"

A guard joins each entry of `catalog/hooks.toml` it names, after the entry's own messages,
guards in name order (an entry may list no message of its own). A context
message's condition (the compaction reminder) is a file holding only `[condition]`: the
message itself is wired in `catalog/hooks.toml`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from hookmsg.catalogue.modelfile import read_toml, validated
from hookmsg.catalogue.models import (
    KEBAB,
    CaseText,
    Guard,
    HookRegistry,
    Identifier,
    Matcher,
    Spelling,
)
from hookmsg.catalogue.rules import guards as guard_rules
from hookmsg.diagnostics import Diagnostic
from hookmsg.tomlpos import locate
from hookmsg.vocabulary import matcher_key

FOLDER = "guards"  # under the catalogue folder


class Wiring(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    event: Spelling
    matcher: Matcher | None = None


class GuardFile(BaseModel):
    """One guard file's shape; its condition and its cases are judged by their own rules."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    wired: list[Wiring] = Field(default_factory=list, max_length=50)
    placeholders: dict[Identifier, str] = Field(default_factory=dict)
    condition: dict[str, Any] | None = None
    cases: list[Any] = Field(default_factory=list)


@dataclass(frozen=True)
class GuardSource:
    """One guard file as read: its message's name (the file's stem), where it is shown, its
    text (for locating findings) and its parsed shape."""

    name: str
    display: str
    text: str
    file: GuardFile

    def line(self, *loc: str | int) -> int:
        return locate(self.text, loc)

    @property
    def is_guard(self) -> bool:
        """A guard (speaks only when it fires), not a context message's condition."""
        return bool(self.file.wired or self.file.placeholders or self.file.cases)


@dataclass
class LoadedGuards:
    """Every guard file read, by message name, and the findings of reading them (each
    condition validated against its detector's model)."""

    files: dict[str, GuardSource] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # False when a file could not be read as a guard file: its wiring is then unknown.
    complete: bool = True

    def conditions(self) -> dict[str, dict[str, Any]]:
        """Each message's condition table, verbatim, as the dispatch table carries it."""
        return {
            name: source.file.condition
            for name, source in sorted(self.files.items())
            if source.file.condition is not None
        }

    def case_texts(self) -> tuple[CaseText, ...]:
        """The files that hold cases, for the case rules (they read no file)."""
        return tuple(
            CaseText(source.display, source.text)
            for _, source in sorted(self.files.items())
            if "cases" in source.file.model_fields_set
        )


def load_guard_files(folder: Path, display: str, max_bytes: int, root: Path) -> LoadedGuards:
    """Read every `<folder>/*.toml`; validate each file's shape and its condition."""
    loaded = LoadedGuards()
    if not folder.is_dir() and (folder.exists() or folder.is_symlink()):
        loaded.diagnostics.append(Diagnostic(display, 1, 1, "C002", "must be a folder"))
        loaded.complete = False
    paths = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    for path in paths:
        shown = f"{display}/{path.name}"
        source, found = _read_one(path, shown, max_bytes, root)
        loaded.diagnostics += found
        if source is None:
            loaded.complete = False
            continue
        loaded.files[source.name] = source
        if source.file.condition is not None:
            _, found = guard_rules.check_entry(
                source.name, source.file.condition, source.text, shown, at=("condition",)
            )
            loaded.diagnostics += found
    return loaded


def _read_one(
    path: Path, shown: str, max_bytes: int, root: Path
) -> tuple[GuardSource | None, list[Diagnostic]]:
    if re.match(KEBAB, path.stem) is None:
        message = f"'{path.name}': a guard file is named after its message (kebab-case)"
        return None, [Diagnostic(shown, 1, 1, "C002", message)]
    data, text, problems = read_toml(path, shown, max_bytes, root)
    if data is None:
        return None, problems
    parsed, found = validated(GuardFile, data, text, shown)
    if parsed is None:
        return None, [*problems, *found]
    return GuardSource(path.stem, shown, text, parsed), problems


def unknown_entries(registry: HookRegistry, loaded: LoadedGuards) -> list[Diagnostic]:
    """U005 for a guard file naming a hook entry that `catalog/hooks.toml` does not have, or
    wiring a message that `catalog/hooks.toml` lists itself (it would run twice)."""
    have = {entry.key for entry in registry.dispatch}
    listed = registry.wired_names()
    found = []
    for _, source in sorted(loaded.files.items()):
        if source.file.wired and source.name in listed:
            message = f"'{source.name}' is listed in catalog/hooks.toml too: a guard is wired "
            message += "only by its own file's `wired`"
            found.append(Diagnostic(source.display, source.line("wired"), 1, "U005", message))
        for wiring in source.file.wired:
            if (wiring.event, matcher_key(wiring.matcher)) not in have:
                where = wiring.event + (f" {wiring.matcher}" if wiring.matcher else "")
                message = f"'{source.name}' is wired into {where}: catalog/hooks.toml has no "
                message += "[[dispatch]] entry for it"
                found.append(Diagnostic(source.display, source.line("wired"), 1, "U005", message))
    return found


def wire(registry: HookRegistry, loaded: LoadedGuards) -> HookRegistry:
    """The registry with each guard declared and joined to the entries its file names."""
    guards = {
        name: Guard(placeholders=dict(source.file.placeholders))
        for name, source in sorted(loaded.files.items())
        if source.is_guard
    }
    joined: dict[tuple[str, str], list[str]] = {}
    for name, source in sorted(loaded.files.items()):
        for wiring in source.file.wired:
            names = joined.setdefault((wiring.event, matcher_key(wiring.matcher)), [])
            names += [] if name in names else [name]
    dispatch = []
    for entry in registry.dispatch:
        # Only the first entry of a key: a second one is R005, and must not run them twice.
        extra = joined.pop(entry.key, [])
        dispatch.append(entry.model_copy(update={"messages": [*entry.messages, *extra]}))
    return registry.model_copy(update={"dispatch": dispatch, "guards": guards})
