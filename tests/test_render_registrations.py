"""Per-harness hook registrations: goldens, shapes, a registry change, install-render, package.

The registry (`catalog/hooks.toml`) and the harness facts (`hookmsg/data/harnesses.toml`) generate
one registration file per surface under `generated/<harness-id>/<file>`. The goldens in
`tests/golden/registrations/` are this repository's nine files, read against
`shared/spec/harness-formats.md` before they were accepted. To rewrite them after an
intended change, run

    HOOKMSG_UPDATE_GOLDEN=1 pytest tests/test_render_registrations.py

then read the diff by eye before committing it.

The shape tests read the golden bytes only, and compare them with expectations written
here from the specification (which events each harness delivers, its matcher spelling,
its timeout unit), so a wrong golden cannot hide behind the byte comparison.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import shlex
import tarfile
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from hookmsg.harnesses.registration_plan import BOOT
from hookmsg.outputs.generated import render_outputs
from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.settings import load_project
from tests.support.diagnostics import Result
from tests.support.harnesses import registered_harnesses
from tests.support.repository import REPO

Cli = Callable[..., Result]

TESTS = Path(__file__).resolve().parent
GOLDEN = TESTS / "golden" / "registrations"
UPDATE = os.environ.get("HOOKMSG_UPDATE_GOLDEN") == "1"

# The one table of harnesses every harness-wide test here reads: the built-in harness facts.
# A new harness is a table in that file; its registration and golden follow from it.
_REGISTERED = registered_harnesses()
# Each registration that is a hook file, by harness, in the table's order.
SURFACES: dict[str, str] = {
    harness: registration["file"]
    for harness, registration in _REGISTERED
    if registration["format"] != "xcsh"
}
# The xcsh registration is an extension module, not a hook file: its golden is compared
# here, and tests/test_render_xcsh_module.py runs it.
MODULES: dict[str, str] = {
    harness: registration["file"]
    for harness, registration in _REGISTERED
    if registration["format"] == "xcsh"
}
# The --contract each registration passes the dispatcher (none: Claude Code's own shape).
CONTRACTS: dict[str, str | None] = {
    harness: registration.get("contract") for harness, registration in _REGISTERED
}
CLAUDE = ("claude-code-engine", "claude-code-plugin")
# Where `hookmsg install` merges each registration inside a project (the plugin: nowhere).
PROJECT_FILES = {
    harness: registration["project_file"]
    for harness, registration in _REGISTERED
    if harness in SURFACES and registration.get("project_file")
}
SCRIPT = "hooks/dispatch.py"
# Seconds, from the registry's [timeouts] (the reference wiring).
SECONDS = {"SessionStart": 30, "PreToolUse": 10, "PostToolUse": 10, "Stop": 60}
MILLISECONDS = tuple(h for h, registration in _REGISTERED if registration["timeout_unit"] == "ms")
TOKEN = re.compile(r"\$\{([^}]*)\}")

Key = tuple[str, str | None]  # a registry dispatcher entry: (event, matcher)
SS: Key = ("SessionStart", None)
SS_COMPACT: Key = ("SessionStart", "compact")
WRITE: Key = ("PreToolUse", "Write")
EDIT: Key = ("PreToolUse", "Edit")
NOTEBOOK: Key = ("PreToolUse", "NotebookEdit")
SHELL: Key = ("PreToolUse", "Bash|PowerShell")
ASK: Key = ("PreToolUse", "AskUserQuestion")
POST: Key = ("PostToolUse", "*")
STOP: Key = ("Stop", None)

_CLAUDE_EXPECTED: dict[str, list[tuple[str | None, Key]]] = {
    "SessionStart": [(None, SS), ("compact", SS_COMPACT)],
    "PreToolUse": [
        ("Write", WRITE),
        ("Edit", EDIT),
        ("NotebookEdit", NOTEBOOK),
        ("Bash|PowerShell", SHELL),
        ("AskUserQuestion", ASK),
    ],
    "PostToolUse": [("*", POST)],
    "Stop": [(None, STOP)],
}

# Per surface: the harness's event spelling -> its entries, in file order, as
# (matcher in the harness's terms or None, the registry entry whose messages it lists).
EXPECTED: dict[str, dict[str, list[tuple[str | None, Key | tuple[Key, ...]]]]] = {
    "claude-code-engine": _CLAUDE_EXPECTED,
    "claude-code-plugin": _CLAUDE_EXPECTED,
    "codex": {
        # SessionStart reports source compact; Stop reaches the model only as a block.
        "SessionStart": [(None, SS), ("compact", SS_COMPACT)],
        # Write and Edit fold into one matcher that names both entries (the dispatcher
        # picks per call); PowerShell has no Codex tool.
        "PreToolUse": [("Edit|Write|apply_patch", (WRITE, EDIT)), ("Bash", SHELL)],
        "PostToolUse": [("*", POST)],
    },
    "qwen-code": {
        # PreToolUse context never reaches the model (registered only by install --strict);
        # Stop only as a block.
        "SessionStart": [(None, SS), ("^compact$", SS_COMPACT)],
        "PostToolUse": [(".*", POST)],
    },
    "codebuddy": {"SessionStart": [(None, SS)], "PostToolUse": [("*", POST)]},
    "kiro": {"SessionStart": [(None, SS)]},
    "copilot": {
        "sessionStart": [(None, SS)],
        "preToolUse": [("create", WRITE), ("edit", EDIT), ("bash|powershell", SHELL)],
        "postToolUse": [(None, POST)],
    },
    "devin-local": {"SessionStart": [(None, SS)], "PostToolUse": [(None, POST)]},
    "cursor": {"sessionStart": [(None, SS)], "postToolUse": [(None, POST)]},
    # BeforeTool reaches the model only as a deny (install --strict); Gemini's names.
    "gemini-cli": {"SessionStart": [(None, SS)], "AfterTool": [(".*", POST)]},
    # PreToolUse context is not delivered (install --strict registers it, to deny).
    "factory-droid": {"SessionStart": [(None, SS)], "PostToolUse": [("*", POST)]},
}


def registry_lists() -> dict[Key, list[str]]:
    """The repository registry's dispatcher entries and their messages, read with tomllib:
    each entry's own messages, then the guards whose files name it, in name order."""
    data = tomllib.loads((REPO / "catalog" / "hooks.toml").read_text(encoding="utf-8"))
    lists = {(d["event"], d.get("matcher")): list(d["messages"]) for d in data["dispatch"]}
    for path in sorted((REPO / "catalog" / "guards").glob("*.toml")):
        guard = tomllib.loads(path.read_text(encoding="utf-8"))
        for wiring in guard.get("wired", []):
            lists[wiring["event"], wiring.get("matcher")].append(path.stem)
    return lists


