"""Real, independently written skills and commands: `../shared/corpora/agent-skills/`.

46 SKILL.md and 16 command files from 20 public repositories, unmodified (its
SOURCES.md says what is irregular in each). They are read in place, from the path
relative to the repository root, and never copied into the project. A catalogue that
points at all of them must report every malformed one with its code and position,
never crash, and render an index that is within budget or says exactly why not.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.settings import load_project
from tests.support.diagnostics import Result
from tests.support.repository import REPO

Cli = Callable[..., Result]
CORPUS = REPO / ".." / "shared" / "corpora" / "agent-skills"
SKILLS = "catalog/skills.toml"

# In CI the corpus must be there: a missing checkout fails the run instead of skipping it
# (`test_the_corpus_is_checked_out`), so a green CI always measured the corpus.
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
pytestmark = pytest.mark.skipif(
    not IN_CI and not (CORPUS / "SOURCES.md").is_file(),
    reason=f"the shared skill corpus is not checked out beside the repository ({CORPUS})",
)


def test_the_corpus_is_checked_out() -> None:
    assert (CORPUS / "SOURCES.md").is_file(), (
        f"the shared skill corpus is not checked out beside the repository ({CORPUS}); "
        "CI needs it (outside CI the corpus tests are skipped)"
    )


SMALL = """namespace = "corpus"

[cross-bound]
sessionstart = "the session orientation that tells the assistant where this index is"

