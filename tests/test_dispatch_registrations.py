"""Every generated registration, run from an unpacked release archive, answers every payload.

For each harness: each handler's command line (tokens filled in, exec form run as
`[command, *args]`, shell strings through `sh -c`) gets every recorded payload of that
harness whose tool or start source its matcher takes. It must exit 0 and print one
envelope in that harness's shape holding every context message it lists, or nothing
where the harness shows the model nothing from that event.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.settings import load_project
from tests.support.dispatch import (
    BOOT,
    PREFIX,
    build_install_root,
    clean_env,
    delivered,
    dispatch,
    payload_fixtures,
    python39,
    table,
)

CONTRACT_SHAPES = {
    "hook-specific": "hookSpecificOutput",
    "additional-context": "additionalContext",
    "additional_context": "additional_context",
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_install_root(tmp_path_factory.mktemp("install"))


@dataclass(frozen=True)
class Handler:
    event: str  # the harness's spelling
    matcher: str | None
    argv: tuple[str, ...] | None  # exec form
    shell: str | None  # shell string


def _handlers(data: Any) -> Iterator[Handler]:
    """Every dispatcher handler of a registration file, whatever its format."""
    hooks = data["hooks"]
    if isinstance(hooks, list):  # Kiro: a flat list of named hooks
        for hook in hooks:
            yield Handler(hook["trigger"], hook.get("matcher"), None, hook["action"]["command"])
        return
    for event, items in hooks.items():
        for item in items:
            inner = item.get("hooks")
            for handler in inner if isinstance(inner, list) else [item]:
                matcher = item.get("matcher")
                if "bash" in handler:  # Copilot
                    yield Handler(event, matcher, None, handler["bash"])
                elif "args" in handler:  # exec form
                    yield Handler(event, matcher, (handler["command"], *handler["args"]), None)
                else:
                    yield Handler(event, matcher, None, handler["command"])


def _fill(text: str, root: Path) -> str:
    for token in ("${HARNESS_ROOT}", "${CLAUDE_PLUGIN_ROOT}"):
        text = text.replace(token, str(root))
    return text.replace("${PYTHON_BIN}", sys.executable)


def _run(handler: Handler, root: Path, payload: dict[str, Any], env: dict[str, str]) -> Any:
    if handler.argv is not None:
        command: list[str] = [_fill(part, root) for part in handler.argv]
    else:
        assert handler.shell is not None
        command = ["sh", "-c", _fill(handler.shell, root)]
    return subprocess.run(
        command,
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )


def _takes(handler: Handler, event: str, payload: dict[str, Any]) -> bool:
    """Does this handler's matcher take this payload (tool name or start source)?"""
    matcher = handler.matcher
    if matcher in (None, "", "*", ".*"):
        return True
    subject = payload.get("source") if event == "SessionStart" else payload.get("tool_name")
    subject = subject if subject is not None else payload.get("toolName")
    return isinstance(subject, str) and re.fullmatch(f"(?:{matcher})", subject) is not None


def _messages(handler: Handler, payload: dict[str, Any]) -> list[str]:
    """The messages the handler names, and those of the registry entries it names
    (`--entry KEY`) that this payload is for: a patch's Add File is a Write, its Update
    File an Edit."""
    words = list(handler.argv) if handler.argv is not None else handler.shell.split()  # type: ignore[union-attr]
    words = [w.strip('"') for w in words]
    entries = [words[i + 1] for i, w in enumerate(words) if w == "--entry"]
    words = [w for i, w in enumerate(words) if w != "--entry" and words[i - 1] != "--entry"]
    event_at = next(i for i, w in enumerate(words) if w[:1].isupper() and "/" not in w)
    if not entries:
        return words[event_at + 1 :]
    patch = json.dumps(payload)
    tools = {"Write": "*** Add File:" in patch, "Edit": "*** Update File:" in patch}
    registry = {
        entry["matcher"]: entry["messages"]
        for entry in table_entries(words[event_at])
        if tools.get(entry["matcher"])
    }
    return [name for key in entries for name in registry.get(key, [])]