def golden_path(surface: str) -> Path:
    return GOLDEN / surface / SURFACES[surface]


def golden_text(surface: str) -> str:
    data = golden_path(surface).read_bytes()
    assert b"\r" not in data, f"{surface}: CR found; outputs use LF only"
    assert data.endswith(b"\n") and not data.endswith(b"\n\n"), f"{surface}: one final newline"
    return data.decode("utf-8")


def golden(surface: str) -> Any:
    return json.loads(golden_text(surface))


def unboot(argv: tuple[str, ...]) -> tuple[str, ...]:
    """(interpreter, script, arguments...) after checking the fail-open bootstrap."""
    assert argv[1:5] == ("-I", "-S", "-c", BOOT), argv
    return (argv[0], *argv[5:])


@dataclass(frozen=True)
class Hook:
    """One dispatcher handler of a registration, whatever the file's shape."""

    event: str  # the harness's spelling
    matcher: str | None
    argv: tuple[str, ...]  # interpreter, script, then the dispatcher's own arguments
    timeout: int
    handler: dict[str, Any]


def hooks_of(surface: str, data: Any) -> list[Hook]:
    """Every handler in the file, in file order."""
    if surface == "kiro":
        return [
            Hook(
                h["trigger"],
                h.get("matcher"),
                unboot(tuple(shlex.split(h["action"]["command"]))),
                h["timeout"],
                h,
            )
            for h in data["hooks"]
        ]
    if surface in ("copilot", "cursor"):
        command, timeout = (
            ("bash", "timeoutSec") if surface == "copilot" else ("command", "timeout")
        )
        return [
            Hook(
                event,
                item.get("matcher"),
                unboot(tuple(shlex.split(item[command]))),
                item[timeout],
                item,
            )
            for event, items in data["hooks"].items()
            for item in items
        ]
    found = []
    for event, groups in data["hooks"].items():
        for group in groups:
            assert set(group) <= {"matcher", "hooks"}, group
            assert len(group["hooks"]) == 1, "one dispatcher handler per event and matcher"
            handler = group["hooks"][0]
            argv = unboot(tuple(shlex.split(handler["command"])))
            found.append(Hook(event, group.get("matcher"), argv, handler["timeout"], handler))
    return found


