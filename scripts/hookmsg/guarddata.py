"""`catalog/guards.toml`: what each guard's detector matches against, validated (U codes).

One table per message name: `detector` names the detection code in the dispatcher, and the
other keys are that detector's data. The dispatcher reads the validated tables from the
dispatch table (`conditions()`); it never reads this file. The placeholders each detector
fills are declared here too, and must equal the guard's `[guards.<name>.placeholders]` in
`catalog/hooks.toml` (a test checks that the dispatcher returns exactly these).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
)

from hookmsg.catalogue import HookRegistry
from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic
from hookmsg.regexcheck import nested_quantifier
from hookmsg.source import read_source
from hookmsg.tomlpos import locate, toml_error_position
from hookmsg.vocabulary import TOOLS

# The message whose condition is the compaction detector: a context message, not a guard.
COMPACTION_MESSAGE = "posttooluse-proactive-compaction"

Line = Annotated[str, StringConstraints(pattern=r"^[^\n\r]+$", min_length=1, max_length=200)]
Glob = Annotated[str, StringConstraints(pattern=r"^[^/\\\n\r]+$", max_length=100)]
Extension = Annotated[str, StringConstraints(pattern=r"^\.[A-Za-z0-9_+-]+$", max_length=20)]
Prefix = Annotated[str, StringConstraints(pattern=r"^\S{1,8}$")]


def _project_relative(path: str) -> str:
    if path.startswith("/") or ".." in path.split("/"):
        raise ValueError(f"'{path}' must be a path inside the project, relative to its root")
    return path


RelativePath = Annotated[
    str,
    StringConstraints(pattern=r"^[^\\\n\r:*?]+$", max_length=200),
    AfterValidator(_project_relative),
]
Regex = Annotated[str, StringConstraints(min_length=1, max_length=500)]
ManifestKind = Literal["package-json", "pyproject", "requirements", "cargo", "go-mod", "gemfile"]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)
    detector: str


class DependencyData(_Data):
    lockfiles: list[Glob] = Field(min_length=1)
    manifests: dict[Glob, ManifestKind] = Field(min_length=1)
    max_changes: int = Field(3, ge=1, le=20, alias="max-changes")


class Language(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    extensions: list[Extension] = Field(min_length=1)
    comment: Prefix
    primitives: dict[Line, Regex] = Field(min_length=1)


class EvalData(_Data):
    languages: dict[Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]+$")], Language] = Field(
        min_length=1
    )
    commands: dict[str, str] = Field(default_factory=dict)


class EditHeaderData(_Data):
    header: Regex
    kinds: dict[Extension, Prefix] = Field(min_length=1)


class WriteHeaderData(EditHeaderData):
    max_levels: int = Field(8, ge=0, le=64, alias="max-levels")


class WritePlanData(_Data):
    plans: list[RelativePath] = Field(min_length=1)
    exempt: list[RelativePath] = Field(default_factory=lambda: [".hookmsg/compaction-note.md"])


class BashPlanData(_Data):
    plans: list[RelativePath] = Field(min_length=1)
    commands: dict[Line, Regex] = Field(min_length=1)


class QuestionData(_Data):
    marker: Line = "(Recommended)"
    min_options: int = Field(2, ge=2, le=20, alias="min-options")


class CompactionData(_Data):
    tokens: int = Field(gt=0)
    drop_fraction: float = Field(gt=0, lt=1, alias="drop-fraction")
    max_per_cycle: int = Field(ge=1, le=20, alias="max-per-cycle")
    min_calls_between: int = Field(ge=0, alias="min-calls-between")
    tail_bytes: int = Field(1 << 20, ge=4096, le=16 << 20, alias="tail-bytes")
    fallback_calls: int = Field(gt=0, alias="fallback-calls")
    fallback_output_bytes: int = Field(gt=0, alias="fallback-output-bytes")


@dataclass(frozen=True)
class Detector:
    model: type[_Data]
    placeholders: frozenset[str]
    condition: bool = False  # a context message's condition, not a guard


DETECTORS: dict[str, Detector] = {
    "dependency": Detector(DependencyData, frozenset({"path", "change"})),
    "eval": Detector(EvalData, frozenset({"primitive", "location"})),
    "write-header": Detector(WriteHeaderData, frozenset({"path", "header"})),
    "edit-header": Detector(EditHeaderData, frozenset({"path", "header"})),
    "write-plan": Detector(WritePlanData, frozenset({"path", "plan"})),
    "bash-plan": Detector(BashPlanData, frozenset({"command", "plan"})),
    "askuserquestion": Detector(QuestionData, frozenset({"question"})),
    "compaction": Detector(CompactionData, frozenset(), condition=True),
}


def _regexes(data: _Data) -> list[tuple[tuple[str, ...], str]]:
    """(location, pattern) of every regular expression in one guard's data."""
    if isinstance(data, EvalData):
        return [
            (("languages", language, "primitives", name), source)
            for language, spec in data.languages.items()
            for name, source in spec.primitives.items()
        ]
    if isinstance(data, EditHeaderData):
        return [(("header",), data.header)]
    if isinstance(data, BashPlanData):
        return [(("commands", name), source) for name, source in data.commands.items()]
    return []


