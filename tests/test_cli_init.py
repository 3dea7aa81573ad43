"""`hookmsg init`, and harness knowledge as hookmsg's own data with a per-repository override.

A repository from `init` holds no harness facts: it builds, validates and checks at once
(through `doit`'s own command line too) on hookmsg's built-in `data/harnesses.toml`. An
optional `catalog/harnesses.toml` adds a harness or overrides facts of a built-in one.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

import hookmsg.outputs.check_cache
from hookmsg.outputs.check_cache import fingerprint
from tests.support.diagnostics import Result, located, run_findings
from tests.support.doit import doit, rewrite
from tests.support.harnesses import BUILTIN
from tests.support.repository import REPO, WITH_DODO, copy_repository, files_under

Cli = Callable[..., Result]


def _entry(harness: str) -> str:
    """One built-in `[[harnesses]]` entry, as its text (with its facts and tables)."""
    text = BUILTIN.read_text(encoding="utf-8")
    start = text.index(f'[[harnesses]]\nid = "{harness}"')
    end = text.find("\n[[harnesses]]\n", start + 1)
    return text[start : end + 1 if end >= 0 else len(text)]


# Codebuddy's entry under a new id: a harness that a content repository adds.
ADDED = (
    _entry("codebuddy")
    .replace('id = "codebuddy"', 'id = "acme-code"')
    .replace('name = "CodeBuddy"', 'name = "Acme Code"')
    .replace('contract = "codebuddy"', 'contract = "acme-code"')
)
CHECKED_AGAIN = (
    '[[harnesses]]\nid = "codebuddy"\nchecked = "4.5.6"\n\n'
    '[[harnesses.facts]]\nevent = "SessionStart"\ndelivered = true\n'
    'fact = "additionalContext reaches the model as a system reminder"\n'
    'evidence = "an offline run of CodeBuddy 4.5.6 against a stand-in endpoint"\n'
)


@pytest.fixture
def started(tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository from `hookmsg init`; the working directory is inside it."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    root = tmp_path / "my-messages"
    result = cli("init", str(root))
    assert result.code == 0, result.out + result.err
    monkeypatch.chdir(root)
    return root


def test_init_writes_a_repository_that_validates_and_checks_with_no_harness_facts(
    started: Path, cli: Cli
) -> None:
    assert not list(started.rglob("harnesses.toml"))
    for name in (
        "pyproject.toml",
        "dodo.py",
        ".pre-commit-config.yaml",
        "catalog/hooks.toml",
        "catalog/skills.toml",
        "messages/sessionstart.md",
        "skills/add-hook-message/SKILL.md",
    ):
        assert (started / name).is_file(), name
    assert "[tool.hookmsg]" in (started / "pyproject.toml").read_text(encoding="utf-8")
    assert "from hookmsg.cli.taskgraph import *" in (started / "dodo.py").read_text(
        encoding="utf-8"
    )
    hooks = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "- id: hookmsg-check" in hooks
    assert "id: hookmsg-check" in (started / ".pre-commit-config.yaml").read_text("utf-8")
    assert cli("validate").code == 0
    check = cli("check")
    assert (check.code, check.out) == (0, ""), check.out + check.err
    # The skill comes from its own folder, and the session-start message is wired.
    index = (started / "generated" / "skill-index.md").read_text(encoding="utf-8")
    assert "add-hook-message" in index
    table = json.loads((started / "generated" / "dispatch-table.json").read_bytes())
    assert "sessionstart" in json.dumps(table)
    # Every built-in harness with a registration gets one, with no facts copied here.
    assert (started / "generated" / "codex").is_dir()


@pytest.mark.slow
def test_init_repository_passes_real_doit_and_pre_commit_config(started: Path, cli: Cli) -> None:
    done = doit(started)
    assert done.code == 0, done.output
    again = doit(started)
    assert again.code == 0 and again.ran == set(), again.output
    assert cli("check").code == 0
    validate = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-config", ".pre-commit-config.yaml"],
        cwd=started,
        capture_output=True,
        text=True,
        check=False,
    )
    assert validate.returncode == 0, validate.stdout + validate.stderr


def test_init_refuses_a_folder_that_is_not_empty(tmp_path: Path, cli: Cli) -> None:
    root = tmp_path / "busy"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'mine'\n", encoding="utf-8")
    result = cli("init", str(root))
    assert result.code == 2
    assert "is not empty" in result.err and "--force" in result.err
    assert sorted(p.name for p in root.iterdir()) == ["pyproject.toml"]


def test_init_force_adds_what_is_missing_and_never_replaces_a_file(
    tmp_path: Path, cli: Cli
) -> None:
    root = tmp_path / "half"
    (root / "messages").mkdir(parents=True)
    mine = "<!-- SPDX-License-Identifier: MIT -->\n\nMy own words.\n"
    (root / "messages" / "sessionstart.md").write_text(mine, encoding="utf-8")
    result = cli("init", "--force", str(root))
    assert "kept messages/sessionstart.md (it exists)" in result.err
    assert (root / "messages" / "sessionstart.md").read_text(encoding="utf-8") == mine
    assert (root / "catalog" / "hooks.toml").is_file()
    assert (root / "dodo.py").is_file()


def test_init_refuses_a_folder_inside_another_repositorys_messages(project: Path, cli: Cli) -> None:
    before = files_under(project / "messages")
    result = cli("init", str(project / "messages" / "nested"))
    assert result.code == 2
    assert "the messages folder of the content repository" in result.err
    assert files_under(project / "messages") == before


def test_an_override_that_adds_a_harness(started: Path, cli: Cli) -> None:
    (started / "catalog" / "harnesses.toml").write_text(ADDED, encoding="utf-8")
    assert run_findings(cli, "validate") == []
    assert cli("check").code == 1  # the new harness's registration is not built yet
    assert cli("build").code == 0
    written = started / "generated" / "acme-code" / "settings.local.json"
    assert written.is_file()
    table = json.loads((started / "generated" / "dispatch-table.json").read_bytes())
    assert "acme-code" in json.dumps(table["contracts"])
    assert cli("check").code == 0


def test_an_override_of_a_fact_with_its_evidence(started: Path, cli: Cli) -> None:
    (started / "catalog" / "harnesses.toml").write_text(CHECKED_AGAIN, encoding="utf-8")
    assert run_findings(cli, "validate") == []
    assert cli("build").code == 0
    inventory = json.loads((started / "generated" / "hook-message-inventory.json").read_bytes())
    codebuddy = next(h for h in inventory["harnesses"] if h["id"] == "codebuddy")
    assert codebuddy["checked"] == "4.5.6"
    facts = {fact["event"]: fact["fact"] for fact in codebuddy["facts"]}
    # The SessionStart fact is replaced; the built-in PostToolUse fact stays.
    assert facts["SessionStart"] == "additionalContext reaches the model as a system reminder"
    builtin = tomllib.loads(BUILTIN.read_text(encoding="utf-8"))
    known = next(h for h in builtin["harnesses"] if h["id"] == "codebuddy")["facts"]
    assert facts["PostToolUse"] == next(f["fact"] for f in known if f.get("event") == "PostToolUse")
    # Everything the override leaves out stays as hookmsg knows it.
    assert codebuddy["name"] == "CodeBuddy"


def test_an_override_without_evidence_is_a_finding(started: Path, cli: Cli) -> None:
    override = '[[harnesses]]\nid = "kiro"\nchecked = "0.0.1"\n'
    (started / "catalog" / "harnesses.toml").write_text(override, encoding="utf-8")
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/harnesses.toml", 1, 1, "C013")]


def test_findings_about_the_override_name_it_and_builtin_findings_name_the_package(
    started: Path, cli: Cli
) -> None:
    broken = ADDED.replace("matchers = true", 'matchers = "yes"')
    (started / "catalog" / "harnesses.toml").write_text(broken, encoding="utf-8")
    found = run_findings(cli, "validate")
    line = broken.split("\n").index('matchers = "yes"') + 1
    assert [(f.path, f.line, f.code) for f in found] == [("catalog/harnesses.toml", line, "C002")]


@pytest.mark.slow
def test_two_repositories_from_init_build_side_by_side(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for root in (first, second):
        assert cli("init", str(root)).code == 0
    message = second / "messages" / "sessionstart.md"
    rewrite(message, message.read_text(encoding="utf-8").replace("small steps", "tiny steps"))
    (second / "catalog" / "harnesses.toml").write_text(ADDED, encoding="utf-8")
    for root in (first, second):
        done = doit(root)
        assert done.code == 0, done.output
    for root, words, other in ((first, "small steps", "tiny"), (second, "tiny steps", "small")):
        monkeypatch.chdir(root)
        assert cli("check").code == 0
        shown = cli("preview", "sessionstart").out
        assert words in shown and f"{other} steps" not in shown
    assert (second / "generated" / "acme-code").is_dir()
    assert not (first / "generated" / "acme-code").exists()


@pytest.mark.slow
def test_doit_follows_the_override_appearing_and_going(started: Path) -> None:
    assert doit(started).code == 0
    (started / "catalog" / "harnesses.toml").write_text(ADDED, encoding="utf-8")
    done = doit(started)
    assert done.code == 0 and "registrations" in done.ran, done.output
    assert (started / "generated" / "acme-code" / "settings.local.json").is_file()
    (started / "catalog" / "harnesses.toml").unlink()
    done = doit(started)
    assert done.code == 0 and "registrations" in done.ran, done.output
    assert not (started / "generated" / "acme-code").exists()


@pytest.mark.slow
def test_doit_follows_an_edit_of_the_builtin_harness_facts(tmp_path: Path) -> None:
    """The built-in file is hookmsg's code: editing it (here, in a copy of the package
    that the copy's dodo.py runs) reruns what reads it."""
    root = copy_repository(tmp_path / "repo", WITH_DODO)
    assert doit(root).code == 0
    builtin = root / "scripts" / "hookmsg" / "data" / "harnesses.toml"
    text = builtin.read_text(encoding="utf-8")
    start = text.index('id = "cursor"')
    at = text.index('file = "hooks.json"', start)
    rewrite(builtin, text[:at] + 'file = "hookz.json"' + text[at + len('file = "hooks.json"') :])
    done = doit(root)
    assert done.code == 0 and "registrations" in done.ran, done.output
    assert (root / "generated" / "cursor" / "hookz.json").is_file()
    assert not (root / "generated" / "cursor" / "hooks.json").exists()