def table_entries(event: str) -> list[dict[str, Any]]:
    from tests.support.repository import REPO

    data = json.loads((REPO / "generated" / "dispatch-table.json").read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = data["entries"][event]
    return found


def _text(style: str, out: bytes) -> str:
    if style == "text":
        return out.decode("utf-8")
    data = json.loads(out)
    assert isinstance(data, dict)
    if style in ("hook-specific", "gemini"):  # Gemini differs only in its deny
        assert set(data) == {"hookSpecificOutput"}
        inner = data["hookSpecificOutput"]
        assert set(inner) == {"hookEventName", "additionalContext"}, inner
        return str(inner["additionalContext"])
    key = CONTRACT_SHAPES[style]
    assert set(data) == {key}, data
    return str(data[key])


def _harnesses() -> list[tuple[str, str, str]]:
    from tests.support.repository import REPO

    workspace = load_workspace(load_project(REPO))
    assert workspace.catalogue.harnesses is not None
    # The xcsh registration is an extension module, not a hook file: test_render_xcsh_module.py
    # runs it against the packaged dispatcher.
    return [
        (h.id, h.registration.file, h.contract_id)
        for h in workspace.catalogue.harnesses.harnesses
        if h.registration is not None and h.registration.format != "xcsh"
    ]


HARNESSES = _harnesses()


@pytest.mark.slow
@pytest.mark.parametrize(("harness", "file", "contract"), HARNESSES, ids=[h[0] for h in HARNESSES])
def test_every_registration_answers_every_payload(
    root: Path, tmp_path: Path, harness: str, file: str, contract: str
) -> None:
    data = json.loads((root / "generated" / harness / file).read_text(encoding="utf-8"))
    facts = table(root)["contracts"][contract]
    registry_event = {spelled: event for event, spelled in facts["event_names"].items()}
    fixtures = payload_fixtures(contract)
    assert fixtures, f"no payload fixtures for contract {contract}"
    ran = 0
    for handler in _handlers(data):
        event = registry_event[handler.event]
        for stem, payload in fixtures.items():
            if stem.split("-", 1)[0] != event or not _takes(handler, event, payload):
                continue
            names = _messages(handler, payload)
            # Each run a context of its own: once per context, every first call delivers.
            env = clean_env(tmp_path / f"state-{ran}")
            done = _run(handler, root, payload, env)
            where = f"{harness} {handler.event} {handler.matcher} with {stem}"
            ran += 1
            assert done.returncode == 0, where
            err = done.stderr.decode()
            assert len(err.splitlines()) <= 1, where
            assert all(line.startswith(PREFIX) for line in err.splitlines()), where
            if event not in facts["context_events"]:
                assert done.stdout == b"", f"{where}: the harness shows the model nothing here"
                continue
            kinds = table(root)["messages"]
            expected = [
                name
                for name in names
                if kinds[name]["kind"] == "context" and kinds[name]["condition"] is None
            ]
            if not expected and done.stdout == b"":
                continue  # only guards and conditions here, and none of them spoke
            text = _text(facts["envelope"], done.stdout)
            if facts["envelope"] in ("hook-specific", "gemini"):
                assert json.loads(done.stdout)["hookSpecificOutput"]["hookEventName"] == (
                    handler.event
                )
            for name in expected:
                assert delivered(root, name, contract) in text, f"{where}: {name} is missing"
    assert ran, f"no payload fixture matched any {harness} handler"


@pytest.mark.slow
def test_every_contract_has_a_fixture_for_every_registered_event(root: Path) -> None:
    for harness, file, contract in HARNESSES:
        data = json.loads((root / "generated" / harness / file).read_text(encoding="utf-8"))
        facts = table(root)["contracts"][contract]
        registry_event = {spelled: event for event, spelled in facts["event_names"].items()}
        stems = {stem.split("-", 1)[0] for stem in payload_fixtures(contract)}
        for handler in _handlers(data):
            assert registry_event[handler.event] in stems, f"{harness} {handler.event}"


def test_the_fail_open_bootstrap_runs_the_dispatcher(root: Path, tmp_path: Path) -> None:
    payload = payload_fixtures("claude-code")["SessionStart"]
    done = subprocess.run(
        [
            *(sys.executable, "-I", "-S", "-c", BOOT, str(root / "hooks/dispatch.py")),
            *("SessionStart", "sessionstart", "skill-index"),
        ],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=clean_env(tmp_path),
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    text = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert delivered(root, "sessionstart") in text
    assert delivered(root, "skill-index") in text


@pytest.mark.slow
def test_runs_on_python_3_9(root: Path, tmp_path: Path) -> None:
    interpreter = python39()
    if interpreter is None:
        pytest.skip("no Python 3.9 on this machine")
    for contract, stem, argv in (
        ("claude-code", "SessionStart", ["SessionStart", "sessionstart", "skill-index"]),
        (
            "codex",
            "PreToolUse-apply_patch",
            ["--contract", "codex", "PreToolUse", "pretooluse-write"],
        ),
        ("copilot", "PostToolUse-bash", ["--contract", "copilot", "PostToolUse", "stop"]),
    ):
        ran = dispatch(
            root,
            *argv,
            payload=payload_fixtures(contract)[stem],
            env=clean_env(tmp_path),
            python=interpreter,
        )
        assert (ran.code, ran.err) == (0, ""), (contract, ran.err)
        assert ran.out.startswith(b"{"), contract
