"""What each guard's detector matches against: the `[condition]` of its guard file
(`catalog/guards/<name>.toml`, read by `guard_files.py`; U rules: rules/guards.py).

`detector` names the detection code in the dispatcher, and the other keys are that
detector's data, validated here by the detector's model. The dispatcher reads the tables
from the dispatch table; it never reads the guard files. Which detectors exist, where each
lives and the placeholders it fills are declared by the detector modules themselves
(`catalogue/detectors.py`); the placeholders must equal the guard file's `[placeholders]`
(a test checks that the dispatcher returns exactly these).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
)

from hookmsg.catalogue.detectors import detector_modules

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
Regex = Annotated[str, StringConstraints(min_length=1, max_length=1000)]
ManifestKind = Literal[
    "package-json",
    "pyproject",
    "requirements",
    "cargo",
    "go-mod",
    "gemfile",
    "pipfile",
    "setup-cfg",
    "setup-py",
    "conda",
    "gemspec",
    "maven",
    "gradle",
    "gradle-catalog",
    "sbt",
    "nuget",
    "composer",
    "deno",
    "vcpkg",
    "conan",
    "pubspec",
    "mix",
    "swift-package",
]


class GuardEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)
    detector: str
    # Speak once per change in a context: the same advisory again lets the call go ahead.
    # For a guard whose remedy leaves no trace the detector could see (telling the user why).
    once_per_change: bool = Field(False, alias="once-per-change")


class CommandRule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    match: Regex
    manifest: Line


class DependencyData(GuardEntry):
    lockfiles: list[Glob] = Field(min_length=1)
    manifests: dict[Glob, ManifestKind] = Field(min_length=1)
    max_changes: int = Field(3, ge=1, le=20, alias="max-changes")
    commands: dict[Line, CommandRule] = Field(default_factory=dict)


Delimiter = Annotated[str, StringConstraints(pattern=r"^\S{1,3}$")]


class Language(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)
    extensions: list[Extension] = Field(min_length=1)
    comment: Prefix
    primitives: dict[Line, Regex] = Field(min_length=1)
    block_comment: list[Delimiter] = Field(
        default_factory=list, alias="block-comment", min_length=0, max_length=2
    )
    strings: list[Delimiter] = Field(default_factory=list, max_length=8)
    command_start: bool = Field(False, alias="command-start")
    # Whole file names of the language, for files without an extension (`Jenkinsfile`).
    files: list[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.+-]{1,40}$")]] = Field(
        default_factory=list
    )


class EvalData(GuardEntry):
    languages: dict[Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]+$")], Language] = Field(
        min_length=1
    )
    commands: dict[str, str] = Field(default_factory=dict)
    interpreters: dict[Glob, str] = Field(default_factory=dict)
    justification: Regex = r"(?i)\btrusted:"
    workflow_expressions: Regex | None = Field(None, alias="workflow-expressions")
    # CI and build files (a name glob) -> how their shell lines are found (guards/buildfiles).
    build_files: dict[Glob, Literal["yaml", "make", "run", "recipe"]] = Field(
        default_factory=dict, alias="build-files"
    )
    script_keys: list[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,40}$")]] = Field(
        default_factory=list, alias="script-keys"
    )


# A file kind: an extension (`.py`), or a whole file name without one (`Makefile`).
KindKey = Annotated[
    str,
    StringConstraints(
        pattern=r"^(?:\.[A-Za-z0-9_+-]+|[A-Za-z0-9_+-][A-Za-z0-9_.+-]*)$", max_length=40
    ),
]
# A line comment prefix (`#`), or a block comment's opener and closer (`/* */`).
CommentSyntax = Annotated[str, StringConstraints(pattern=r"^\S{1,8}(?: \S{1,8})?$")]


class EditHeaderData(GuardEntry):
    header: Regex
    notice: Regex | None = None
    # Lines opening a licence text (GPL's `This program is free software`), notice lines
    # too; apart from `notice` so that the dispatcher seldom compiles it.
    notice_texts: Regex | None = Field(None, alias="notice-texts")
    kinds: dict[KindKey, CommentSyntax | list[CommentSyntax]] = Field(min_length=1)


class WriteHeaderData(EditHeaderData):
    max_levels: int = Field(8, ge=0, le=64, alias="max-levels")


class WritePlanData(GuardEntry):
    plans: list[RelativePath] = Field(min_length=1)
    exempt: list[RelativePath] = Field(default_factory=lambda: [".hookmsg/compaction-note.md"])


class BashPlanData(GuardEntry):
    plans: list[RelativePath] = Field(min_length=1)
    commands: dict[Line, Regex] = Field(min_length=1)
    read_only: Regex | None = Field(None, alias="read-only")


class QuestionData(GuardEntry):
    marker: Line = "(Recommended)"
    min_options: int = Field(2, ge=2, le=20, alias="min-options")
    equal_options: Regex | None = Field(None, alias="equal-options")


class MatchRule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    name: Line
    paths: list[Annotated[str, StringConstraints(pattern=r"^[^\n\r]+$", max_length=200)]] = Field(
        default_factory=list
    )
    content: Regex | None = None
    command: Regex | None = None


class MatchData(GuardEntry):
    """A data-only guard: rules of paths, content patterns and command patterns."""

    rules: list[MatchRule] = Field(min_length=1, max_length=200)


class CompactionData(GuardEntry):
    tokens: int = Field(gt=0)
    drop_fraction: float = Field(gt=0, lt=1, alias="drop-fraction")
    max_per_cycle: int = Field(ge=1, le=20, alias="max-per-cycle")
    min_calls_between: int = Field(ge=0, alias="min-calls-between")
    tail_bytes: int = Field(1 << 20, ge=4096, le=16 << 20, alias="tail-bytes")
    fallback_calls: int = Field(gt=0, alias="fallback-calls")
    fallback_output_bytes: int = Field(gt=0, alias="fallback-output-bytes")


class OpenData(GuardEntry):
    """The data of a detector that ships no model here: carried as written, judged by its
    detector when it runs (it fails open on data it cannot use)."""

    model_config = ConfigDict(extra="allow", frozen=True, strict=True)


# The data model of each shipped detector, by its id: what U002 checks a condition against.
# A new detector may add one; without it its data is `OpenData`.
MODELS: dict[str, type[GuardEntry]] = {
    "dependency": DependencyData,
    "eval": EvalData,
    "write-header": WriteHeaderData,
    "edit-header": EditHeaderData,
    "write-plan": WritePlanData,
    "bash-plan": BashPlanData,
    "askuserquestion": QuestionData,
    "match": MatchData,
    "compaction": CompactionData,
}


@dataclass(frozen=True)
class Detector:
    """One detector as the rules see it: its data model, what it fills, where it lives."""

    model: type[GuardEntry]
    placeholders: frozenset[str]
    module: str
    condition: bool  # a context message's condition, not a guard


@cache
def detectors() -> dict[str, Detector]:
    """Every detector the dispatcher declares (`catalogue.detectors`), with its model."""
    return {
        name: Detector(
            MODELS.get(name, OpenData), found.placeholders, found.module, found.condition
        )
        for name, found in detector_modules().items()
    }


def regexes(data: GuardEntry) -> list[tuple[tuple[str, ...], str]]:  # noqa: PLR0911
    """(location, pattern) of every regular expression in one guard's data."""
    if isinstance(data, EvalData):
        return [(("justification",), data.justification)] + [
            (("languages", language, "primitives", name), source)
            for language, spec in data.languages.items()
            for name, source in spec.primitives.items()
        ]
    if isinstance(data, EditHeaderData):
        found: list[tuple[tuple[str, ...], str]] = [(("header",), data.header)]
        found += [(("notice",), data.notice)] if data.notice else []
        return found + ([(("notice-texts",), data.notice_texts)] if data.notice_texts else [])
    if isinstance(data, QuestionData):
        return [(("equal-options",), data.equal_options)] if data.equal_options else []
    if isinstance(data, DependencyData):
        return [(("commands", name, "match"), rule.match) for name, rule in data.commands.items()]
    if isinstance(data, MatchData):
        return [
            (("rules", str(index), key), source)
            for index, rule in enumerate(data.rules)
            for key, source in (("content", rule.content), ("command", rule.command))
            if source is not None
        ]
    if isinstance(data, BashPlanData):
        found = [(("commands", name), source) for name, source in data.commands.items()]
        return found + ([(("read-only",), data.read_only)] if data.read_only else [])
    return []
