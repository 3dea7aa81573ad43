"""The catalogue in `catalog/`: hook registry, harnesses, skills and commands.

Each file is validated with pydantic; every problem becomes a diagnostic naming the
file, the entry and the field. Cross-references inside the catalogue are checked here
too; the registry's links to message files are rules (`rules/registry.py`).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PureWindowsPath
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
)

from hookmsg.config import Project
from hookmsg.diagnostics import Diagnostic
from hookmsg.skill_sources import SkillSet, resolve
from hookmsg.source import read_source
from hookmsg.tomlpos import locate, toml_error_position
from hookmsg.vocabulary import EVENTS, RESERVED_NAMES, TOOLS, matcher_key
from hookmsg.xcsh import check_xcsh_harness

# The contract of a registration without `--contract`: Claude Code's payload and envelope.
DEFAULT_CONTRACT = "claude-code"
if TYPE_CHECKING:
    from hookmsg.guarddata import LoadedGuards

KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"
Kebab = Annotated[str, StringConstraints(pattern=KEBAB, max_length=64)]


def _not_reserved(name: str) -> str:
    if name in RESERVED_NAMES:
        raise ValueError(f"'{name}' is reserved by Jinja2 and cannot be a placeholder name")
    return name


Identifier = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z_][a-z0-9_]*$", max_length=64),
    AfterValidator(_not_reserved),
]
OneLine = Annotated[str, StringConstraints(pattern=r"^[^\n\r]+$", strip_whitespace=True)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Dispatch(_Strict):
    """One dispatcher entry: an event, an optional matcher, the messages it evaluates."""

    event: str
    matcher: str | None = None
    messages: list[Kebab] = Field(min_length=1)

    @property
    def key(self) -> tuple[str, str]:
        return self.event, matcher_key(self.matcher)


class Guard(_Strict):
    """A guard's placeholders, each with the sample value that previews use."""

    placeholders: dict[Identifier, str] = Field(default_factory=dict)


class Dispatcher(_Strict):
    script: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_./-]+$")] = "hooks/dispatch.py"


class HookRegistry(_Strict):
    dispatcher: Dispatcher = Field(default_factory=Dispatcher)
    timeouts: dict[str, Annotated[int, Field(gt=0, le=3600)]] = Field(default_factory=dict)
    dispatch: list[Dispatch] = Field(min_length=1)
    guards: dict[Kebab, Guard] = Field(default_factory=dict)
    unwired: dict[Kebab, OneLine] = Field(default_factory=dict)

    @cached_property
    def _loaders(self) -> dict[str, list[tuple[str, str]]]:
        loaders: dict[str, list[tuple[str, str]]] = {}
        for entry in self.dispatch:
            for name in dict.fromkeys(entry.messages):
                loaders.setdefault(name, []).append(entry.key)
        return loaders

    def loaded_by(self, name: str) -> list[tuple[str, str]]:
        """The (event, matcher) pairs that load `name`, in registry order."""
        return list(self._loaders.get(name, ()))

    def wired_names(self) -> set[str]:
        return set(self._loaders)


Format = Literal[
    "claude-settings",
    "claude-plugin",
    "claude-compatible",
    "codex",
    "qwen",
    "kiro",
    "copilot",
    "devin",
    "cursor",
    "xcsh",
]
FileName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$", max_length=64)]


# What reaches a command line, a matcher or a picture: a harness's event and tool names.
Spelling = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_.]*$", max_length=64)]
ToolName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", max_length=64)]


class Fold(_Strict):
    """Several tools that the harness registers under one matcher."""

    tools: list[str] = Field(min_length=2)
    matcher: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$")]
    messages_from: str


# A settings file's place inside a project: relative, forward slashes, no `..`, safe characters.
ProjectFile = Annotated[
    str,
    StringConstraints(
        pattern=r"^(?:\.?[A-Za-z0-9_][A-Za-z0-9._-]*/)*\.?[A-Za-z0-9_][A-Za-z0-9._-]*$",
        max_length=200,
    ),
]
TopLevelKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_-]*$", max_length=64)]


class Registration(_Strict):
    """The hook registration file generated for a harness, and where `install` merges it."""

    format: Format
    file: FileName
    installed_as: OneLine
    contract: Kebab | None = None
    timeout_unit: Literal["s", "ms"]
    timeout_max: Annotated[int, Field(gt=0)]
    fold: Fold | None = None
    # The settings file inside a project that `hookmsg install` merges the registration
    # into; None: the harness is not installed into a project (the Claude Code plugin).
    project_file: ProjectFile | None = None
    # The only top-level keys the harness accepts in that file (others make it ignore
    # the whole file); empty: any.
    top_level_keys: list[TopLevelKey] = Field(default_factory=list)
    # A step the user must take after `hookmsg install` before the harness runs the hooks.
    install_note: OneLine | None = None


Version = Annotated[str, StringConstraints(pattern=r"^[0-9]+(\.[0-9]+)*$", max_length=32)]