def test_the_check_cache_covers_the_builtin_harness_facts(
    started: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "package"
    shutil.copytree(REPO / "scripts" / "hookmsg", package)
    monkeypatch.setattr(hookmsg.outputs.check_cache, "PACKAGE", package)
    before = fingerprint(started, [])
    data = package / "data" / "harnesses.toml"
    data.write_text(data.read_text(encoding="utf-8").replace("Kiro", "Kiro IDE", 1), "utf-8")
    assert fingerprint(started, []) != before


def test_the_check_cache_covers_the_override(started: Path, cli: Cli) -> None:
    assert cli("check").code == 0  # recorded clean
    override = started / "catalog" / "harnesses.toml"
    override.write_text(ADDED, encoding="utf-8")
    assert cli("check").code == 1  # present: the new registration is missing
    override.unlink()
    assert cli("check").code == 0  # absent again


def test_an_added_harness_sharing_a_builtin_contract_must_agree(started: Path, cli: Cli) -> None:
    shared = ADDED.replace('contract = "acme-code"', 'contract = "codebuddy"').replace(
        'envelope = "hook-specific"', 'envelope = "text"'
    )
    (started / "catalog" / "harnesses.toml").write_text(shared, encoding="utf-8")
    found = run_findings(cli, "validate")
    line = shared.split("\n").index("[harnesses.contract]") + 1
    assert located(found) == [("catalog/harnesses.toml", line, 1, "C004")]
    assert "contract 'codebuddy' is defined twice, differently" in found[0].message
