"""The held-out guard corpora are well formed: `tests/guard_holdout/` (the independent corpus
the guards are measured against) and each round under `tests/guard_regression/` (earlier
independent corpora, whose failure classes the guards have since been fixed for, kept as
regression measures).

A corpus is measured, never tuned against, so this test only reads it: one file per guard
that a guard file (`catalog/guards/`) wires, each case in the shared case format, its
payload in the shape of a harness that delivers the guard's tools. It never runs a guard.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from tests.support.repository import REPO

CORPORA = (
    REPO / "tests" / "guard_holdout",
    *sorted((REPO / "tests" / "guard_regression").glob("round-*")),
)
TABLE = json.loads((REPO / "generated" / "dispatch-table.json").read_text(encoding="utf-8"))
CONTRACTS: dict[str, dict[str, Any]] = TABLE["contracts"]
GUARD_FILES = sorted((REPO / "catalog" / "guards").glob("*.toml"))
KEYS = {"id", "expect", "contract", "event", "payload", "files", "says", "note"}
REQUIRED = {"id", "expect", "contract", "payload"}
KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MINIMUM = 40


def _registered() -> dict[str, set[tuple[str, str]]]:
    """Guard -> the (event, tool) pairs its guard file wires it for."""
    wired: dict[str, set[tuple[str, str]]] = {}
    for path in GUARD_FILES:
        for entry in tomllib.loads(path.read_text(encoding="utf-8")).get("wired", []):
            tools = entry.get("matcher", "*").split("|")
            wired.setdefault(path.stem, set()).update((entry["event"], tool) for tool in tools)
    return wired


WIRED = _registered()
FILES = sorted(path for folder in CORPORA for path in folder.glob("*.toml"))
IDS = [f"{path.parent.name}/{path.stem}" for path in FILES]


def _load(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _cases(path: Path) -> list[dict[str, Any]]:
    cases = _load(path)["cases"]
    assert isinstance(cases, list)
    return cases


@pytest.mark.parametrize("folder", CORPORA, ids=[folder.name for folder in CORPORA])
def test_one_file_per_wired_guard(folder: Path) -> None:
    """The held-out corpus measures every guard; a regression round keeps the files of the
    guards whose held-out file it retired (one guard's file may retire before the others)."""
    files = sorted(folder.glob("*.toml"))
    stems = {path.stem for path in files}
    if folder == CORPORA[0]:
        assert stems == set(WIRED)
    else:
        assert stems and stems <= set(WIRED)
    for path in files:
        assert _load(path)["guard"] == path.stem, path.name


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_cases_have_the_shared_shape(path: Path) -> None:
    cases = _cases(path)
    ids = [case.get("id") for case in cases]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    for case in cases:
        where = f"{path.name}: {case.get('id')}"
        assert REQUIRED <= case.keys() <= KEYS, where
        assert isinstance(case["id"], str) and KEBAB.fullmatch(case["id"]), where
        assert case["expect"] in {"fire", "silent"}, where
        assert case["contract"] in CONTRACTS, where
        assert case.get("event", "PreToolUse") in TABLE["events"], where
        assert isinstance(case["payload"], dict) and case["payload"], where
        _check_optional(case, where)


def _check_optional(case: dict[str, Any], where: str) -> None:
    says = case.get("says", [])
    assert isinstance(says, list) and all(isinstance(s, str) and s for s in says), where
    assert isinstance(case.get("note", ""), str), where
    files = case.get("files", {})
    assert isinstance(files, dict), where
    for name, text in files.items():
        relative = PurePosixPath(name)
        assert not relative.is_absolute() and ".." not in relative.parts, where
        assert isinstance(text, str), where


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_enough_cases_about_half_each_way(path: Path) -> None:
    expects = [case["expect"] for case in _cases(path)]
    assert len(expects) >= MINIMUM
    assert 0.35 <= expects.count("fire") / len(expects) <= 0.65


def _tool(contract: dict[str, Any], payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The payload's tool, as a registry tool name, and its input, read as that harness sends it."""
    if contract["payload"] == "copilot":
        name, arguments = payload["toolName"], json.loads(payload["toolArgs"])
    else:
        name, arguments = payload["tool_name"], payload["tool_input"]
    assert isinstance(arguments, dict)
    if name in contract["patch_tools"]:
        return "apply_patch", arguments
    return contract["tools"][name], arguments


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_payloads_reach_the_guard_on_their_harness(path: Path) -> None:
    """Each payload names a tool its harness has, and one the registry wires the guard for
    (a patch tool stands for Write and Edit), and that harness delivers the event."""
    wired = WIRED[path.stem]
    for case in _cases(path):
        contract = CONTRACTS[case["contract"]]
        event = case.get("event", "PreToolUse")
        assert event in contract["event_names"], case["id"]
        tool, arguments = _tool(contract, case["payload"])
        folded = {"Write", "Edit"} if tool == "apply_patch" else {tool}
        assert folded & {t for e, t in wired if e == event}, case["id"]
        assert arguments, case["id"]


def test_patches_are_codex_patches() -> None:
    for path in FILES:
        for case in _cases(path):
            payload = case["payload"]
            if payload.get("tool_name") == "apply_patch":
                patch = payload["tool_input"]["command"]
                assert patch.startswith("*** Begin Patch\n"), case["id"]
                assert patch.endswith("*** End Patch\n"), case["id"]