def dispatcher_line(surface: str, hook: Hook) -> tuple[str, ...]:
    """`<Event> <message> ...` after checking the interpreter, script and --contract."""
    if surface == "claude-code-plugin":
        assert hook.argv[:2] == ("python3", "${CLAUDE_PLUGIN_ROOT}/" + SCRIPT), hook.argv
    else:
        assert hook.argv[:2] == ("${PYTHON_BIN}", "${HARNESS_ROOT}/" + SCRIPT), hook.argv
    rest = hook.argv[2:]
    # The plugin has its own contract: it receives the prefixed skill index.
    if surface == "claude-code-engine":
        assert "--contract" not in rest, hook.argv
        return _unfold(rest)
    assert rest[:2] == ("--contract", CONTRACTS[surface]), hook.argv
    assert "--contract" not in rest[2:], hook.argv
    return _unfold(rest[2:])


def _unfold(words: tuple[str, ...]) -> tuple[str, ...]:
    """`--entry K ... <Event>` (a folded registration names registry entries) becomes
    `<Event>` and every message of those entries, in registry order, each once."""
    keys: list[str] = []
    while words[:1] == ("--entry",):
        keys.append(words[1])
        words = words[2:]
    if not keys:
        return words
    assert len(words) == 1, words  # the entries name the messages: none besides
    lists = registry_lists()
    names = [name for key in keys for name in lists[(words[0], key)]]
    return (words[0], *dict.fromkeys(names))


def walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def registered(surface: str) -> list[str]:
    """Every message name the surface's golden registers, in file order."""
    return [
        name
        for hook in hooks_of(surface, golden(surface))
        for name in dispatcher_line(surface, hook)[1:]
    ]


def module_messages(surface: str) -> list[str]:
    """Every message name the module's golden evaluates, from its table of events."""
    text = (GOLDEN / surface / MODULES[surface]).read_text(encoding="utf-8")
    match = re.search(r"^const HOOKS = (\{.*?^\});$", text, re.MULTILINE | re.DOTALL)
    assert match is not None, "no HOOKS table in the module"
    hooks = json.loads(match.group(1))
    return [name for hook in hooks.values() for e in hook["entries"] for name in e["messages"]]


# --------------------------------------------------------------------------- goldens


@pytest.fixture
def rendered(project: Path) -> dict[str, bytes]:
    """`<id>/<file>` -> bytes of every registration rendered from the repository copy."""
    workspace = load_workspace(load_project(project))
    folder = project / "generated"
    produced = {
        o.path.relative_to(folder).as_posix(): o.content
        for o in render_outputs(workspace)
        if "/" in o.path.relative_to(folder).as_posix()
    }
    if UPDATE:
        for stale in GOLDEN.rglob("*"):
            if stale.is_file() and stale.relative_to(GOLDEN).as_posix() not in produced:
                stale.unlink()
        for name, content in produced.items():
            (GOLDEN / name).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / name).write_bytes(content)
    return produced


def test_nine_registrations_a_module_and_a_golden_for_each(rendered: dict[str, bytes]) -> None:
    expected = sorted(f"{surface}/{file}" for surface, file in {**SURFACES, **MODULES}.items())
    assert sorted(rendered) == expected
    goldens = sorted(p.relative_to(GOLDEN).as_posix() for p in GOLDEN.rglob("*") if p.is_file())
    assert goldens == expected


@pytest.mark.slow
@pytest.mark.parametrize("surface", SURFACES)
def test_registration_matches_golden(rendered: dict[str, bytes], surface: str) -> None:
    name = f"{surface}/{SURFACES[surface]}"
    assert rendered[name] == golden_path(surface).read_bytes(), f"{name} differs from its golden"


@pytest.mark.parametrize("surface", MODULES)
def test_module_matches_golden(rendered: dict[str, bytes], surface: str) -> None:
    name = f"{surface}/{MODULES[surface]}"
    assert rendered[name] == (GOLDEN / name).read_bytes(), f"{name} differs from its golden"


@pytest.mark.parametrize("surface", SURFACES)
def test_golden_is_canonical_json(surface: str) -> None:
    text = golden_text(surface)
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- shapes


@pytest.mark.parametrize("surface", SURFACES)
def test_each_event_and_matcher_registered_once_with_its_messages_in_registry_order(
    surface: str,
) -> None:
    lists = registry_lists()
    actual: dict[str, list[tuple[str | None, tuple[str, ...]]]] = {}
    for hook in hooks_of(surface, golden(surface)):
        actual.setdefault(hook.event, []).append((hook.matcher, dispatcher_line(surface, hook)))

    def listed(key: Key | tuple[Key, ...]) -> tuple[str, ...]:
        if isinstance(key[0], tuple):  # a fold: each entry's messages, each once
            folded = [k for k in key if isinstance(k, tuple)]
            return (folded[0][0], *dict.fromkeys(n for k in folded for n in lists[k]))
        return (str(key[0]), *lists[key])  # type: ignore[index]

    expected = {
        event: [(matcher, listed(key)) for matcher, key in entries]
        for event, entries in EXPECTED[surface].items()
    }
    assert actual == expected


