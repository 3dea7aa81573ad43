"""Guard cases: U009 format, U010 disagreement, U011 a guard without cases.

Cases pin a guard's behaviour the way Semgrep rule tests and ruff fixtures pin a rule's:
tool calls, in each harness's payload shape, that must fire and near-misses that must stay
silent. A guard's own cases are the `[[cases]]` of its guard file
(`catalog/guards/<guard>.toml`, named after the guard); a corpus file (the held-out corpus
under `tests/guard_holdout/`, the regression rounds) names its guard in `guard` instead:

    guard = "pretooluse-bash-plan-guard"   # a corpus file only
    [[cases]]
    id = "force-push-to-main"       # unique in the file, kebab-case
    expect = "fire"                 # or "silent"
    contract = "claude-code"        # the dispatcher's --contract id
    event = "PreToolUse"
    payload = { tool_name = "Bash", tool_input = { command = "git push --force" } }
    files = { "docs/plan.md" = "# Plan\\n" }   # optional: the project's files
    says = ["git push --force"]     # optional: text the advisory must contain
    note = "why this case matters"  # optional
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
)

from hookmsg.catalogue.models import CaseText, HarnessCatalogue, HookRegistry
from hookmsg.diagnostics import Diagnostic
from hookmsg.tomlpos import locate, toml_error_position
from hookmsg.vocabulary import EVENTS

Kebab = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=100)]


def _inside(path: str) -> str:
    if path.startswith("/") or ".." in path.split("/") or ".git" in path.split("/"):
        raise ValueError(f"'{path}' must be a path inside the project, relative to its root")
    return path


RelativeFile = Annotated[
    str,
    StringConstraints(pattern=r"^[^\\\n\r:*?]+$", max_length=200),
    AfterValidator(_inside),
]
MAX_CASES = 2000


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    id: Kebab
    expect: Literal["fire", "silent"]
    contract: Kebab
    event: Annotated[str, StringConstraints(pattern=r"^[A-Za-z]+$", max_length=40)]
    payload: dict[str, Any]
    files: dict[RelativeFile, str] = Field(default_factory=dict)
    says: list[Annotated[str, StringConstraints(min_length=1, max_length=500)]] = Field(
        default_factory=list
    )
    note: str = ""


class CaseFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    guard: Kebab
    cases: list[Case] = Field(min_length=1, max_length=MAX_CASES)


@dataclass(frozen=True)
class Known:
    """What a case may name: wired guards, dispatcher contracts and registry events."""

    guards: frozenset[str]
    contracts: frozenset[str]
    events: frozenset[str]


def _at(text: str, display: str, loc: tuple[str | int, ...], message: str) -> Diagnostic:
    return Diagnostic(display, locate(text, loc), 1, "U009", message)


def _references(parsed: CaseFile, text: str, display: str, known: Known) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    if parsed.guard not in known.guards:
        found.append(_at(text, display, ("guard",), f"'{parsed.guard}' is not a wired guard"))
    stem = display.rsplit("/", 1)[-1].removesuffix(".toml")
    if stem != parsed.guard:
        message = f"the file is named '{stem}.toml' but holds cases for '{parsed.guard}'"
        found.append(_at(text, display, ("guard",), message))
    seen: set[str] = set()
    for index, case in enumerate(parsed.cases):
        where = ("cases", index)
        if case.id in seen:
            found.append(_at(text, display, (*where, "id"), f"case '{case.id}': duplicate id"))
        seen.add(case.id)
        if case.contract not in known.contracts:
            message = f"case '{case.id}': unknown contract '{case.contract}'"
            found.append(_at(text, display, (*where, "contract"), message))
        if case.event not in known.events:
            message = f"case '{case.id}': unknown event '{case.event}'"
            found.append(_at(text, display, (*where, "event"), message))
    return found


def check_case_file(
    text: str, display: str, known: Known | None
) -> tuple[CaseFile | None, list[Diagnostic]]:
    """The parsed cases, or None with their U009 findings (references too, when `known`).

    A guard file without cases is None with no findings (U011 is the task's to report).
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line, col, message = toml_error_position(error, text)
        return None, [Diagnostic(display, line, col, "U009", f"not valid TOML: {message}")]
    if "guard" not in raw:  # a guard file: its cases are for the guard it is named after
        if "cases" not in raw:
            return None, []
        raw = {"guard": display.rsplit("/", 1)[-1].removesuffix(".toml"), "cases": raw["cases"]}
    try:
        parsed = CaseFile.model_validate(raw)
    except ValidationError as error:
        return None, [
            _at(
                text,
                display,
                tuple(item["loc"]),
                f"{'.'.join(str(p) for p in item['loc']) or 'file'}: {item['msg']}",
            )
            for item in error.errors()
        ]
    found = _references(parsed, text, display, known) if known is not None else []
    return (parsed if not found else None), found


def check_case_files(
    files: tuple[CaseText, ...], registry: HookRegistry, harnesses: HarnessCatalogue
) -> list[Diagnostic]:
    """U009 for the malformed or unreadable cases among `files`, as loading read them."""
    wired = registry.wired_names()
    known = Known(
        guards=frozenset(name for name in registry.guards if name in wired),
        contracts=frozenset(h.contract_id for h in harnesses.harnesses if h.contract is not None),
        events=frozenset(EVENTS),
    )
    found: list[Diagnostic] = []
    for file in files:
        if file.text is None:
            found.append(Diagnostic(file.display, 1, 1, "U009", f"cannot be read: {file.problem}"))
            continue
        found += check_case_file(file.text, file.display, known)[1]
    return found


def disagreement(
    text: str, display: str, index: int, case: Case, *, fired: bool, missing: list[str]
) -> Diagnostic | None:
    """U010 for a case the dispatcher answered otherwise than it expects, else None."""
    line = locate(text, ("cases", index, "id"))
    if fired != (case.expect == "fire"):
        was = "fired" if fired else "was silent"
        return Diagnostic(
            display, line, 1, "U010", f"case '{case.id}' expected {case.expect}, {was}"
        )
    if missing:
        shown = ", ".join(f"'{text}'" for text in missing)
        message = f"case '{case.id}' fired, but its advisory lacks {shown}"
        return Diagnostic(display, line, 1, "U010", message)
    return None


def missing_cases(guards: list[str], have: set[str], display: str) -> list[Diagnostic]:
    """U011: each wired guard with a detector needs cases in its guard file."""
    return [
        Diagnostic(
            f"{display}/{guard}.toml",
            1,
            1,
            "U011",
            f"guard '{guard}' has no [[cases]]: write calls that must fire and near-misses",
        )
        for guard in sorted(guards)
        if guard not in have
    ]
