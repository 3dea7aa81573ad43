"""The detectors the dispatcher ships, as each detector module declares them.

A detector module (`scripts/hookmsg_dispatch/guards/<module>.py`, or a condition module of
the dispatcher's own such as `compaction.py`) holds, at its top level,

    DETECTS = {"write-plan": ("path", "plan"), "bash-plan": ("action", "command", "plan")}

the detectors it answers for and the placeholders each fills when it fires. They are read
here with `ast`, never imported: the build side learns them without running dispatcher
code, and a new detector is one new module, with no table elsewhere to edit. A module in
`guards/` detects for guards; one beside them, for a context message's condition.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from hookmsg.errors import DeclarationError

DISPATCHER_PACKAGE = "hookmsg_dispatch"
GUARDS = "guards"
# The dispatcher's own modules that are conditions, not guards (the rest is its machinery).
CONDITION_MODULES = ("compaction",)


@dataclass(frozen=True)
class DetectorModule:
    """Where one detector lives and what it fills: `module` is its dotted name inside the
    dispatcher package (`guards.plans`), as the dispatch table carries it."""

    module: str
    placeholders: frozenset[str]

    @property
    def condition(self) -> bool:
        """A context message's condition (it speaks in the message's words), not a guard."""
        return not self.module.startswith(f"{GUARDS}.")


@dataclass(frozen=True)
class Source:
    """One dispatcher module's text: its dotted name and the path it is shown by."""

    module: str
    shown: str
    text: str


@cache
def detector_modules() -> dict[str, DetectorModule]:
    """Every detector the shipped dispatcher declares, by id (read once per process)."""
    return read_declarations(_dispatcher_sources())


def _dispatcher_sources() -> list[Source]:
    package = files(DISPATCHER_PACKAGE)
    shown = f"scripts/{DISPATCHER_PACKAGE}"
    found = [
        Source(
            f"{GUARDS}.{item.name[:-3]}",
            f"{shown}/{GUARDS}/{item.name}",
            item.read_text(encoding="utf-8"),
        )
        for item in sorted(package.joinpath(GUARDS).iterdir(), key=lambda item: item.name)
        if item.name.endswith(".py") and item.name != "__init__.py"
    ]
    for name in CONDITION_MODULES:
        text = package.joinpath(f"{name}.py").read_text(encoding="utf-8")
        found.append(Source(name, f"{shown}/{name}.py", text))
    return found


def read_declarations(sources: Iterable[Source]) -> dict[str, DetectorModule]:
    """Each module's `DETECTS`, merged by detector id (in id order). Raises DeclarationError
    for a declaration that is not a literal table, or for an id two modules declare."""
    found: dict[str, DetectorModule] = {}
    for source in sources:
        for detector, placeholders in declared(source).items():
            if detector in found:
                raise DeclarationError(
                    f"{source.shown}:1:1: detector '{detector}' is declared here and in "
                    f"the module {found[detector].module}"
                )
            found[detector] = DetectorModule(source.module, frozenset(placeholders))
    return dict(sorted(found.items()))


def declared(source: Source) -> dict[str, tuple[str, ...]]:
    """The `DETECTS` table of one module, or {} when it declares none."""
    try:
        body = ast.parse(source.text).body
    except SyntaxError as error:
        where = f"{source.shown}:{error.lineno or 1}:{error.offset or 1}"
        raise DeclarationError(f"{where}: not Python ({error.msg})") from None
    for node in body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if not (isinstance(target, ast.Name) and target.id == "DETECTS"):
            continue
        try:
            table = ast.literal_eval(value)
        except ValueError:
            table = None
        if not _is_table(table):
            raise DeclarationError(
                f"{source.shown}:{node.lineno}:{node.col_offset + 1}: DETECTS must be a "
                "literal dict of detector ids to tuples of placeholder names"
            )
        return dict(table)
    return {}


def _is_table(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(key, str)
        and isinstance(names, tuple)
        and all(isinstance(name, str) for name in names)
        for key, names in value.items()
    )