@pytest.mark.parametrize("surface", SURFACES)
def test_no_message_twice_for_one_event_and_matcher(surface: str) -> None:
    seen = [
        (hook.event, hook.matcher, name)
        for hook in hooks_of(surface, golden(surface))
        for name in dispatcher_line(surface, hook)[1:]
    ]
    assert len(seen) == len(set(seen))
    pairs = [(hook.event, hook.matcher) for hook in hooks_of(surface, golden(surface))]
    assert len(pairs) == len(set(pairs))


@pytest.mark.parametrize("surface", SURFACES)
def test_timeouts_in_the_harness_unit(surface: str) -> None:
    # Every harness reads seconds (Qwen Code too: 1,000 or more is legacy milliseconds)
    # but those whose facts say milliseconds (Gemini CLI).
    scale = 1000 if surface in MILLISECONDS else 1
    for hook in hooks_of(surface, golden(surface)):
        event = dispatcher_line(surface, hook)[0]
        assert hook.timeout == SECONDS[event] * scale, (surface, event)
        if surface == "copilot":
            assert "timeout" not in hook.handler
        else:
            assert "timeoutSec" not in hook.handler


@pytest.mark.parametrize("surface", SURFACES)
def test_only_documented_install_tokens(surface: str) -> None:
    tokens = set(TOKEN.findall(golden_text(surface)))
    if surface == "claude-code-plugin":
        assert tokens == {"CLAUDE_PLUGIN_ROOT"}
    else:
        assert tokens == {"PYTHON_BIN", "HARNESS_ROOT"}


@pytest.mark.parametrize("strict", [False, True], ids=["advise", "strict"])
def test_the_renderer_writes_only_parsable_delivered_token_safe_registrations(
    project: Path, strict: bool
) -> None:
    # What were the H001, H003, H005 and H007 findings: no registry can break them, so they
    # are the renderer's guarantee, proved here for every harness in both modes: each JSON
    # registration parses, registers only events the harness hands to the model (or, in
    # strict mode, those it takes a refusal on), keeps only its documented tokens, and
    # runs every command through the fail-open bootstrap (a command that ran the script
    # directly would exit 2, and block every call, once the install root is gone).
    from hookmsg.harnesses.registration_plan import (
        allowed_tokens,
        command_strings,
        entries_for,
        is_module,
        runs_through_boot,
    )
    from hookmsg.render.registrations import render_registration

    catalogue = load_workspace(load_project(project)).catalogue
    assert catalogue.registry is not None and catalogue.harnesses is not None
    checked = []
    for harness in catalogue.harnesses.harnesses:
        if harness.registration is None:
            continue
        text = render_registration(harness, catalogue.registry, strict=strict)
        if not is_module(harness):
            commands = command_strings(json.loads(text))
            assert commands, harness.id
            skipping = [c for c in commands if not runs_through_boot(c)]
            assert skipping == [], (harness.id, skipping[:1])
        delivered = {*harness.events, *(harness.deny_events if strict else ())}
        events = {e.event for e in entries_for(harness, catalogue.registry, strict=strict)}
        assert events <= delivered, (harness.id, sorted(events - delivered))
        tokens = set(TOKEN.findall(text))
        assert tokens <= allowed_tokens(harness), (harness.id, sorted(tokens))
        checked.append(harness.id)
    assert sorted(checked) == sorted([*SURFACES, *MODULES])


@pytest.mark.parametrize("surface", SURFACES)
def test_contract_flag_on_every_harness_but_claude_code(surface: str) -> None:
    text = golden_text(surface)
    if surface == "claude-code-engine":
        assert "--contract" not in text
    else:
        hooks = hooks_of(surface, golden(surface))
        assert hooks
        for hook in hooks:
            assert hook.argv[2:4] == ("--contract", CONTRACTS[surface])


def test_precompact_and_postcompact_are_never_registered() -> None:
    for surface in SURFACES:
        events = {hook.event.lower() for hook in hooks_of(surface, golden(surface))}
        assert not events & {"precompact", "postcompact"}, surface
        assert "precompact" not in registered(surface), surface
        assert "PreCompact" not in golden_text(surface), surface
        assert "PostCompact" not in golden_text(surface), surface


def test_postcompact_context_only_where_session_start_reports_the_compact_source() -> None:
    reporting = [*CLAUDE, "codex", "qwen-code"]
    assert [s for s in SURFACES if "postcompact" in registered(s)] == reporting
    for surface in reporting:
        carriers = [
            (hook.event, hook.matcher)
            for hook in hooks_of(surface, golden(surface))
            if "postcompact" in dispatcher_line(surface, hook)
        ]
        source = "^compact$" if surface == "qwen-code" else "compact"
        assert carriers == [("SessionStart", source)]