class Fact(_Strict):
    """One checked fact about how a harness delivers (or does not deliver) hook output."""

    event: str | None = None  # a registry event, or None for a fact about the harness as a whole
    fact: OneLine
    delivered: bool | None = None  # for an event: does its output reach the model as context
    since: Version | None = None  # the first client version with this behaviour
    evidence: OneLine  # the documentation page, changelog entry or run it was checked against


EnvelopeStyle = Literal["hook-specific", "additional-context", "additional_context", "text", "xcsh"]


class Contract(_Strict):
    """How the dispatcher reads this harness's payload and answers it (harness facts only).

    `envelope`: `hook-specific` = `{"hookSpecificOutput": {"hookEventName", "additionalContext"}}`;
    `additional-context` = top-level `additionalContext`; `additional_context` = top-level
    `additional_context`; `text` = the text itself on stdout; `xcsh` = `{"text": T}`, read by the
    generated xcsh module. `payload`: `claude` (snake_case
    keys as Claude Code sends them), `copilot` (camelCase keys, `toolArgs`, `toolResult`) or
    `xcsh` (the generated xcsh module's payload, read by `hookmsg_dispatch/xcsh.py`).
    `context_events`: the registry events whose context this harness shows the model (an event
    registered only for its side effects is left out). `deny`: a PreToolUse deny decision is
    honoured. `tools`: tool names seen in payloads, beyond the matcher names in [harnesses.tools],
    mapped to registry tools. `patch_tools`: tools whose `tool_input.command` holds a patch.
    """

    envelope: EnvelopeStyle
    payload: Literal["claude", "copilot", "xcsh"] = "claude"
    context_events: list[str] = Field(default_factory=list)
    deny: bool = False
    tools: dict[str, Annotated[str, StringConstraints(min_length=1)]] = Field(default_factory=dict)
    patch_tools: list[Annotated[str, StringConstraints(min_length=1)]] = Field(default_factory=list)


class Harness(_Strict):
    id: Kebab
    name: OneLine
    wiring: OneLine
    matchers: bool = True
    session_start_sources: bool = False
    notes: str = ""
    events: dict[str, Spelling] = Field(min_length=1)
    tools: dict[str, ToolName] = Field(default_factory=dict)
    # Events whose output reaches the model only as a refusal (a PreToolUse deny), in the
    # harness's spelling: registered only by `hookmsg install --strict`.
    deny_events: dict[str, Spelling] = Field(default_factory=dict)
    checked: Version | None = None  # the client version the facts were checked against
    facts: list[Fact] = Field(default_factory=list)
    registration: Registration | None = None
    contract: Contract | None = None

    @property
    def contract_id(self) -> str:
        """The dispatcher contract that reads this harness's payloads (`--contract`).

        A registration file names it (none: Claude Code's, the default); a harness without
        a registration file (its hooks are generated code) goes by its own id.
        """
        registration = self.registration
        if registration is None:
            return self.id
        return registration.contract or DEFAULT_CONTRACT


class HarnessCatalogue(_Strict):
    harnesses: list[Harness] = Field(min_length=1)


class Group(_Strict):
    id: Kebab
    title: Annotated[OneLine, StringConstraints(max_length=60)]
    # A few words on when to look in this group; the index shows them after the title.
    hint: Annotated[OneLine, StringConstraints(max_length=80)] | None = None


class Skill(_Strict):
    """A `[[skills]]` entry: a whole entry, or an override of one a source file defines."""

    name: Kebab
    group: str | None = None
    manual: bool | None = None
    description: Annotated[OneLine, StringConstraints(min_length=1, max_length=1024)] | None = None
    # What the index shows after a model-invoked entry's name, so it is found by more.
    short: Annotated[OneLine, StringConstraints(max_length=60)] | None = None
    # The `[[sources]]` path whose file wins when several sources define this name.
    source: str | None = None


def _source_path(path: str) -> str:
    if not path or path.startswith("/") or "\\" in path or PureWindowsPath(path).drive:
        raise ValueError("must be a relative POSIX path from the project root")
    return path


class Source(_Strict):
    """A folder of skills (`<path>/<name>/SKILL.md`) or commands (`<path>/<name>.md`)."""

    kind: Literal["skills", "commands"]
    path: Annotated[str, AfterValidator(_source_path)]
    group: str | None = None


class FrontMatterKeys(_Strict):
    # Keys accepted beyond the Agent Skills format and Claude Code's own (S011).
    extra_keys: list[Annotated[str, StringConstraints(min_length=1)]] = Field(
        default_factory=list, alias="extra-keys"
    )


class SkillCatalogue(_Strict):
    namespace: Kebab
    # Messages that the skill index cross-binds, each with the reason.
    cross_bound: dict[Kebab, OneLine] = Field(default_factory=dict, alias="cross-bound")
    groups: list[Group] = Field(min_length=1)
    sources: list[Source] = Field(default_factory=list)
    skills: list[Skill] = Field(default_factory=list)
    # Entries known to the catalogue but left out of the index, each with the reason.
    omit: dict[Annotated[str, StringConstraints(min_length=1)], OneLine] = Field(
        default_factory=dict
    )
    front_matter: FrontMatterKeys = Field(default_factory=FrontMatterKeys, alias="front-matter")