[[groups]]
id = "work"
title = "Work"
hint = "from the corpus"
"""

# Every finding about the corpus, by file (relative to the corpus), as (line, col, code).
# Each irregular case SOURCES.md names is here with the code of its rule; the rest are
# keys that the Agent Skills format and Claude Code do not define (S011), the command
# whose unquoted argument-hint YAML reads as a list (S015), and the one name that two
# repositories both use (S012).
EXPECTED: dict[str, list[tuple[int, int, str]]] = {
    "1075551341--claude_code_config/skills/brainstorming/SKILL.md": [
        (4, 1, "S011"),  # triggers
        (5, 1, "S011"),  # layer
        (7, 1, "S011"),  # loading_tier
        (8, 1, "S011"),  # source
    ],
    "ComposioHQ--awesome-claude-skills/skills/-21risk-automation/SKILL.md": [
        (2, 7, "S008"),  # starts with a hyphen
        (4, 1, "S011"),  # requires
    ],
    "ComposioHQ--awesome-claude-skills/skills/anthropic_administrator-automation/SKILL.md": [
        (2, 7, "S008"),  # underscore
        (4, 1, "S011"),
    ],
    "ComposioHQ--awesome-claude-skills/skills/apollo-automation/SKILL.md": [
        (2, 7, "S007"),  # `Apollo Automation` is not the folder name
        (2, 7, "S008"),  # nor a valid name
        (4, 1, "S011"),  # category
        (5, 1, "S011"),  # requires
    ],
    "ComposioHQ--awesome-claude-skills/skills/video-downloader/SKILL.md": [(2, 7, "S007")],
    "D4Vinci--Scrapling/skills/Scrapling-Skill/SKILL.md": [
        (2, 7, "S007"),  # uppercase folder, `scrapling-official`
        (4, 1, "S011"),  # version
    ],
    "Dannykkh--skill-olympus/commands/pmworker.md": [(1, 1, "S006")],  # BOM
    "Dannykkh--skill-olympus/skills/ko-en-translator/SKILL.md": [(3, 1, "S011")],
    "HTRamsey--claude-config/commands/commit.md": [(4, 16, "S015")],  # argument-hint list
    "HTRamsey--claude-config/commands/pr.md": [(4, 26, "S003")],  # `[--draft] [--base ...`
    "HTRamsey--claude-config/skills/example-skill/SKILL.md": [(1, 1, "S001")],
    "JPFrancoia--skills_and_commands/skills/simple-english/SKILL.md": [(3, 1, "S011")],
    "K-Dense-AI--claude-scientific-skills/skills/database-lookup/SKILL.md": [(3, 14, "S010")],
    "K-Dense-AI--claude-scientific-skills/skills/geomaster/SKILL.md": [(1, 1, "F002")],  # CRLF
    "SpectrAI-Initiative--InnoClaw/skills/admet_druglikeness_report/SKILL.md": [(2, 7, "S008")],
    "SpectrAI-Initiative--InnoClaw/skills/drugsda-p2rank/SKILL.md": [(3, 13, "S009")],
    "XposeMarket--SmallClaw/skills/orchestration/SKILL.md": [
        (1, 1, "S006"),  # BOM
        (2, 7, "S007"),
        (2, 7, "S008"),  # `Multi-Agent Orchestrator`
        (4, 1, "S011"),  # emoji
        (5, 1, "S011"),  # version
    ],
    "YuqingNicole--variant-design-skill/skills/variant-design-skill/SKILL.md": [
        (3, 129, "S003")  # an unquoted `: ` inside the description
    ],
    "agentscope-ai--agentscope/skills/A2UI_response_generator/SKILL.md": [(2, 7, "S008")],
    "anthropics--claude-code/commands/clean_gone.md": [(1, 1, "S008")],
    "anthropics--claude-code/commands/ralph-loop.md": [(5, 1, "S011")],
    "anthropics--claude-code/skills/hook-development/SKILL.md": [
        (2, 7, "S007"),
        (2, 7, "S008"),
        (4, 1, "S011"),
    ],
    "anthropics--claude-code/skills/skill-development/SKILL.md": [
        (2, 7, "S007"),
        (2, 7, "S008"),
        (4, 1, "S011"),
    ],
    "anthropics--claude-code/skills/writing-rules/SKILL.md": [
        (2, 7, "S007"),
        (2, 7, "S008"),
        (4, 1, "S011"),
    ],
    "anthropics--skills/skills/claude-api/SKILL.md": [(3, 14, "S010")],  # 1,068 characters
    "anthropics--skills/skills/template/SKILL.md": [(2, 7, "S007")],
    "davila7--claude-code-templates/commands/gemini-review.md": [(3, 30, "S003")],
    "davila7--claude-code-templates/skills/agirails-agent-payments/SKILL.md": [
        (1, 1, "S009"),  # no description ...
        (3, 1, "S011"),  # ... but a `+description`
    ],
    "davila7--claude-code-templates/skills/data-processing-ray-data/SKILL.md": [(8, 19, "S003")],
    "davila7--claude-code-templates/skills/doordash-group-orders/SKILL.md": [(3, 577, "S003")],
    "davila7--claude-code-templates/skills/scholar-evaluation/SKILL.md": [(1, 1, "S001")],
    "maxecho20--CC-skill/skills/web-performance-seo/SKILL.md": [(2, 7, "S007")],
    "obra--superpowers/skills/brainstorming/SKILL.md": [(1, 1, "S012")],
    "vercel-labs--agent-skills/skills/react-best-practices/SKILL.md": [(2, 7, "S007")],
    "wshobson--agents/commands/sql-migrations.md": [
        (3, 1, "S011"),  # version
        (4, 1, "S011"),  # tags
        (16, 1, "S011"),  # tool_access
    ],
    "wshobson--agents/skills/context-driven-development/SKILL.md": [(10, 1, "S011")],
    "wshobson--agents/skills/postgresql/SKILL.md": [(2, 7, "S007")],
}


def corpus_path(root: Path) -> str:
    """The corpus as the catalogue names it: a path relative to the project root."""
    return Path(os.path.relpath(CORPUS.resolve(), root)).as_posix()


def sources(root: Path, repos: list[str] | None = None) -> str:
    base = corpus_path(root)
    tables = []
    for repo in sorted(repos or [p.name for p in CORPUS.iterdir() if p.is_dir()]):
        for kind in ("skills", "commands"):
            if (CORPUS / repo / kind).is_dir():
                tables.append(
                    f'[[sources]]\nkind = "{kind}"\npath = "{base}/{repo}/{kind}"\ngroup = "work"\n'
                )
    return "\n".join(tables)


@pytest.fixture
def catalogue(project: Path) -> Path:
    return project / SKILLS


def test_the_corpus_is_what_sources_md_says(catalogue: Path) -> None:
    skills = sorted(CORPUS.glob("*/skills/*/SKILL.md"))
    commands = sorted(CORPUS.glob("*/commands/*.md"))
    assert (len(skills), len(commands)) == (46, 16)


@pytest.mark.slow
def test_every_malformed_entry_is_reported_with_code_and_position(
    project: Path, catalogue: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    catalogue.write_text(SMALL + "\n" + sources(project), encoding="utf-8")
    result = cli("validate", "--format", "json")
    assert "Traceback" not in result.err, result.err
    assert result.code == 1
    prefix = corpus_path(project) + "/"
    found: dict[str, list[tuple[int, int, str]]] = {}
    budget = []
    for record in json.loads(result.out):
        if record["path"] == SKILLS:
            budget.append(record)
            continue
        assert record["path"].startswith(prefix), record
        path = record["path"][len(prefix) :]
        found.setdefault(path, []).append((record["line"], record["col"], record["code"]))
    assert found == EXPECTED
    duplicate = next(r for r in json.loads(result.out) if r["code"] == "S012")
    assert "1075551341--claude_code_config/skills/brainstorming/SKILL.md" in duplicate["message"]

    # Everything readable fits in one group within budget: no G001, and every entry is
    # listed, the commands first.
    assert budget == []
    workspace = load_workspace(load_project(project))
    index = workspace.skill_index
    entries = workspace.catalogue.entries
    assert index is not None and entries is not None
    assert index.plugin_size <= 1600 and index.engine_size <= 1600
    line = index.group_lines[0][1]
    assert all(entry.name in line for entry in entries.entries)
    # 62 files, less 7 that yield no entry (two without front matter, five whose YAML
    # does not parse), less the second `brainstorming`.
    assert len(entries.entries) == 54
    manual, invoked = line.split(": ", 1)[1].split("; ")
    assert all(item.startswith("/corpus:") for item in manual.split(", "))
    assert "/corpus:" not in invoked
    # The first `brainstorming` (disable-model-invocation: true) is the one listed.
    assert "/corpus:brainstorming" in manual.split(", ")


@pytest.mark.slow
def test_the_corpus_beside_this_catalogue_is_over_budget_and_says_why(
    project: Path, catalogue: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    text = catalogue.read_text(encoding="utf-8")
    catalogue.write_text(text + "\n" + sources(project).replace('"work"', '"hooks"'), "utf-8")
    result = cli("validate", "--format", "json")
    assert result.code == 1 and "Traceback" not in result.err
    budget = [r for r in json.loads(result.out) if r["code"] == "G001"]
    workspace = load_workspace(load_project(project))
    index = workspace.skill_index
    assert index is not None
    assert index.plugin_size > index.engine_size > 1600

    def largest(engine: bool) -> str:
        sizes = sorted(
            (
                (title, len(line.replace("/hookmsg:", "/") if engine else line))
                for title, line in index.group_lines
            ),
            key=lambda item: (-item[1], item[0]),
        )[:3]
        return ", ".join(f"{title} ({size})" for title, size in sizes)

    assert [(r["path"], r["line"], r["col"], r["message"]) for r in budget] == [
        (
            SKILLS,
            1,
            1,
            f"skill index (engine form) delivers {index.engine_size} characters, "
            f"{index.engine_size - 1600} over the 1600 budget; largest groups: {largest(True)}",
        ),
        (
            SKILLS,
            1,
            1,
            f"skill index (plugin form) delivers {index.plugin_size} characters, "
            f"{index.plugin_size - 1600} over the 1600 budget; largest groups: {largest(False)}",
        ),
    ]
    assert largest(False).startswith("Hooks (")


@pytest.mark.slow
def test_well_formed_folders_render_an_index_within_budget(
    project: Path, catalogue: Path, cli: Cli
) -> None:
    repos = ["obra--superpowers", "openai--skills"]
    catalogue.write_text(SMALL + "\n" + sources(project, repos), encoding="utf-8")
    build = cli("build")
    assert build.code == 0, build.out + build.err
    index = (project / "generated/skill-index.md").read_text(encoding="utf-8")
    assert (
        "- **Work** (from the corpus): /corpus:brainstorm, /corpus:execute-plan; brainstorming, "
        "create-plan (Create a plan), gh-fix-ci (Fix failing Github CI actions), "
        "skill-installer (Install curated skills from openai/skills or other repos), "
        "systematic-debugging, test-driven-development\n"
    ) in index
    inventory = json.loads(
        (project / "generated/hook-message-inventory.json").read_text(encoding="utf-8")
    )
    base = corpus_path(project)
    sources_of = {row["name"]: row["source"] for row in inventory["skills"]}
    assert sources_of["gh-fix-ci"] == f"{base}/openai--skills/skills/gh-fix-ci/SKILL.md"
    assert sources_of["brainstorm"] == f"{base}/obra--superpowers/commands/brainstorm.md"
    assert cli("check").code == 0