def test_claude_engine_uses_one_shell_string() -> None:
    # The exec form (command + args) exists only since Claude Code 2.1.139.
    data = golden("claude-code-engine")
    assert set(data) == {"hooks"}
    hooks = hooks_of("claude-code-engine", data)
    assert hooks
    for hook in hooks:
        assert set(hook.handler) == {"type", "command", "timeout"}
        assert hook.handler["type"] == "command"
        assert hook.argv[:2] == ("${PYTHON_BIN}", "${HARNESS_ROOT}/hooks/dispatch.py")
        assert "--contract" not in hook.argv


def test_claude_plugin_runs_from_the_plugin_root() -> None:
    data = golden("claude-code-plugin")
    assert set(data) == {"description", "hooks"}
    for hook in hooks_of("claude-code-plugin", data):
        assert set(hook.handler) == {"type", "command", "timeout"}
        assert hook.handler["command"].startswith(f'"python3" -I -S -c "{BOOT}" ')
        assert hook.argv[1] == "${CLAUDE_PLUGIN_ROOT}/hooks/dispatch.py"
    text = golden_text("claude-code-plugin")
    assert "${PYTHON_BIN}" not in text and "${HARNESS_ROOT}" not in text


def test_claude_engine_and_plugin_register_the_same_entries() -> None:
    def entries(surface: str) -> list[tuple[str, str | None, tuple[str, ...], int]]:
        return [
            (h.event, h.matcher, dispatcher_line(surface, h), h.timeout)
            for h in hooks_of(surface, golden(surface))
        ]

    assert entries("claude-code-engine") == entries("claude-code-plugin")


def test_codex_folds_write_and_edit_and_has_a_windows_command() -> None:
    data = golden("codex")
    assert set(data) == {"hooks"}
    hooks = hooks_of("codex", data)
    for hook in hooks:
        assert set(hook.handler) == {"type", "command", "commandWindows", "timeout"}
        assert hook.handler["commandWindows"] == "& " + hook.handler["command"]
    matchers = [hook.matcher for hook in hooks if hook.event == "PreToolUse"]
    assert matchers == ["Edit|Write|apply_patch", "Bash"]
    folded = next(h for h in hooks if h.matcher == "Edit|Write|apply_patch")
    # The folded matcher names the Write and the Edit entries, and no message itself.
    assert folded.argv[2:] == (
        "--contract",
        "codex",
        "--entry",
        "Write",
        "--entry",
        "Edit",
        "PreToolUse",
    )
    lists = registry_lists()
    union = list(dict.fromkeys([*lists[WRITE], *lists[EDIT]]))
    assert list(dispatcher_line("codex", folded)[1:]) == union
    names = registered("codex")
    assert "pretooluse-edit" in names and "pretooluse-edit-header-guard" in names
    assert "pretooluse-notebookedit" not in names
    assert "pretooluse-askuserquestion-recommended" not in names


def test_qwen_registers_no_pre_tool_use_or_stop_and_counts_seconds() -> None:
    data = golden("qwen-code")
    assert set(data) == {"hooks"}
    hooks = hooks_of("qwen-code", data)
    assert set(data["hooks"]) == {"SessionStart", "PostToolUse"}
    for hook in hooks:
        assert set(hook.handler) == {"type", "command", "timeout"}
        assert 0 < hook.timeout < 1000  # 1,000 or more would read as legacy milliseconds
    text = golden_text("qwen-code")
    for display_name in ('"Bash"', '"Write"', '"Edit"', "WriteFile"):
        assert display_name not in text


def test_codebuddy_registers_session_start_and_post_tool_use_only() -> None:
    data = golden("codebuddy")
    assert set(data) == {"hooks"}
    assert set(data["hooks"]) == {"SessionStart", "PostToolUse"}
    for hook in hooks_of("codebuddy", data):
        assert set(hook.handler) == {"type", "command", "timeout"}


def test_kiro_is_a_flat_list_triggered_on_session_start_only() -> None:
    data = golden("kiro")
    assert set(data) == {"version", "hooks"}
    assert data["version"] == "v1"
    assert isinstance(data["hooks"], list)
    assert [h["trigger"] for h in data["hooks"]] == ["SessionStart"]
    for hook in data["hooks"]:
        assert set(hook) == {"name", "trigger", "action", "timeout", "enabled"}
        assert hook["enabled"] is True
        assert set(hook["action"]) == {"type", "command"}
        assert hook["action"]["type"] == "command"
    names = [h["name"] for h in data["hooks"]]
    assert len(names) == len(set(names))


