"""generated/dispatch-table.json: built from the registry, the harness catalogue and the guard
files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.diagnostics import Result
from tests.support.harnesses import harness_override

Cli = Callable[..., Result]

TABLE = Path("generated") / "dispatch-table.json"


def _table(project: Path) -> Any:
    return json.loads((project / TABLE).read_text(encoding="utf-8"))


@pytest.mark.slow
def test_the_table_is_a_committed_output_that_check_guards(project: Path, cli: Cli) -> None:
    assert cli("check").code == 0
    (project / TABLE).write_text("{}\n", encoding="utf-8")
    result = cli("check")
    assert result.code == 1
    assert "generated/dispatch-table.json:1:1: G002" in result.out + result.err


def test_the_table_describes_every_message_and_contract(project: Path) -> None:
    data = _table(project)
    assert data["cap"] == 10_000
    messages = data["messages"]
    assert messages["sessionstart"] == {
        "advisory": None,
        "condition": None,
        "digest": messages["sessionstart"]["digest"],
        "file": "messages/sessionstart.md",
        "kind": "context",
        "module": None,
        "placeholders": [],
    }
    digests = [entry["digest"] for entry in messages.values()]
    assert len(set(digests)) == len(digests)  # one per text
    assert all(len(d) == 16 and int(d, 16) >= 0 for d in digests)
    guard = messages["pretooluse-dependency-guard"]
    assert guard["kind"] == "guard"
    assert "path" in guard["placeholders"]
    assert all(f"{{{{ {name} }}}}" in guard["advisory"] for name in guard["placeholders"])
    assert messages["skill-index"]["kind"] == "context"
    assert set(data["contracts"]) == {
        "claude-code",
        "claude-code-plugin",
        "codex",
        "qwen-code",
        "codebuddy",
        "kiro",
        "copilot",
        "devin-local",
        "cursor",
        "xcsh",
        "oh-my-pi",
        "pi",
        "gemini-cli",
        "factory-droid",
    }
    xcsh = data["contracts"]["xcsh"]
    assert (xcsh["payload"], xcsh["envelope"], xcsh["tools"]["write"]) == ("xcsh", "xcsh", "Write")
    codex = data["contracts"]["codex"]
    assert "Stop" not in codex["context_events"]
    assert codex["patch_tools"] == ["apply_patch"]
    qwen = data["contracts"]["qwen-code"]
    assert (qwen["tools"]["write_file"], qwen["deny"]) == ("Write", True)
    assert "PreToolUse" not in qwen["context_events"]
    assert data["contracts"]["copilot"]["tools"]["create"] == "Write"


def _replace_condition(path: Path, condition: str | None) -> None:
    """Rewrite a guard file with its `[condition]` (and every table below it) replaced."""
    text = path.read_text(encoding="utf-8")
    kept = text.split("[condition]", 1)[0]
    cases = "[[cases]]" + text.split("[[cases]]", 1)[1] if "[[cases]]" in text else ""
    body = f"[condition]\n{condition}\n" if condition is not None else ""
    path.write_text(kept + body + cases, encoding="utf-8")


@pytest.mark.slow
def test_each_guard_files_condition_becomes_a_condition_verbatim(project: Path) -> None:
    from hookmsg.pipeline.workspace import load_workspace
    from hookmsg.project.settings import load_project
    from hookmsg.render.dispatch_table import dispatch_table_data

    guards = project / "catalog" / "guards"
    dependency = 'detector = "dependency"\nmanifests = ["package.json"]'
    _replace_condition(guards / "pretooluse-dependency-guard.toml", dependency)
    compaction = 'detector = "compaction"\ntokens = 70000'
    _replace_condition(guards / "posttooluse-proactive-compaction.toml", compaction)
    _replace_condition(guards / "pretooluse-eval-guard.toml", None)
    data = dispatch_table_data(load_workspace(load_project(project)).loaded())
    conditions = data["conditions"]
    assert conditions["pretooluse-dependency-guard"] == {
        "detector": "dependency",
        "manifests": ["package.json"],
    }
    assert conditions["posttooluse-proactive-compaction"] == {
        "detector": "compaction",
        "tokens": 70000,
    }
    assert "pretooluse-eval-guard" not in conditions
    assert data["messages"]["pretooluse-dependency-guard"]["condition"] == "dependency"
    assert data["messages"]["posttooluse-proactive-compaction"]["condition"] == "compaction"
    assert data["messages"]["pretooluse-eval-guard"]["condition"] is None
    for path in guards.glob("*.toml"):
        path.unlink()
    data = dispatch_table_data(load_workspace(load_project(project)).loaded())
    assert data["conditions"] == {}
    assert all(entry["condition"] is None for entry in data["messages"].values())


def test_a_contract_naming_an_unknown_event_or_tool_is_c005(project: Path, cli: Cli) -> None:
    path = harness_override(project)
    text = path.read_text(encoding="utf-8")
    text = text.replace('bash = "Bash"', 'bash = "Shell"', 1)
    cursor = 'envelope = "additional_context"\ncontext_events = ["SessionStart"'
    assert cursor in text
    text = text.replace(cursor, cursor.replace('"SessionStart"', '"Start"'), 1)
    path.write_text(text, encoding="utf-8")
    result = cli("validate")
    assert result.code == 1
    out = result.out + result.err
    assert "C005 harness 'copilot' contract names unknown tool 'Shell'" in out
    assert "C005 harness 'cursor' contract names unknown event 'Start'" in out


def test_harnesses_sharing_a_contract_must_agree(project: Path, cli: Cli) -> None:
    path = harness_override(project)
    text = path.read_text(encoding="utf-8")
    first = text.index('id = "claude-code-plugin"')
    head, tail = text[:first], text[first:]
    # The plugin has a contract of its own (it receives its own skill index form): share
    # the engine's again, then disagree with it.
    tail = tail.replace('contract = "claude-code-plugin"\n', "", 1)
    tail = tail.replace("deny = true", "deny = false", 1)
    path.write_text(head + tail, encoding="utf-8")
    result = cli("validate")
    assert result.code == 1
    assert "C004 contract 'claude-code' is defined twice, differently" in result.out + result.err


def test_a_registration_without_a_contract_is_c002(project: Path, cli: Cli) -> None:
    path = harness_override(project)
    text = path.read_text(encoding="utf-8")
    inside = text.index('envelope = "additional_context"')  # Cursor's contract
    start = text.rindex("[harnesses.contract]", 0, inside)
    end = text.find("\n[[harnesses]]", inside)
    text = text[:start] + (text[end:] if end >= 0 else "")
    # A harness the override adds (Cursor's entry under a new id): an override of the
    # built-in Cursor cannot take its contract away, only replace it.
    path.write_text(text.replace('id = "cursor"', 'id = "cursor-two"', 1), encoding="utf-8")
    result = cli("validate")
    assert result.code == 1
    assert "C002 harness 'cursor-two' has a registration but no [harnesses.contract]" in (
        result.out + result.err
    )


def test_the_install_root_holds_the_dispatcher_package_with_its_subpackages() -> None:
    from hookmsg.install.contents import dispatcher_files
    from tests.support.repository import REPO

    found = dispatcher_files()
    package = REPO / "scripts" / "hookmsg_dispatch"
    expected = {
        f"hooks/hookmsg_dispatch/{path.relative_to(package).as_posix()}": path.read_bytes()
        for path in package.rglob("*.py")
        if "__pycache__" not in path.parts and path.name != "entry.py"
    }
    expected["hooks/dispatch.py"] = (package / "entry.py").read_bytes()
    assert found == expected


def test_dispatcher_sources_include_subpackages_and_skip_caches(tmp_path: Path) -> None:
    from hookmsg.install.contents import _sources

    (tmp_path / "guards" / "__pycache__").mkdir(parents=True)
    (tmp_path / "main.py").write_text("a", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("b", encoding="utf-8")
    (tmp_path / "guards" / "__init__.py").write_text("c", encoding="utf-8")
    (tmp_path / "guards" / "__pycache__" / "x.py").write_text("d", encoding="utf-8")
    assert _sources(tmp_path, "hooks/p") == {
        "hooks/p/guards/__init__.py": b"c",
        "hooks/p/main.py": b"a",
    }


def test_every_dispatcher_package_ships_in_the_wheel() -> None:
    """install_root_files reads the dispatcher from the installed package: a subpackage
    missing from [tool.setuptools] packages would be missing from an install root."""
    import tomllib

    from tests.support.repository import REPO

    listed = set(
        tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
            "packages"
        ]
    )
    scripts = REPO / "scripts"
    for init in (scripts / "hookmsg_dispatch").rglob("__init__.py"):
        name = ".".join(init.parent.relative_to(scripts).parts)
        assert name in listed, f"{name} is not in [tool.setuptools] packages"


def test_the_delivery_policy_is_stated_per_harness_and_drives_the_table(project: Path) -> None:
    data = _table(project)
    once = {cid: contract["once_per_context"] for cid, contract in data["contracts"].items()}
    # Harnesses that report a compaction to hooks: once per context; the others every call.
    assert once["claude-code"] and once["codex"]
    assert not once["copilot"]
    inventory = json.loads(
        (project / "generated" / "hook-message-inventory.json").read_text(encoding="utf-8")
    )
    policy = {h["id"]: h["delivery_policy"] for h in inventory["harnesses"]}
    assert "once per context" in policy["codex"] and "compact" in policy["codex"]
    assert "Guards speak on every call" in policy["claude-code-engine"]
    assert "on every call" in policy["copilot"] and "once per context" not in policy["copilot"]
    markdown = (project / "generated" / "hook-message-inventory.md").read_text(encoding="utf-8")
    assert "## How often each harness's model receives a message" in markdown


REPO = Path(__file__).resolve().parent.parent


def test_the_installed_table_reads_as_the_built_one_one_contract_at_a_time(
    tmp_path: Path,
) -> None:
    from hookmsg.render.dispatch_table import installed_tables
    from hookmsg_dispatch.jsonio import guard_data, read_table

    built = json.loads((REPO / TABLE).read_bytes())
    for path, content in installed_tables((REPO / TABLE).read_bytes()).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(content)
    installed = str(tmp_path / "data" / "dispatch-table.json")
    rest = {k: v for k, v in built.items() if k not in ("contracts", "conditions", "literals")}
    for contract, data in built["contracts"].items():
        table = read_table(installed, contract)
        assert table["contracts"] == {contract: data}
        assert {k: v for k, v in table.items() if k not in ("contracts", "guard_data")} == rest
    assert read_table(installed, "no-such-harness")["contracts"] == {}
    assert read_table(installed)["contracts"] == built["contracts"]  # no contract: all
    bound = {"max-file-bytes": built["max_file_bytes"]}
    for name, condition in built["conditions"].items():
        assert guard_data(table, str(tmp_path), name) == {**condition, **bound}


def test_each_patterns_literals_are_found_in_its_guard_data_file_unparsed() -> None:
    from hookmsg.render.dispatch_table import installed_tables
    from hookmsg_dispatch.jsonio import member

    built = json.loads((REPO / TABLE).read_bytes())
    found = 0
    for path, content in installed_tables((REPO / TABLE).read_bytes()).items():
        if not path.startswith("data/guards/"):
            continue
        text = content.decode("utf-8")
        section = text[text.index(',"literals":') + len(',"literals":') : -2]
        for source in json.loads(text)["literals"]:
            assert member(section, source, "missing") == built["literals"][source]
            found += 1
        assert member(section, "(?i)no such pattern", "missing") == "missing"
    assert found >= len(built["literals"]) // 2


@pytest.mark.parametrize("inner", ["pi", "contracts", "tools"])
def test_a_contract_id_that_is_also_a_member_name_inside_is_still_read_right(
    tmp_path: Path, inner: str
) -> None:
    from hookmsg.render.dispatch_table import installed_tables
    from hookmsg_dispatch.jsonio import read_table

    contracts = {"codex": {inner: {"x": 1}}, "pi": {"tools": {"pi": "Bash"}}}
    built = {"cap": 1, "conditions": {}, "contracts": contracts, "messages": {}}
    content = installed_tables(json.dumps(built).encode())["data/dispatch-table.json"]
    (tmp_path / "table.json").write_bytes(content)
    for contract, data in contracts.items():
        assert read_table(str(tmp_path / "table.json"), contract)["contracts"][contract] == data