@dataclass
class Catalogue:
    """The loaded catalogue; a part that failed to load is None, with its diagnostics."""

    registry: HookRegistry | None = None
    harnesses: HarnessCatalogue | None = None
    skills: SkillCatalogue | None = None
    # The skill catalogue's entries, read from its sources and merged with its TOML.
    entries: SkillSet | None = None
    registry_text: str = ""
    registry_display: str = "catalog/hooks.toml"
    # `catalog/guards.toml`, validated on its own; its links to the registry are checked
    # with the messages (`guarddata.check_references`).
    guards: LoadedGuards | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)


M = TypeVar("M", bound=BaseModel)

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


def _load(
    path: Path, display: str, model: type[M], max_bytes: int, root: Path
) -> tuple[M | None, str, list[Diagnostic]]:
    if not path.exists() and not path.is_symlink():
        return None, "", [Diagnostic(display, 1, 1, "C003", "catalogue file is missing")]
    source, problems = read_source(
        path, display, max_bytes=max_bytes, root=root, check_folders=True
    )
    if source is None:
        return None, "", problems
    try:
        data = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as error:
        line, col, message = toml_error_position(error, source.text)
        return None, source.text, [*problems, Diagnostic(display, line, col, "C001", message)]
    try:
        return model.model_validate(data), source.text, problems
    except ValidationError as error:
        for item in error.errors():
            loc = tuple(item["loc"])
            where = _describe(data, loc)
            line = locate(source.text, loc)
            problems.append(Diagnostic(display, line, 1, "C002", f"{where}: {item['msg']}"))
        return None, source.text, problems


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


def _check_skills(skills: SkillCatalogue, text: str, display: str) -> list[Diagnostic]:
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
        if fact.event is not None and fact.event not in EVENTS:
            found.append(
                Diagnostic(
                    display,
                    where,
                    1,
                    "C005",
                    f"harness '{harness.id}' has a fact about unknown event '{fact.event}'",
                )
            )
            continue
        if fact.delivered is None:
            continue
        if fact.event is None:
            found.append(
                Diagnostic(
                    display,
                    where,
                    1,
                    "I002",
                    f"harness '{harness.id}': a fact with `delivered` must name its event",
                )
            )
        elif fact.delivered != (fact.event in harness.events):
            listed = "lists" if fact.event in harness.events else "does not list"
            found.append(
                Diagnostic(
                    display,
                    where,
                    1,
                    "I002",
                    f"harness '{harness.id}' {listed} {fact.event} among its delivered events, "
                    f"but its fact says delivered = {str(fact.delivered).lower()}",
                )
            )
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


def _check_harnesses(harnesses: HarnessCatalogue, text: str, display: str) -> list[Diagnostic]:
    found = _duplicates(
        [h.id for h in harnesses.harnesses],
        "harness",
        display,
        lambda i: locate(text, ("harnesses", i)),
    )
    for index, harness in enumerate(harnesses.harnesses):
        fold = harness.registration.fold if harness.registration is not None else None
        if fold is not None:
            for tool in [*fold.tools, fold.messages_from]:
                if tool not in TOOLS or (tool == fold.messages_from and tool not in fold.tools):
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


def load_catalogue(project: Project) -> Catalogue:
    """Load and validate every catalogue file; never raises for bad content."""
    max_bytes = project.settings.max_file_bytes
    catalogue = Catalogue()
    hooks = project.catalog_file("hooks.toml")
    catalogue.registry_display = project.relative(hooks)
    catalogue.registry, catalogue.registry_text, found = _load(
        hooks, catalogue.registry_display, HookRegistry, max_bytes, project.root
    )
    catalogue.diagnostics += found

    path = project.catalog_file("harnesses.toml")
    display = project.relative(path)
    catalogue.harnesses, text, found = _load(
        path, display, HarnessCatalogue, max_bytes, project.root
    )
    catalogue.diagnostics += found
    if catalogue.harnesses is not None:
        catalogue.diagnostics += _check_harnesses(catalogue.harnesses, text, display)

    path = project.catalog_file("skills.toml")
    display = project.relative(path)
    catalogue.skills, text, found = _load(path, display, SkillCatalogue, max_bytes, project.root)
    catalogue.diagnostics += found
    if catalogue.skills is not None:
        catalogue.diagnostics += _check_skills(catalogue.skills, text, display)
        catalogue.entries = resolve(catalogue.skills, text, display, project)
        catalogue.diagnostics += catalogue.entries.diagnostics

    from hookmsg.guarddata import load_guards

    path = project.catalog_file("guards.toml")
    catalogue.guards = load_guards(path, project.relative(path), max_bytes, project.root)
    catalogue.diagnostics += catalogue.guards.diagnostics
    return catalogue