def test_copilot_has_bash_powershell_and_timeout_sec() -> None:
    data = golden("copilot")
    assert set(data) == {"version", "hooks"}
    assert data["version"] == 1
    assert set(data["hooks"]) == {"sessionStart", "preToolUse", "postToolUse"}
    for event, items in data["hooks"].items():
        for item in items:
            keys = {"type", "bash", "powershell", "timeoutSec"}
            # preToolUse takes a matcher since Copilot CLI 1.0.24; an omitted one matches all.
            assert set(item) == (keys | {"matcher"} if event == "preToolUse" else keys)
            assert item["type"] == "command"
            assert item["powershell"] == "& " + item["bash"]


def test_devin_has_no_matcher_anywhere() -> None:
    data = golden("devin-local")
    assert set(data) == {"hooks"}
    assert set(data["hooks"]) == {"SessionStart", "PostToolUse"}
    assert not any(isinstance(node, dict) and "matcher" in node for node in walk(data))
    assert '"matcher"' not in golden_text("devin-local")


def test_cursor_registers_session_start_and_post_tool_use_never_stop() -> None:
    data = golden("cursor")
    assert set(data) == {"version", "hooks"}
    assert data["version"] == 1
    assert set(data["hooks"]) == {"sessionStart", "postToolUse"}
    for items in data["hooks"].values():
        for item in items:
            assert set(item) == {"command", "timeout"}


def test_tool_guards_only_where_pre_tool_use_is_delivered() -> None:
    with_pre_tool_use = [s for s in SURFACES if "pretooluse-write" in registered(s)]
    assert with_pre_tool_use == ["claude-code-engine", "claude-code-plugin", "codex", "copilot"]
    for surface in ("qwen-code", "codebuddy", "kiro", "devin-local", "cursor"):
        assert not [n for n in registered(surface) if n.startswith("pretooluse-")], surface
    # Stop output reaches the model as context only in Claude Code.
    assert [s for s in SURFACES if "stop" in registered(s)] == list(CLAUDE)


# --------------------------------------------------------------------------- a registry change

SECRET_GUARD = (
    "<!-- SPDX-License-Identifier: MIT -->\n"
    "\n"
    "Guard for an edit that would write a secret (a key, a token or a password) into a file.\n"
    "\n"
    "Credentials in source files end up in version control, in backups and in every clone; "
    "once pushed they must be treated as leaked and rotated.\n"
    "\n"
    "## What to do when it fires\n"
    "\n"
    "1. Remove the secret from the new text.\n"
    "2. Read it at run time from the environment or the project's secret store instead.\n"
    "\n"
    "## Advisory\n"
    "\n"
    "This edit to {{ where }} writes what looks like a secret ({{ found }}). Read it from the "
    "environment or a secret store instead of writing it into the file.\n"
    "\n"
    "## Bindings\n"
    "\n"
    "- **Drives →** the assistant to keep credentials out of the files it edits.\n"
    "- **Established by ↑** `catalog/hooks.toml`, the dispatcher entry for PreToolUse on Edit, "
    "and its guard entry declaring the where and found placeholders.\n"
    "- **Cross-bound with ↔** `messages/pretooluse-edit.md` (the edit discipline delivered on "
    "the same call).\n"
)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def _replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not found in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.slow
def test_a_new_edit_guard_changes_exactly_the_files_that_register_edit(
    project: Path, cli: Cli
) -> None:
    before = _snapshot(project / "generated")
    (project / "messages" / "pretooluse-edit-secret-guard.md").write_text(
        SECRET_GUARD, encoding="utf-8"
    )
    _replace_in(
        project / "messages" / "pretooluse-edit.md",
        "(the same discipline applied to notebook cells).",
        "(the same discipline applied to notebook cells); "
        "`messages/pretooluse-edit-secret-guard.md` (checks the edit for secrets).",
    )
    # A guard is its guard file: the entry it joins, its placeholders, and its detector (U008
    # otherwise), a data-only one found by its content.
    (project / "catalog" / "guards" / "pretooluse-edit-secret-guard.toml").write_text(
        'wired = [{ event = "PreToolUse", matcher = "Edit" }]\n\n'
        '[placeholders]\nwhere = "config/settings.py"\nfound = "an AWS access key"\n\n'
        '[condition]\ndetector = "match"\n'
        '[[condition.rules]]\nname = "an AWS access key"\n'
        "content = 'AKIA[0-9A-Z]{16}'\n",
        encoding="utf-8",
    )
    validate = cli("validate")
    assert (validate.code, validate.out) == (0, ""), validate.out + validate.err
    result = cli("build")
    assert result.code == 0, result.out + result.err
    after = _snapshot(project / "generated")
    assert set(after) == set(before)
    changed = sorted(name for name in after if after[name] != before[name])
    assert changed == [
        "advisories.json",
        "claude-code-engine/settings.json",
        "claude-code-plugin/hooks.json",
        "copilot/hookmsg.json",
        "dispatch-table.json",
        "hook-message-inventory.json",
        "hook-message-inventory.md",
        "hook-wiring.md",
    ]
    # The new guard joins the Edit entry of the files that changed, after the entry's own
    # message, guards in name order; and it is nowhere else.
    for surface, matcher in (
        ("claude-code-engine", "Edit"),
        ("claude-code-plugin", "Edit"),
        ("copilot", "edit"),
    ):
        data = json.loads(after[f"{surface}/{SURFACES[surface]}"])
        lines = {
            hook.matcher: dispatcher_line(surface, hook)
            for hook in hooks_of(surface, data)
            if hook.event in ("PreToolUse", "preToolUse")
        }
        names = lines[matcher]
        assert names[:2] == ("PreToolUse", "pretooluse-edit"), surface
        guards = list(names[2:])
        assert "pretooluse-edit-secret-guard" in guards and guards == sorted(guards), surface
        assert [m for m, line in lines.items() if "pretooluse-edit-secret-guard" in line] == [
            matcher
        ]
    for surface in ("codex", "qwen-code", "codebuddy", "kiro", "devin-local", "cursor"):
        assert b"pretooluse-edit-secret-guard" not in after[f"{surface}/{SURFACES[surface]}"]
    inventory = json.loads(after["hook-message-inventory.json"])
    row = next(r for r in inventory["messages"] if r["name"] == "pretooluse-edit-secret-guard")
    # Codex names its Edit entry in its folded matcher (its file does not change): the
    # dispatcher runs the new guard there on every patch that updates a file.
    assert row["registered_on"] == ["claude-code-engine", "claude-code-plugin", "codex", "copilot"]
    assert "codex" in row["delivered_by"]
    assert "codex" not in {item["harness"] for item in row["not_delivered_by"]}
    check = cli("check")
    assert (check.code, check.out) == (0, ""), check.out + check.err


