"""The harness facts checked against the real clients: data, validation and where they show.

Every delivered event carries a fact with its evidence (I001); a fact may not contradict
the event lists (I002); the inventory shows every fact, with its minimum version.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support.diagnostics import Result, run_findings
from tests.support.harnesses import harness_override
from tests.support.text import edit

Cli = Callable[..., Result]


def _inventory(project: Path) -> dict[str, Any]:
    path = project / "generated" / "hook-message-inventory.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _harness(project: Path, harness_id: str) -> dict[str, Any]:
    return next(h for h in _inventory(project)["harnesses"] if h["id"] == harness_id)


def _since(project: Path, harness_id: str) -> dict[str | None, list[str]]:
    found: dict[str | None, list[str]] = {}
    for fact in _harness(project, harness_id)["facts"]:
        if fact["since"]:
            found.setdefault(fact["event"], []).append(fact["since"])
    return found


def test_the_client_findings_are_catalogue_data_with_minimum_versions(project: Path) -> None:
    claude = _since(project, "claude-code-engine")
    assert claude["PreToolUse"] == ["2.1.9"]
    assert claude["Stop"] == ["2.1.163"]
    assert claude[None] == ["2.1.139"]  # the exec form, which registrations therefore avoid
    assert _since(project, "copilot")["PreToolUse"] == ["1.0.24"]
    assert _harness(project, "claude-code-engine")["checked"] == "2.1.332"
    assert _harness(project, "codex")["checked"] == "0.171.0"
    assert _harness(project, "qwen-code")["checked"] == "0.24.4"
    assert _harness(project, "copilot")["checked"] == "1.0.102"
    assert _harness(project, "codebuddy")["checked"] == "2.117.0"


def test_delivered_events_follow_the_clients(project: Path) -> None:
    events = {h["id"]: set(h["events"]) for h in _inventory(project)["harnesses"]}
    assert "Stop" not in events["codex"] and "Stop" not in events["qwen-code"]
    assert "PreToolUse" not in events["qwen-code"]
    assert _harness(project, "qwen-code")["deny_events"] == {"PreToolUse": "PreToolUse"}
    assert "PreToolUse" in events["copilot"]
    assert events["cursor"] == {"SessionStart", "PostToolUse"}
    for harness in _inventory(project)["harnesses"]:
        delivered = {f["event"] for f in harness["facts"] if f["delivered"]}
        assert delivered == set(harness["events"]), harness["id"]
        for fact in harness["facts"]:
            assert fact["evidence"].strip(), (harness["id"], fact)


def test_every_fact_is_in_the_inventory_table(project: Path) -> None:
    text = (project / "generated" / "hook-message-inventory.md").read_text(encoding="utf-8")
    section = text.split("\n## What each harness was checked against\n", 1)[1]
    versions, section = section.split("\nEach delivery fact", 1)
    harnesses = _inventory(project)["harnesses"]
    # Per harness, what its facts were checked against: a live run's version, or none.
    said = [line for line in versions.split("\n") if line.startswith("| ") and "---" not in line]
    assert said[1:] == [
        f"| {h['name']} | "
        + (f"live: {h['checked']}" if h["checked"] else "documentation only")
        + " |"
        for h in harnesses
    ]
    rows = [line for line in section.split("\n") if line.startswith("| ") and "---" not in line]
    facts = [(h, f) for h in harnesses for f in h["facts"]]
    assert len(rows) == len(facts) + 1  # the header
    for row, (harness, fact) in zip(rows[1:], facts, strict=True):
        assert row.startswith(f"| {harness['name']}"), row
        assert fact["evidence"] in row
        if fact["since"]:
            assert f"| {fact['since']} |" in row


def test_a_malformed_minimum_version_is_refused(project: Path, cli: Cli) -> None:
    edit(harness_override(project), 'since = "2.1.9"', 'since = "2.1.9-beta; rm"')
    found = run_findings(cli, "validate")
    assert [f.code for f in found] == ["C002"]
    assert "since" in found[0].message
