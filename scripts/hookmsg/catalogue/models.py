"""The catalogue in `catalog/`: hook registry, harnesses, skills and commands.

The typed models, validated with pydantic. Loading them (and reporting each problem as
a diagnostic naming the file, the entry and the field) is `loading.py`; the checks across
entries are `rules/catalogue.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PureWindowsPath
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
)

from hookmsg.catalogue.skill_entry import SkillSet
from hookmsg.diagnostics import Diagnostic
from hookmsg.vocabulary import RESERVED_NAMES, matcher_key

# The contract of a registration without `--contract`: Claude Code's payload and envelope.
DEFAULT_CONTRACT = "claude-code"
if TYPE_CHECKING:
    from hookmsg.catalogue.guard_files import LoadedGuards

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
# Names that reach a command line, a registration or a Mermaid picture: a strict set, so
# no value can carry a newline, a fence, a quote or a shell character.
Spelling = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_.]*$", max_length=64)]
# A matcher: `*`, or names joined by `|` (a regular expression the harness compiles).
Matcher = Annotated[
    str,
    StringConstraints(pattern=r"^(\*|[A-Za-z][A-Za-z0-9_]*(\|[A-Za-z][A-Za-z0-9_]*)*)$"),
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Dispatch(_Strict):
    """One dispatcher entry: an event, an optional matcher, the messages it evaluates (its
    own, then the guards whose files name it: an entry may list none of its own)."""

    event: Spelling
    matcher: Matcher | None = None
    messages: list[Kebab] = Field(default_factory=list)

    @property
    def key(self) -> tuple[str, str]:
        return self.event, matcher_key(self.matcher)


class Guard(_Strict):
    """A guard's placeholders, each with the sample value that previews use (from its
    guard file, `catalog/guards/<name>.toml`)."""

    placeholders: dict[Identifier, str] = Field(default_factory=dict)


class Dispatcher(_Strict):
    script: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_./-]+$")] = "hooks/dispatch.py"


class HookRegistry(_Strict):
    dispatcher: Dispatcher = Field(default_factory=Dispatcher)
    timeouts: dict[str, Annotated[int, Field(gt=0, le=3600)]] = Field(default_factory=dict)
    dispatch: list[Dispatch] = Field(min_length=1)
    # Filled from the guard files (`guard_files.wire`), never from `catalog/hooks.toml`.
    guards: dict[Kebab, Guard] = Field(default_factory=dict)
    unwired: dict[Kebab, OneLine] = Field(default_factory=dict)

    @field_validator("guards", mode="before")
    @classmethod
    def _declared_in_guard_files(cls, value: object) -> object:
        if value:
            raise ValueError(
                "guards are declared in catalog/guards/<name>.toml (wiring, placeholders, "
                "condition, cases), not here"
            )
        return value

    # Computed on each call, not cached: `guard_files.wire` derives a copy with more names.
    def _loaders(self) -> dict[str, list[tuple[str, str]]]:
        loaders: dict[str, list[tuple[str, str]]] = {}
        for entry in self.dispatch:
            for name in dict.fromkeys(entry.messages):
                loaders.setdefault(name, []).append(entry.key)
        return loaders

    def loaded_by(self, name: str) -> list[tuple[str, str]]:
        """The (event, matcher) pairs that load `name`, in registry order."""
        return list(self._loaders().get(name, ()))

    def wired_names(self) -> set[str]:
        return set(self._loaders())


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
    "gemini",
]
FileName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$", max_length=64)]


# What reaches a command line, a matcher or a picture: a harness's event and tool names.
ToolName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", max_length=64)]


class Fold(_Strict):
    """Several tools that the harness registers under one matcher.

    The registry entries of those tools become one registration that names them all; the
    dispatcher decides per call which of them applies (`--entry`).
    """

    tools: list[str] = Field(min_length=2)
    matcher: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$")]


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
    # Where `install --user` puts a module registration, relative to the home folder
    # (None: xcsh's `.xcsh/agent/extensions/hookmsg.js`).
    user_file: ProjectFile | None = None


Version = Annotated[str, StringConstraints(pattern=r"^[0-9]+(\.[0-9]+)*$", max_length=32)]


class Fact(_Strict):
    """One checked fact about how a harness delivers (or does not deliver) hook output."""

    event: str | None = None  # a registry event, or None for a fact about the harness as a whole
    fact: OneLine
    delivered: bool | None = None  # for an event: does its output reach the model as context
    since: Version | None = None  # the first client version with this behaviour
    evidence: OneLine  # the documentation page, changelog entry or run it was checked against


EnvelopeStyle = Literal[
    "hook-specific", "additional-context", "additional_context", "text", "xcsh", "gemini"
]


class Contract(_Strict):
    """How the dispatcher reads this harness's payload and answers it (harness facts only).

    `envelope`: `hook-specific` = `{"hookSpecificOutput": {"hookEventName", "additionalContext"}}`;
    `additional-context` = top-level `additionalContext`; `additional_context` = top-level
    `additional_context`; `text` = the text itself on stdout; `xcsh` = `{"text": T}`, read by the
    generated xcsh module; `gemini` = `hook-specific` context, and a deny as a top-level
    `decision` with a `reason` (Gemini CLI reads no `permissionDecision`). `payload`: `claude`
    (snake_case keys as Claude Code sends them), `copilot` (camelCase keys, `toolArgs`,
    `toolResult`) or
    `xcsh` (the generated xcsh module's payload, read by `hookmsg_dispatch/xcsh.py`).
    `context_events`: the registry events whose context this harness shows the model (an event
    registered only for its side effects is left out). `deny`: a PreToolUse deny decision is
    honoured. `tools`: tool names seen in payloads, beyond the matcher names in [harnesses.tools],
    mapped to registry tools. `patch_tools`: tools whose `tool_input.command` holds a patch.
    `cap_counts`: what the harness's output cap measures, the whole standard output
    (`stdout`, the default and the safe assumption) or the text it takes out of the envelope
    (`field`); `cap_unit`: how it counts (`bytes`, the default, never fewer than the others;
    `utf16`, JavaScript's string length; `chars`).
    """

    envelope: EnvelopeStyle
    payload: Literal["claude", "copilot", "xcsh"] = "claude"
    context_events: list[str] = Field(default_factory=list)
    deny: bool = False
    tools: dict[str, Annotated[str, StringConstraints(min_length=1)]] = Field(default_factory=dict)
    patch_tools: list[Annotated[str, StringConstraints(min_length=1)]] = Field(default_factory=list)
    cap_counts: Literal["stdout", "field"] = "stdout"
    cap_unit: Literal["bytes", "utf16", "chars"] = "bytes"


class SkillPlaces(_Strict):
    """Where a harness loads skills (`<skills>/<name>/SKILL.md`) and commands
    (`<commands>/<name>.md`), as folders inside the project (the plugin: inside the plugin
    root, which is the install root). A folder left out: the harness loads none of that kind."""

    skills: ProjectFile | None = None
    commands: ProjectFile | None = None
    evidence: OneLine  # the documentation page or client run that shows it loads them


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
    # Where it loads skills and commands; None: it loads neither, and receives no index.
    skills: SkillPlaces | None = None

    @property
    def index_form(self) -> str | None:
        """The skill index form this harness receives (loaded.INDEX_FILES), or None."""
        places = self.skills
        if places is None or (places.skills is None and places.commands is None):
            return None
        registration = self.registration
        if registration is not None and registration.format == "claude-plugin":
            return "plugin"
        return "engine" if places.commands is not None else "skills"

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


@dataclass(frozen=True)
class CaseText:
    """One file of guard cases (a guard file, `catalog/guards/<guard>.toml`) as loading
    read it: its text, or None with the reason it could not be read."""

    display: str
    text: str | None
    problem: str = ""


@dataclass
class PartialCatalogue:
    """The catalogue as the loader found it: a part that failed to load is None, with its
    diagnostics. Rules read it (they report on what did load); renderers never do: they
    receive `loaded.LoadedCatalogue`, every part loaded (`Workspace.loaded()`)."""

    registry: HookRegistry | None = None
    harnesses: HarnessCatalogue | None = None
    skills: SkillCatalogue | None = None
    # The skill catalogue's entries, read from its sources and merged with its TOML.
    entries: SkillSet | None = None
    registry_text: str = ""
    registry_display: str = "catalog/hooks.toml"
    # The guard files, each validated on its own; their links to the messages are checked
    # with the messages (`rules/guards.check_references`).
    guards: LoadedGuards | None = None
    # The guard files that hold cases, as read (None: the registry or harnesses failed).
    guard_cases: tuple[CaseText, ...] | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