# --------------------------------------------------------------------------- install-render

GOOD_PYTHON = "/usr/local/bin/python3.12"
GOOD_ROOT = "/opt/hook tools"  # a space: the commands must quote the path


def _render_tokens(text: str, python: str, root: str) -> str:
    return text.replace("${PYTHON_BIN}", python).replace("${HARNESS_ROOT}", root)


@pytest.mark.parametrize("option", ["--python", "--root"])
@pytest.mark.parametrize(
    "char", ["$", "`", '"', "\\"], ids=["dollar", "backtick", "quote", "backslash"]
)
def test_install_render_refuses_a_dangerous_path(
    project: Path, cli: Cli, option: str, char: str
) -> None:
    bad = f"/opt/ho{char}ok/bin"
    paths = {"--python": GOOD_PYTHON, "--root": "/opt/hookmsg", option: bad}
    result = cli(
        "install-render",
        "--harness",
        "codex",
        "--python",
        paths["--python"],
        "--root",
        paths["--root"],
    )
    assert result.code == 2, result.out + result.err
    assert result.out == ""
    assert option in result.err
    assert bad in result.err, f"the error does not name the path {bad!r} as given: {result.err!r}"


@pytest.mark.parametrize("harness", ["no-such-harness", "XCSH"])
def test_install_render_refuses_an_unknown_harness(project: Path, cli: Cli, harness: str) -> None:
    # Harness ids are matched exactly.
    result = cli("install-render", "--harness", harness, "--python", GOOD_PYTHON, "--root", "/opt")
    assert result.code == 2, result.out + result.err
    assert result.out == ""
    assert f"'{harness}'" in result.err


@pytest.mark.slow
@pytest.mark.parametrize("surface", SURFACES)
def test_install_render_fills_in_every_install_token(project: Path, cli: Cli, surface: str) -> None:
    result = cli(
        "install-render", "--harness", surface, "--python", GOOD_PYTHON, "--root", GOOD_ROOT
    )
    assert result.code == 0, result.out + result.err
    leftover = set(TOKEN.findall(result.out))
    assert leftover == ({"CLAUDE_PLUGIN_ROOT"} if surface == "claude-code-plugin" else set())
    expected = _render_tokens(golden_text(surface), GOOD_PYTHON, GOOD_ROOT)
    assert json.loads(result.out) == json.loads(expected)
    assert result.out == expected
    # The rendered commands still split into the same argument vector.
    for hook in hooks_of(surface, json.loads(result.out)):
        if surface == "claude-code-plugin":
            assert hook.argv[1] == "${CLAUDE_PLUGIN_ROOT}/" + SCRIPT
        else:
            assert hook.argv[:2] == (GOOD_PYTHON, f"{GOOD_ROOT}/{SCRIPT}")