@dataclass
class GuardData:
    """The validated tables of `catalog/guards.toml`, by message name."""

    entries: dict[str, _Data] = field(default_factory=dict)

    def conditions(self) -> dict[str, dict[str, Any]]:
        """The dispatch table's `conditions`: each table as the dispatcher reads it."""
        return {
            name: data.model_dump(mode="json", by_alias=True)
            for name, data in sorted(self.entries.items())
        }


@dataclass
class LoadedGuards:
    data: GuardData | None
    text: str
    display: str
    diagnostics: list[Diagnostic]


def _check_entry(
    name: str, raw: Any, text: str, display: str
) -> tuple[_Data | None, list[Diagnostic]]:
    def at(loc: tuple[str | int, ...], code: Code, message: str) -> Diagnostic:
        return Diagnostic(display, locate(text, (name, *loc)), 1, code, message)

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
        data = spec.model.model_validate(raw)
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
    found: list[Diagnostic] = []
    for loc, source in _regexes(data):
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
    if isinstance(data, EvalData):
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
    return (data if not found else None), found


def load_guards(path: Path, display: str, max_bytes: int, root: Path) -> LoadedGuards:
    """Read and validate `catalog/guards.toml` on its own (references are checked later)."""
    if not path.exists() and not path.is_symlink():
        return LoadedGuards(
            None, "", display, [Diagnostic(display, 1, 1, "C003", "catalogue file is missing")]
        )
    source, problems = read_source(
        path, display, max_bytes=max_bytes, root=root, check_folders=True
    )
    if source is None:
        return LoadedGuards(None, "", display, problems)
    try:
        raw = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as error:
        line, col, message = toml_error_position(error, source.text)
        return LoadedGuards(
            None, source.text, display, [*problems, Diagnostic(display, line, col, "C001", message)]
        )
    data = GuardData()
    failed = False
    for name, table in raw.items():
        entry, found = _check_entry(name, table, source.text, display)
        problems += found
        if entry is None:
            failed = True
        else:
            data.entries[name] = entry
    return LoadedGuards(None if failed else data, source.text, display, problems)


def check_references(
    loaded: LoadedGuards, registry: HookRegistry, registry_display: str, messages: set[str]
) -> list[Diagnostic]:
    """U005, U006: each table names a wired message of the right kind, and the placeholders
    its detector fills are those the registry declares. (A wired guard without a table is
    allowed: it is a guard whose detection is not written yet, and it stays silent.)"""
    found: list[Diagnostic] = []
    text, display = loaded.text, loaded.display
    try:
        raw = tomllib.loads(text) if text else {}
    except tomllib.TOMLDecodeError:
        return []
    wired = registry.wired_names()
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
