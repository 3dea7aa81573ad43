"""Check mode (`hookmsg check`, `hookmsg build --check`) and build, through the CLI.

Every case runs on a throw-away copy of this repository (the `project` fixture).
Check mode must never write: each test snapshots the whole tree (every path and
its bytes) before and after.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from hookmsg.outputs.generated import GENERATOR_NAMES
from tests.support.diagnostics import Result, findings_among

Cli = Callable[..., Result]
Tree = dict[str, bytes | None]

CHECK_COMMANDS = [("check",), ("build", "--check")]
INVENTORY = ("generated/hook-message-inventory.md", "generated/hook-message-inventory.json")
# What a message body's edit changes: its size in the inventory, and its digest in the
# dispatch table (once per context: a changed text is delivered again).
BODY_EDIT = (*INVENTORY, "generated/dispatch-table.json")


@pytest.fixture(autouse=True)
def _plain_text_output(monkeypatch: pytest.MonkeyPatch) -> None:
    # CI sets GITHUB_ACTIONS=true, which switches the default diagnostic format.
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


def snapshot(root: Path) -> Tree:
    """Every path under `root` (folders as None) with the bytes of every file."""
    tree: Tree = {}
    for path in sorted(root.rglob("*")):
        key = path.relative_to(root).as_posix()
        tree[key] = None if path.is_dir() else path.read_bytes()
    return tree


def files(tree: Tree) -> dict[str, bytes]:
    return {path: data for path, data in tree.items() if data is not None}


def temporaries(root: Path) -> list[str]:
    return sorted(
        p.relative_to(root).as_posix() for p in root.rglob("*") if p.name.endswith(".tmp")
    )


def diagnostics(out: str) -> set[tuple[str, str]]:
    """(path, code) of every diagnostic line in text output."""
    return {(finding.path, finding.code) for finding in findings_among(out)}


def insert_before_bindings(path: Path, text: str) -> None:
    source = path.read_text(encoding="utf-8")
    assert source.count("\n## Bindings") == 1
    path.write_text(source.replace("\n## Bindings", f"\n{text}\n\n## Bindings"), encoding="utf-8")


def drop_licence_line(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("<!-- SPDX-License-Identifier")
    path.write_text("\n".join(lines[1:]), encoding="utf-8")


@dataclass(frozen=True)
class Case:
    """One way the tree drifts, and the diagnostics check mode must give for it."""

    id: str
    apply: Callable[[Path], None]
    expected: frozenset[tuple[str, str]]
    # After `hookmsg build`, are the files exactly the original ones again?
    restores_original: bool = True
    # Does `hookmsg build` repair it? (It refuses to touch a file it did not write.)
    build_repairs: bool = True


def _edit_message(root: Path) -> None:
    # A context message's body: its delivered size changes, so the inventory does.
    insert_before_bindings(root / "messages/stop.md", "One more sentence of procedure.")


def _hand_edit_advisories(root: Path) -> None:
    path = root / "generated/advisories.json"
    text = path.read_text(encoding="utf-8")
    assert '"Full procedure: ' in text
    path.write_text(text.replace('"Full procedure: ', '"Full procedure (edited): ', 1), "utf-8")


def _deleter(name: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        (root / "generated" / name).unlink()

    return apply


def _stray(name: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        path = root / "generated" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("left behind\n", encoding="utf-8")

    return apply


def _stale_listed(name: str) -> Callable[[Path], None]:
    """A file an earlier build wrote (so its manifest lists it) that nothing produces now."""

    def apply(root: Path) -> None:
        _stray(name)(root)
        manifest = root / "generated/outputs.json"
        record = json.loads(manifest.read_text(encoding="utf-8"))
        record["outputs"] = sorted([*record["outputs"], name])
        manifest.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")

    return apply


def _link(name: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        outside = root.parent / "outside"
        outside.mkdir(exist_ok=True)
        (root / "generated" / name).symlink_to(outside)

    return apply


CASES = [
    Case(
        "message-body",
        _edit_message,
        frozenset((path, "G002") for path in BODY_EDIT),
        restores_original=False,
    ),
    Case(
        "hand-edit-advisories",
        _hand_edit_advisories,
        frozenset({("generated/advisories.json", "G002")}),
    ),
    *(
        Case(f"deleted-{name}", _deleter(name), frozenset({(f"generated/{name}", "G003")}))
        for name in GENERATOR_NAMES
    ),
    Case(
        "stale-output",
        _stale_listed("old-index.md"),
        frozenset({("generated/old-index.md", "G004"), ("generated/outputs.json", "G002")}),
    ),
    Case(
        "stale-output-in-subfolder",
        _stale_listed("cursor/old-hooks.json"),
        frozenset(
            {("generated/cursor/old-hooks.json", "G004"), ("generated/outputs.json", "G002")}
        ),
    ),
    Case(
        "stray-file",
        _stray("old-index.md"),
        frozenset({("generated/old-index.md", "G005")}),
        build_repairs=False,
    ),
    Case(
        "link-in-generated",
        _link("elsewhere"),
        frozenset({("generated/elsewhere", "G006")}),
        build_repairs=False,
    ),
    Case(
        "stray-temporary",
        _stray(".advisories.json.abc123.tmp"),
        frozenset({("generated/.advisories.json.abc123.tmp", "G004")}),
    ),
    Case(
        "stray-in-subfolder",
        _stray("old/index.md"),
        frozenset({("generated/old/index.md", "G005")}),
        build_repairs=False,
    ),
]


def _ids(case: Case) -> str:
    return case.id


# -- check mode ---------------------------------------------------------------------


@pytest.mark.parametrize("command", CHECK_COMMANDS, ids=" ".join)
def test_clean_tree_passes_and_writes_nothing(
    project: Path, cli: Cli, command: tuple[str, ...]
) -> None:
    before = snapshot(project)
    result = cli(*command)
    assert result.code == 0, result.out + result.err
    assert result.out == ""
    assert snapshot(project) == before


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_ids)
@pytest.mark.parametrize("command", CHECK_COMMANDS, ids=" ".join)
def test_drift_is_reported_and_nothing_written(
    project: Path, cli: Cli, command: tuple[str, ...], case: Case
) -> None:
    case.apply(project)
    before = snapshot(project)
    result = cli(*command)
    assert result.code == 1, result.out + result.err
    assert diagnostics(result.out) == case.expected, result.out
    last = result.out.rstrip("\n").split("\n")[-1]
    assert "hookmsg build" in last, result.out
    assert snapshot(project) == before
    # No temporary file but the one a case planted itself.
    assert temporaries(project) == sorted(p for p, _ in case.expected if p.endswith(".tmp"))


@pytest.mark.parametrize("command", CHECK_COMMANDS, ids=" ".join)
def test_hand_edit_shows_a_unified_diff(project: Path, cli: Cli, command: tuple[str, ...]) -> None:
    _hand_edit_advisories(project)
    result = cli(*command)
    assert result.code == 1
    lines = result.out.split("\n")
    old = [i for i, line in enumerate(lines) if line.startswith("--- generated/advisories.json")]
    new = [i for i, line in enumerate(lines) if line.startswith("+++ generated/advisories.json")]
    assert len(old) == 1 and new == [old[0] + 1], result.out
    assert lines[new[0] + 1].startswith("@@ "), result.out
    assert any(line.startswith("-") and "Full procedure (edited): " in line for line in lines), (
        result.out
    )
    assert any(
        line.startswith("+") and '"full_procedure": "Full procedure: ' in line for line in lines
    ), result.out


def test_message_edit_names_only_the_outputs_that_change(project: Path, cli: Cli) -> None:
    _edit_message(project)
    result = cli("check")
    assert result.code == 1
    named = {path for path, _ in diagnostics(result.out)}
    assert named == set(BODY_EDIT)
    assert "generated/advisories.json" not in result.out
    assert "generated/skill-index.md" not in result.out


@pytest.mark.parametrize("command", CHECK_COMMANDS, ids=" ".join)
def test_validation_error_fails_check(project: Path, cli: Cli, command: tuple[str, ...]) -> None:
    drop_licence_line(project / "messages/stop.md")
    before = snapshot(project)
    result = cli(*command)
    assert result.code == 1, result.out + result.err
    assert ("messages/stop.md", "L001") in diagnostics(result.out), result.out
    assert snapshot(project) == before


@pytest.mark.parametrize("command", CHECK_COMMANDS, ids=" ".join)
def test_json_format_is_one_array_of_diagnostics(
    project: Path, cli: Cli, command: tuple[str, ...]
) -> None:
    _hand_edit_advisories(project)
    _deleter("skill-index.md")(project)
    _stale_listed("old-index.md")(project)
    drop_licence_line(project / "messages/stop.md")
    before = snapshot(project)
    result = cli(*command, "--format", "json")
    assert result.code == 1
    records = json.loads(result.out)  # the whole of stdout: the diffs ride in the records
    assert isinstance(records, list)
    base = {"path", "line", "col", "code", "severity", "message"}
    for record in records:
        assert base <= set(record) <= {*base, "diff", "fix"}
        assert isinstance(record["line"], int) and isinstance(record["col"], int)
        if record["code"] in ("G002", "G003", "G004"):
            # Validation fails (L001), so the fix is never a build that would refuse.
            assert record["fix"].startswith("Fix: fix the findings above first"), record
    by_path = {r["path"]: r for r in records}
    diff = by_path["generated/advisories.json"]["diff"]
    assert "--- generated/advisories.json (committed)" in diff
    assert "+++ generated/advisories.json (from the sources)" in diff
    assert "Full procedure (edited): " in diff
    assert "diff" not in by_path["messages/stop.md"]
    codes = {(r["path"], r["code"]) for r in records}
    assert {
        ("generated/advisories.json", "G002"),
        ("generated/skill-index.md", "G003"),
        ("generated/old-index.md", "G004"),
        ("messages/stop.md", "L001"),
    } <= codes
    assert snapshot(project) == before


@pytest.mark.parametrize("command", CHECK_COMMANDS, ids=" ".join)
def test_github_annotation_carries_the_diff_and_the_fix(
    project: Path, cli: Cli, command: tuple[str, ...]
) -> None:
    _hand_edit_advisories(project)
    result = cli(*command, "--format", "github")
    assert result.code == 1
    lines = [line for line in result.out.split("\n") if line]
    assert len(lines) == 1, result.out  # one annotation; its body holds the rest
    body = lines[0].split("::", 2)[2].replace("%0A", "\n").replace("%25", "%")
    assert body.startswith("G002 differs from what the sources produce\n")
    assert "Full procedure (edited): " in body
    assert body.endswith("Fix: run `hookmsg build`, then commit the generated files.")


@pytest.mark.parametrize("fmt", ["json", "github"])
@pytest.mark.parametrize("command", ["validate", "check", "build"])
def test_settings_errors_are_findings_in_every_format(
    project: Path, cli: Cli, fmt: str, command: str
) -> None:
    text = (project / "pyproject.toml").read_text(encoding="utf-8")
    (project / "pyproject.toml").write_text(
        text.replace('generated = "generated"', 'generated = "."'), encoding="utf-8"
    )
    result = cli(command, "--format", fmt)
    assert result.code == 2
    if fmt == "json":
        records = json.loads(result.out)
        assert [r["code"] for r in records] == ["K001"]
        assert records[0]["path"].endswith("pyproject.toml")
    else:
        assert result.out.startswith("::error file=") and ",title=K001::K001 " in result.out
    (project / "pyproject.toml").write_text("[tool.hookmsg\n", encoding="utf-8")
    result = cli(command, "--format", fmt)
    assert result.code == 2
    assert "K002" in result.out


def test_json_format_on_a_clean_tree_is_an_empty_array(project: Path, cli: Cli) -> None:
    result = cli("check", "--format", "json")
    assert result.code == 0
    assert json.loads(result.out) == []


# -- build --------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if c.build_repairs], ids=_ids)
def test_build_repairs_every_drift(project: Path, cli: Cli, case: Case) -> None:
    original = snapshot(project)
    case.apply(project)
    result = cli("build")
    assert result.code == 0, result.out + result.err
    assert temporaries(project) == []
    after = cli("check")
    assert (after.code, after.out) == (0, ""), after.out
    # Files only: a stray file's emptied subfolder may stay (git does not track folders).
    original_files = files(original)
    now = files(snapshot(project))
    if case.restores_original:
        assert now == original_files
    else:
        assert set(now) == set(original_files)
        changed = {key for key in original_files if original_files[key] != now[key]}
        assert changed == {"messages/stop.md", *BODY_EDIT}


def test_build_removes_a_stale_output(project: Path, cli: Cli) -> None:
    _stale_listed("old-index.md")(project)
    result = cli("build", "-v")
    assert result.code == 0
    assert not (project / "generated/old-index.md").exists()
    assert "removed generated/old-index.md" in result.err


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if not c.build_repairs], ids=_ids)
def test_build_refuses_what_it_did_not_write_and_writes_nothing(
    project: Path, cli: Cli, case: Case
) -> None:
    case.apply(project)
    _hand_edit_advisories(project)  # a change that a build would otherwise write
    before = snapshot(project)
    result = cli("build")
    assert result.code == 1, result.out + result.err
    assert case.expected <= diagnostics(result.out), result.out
    assert "nothing was written" in result.err
    assert snapshot(project) == before
    after = cli("check")
    assert after.code == 1
    last = after.out.rstrip("\n").split("\n")[-1]
    assert "first" in last, after.out  # never "run hookmsg build" alone: it would refuse


def test_build_with_a_validation_error_writes_nothing(project: Path, cli: Cli) -> None:
    # Sources that would change outputs, a missing output and a stray file: a build
    # that ignored the validation error would touch all three.
    drop_licence_line(project / "messages/stop.md")
    insert_before_bindings(project / "messages/stop.md", "One more sentence of procedure.")
    _deleter("advisories.json")(project)
    _stray("old-index.md")(project)
    before = snapshot(project)
    result = cli("build")
    assert result.code == 1
    assert ("messages/stop.md", "L001") in diagnostics(result.out)
    assert "nothing was written" in result.err
    assert snapshot(project) == before
    assert temporaries(project) == []


def _hand_edit_every_output(root: Path) -> None:
    for name in GENERATOR_NAMES:
        path = root / "generated" / name
        path.write_bytes(path.read_bytes() + b"hand edit\n")


def _fail_on_second_call(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    real = getattr(os, name)
    calls: list[int] = []

    def failing(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise OSError(errno.EIO, f"simulated {name} failure")
        return real(*args, **kwargs)

    # hookmsg.outputs.generated calls os.fsync directly and os.replace through Path.replace.
    monkeypatch.setattr(f"hookmsg.outputs.generated.os.{name}", failing)
    return calls


@pytest.mark.slow
@pytest.mark.parametrize("function", ["fsync", "replace"])
def test_build_that_fails_to_write_leaves_every_output_as_it_was(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch, function: str
) -> None:
    _hand_edit_every_output(project)  # so that every output would be rewritten
    before = snapshot(project)
    calls = _fail_on_second_call(monkeypatch, function)
    result = cli("build")
    assert len(calls) >= 2
    # Reported as an error (exit 1), not a traceback out of `run`.
    assert result.code == 1, result.out + result.err
    assert f"simulated {function} failure" in result.err
    assert "Traceback" not in result.err
    assert temporaries(project) == []
    assert snapshot(project) == before


def test_build_with_nothing_changed_writes_nothing(project: Path, cli: Cli) -> None:
    old = 1_000_000_000  # a fixed past time: no clock comparison involved
    generated = sorted((project / "generated").iterdir())
    for path in generated:
        os.utime(path, ns=(old * 10**9, old * 10**9))
    stats = {p.name: (p.stat().st_mtime_ns, p.stat().st_ino) for p in generated}
    before = snapshot(project)
    result = cli("build")
    assert result.code == 0, result.out + result.err
    assert "wrote" not in result.err
    assert {p.name: (p.stat().st_mtime_ns, p.stat().st_ino) for p in generated} == stats
    assert snapshot(project) == before


@pytest.mark.parametrize("command", CHECK_COMMANDS, ids=" ".join)
def test_check_from_a_subfolder_is_clean(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
) -> None:
    # The configuration is found from the working directory upward, so a check run
    # inside messages/ checks the same project, with the same (clean) result.
    monkeypatch.chdir(project / "messages")
    before = snapshot(project)
    result = cli(*command)
    assert result.code == 0, result.out + result.err
    assert result.out == ""
    assert snapshot(project) == before


@pytest.mark.slow
def test_check_over_the_skill_budget_never_advises_a_build_that_refuses(
    project: Path, cli: Cli
) -> None:
    # Over budget (G001) and drifted: build would refuse, so check must not send people there.
    text = (project / "pyproject.toml").read_text(encoding="utf-8")
    (project / "pyproject.toml").write_text(
        text.replace("skill-index-budget = 1600", "skill-index-budget = 100"), encoding="utf-8"
    )
    _hand_edit_advisories(project)
    result = cli("check")
    assert result.code == 1
    assert ("catalog/skills.toml", "G001") in diagnostics(result.out)
    assert cli("build").code == 1  # the build that the advice must not promise
    advice = [line for line in result.out.split("\n") if line.startswith("Fix:")]
    assert advice == [
        "Fix: fix the findings above first (`hookmsg explain CODE` says how); "
        "then run `hookmsg build` and commit the generated files."
    ], result.out