def test_install_render_drops_a_trailing_slash_of_the_root(project: Path, cli: Cli) -> None:
    result = cli(
        "install-render", "--harness", "cursor", "--python", GOOD_PYTHON, "--root", "/opt/x/"
    )
    assert result.code == 0, result.out + result.err
    assert json.loads(result.out) == json.loads(
        _render_tokens(golden_text("cursor"), GOOD_PYTHON, "/opt/x")
    )


# --------------------------------------------------------------------------- package and inventory


@pytest.mark.slow
def test_package_holds_every_registration_under_its_harness_folder(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    result = cli("package")
    assert result.code == 0, result.out + result.err
    archive = next((project / "dist").glob("*.tar.gz")).read_bytes()
    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(archive))) as tar:
        files = {}
        for member in tar.getmembers():
            handle = tar.extractfile(member) if member.isfile() else None
            if handle is not None:
                files[member.name] = handle.read()
    listed = {f["path"] for f in json.loads(files["manifest.json"])["files"]}
    for surface, file in SURFACES.items():
        name = f"generated/{surface}/{file}"
        assert name in files, f"{name} is not in the archive: {sorted(files)}"
        assert files[name] == (project / "generated" / surface / file).read_bytes()
        assert files[name] == golden_path(surface).read_bytes()
        assert name in listed


def _inventory(project: Path) -> dict[str, list[str]]:
    data = json.loads(
        (project / "generated" / "hook-message-inventory.json").read_text(encoding="utf-8")
    )
    return {row["name"]: row["registered_on"] for row in data["messages"]}


def test_inventory_lists_the_surfaces_that_register_each_message(project: Path) -> None:
    registered_on = _inventory(project)
    assert "claude-code-engine" in registered_on["pretooluse-edit"]
    assert "codex" in registered_on["pretooluse-edit"]  # through its folded matcher
    assert sorted(registered_on["sessionstart"]) == sorted([*SURFACES, *MODULES])
    assert registered_on["postcompact"] == [*CLAUDE, "codex", "qwen-code"]
    # pi has no session.compacting: compaction context only on xcsh and oh-my-pi.
    assert registered_on["precompact"] == ["xcsh", "oh-my-pi"]
    assert registered_on["pretooluse-conformity"] == []
    # The same answer as reading the goldens.
    for name, surfaces in registered_on.items():
        expected = [s for s in SURFACES if name in registered(s)]
        expected += [s for s in MODULES if name in module_messages(s)]
        assert sorted(surfaces) == sorted(expected), name


def test_wiring_has_a_generated_registrations_table(project: Path) -> None:
    text = (project / "generated" / "hook-wiring.md").read_text(encoding="utf-8")
    assert "\n## Generated registrations\n" in text
    section = text.split("\n## Generated registrations\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.split("\n") if line.startswith("| `")]
    cells = {row.split("`")[1]: [c.strip() for c in row.strip("|").split("|")] for row in rows}
    assert sorted(cells) == sorted(f"{s}/{f}" for s, f in {**SURFACES, **MODULES}.items())
    assert cells["xcsh/hookmsg.js"][2:4] == [
        "`.xcsh/extensions/hookmsg.js`",
        "session.compacting, session_start, tool_result",
    ]
    for surface, file in SURFACES.items():
        row = cells[f"{surface}/{file}"]
        events = sorted({hook.event for hook in hooks_of(surface, golden(surface))})
        assert row[3] == ", ".join(events), surface
        assert row[4] == (CONTRACTS[surface] or "—"), surface
        project_file = PROJECT_FILES.get(surface)
        assert row[2] == (
            f"`{project_file}`" if project_file else "— (not installed into a project)"
        )


def test_every_registration_format_has_one_writer_and_an_unknown_one_is_an_error() -> None:
    from typing import get_args

    from hookmsg.catalogue.models import Format, Harness, HookRegistry
    from hookmsg.render import registrations

    assert set(registrations.FORMATS) == set(get_args(Format)) - {"xcsh"}
    harness = Harness.model_construct(
        id="nobody",
        registration=SimpleNamespace(format="yaml"),  # past validation: a new, unwired format
    )
    with pytest.raises(ValueError, match="no writer for format 'yaml'"):
        registrations.registration_data(harness, HookRegistry.model_construct())
