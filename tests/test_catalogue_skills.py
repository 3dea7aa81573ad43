"""Skills and commands read from their own files: `[[sources]]` in the skill catalogue.

Every test works in a copy of the mini fixture project, writes SKILL.md or command files into
it, names their folder in `catalog/skills.toml`, and runs hookmsg's command line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg.outputs.check_cache import known_clean
from tests.support.diagnostics import Result, located, parse_findings, positions, run_findings
from tests.support.text import write

Cli = Callable[..., Result]
SKILLS = "catalog/skills.toml"
INDEX = "generated/skill-index.md"


@pytest.fixture
def project(mini_project: Path) -> Path:
    """A built copy of the mini fixture project, not of this repository's catalogue."""
    return mini_project


@pytest.fixture(autouse=True)
def _plain_text_output(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


SMALL = """namespace = "hookmsg"

[cross-bound]
sessionstart = "the session orientation that tells the assistant where this index is"

[[groups]]
id = "build"
title = "Build"

[[groups]]
id = "review"
title = "Review"
hint = "before merging"

[[skills]]
name = "refactor-safely"
group = "build"
manual = false
short = "no behaviour change"
description = "Restructure code without changing what it does."

[[skills]]
name = "review-branch-diff"
group = "review"
manual = true
description = "Review the branch against its base."
"""


@pytest.fixture
def repo(project: Path) -> Path:
    """The project with a small skill catalogue, far from the index budget."""
    (project / SKILLS).write_text(SMALL, encoding="utf-8")
    return project


def add_toml(root: Path, text: str) -> None:
    with (root / SKILLS).open("a", encoding="utf-8") as handle:
        handle.write("\n" + text.strip("\n") + "\n")


def add_source(root: Path, kind: str, path: str, group: str | None = "build") -> None:
    line = f'\ngroup = "{group}"' if group is not None else ""
    add_toml(root, f'[[sources]]\nkind = "{kind}"\npath = "{path}"{line}\n')


def skill(root: Path, folder: str, front: str, body: str = "# Body\n\nDo the thing.\n") -> Path:
    """`skills/<folder>/SKILL.md` with `front` between the `---` lines."""
    return write(root / "skills" / folder / "SKILL.md", f"---\n{front}---\n{body}")


def good(name: str, extra: str = "") -> str:
    return f"name: {name}\ndescription: Use when the task is {name}.\n{extra}"


def index_line(root: Path, title: str) -> str:
    lines = (root / INDEX).read_text(encoding="utf-8").split("\n")
    found = [line for line in lines if line.startswith(f"- **{title}**")]
    assert len(found) == 1, lines
    return found[0]


def only(found: list[object], code: str) -> list[object]:
    return [f for f in found if getattr(f, "code", None) == code]


# --- Entries read from files ------------------------------------------------------


def test_sourced_skills_and_commands_join_the_index_and_the_inventory(repo: Path, cli: Cli) -> None:
    add_source(repo, "skills", "skills")
    add_source(repo, "commands", ".claude/commands")
    skill(repo, "tidy-imports", good("tidy-imports"))
    skill(repo, "cut-release", good("cut-release", "disable-model-invocation: true\n"))
    write(
        repo / ".claude/commands/deploy.md",
        '---\ndescription: Deploy the branch\nargument-hint: "[env]"\n---\nDeploy $ARGUMENTS.\n',
    )
    assert run_findings(cli, "build") == []
    line = index_line(repo, "Build")
    # Slash commands first (sorted), then the model-invoked skills (sorted).
    assert line == (
        "- **Build**: /hookmsg:cut-release, /hookmsg:deploy; "
        "refactor-safely (no behaviour change), tidy-imports"
    )
    inventory = json.loads((repo / "generated/hook-message-inventory.json").read_text("utf-8"))
    rows = {row["name"]: row for row in inventory["skills"]}
    assert rows["tidy-imports"] == {
        "name": "tidy-imports",
        "kind": "skill",
        "group": "build",
        "manual": False,
        "source": "skills/tidy-imports/SKILL.md",
        "omitted": None,
    }
    assert rows["cut-release"]["manual"] is True
    assert rows["deploy"]["source"] == ".claude/commands/deploy.md"
    assert rows["deploy"]["kind"] == "command"
    assert rows["refactor-safely"]["source"] == SKILLS
    table = (repo / "generated/hook-message-inventory.md").read_text("utf-8")
    assert "| `deploy` | command | build | user | `.claude/commands/deploy.md` |" in table
    assert cli("check").code == 0


def test_a_command_without_front_matter_is_described_by_its_first_line(
    repo: Path, cli: Cli
) -> None:
    add_source(repo, "commands", "commands")
    write(repo / "commands/notes.md", "\n# Summarise the session notes\n\nRead them.\n")
    assert run_findings(cli, "validate") == []
    write(repo / "commands/blank.md", "\n\n   \n")
    found = run_findings(cli, "validate")
    # A file of blanks is empty to the reader (F005) and yields no entry.
    assert located(found) == [("commands/blank.md", 1, 1, "F005")]


@pytest.mark.slow
def test_editing_a_skill_name_drifts_the_index(repo: Path, cli: Cli) -> None:
    add_source(repo, "skills", "skills")
    skill(repo, "tidy-imports", good("tidy-imports"))
    assert cli("build").code == 0
    assert known_clean(repo)
    (repo / "skills/tidy-imports").rename(repo / "skills/sort-imports")
    write(repo / "skills/sort-imports/SKILL.md", f"---\n{good('sort-imports')}---\nBody.\n")
    result = cli("check", "--format", "json")
    assert result.code == 1
    found = [(r["path"], r["line"], r["col"], r["code"]) for r in json.loads(result.out)]
    assert found == [
        # The table carries each message's digest (once per context: a changed text is new).
        ("generated/dispatch-table.json", 1, 1, "G002"),
        ("generated/hook-message-inventory.json", 1, 1, "G002"),
        ("generated/hook-message-inventory.md", 1, 1, "G002"),
        (INDEX, 1, 1, "G002"),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("change", ["add", "delete", "rename-in-front-matter"])
def test_the_check_cache_covers_sourced_files_and_their_listing(
    repo: Path, cli: Cli, change: str
) -> None:
    add_source(repo, "skills", "skills")
    skill(repo, "tidy-imports", good("tidy-imports"))
    skill(repo, "sort-imports", good("sort-imports"))
    assert cli("build").code == 0
    assert cli("check").code == 0
    assert known_clean(repo)
    if change == "add":
        skill(repo, "lint-fix", good("lint-fix"))
    elif change == "delete":
        (repo / "skills/sort-imports/SKILL.md").unlink()
    else:
        skill(repo, "sort-imports", good("sort-imports").replace("name: sort", "name: order"))
    assert not known_clean(repo)
    assert cli("check").code == 1


# --- Overrides, shadows, omissions -------------------------------------------------


@pytest.mark.slow
def test_a_skills_entry_overrides_group_manual_and_short(repo: Path, cli: Cli) -> None:
    add_source(repo, "skills", "skills", group=None)
    skill(repo, "tidy-imports", good("tidy-imports"))
    add_toml(
        repo,
        '[[skills]]\nname = "tidy-imports"\ngroup = "review"\nmanual = true\n',
    )
    assert run_findings(cli, "build") == []
    assert "/hookmsg:tidy-imports" in index_line(repo, "Review")
    add_toml(repo, '[omit]\n"tidy-imports" = "only for this repository"\n')
    assert run_findings(cli, "build") == []
    assert "tidy-imports" not in (repo / INDEX).read_text("utf-8")
    table = (repo / "generated/hook-message-inventory.md").read_text("utf-8")
    assert "| `tidy-imports` | skill | left out: only for this repository | user |" in table


@pytest.mark.slow
def test_duplicate_names_are_reported_unless_one_source_is_picked(repo: Path, cli: Cli) -> None:
    add_source(repo, "skills", "skills")
    add_source(repo, "commands", "commands")
    skill(repo, "tidy-imports", good("tidy-imports"))
    write(repo / "commands/tidy-imports.md", "---\ndescription: Tidy them now\n---\nTidy.\n")
    found = run_findings(cli, "validate")
    assert located(found) == [("commands/tidy-imports.md", 1, 1, "S012")]
    assert "also defined by skills/tidy-imports/SKILL.md" in found[0].message
    add_toml(repo, '[[skills]]\nname = "tidy-imports"\nsource = "./commands/"\n')
    assert run_findings(cli, "build") == []
    assert "/hookmsg:tidy-imports" in index_line(repo, "Build")


def test_catalogue_mistakes_about_sources(repo: Path, cli: Cli) -> None:
    add_source(repo, "skills", "skils")
    add_source(repo, "skills", "skills", group="nowhere")
    skill(repo, "tidy-imports", good("tidy-imports"))
    add_toml(
        repo,
        '[[skills]]\nname = "lonely"\ngroup = "build"\n\n'
        '[[skills]]\nname = "tidy-imports"\ndescription = "Overridden here."\n'
        'source = "elsewhere"\n\n'
        '[omit]\nghost = "not defined anywhere"\n',
    )
    text = (repo / SKILLS).read_text("utf-8").split("\n")

    def line(needle: str) -> int:
        return next(n for n, t in enumerate(text, 1) if t.startswith(needle))

    found = run_findings(cli, "validate")
    skils = line('path = "skils"') - 2
    lonely = line('name = "lonely"') - 1
    override = line('description = "Overridden here."') - 2
    assert located(found) == sorted(
        [
            (SKILLS, skils, 1, "S016"),
            (SKILLS, line('group = "nowhere"'), 1, "C005"),
            (SKILLS, lonely, 1, "S017"),
            (SKILLS, override, 1, "C005"),
            (SKILLS, override, 1, "S017"),
            (SKILLS, line("ghost ="), 1, "C005"),
        ]
    )
    assert "folder 'skils' does not exist" in only(found, "S016")[0].message  # type: ignore[attr-defined]


def test_a_sourced_file_that_links_out_of_the_repository_is_refused(
    repo: Path, cli: Cli, tmp_path: Path
) -> None:
    secret = write(tmp_path / "secret.md", "---\nname: secret\ndescription: x\n---\n")
    (repo / "skills/secret").mkdir(parents=True)
    (repo / "skills/secret/SKILL.md").symlink_to(secret)
    add_source(repo, "skills", "skills")
    found = run_findings(cli, "validate")
    assert located(found) == [("skills/secret/SKILL.md", 1, 1, "F007")]


def test_absolute_and_windows_source_paths_are_schema_errors(repo: Path, cli: Cli) -> None:
    add_source(repo, "skills", "/etc")
    add_source(repo, "skills", "C:\\\\skills")
    found = run_findings(cli, "validate")
    assert [f.code for f in found] == ["C002", "C002"]


# --- Rules on the files themselves (one test per code: tests/test_codes.py) --------

CASES: dict[str, tuple[str, list[tuple[int, int, str]]]] = {
    "broken yaml": (
        "---\nname: x\ndescription: Use when: the user asks\n---\n",
        [(3, 22, "S003")],
    ),
    "a number key": ("---\nname: case\ndescription: y\n1: z\n---\n", [(4, 1, "S004")]),
    "title case": (
        "---\nname: Case Study\ndescription: y\n---\n",
        [(2, 7, "S007"), (2, 7, "S008")],
    ),
    "empty description": ("---\nname: case\ndescription:  \n---\n", [(3, 13, "S009")]),
    "wrong type": (
        "---\nname: case\ndescription: y\ndisable-model-invocation: yes please\n---\n",
        [(4, 27, "S015")],
    ),
    "bad tag": (
        "---\nname: case\ndescription: !!python/object:os.system y\n---\n",
        [(3, 14, "S003")],
    ),
    "crlf": ("---\r\nname: case\r\ndescription: y\r\n---\r\n", [(1, 1, "F002")]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_malformed_skill_is_one_finding_at_its_position(
    repo: Path, cli: Cli, case: str
) -> None:
    content, expected = CASES[case]
    add_source(repo, "skills", "skills")
    write(repo / "skills/case/SKILL.md", content)
    found = run_findings(cli, "validate")
    assert positions(found) == expected, found
    assert {f.path for f in found} == {"skills/case/SKILL.md"}


def test_extra_keys_accept_what_a_harness_adds(repo: Path, cli: Cli) -> None:
    add_source(repo, "skills", "skills")
    skill(repo, "tidy-imports", good("tidy-imports", "version: 1.0\n"))
    assert [f.code for f in run_findings(cli, "validate")] == ["S011"]
    add_toml(repo, '[front-matter]\nextra-keys = ["version"]\n')
    assert run_findings(cli, "validate") == []


def test_a_command_name_comes_from_its_file_name(repo: Path, cli: Cli) -> None:
    add_source(repo, "commands", "commands")
    write(repo / "commands/clean_gone.md", "---\ndescription: Clean up\n---\nGo.\n")
    write(repo / "commands/commit.md", "---\ndescription: c\nargument-hint: [msg]\n---\nGo.\n")
    found = run_findings(cli, "validate")
    assert located(found) == [
        ("commands/clean_gone.md", 1, 1, "S008"),
        ("commands/commit.md", 3, 16, "S015"),
    ]


def test_an_over_budget_index_from_sources_names_the_largest_groups(repo: Path, cli: Cli) -> None:
    add_source(repo, "skills", "skills")
    for number in range(60):
        name = f"generated-skill-with-a-long-name-{number:02d}"
        skill(repo, name, good(name))
    result = cli("validate")
    found = parse_findings(result.out)
    budget = only(found, "G001")
    assert len(budget) == 2
    assert all("largest groups: Build (" in f.message for f in budget)  # type: ignore[attr-defined]


def test_explain_knows_every_s_code(cli: Cli) -> None:
    listing = cli("explain")
    assert listing.code == 0
    for number in range(1, 18):
        code = f"S{number:03d}"
        assert code in listing.out
        assert cli("explain", code).code == 0


@pytest.mark.slow
def test_the_documented_example_catalogue_reads_skill_folders(repo: Path, cli: Cli) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "skills.md").read_text("utf-8")
    section = doc.split("## Skills and commands read from their own files\n", 1)[1]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    cross = '\n[cross-bound]\nsessionstart = "the orientation that points at this index"\n'
    (repo / SKILLS).write_text(example + cross, encoding="utf-8")
    skills = repo / ".claude/skills"
    write(skills / "security-review/SKILL.md", f"---\n{good('security-review')}---\nBody.\n")
    write(skills / "release-internal/SKILL.md", f"---\n{good('release-internal')}---\nBody.\n")
    write(
        skills / "pin-versions/SKILL.md",
        f"---\n{good('pin-versions')}version: 2\nmetadata:\n  short-description: lockfiles\n---\n",
    )
    write(repo / ".claude/commands/deploy.md", "---\ndescription: Deploy\n---\nDeploy.\n")
    assert run_findings(cli, "build") == []
    assert index_line(repo, "Build") == "- **Build** (writing code): pin-versions (lockfiles)"
    assert index_line(repo, "Review") == (
        "- **Review**: /acme:deploy, /acme:explain-code; security-review (injection, secrets)"
    )
    assert "release-internal" not in (repo / INDEX).read_text("utf-8")
