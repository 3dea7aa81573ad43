"""Golden tests: a small fixture project renders, byte for byte, to committed goldens.

`tests/fixtures/mini/` is a self-contained project (pyproject.toml with `[tool.hookmsg]`,
messages/, catalog/). It is copied to a temporary folder, `hookmsg build` runs there
in-process, and every generated file is compared byte for byte with its golden in
`tests/golden/mini/`.

To rewrite the goldens after an intended change to a renderer, run

    HOOKMSG_UPDATE_GOLDEN=1 pytest tests/test_golden.py

then read the diff of `tests/golden/mini/` by eye before committing it: a golden
is only as right as the person who accepted it.

The last tests check that this repository's own committed `generated/` files are
exactly what the sources produce (what `hookmsg check` enforces in pre-commit).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg.outputs.generated import GENERATOR_NAMES, render_outputs
from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.settings import load_project
from tests.support.diagnostics import Result
from tests.support.harnesses import registered_harnesses

TESTS = Path(__file__).resolve().parent
FIXTURE = TESTS / "fixtures" / "mini"
GOLDEN = TESTS / "golden" / "mini"
UPDATE = os.environ.get("HOOKMSG_UPDATE_GOLDEN") == "1"
LICENCE_LINE = "<!-- SPDX-License-Identifier: MIT -->"

Cli = Callable[..., Result]


@pytest.fixture(autouse=True)
def _plain_text_output(monkeypatch: pytest.MonkeyPatch) -> None:
    # CI sets GITHUB_ACTIONS=true, which switches the default diagnostic format.
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


@pytest.fixture
def built(mini: Path, cli: Cli) -> Path:
    """The mini project after `hookmsg build`; with HOOKMSG_UPDATE_GOLDEN=1, goldens rewritten."""
    assert not (mini / "generated").exists(), "the fixture must not carry generated files"
    result = cli("build")
    assert result.code == 0, result.out + result.err
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for stale in GOLDEN.iterdir():
            stale.unlink()
        for produced in (mini / "generated").iterdir():
            if produced.is_file():  # folders: the built-in harnesses' registrations
                (GOLDEN / produced.name).write_bytes(produced.read_bytes())
    return mini / "generated"


def test_fixture_validates_clean(mini: Path, cli: Cli) -> None:
    result = cli("validate")
    assert result.code == 0, result.out + result.err
    assert result.out == ""


@pytest.mark.parametrize("name", GENERATOR_NAMES)
def test_output_matches_golden(built: Path, name: str) -> None:
    golden = GOLDEN / name
    assert golden.is_file(), f"no golden for {name}; run with HOOKMSG_UPDATE_GOLDEN=1"
    assert (built / name).read_bytes() == golden.read_bytes()


def test_every_output_has_a_golden_and_nothing_else(built: Path) -> None:
    produced = sorted(p.name for p in built.iterdir() if p.is_file())
    assert produced == sorted(GENERATOR_NAMES)
    # The folders are the registrations of hookmsg's built-in harnesses (their goldens are
    # tests/golden/registrations/); the fixture's own harnesses have none.
    folders = {p.name for p in built.iterdir() if p.is_dir()}
    assert folders and not folders & {"mini-claude", "mini-copilot", "mini-codex"}
    assert sorted(p.name for p in GOLDEN.iterdir()) == produced


def test_mini_check_is_clean_and_rebuild_writes_nothing(built: Path, cli: Cli) -> None:
    before = {str(p): (p.read_bytes(), p.stat().st_ino) for p in built.rglob("*") if p.is_file()}
    check = cli("check")
    assert (check.code, check.out) == (0, ""), check.out + check.err
    again = cli("build")
    assert again.code == 0, again.out + again.err
    assert "wrote" not in again.err
    after = {str(p): (p.read_bytes(), p.stat().st_ino) for p in built.rglob("*") if p.is_file()}
    assert after == before


# The goldens themselves, against the properties the specification promises. These
# read only the committed golden bytes, so a wrong golden cannot hide behind the
# byte comparison above.


def _golden_text(name: str) -> str:
    data = (GOLDEN / name).read_bytes()
    assert b"\r" not in data, f"{name}: CR found; outputs use LF only"
    assert data.endswith(b"\n") and not data.endswith(b"\n\n"), f"{name}: one final newline"
    return data.decode("utf-8")


@pytest.mark.parametrize("name", sorted(n for n in GENERATOR_NAMES if n.endswith(".json")))
def test_golden_json_is_canonical(name: str) -> None:
    text = _golden_text(name)
    data = json.loads(text)
    canonical = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert text == canonical


@pytest.mark.parametrize("name", sorted(n for n in GENERATOR_NAMES if n.endswith(".md")))
def test_golden_markdown_starts_with_licence_line(name: str) -> None:
    lines = _golden_text(name).split("\n")
    assert lines[0] == LICENCE_LINE
    assert lines[1] == ""
    assert lines.count(LICENCE_LINE) == 1


def test_golden_skill_index_lists_groups_in_order_and_skills_by_name() -> None:
    text = _golden_text("skill-index.md")
    assert "generated" in text and "do not edit" in text
    group_lines = [line for line in text.split("\n") if line.startswith("- **") and "**: " in line]
    # Groups in catalogue order (Work before Review); in each, the manual entries first
    # in the plugin form /<namespace>:<name>, then the model-invoked ones, each sorted.
    assert group_lines[:2] == [
        "- **Work**: /mini:plan-change; fix-bug, write-tests",
        "- **Review**: /mini:review-diff; write-commit-message",
    ]


def test_golden_advisories_carry_template_placeholders_and_procedure() -> None:
    data = json.loads(_golden_text("advisories.json"))
    assert [entry["name"] for entry in data["advisories"]] == ["pretooluse-write-guard"]
    entry = data["advisories"][0]
    assert entry["placeholders"] == ["header", "path"]
    assert entry["template"] == (
        "The file {{ path }} does not start with {{ header }}. Add the header at the top."
    )
    assert entry["loaded_by"] == [{"event": "PreToolUse", "matcher": "Write|Edit"}]
    assert entry["full_procedure"] == "Full procedure: messages/pretooluse-write-guard.md"


def _delivered_size(path: Path) -> int:
    """Independent of hookmsg: the file minus the licence line and Bindings, trimmed."""
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[0] == LICENCE_LINE
    body = lines[1 : lines.index("## Bindings")]
    return len("\n".join(body).strip())


def test_golden_inventory_rows_sorted_with_true_sizes() -> None:
    data = json.loads(_golden_text("hook-message-inventory.json"))
    names = [row["name"] for row in data["messages"]]
    assert names == sorted(names)
    assert names == ["postcompact", "pretooluse-write-guard", "sessionstart", "skill-index", "stop"]
    kinds = {row["name"]: row["kind"] for row in data["messages"]}
    assert kinds["pretooluse-write-guard"] == "guard"
    assert kinds["skill-index"] == "generated"
    assert kinds["stop"] == "context"
    sizes = {row["name"]: row["size"] for row in data["messages"]}
    for name in ("postcompact", "pretooluse-write-guard", "sessionstart", "stop"):
        assert sizes[name] == _delivered_size(FIXTURE / "messages" / f"{name}.md"), name
    assert sizes["skill-index"] == _delivered_size(GOLDEN / "skill-index.md")
    delivered = {row["name"]: row["delivered_by"] for row in data["messages"]}
    # Of the fixture's own harnesses (added to the built-in ones), only the one that
    # reports session start sources gets the compact-only message.
    assert "mini-claude" in delivered["postcompact"]
    assert not {"mini-copilot", "mini-codex"} & set(delivered["postcompact"])
    assert "mini-copilot" not in delivered["stop"]
    spelled = {h["id"]: h["events"] for h in data["harnesses"]}
    assert spelled["mini-copilot"] == {"PostToolUse": "postToolUse", "SessionStart": "sessionStart"}

    markdown = _golden_text("hook-message-inventory.md")
    messages_part, skills_part = markdown.split("\n## Skills and commands\n")
    table = [line for line in messages_part.split("\n") if line.startswith("| `")]
    assert [line.split("`")[1] for line in table] == names
    # Every catalogue entry, sorted, with the file it is read from.
    skill_table = [line for line in skills_part.split("\n") if line.startswith("| `")]
    assert [line.split("`")[1] for line in skill_table] == [row["name"] for row in data["skills"]]
    assert [row["name"] for row in data["skills"]] == [
        "fix-bug",
        "plan-change",
        "review-diff",
        "write-commit-message",
        "write-tests",
    ]
    assert {row["source"] for row in data["skills"]} == {"catalog/skills.toml"}
    # A pipe inside a cell is escaped so the table keeps its columns.
    assert "PreToolUse Write\\|Edit" in markdown


# This repository's own outputs.


def test_repository_outputs_equal_what_the_sources_produce(project: Path) -> None:
    workspace = load_workspace(load_project(project))
    outputs = render_outputs(workspace)
    folder = project / "generated"
    produced = sorted(o.path.relative_to(folder).as_posix() for o in outputs)
    registrations = [name for name in produced if "/" in name]
    assert sorted(set(produced) - set(registrations)) == sorted(GENERATOR_NAMES)
    assert len(registrations) == len(registered_harnesses())  # one per harness that registers
    committed = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert committed == produced
    for output in outputs:
        assert output.path.read_bytes() == output.content, f"{output.display} drifted"


@pytest.mark.slow
def test_repository_check_is_clean(project: Path, cli: Cli) -> None:
    result = cli("check")
    assert result.code == 0, result.out + result.err
    assert result.out == ""
