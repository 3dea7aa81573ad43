"""What the dispatcher delivers: guard texts, strict and advise modes, the cap."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from hookmsg_dispatch.main import REFUSED, WENT_AHEAD, run
from hookmsg_dispatch.text import VALUE_LIMIT, fill, sanitise, within_cap
from tests.support.dispatch import (
    build_install_root,
    clean_env,
    copy_root,
    delivered,
    dispatch,
    payload_fixtures,
    table,
    with_guards,
)

DEPENDENCY = "pretooluse-dependency-guard"
WRITE_SET = [
    "pretooluse-write",
    "pretooluse-write-header-guard",
    "pretooluse-write-plan-guard",
    DEPENDENCY,
    "pretooluse-eval-guard",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_install_root(tmp_path_factory.mktemp("install"))


@pytest.fixture
def root(built: Path, tmp_path: Path) -> Path:
    return copy_root(built, tmp_path / "root")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return clean_env(tmp_path / "state")


def _advisory(root: Path, name: str, **values: str) -> str:
    """The Advisory filled as the guards double fills it: unnamed placeholders "the <name>"."""
    entry = table(root)["messages"][name]
    return fill(entry["advisory"], {p: values.get(p, f"the {p}") for p in entry["placeholders"]})


def _procedure(root: Path, name: str) -> str:
    return f"Full procedure: {root / 'messages' / f'{name}.md'}"


@pytest.mark.slow
def test_a_firing_guard_advises_after_the_call_went_ahead(root: Path, env: Any) -> None:
    with_guards(root, {DEPENDENCY: {"detector": "first-path"}})
    payload = payload_fixtures("claude-code")["PreToolUse-Write"]
    ran = dispatch(root, "PreToolUse", *WRITE_SET, payload=payload, env=env)
    assert ran.code == 0
    output = ran.json()["hookSpecificOutput"]
    assert set(output) == {"hookEventName", "additionalContext"}
    text = output["additionalContext"]
    path = payload["tool_input"]["file_path"]
    assert text == "\n\n".join(
        [
            WENT_AHEAD,
            delivered(root, "pretooluse-write"),
            _advisory(root, DEPENDENCY, path=path) + "\n\n" + _procedure(root, DEPENDENCY),
        ]
    )


@pytest.mark.slow
@pytest.mark.parametrize("how", ["flag", "env"])
def test_strict_mode_denies_with_the_advisory_as_reason(root: Path, env: Any, how: str) -> None:
    with_guards(root, {DEPENDENCY: {"detector": "first-path"}})
    payload = payload_fixtures("claude-code")["PreToolUse-Write"]
    flags = ["--strict"] if how == "flag" else []
    extra = {"HOOKMSG_STRICT": "1"} if how == "env" else {}
    ran = dispatch(root, *flags, "PreToolUse", *WRITE_SET, payload=payload, env={**env, **extra})
    assert ran.code == 0
    assert ran.err.count("\n") <= 1
    output = ran.json()["hookSpecificOutput"]
    assert output["permissionDecision"] == "deny"
    assert output["hookEventName"] == "PreToolUse"
    path = payload["tool_input"]["file_path"]
    assert output["permissionDecisionReason"] == "\n\n".join(
        [REFUSED, _advisory(root, DEPENDENCY, path=path) + "\n\n" + _procedure(root, DEPENDENCY)]
    )


def test_strict_mode_with_every_guard_silent_only_advises(root: Path, env: Any) -> None:
    with_guards(root, {DEPENDENCY: {"detector": "command"}})  # a Write has no command
    payload = payload_fixtures("claude-code")["PreToolUse-Write"]
    ran = dispatch(root, "--strict", "PreToolUse", *WRITE_SET, payload=payload, env=env)
    output = ran.json()["hookSpecificOutput"]
    assert "permissionDecision" not in output
    assert output["additionalContext"] == delivered(root, "pretooluse-write")


def test_qwen_pretooluse_speaks_only_by_denying(root: Path, env: Any) -> None:
    with_guards(root, {DEPENDENCY: {"detector": "first-path"}})
    payload = payload_fixtures("qwen-code")["PreToolUse-write_file"]
    argv = ["--contract", "qwen-code", "PreToolUse", *WRITE_SET]
    advise = dispatch(root, *argv, payload=payload, env=env)
    assert (advise.code, advise.out) == (0, b"")
    strict = dispatch(root, "--strict", *argv, payload=payload, env=env)
    output = strict.json()["hookSpecificOutput"]
    assert output["permissionDecision"] == "deny"
    assert output["permissionDecisionReason"].startswith(REFUSED + "\n\n")
    assert delivered(root, "pretooluse-write") not in output["permissionDecisionReason"]


def test_gemini_pretooluse_denies_as_gemini_reads_a_deny(root: Path, env: Any) -> None:
    # Gemini CLI reads a top-level decision and reason; it ignores permissionDecision.
    with_guards(root, {DEPENDENCY: {"detector": "first-path"}})
    payload = payload_fixtures("gemini-cli")["PreToolUse-write_file"]
    argv = ["--contract", "gemini-cli", "PreToolUse", *WRITE_SET]
    advise = dispatch(root, *argv, payload=payload, env=env)
    assert (advise.code, advise.out) == (0, b"")
    output = dispatch(root, "--strict", *argv, payload=payload, env=env).json()
    assert set(output) == {"decision", "reason"} and output["decision"] == "deny"
    assert output["reason"].startswith(REFUSED + "\n\n")


def test_codex_patch_paths_reach_the_guards(root: Path, env: Any) -> None:
    with_guards(root, {DEPENDENCY: {"detector": "first-path"}})
    payload = payload_fixtures("codex")["PreToolUse-apply_patch"]
    ran = dispatch(root, "--contract", "codex", "PreToolUse", *WRITE_SET, payload=payload, env=env)
    text = ran.json()["hookSpecificOutput"]["additionalContext"]
    assert text.startswith(WENT_AHEAD + "\n\n")
    assert _advisory(root, DEPENDENCY, path="src/new_module.py") in text


def test_placeholder_values_are_made_safe(root: Path, env: Any) -> None:
    hostile = "evil`rm -rf /`\u202e\u2066name\x00\x1b[31m\nnext line " + "x" * 500
    names = table(root)["messages"][DEPENDENCY]["placeholders"]
    values = {name: hostile if name == "path" else "x" for name in names}
    with_guards(root, {DEPENDENCY: {"detector": "values", "values": values}})
    payload = payload_fixtures("claude-code")["PreToolUse-Write"]
    ran = dispatch(root, "PreToolUse", "pretooluse-write", DEPENDENCY, payload=payload, env=env)
    text = ran.json()["hookSpecificOutput"]["additionalContext"]
    value = sanitise(hostile)
    assert value in text
    for bad in ("`rm", "\u202e", "\u2066", "\x00", "\x1b", "next line" + "x"):
        assert bad not in value
    assert "'rm -rf /'" in value
    assert len(value) == VALUE_LIMIT


def test_the_cap_keeps_whole_messages_and_names_what_it_left_out(root: Path, env: Any) -> None:
    payload = payload_fixtures("claude-code")["SessionStart"]
    first = delivered(root, "sessionstart")
    second = delivered(root, "skill-index")
    # The cap counts the whole answer (Claude Code's stdout): its envelope, the first text as
    # JSON escapes it, and room for the omission line, not for the second.
    empty = '{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": ""}}\n'
    cap = len(empty) + len(json.dumps(first)) - 2 + 300
    assert len(json.dumps(second)) > 300
    ran = dispatch(
        root,
        "SessionStart",
        "sessionstart",
        "skill-index",
        payload=payload,
        env={**env, "HOOKMSG_CAP": str(cap)},
    )
    text = ran.json()["hookSpecificOutput"]["additionalContext"]
    assert len(ran.out) <= cap
    assert text.startswith(first + "\n\n")
    assert second not in text
    assert text.splitlines()[-1].startswith(
        f"Left out to stay within {cap} characters: skill-index"
    )


def test_the_default_cap_comes_from_the_table(root: Path, env: Any) -> None:
    data = table(root)
    assert data["cap"] == 10_000
    payload = payload_fixtures("claude-code")["SessionStart"]
    ran = dispatch(root, "SessionStart", "sessionstart", "skill-index", payload=payload, env=env)
    text = ran.json()["hookSpecificOutput"]["additionalContext"]
    assert len(text) <= data["cap"]


def test_within_cap_skips_a_long_part_and_keeps_a_later_short_one() -> None:
    parts = [("a", "A" * 10), ("b", "B" * 500), ("c", "C" * 10)]
    text, left_out = within_cap(parts, 120, where="/r/messages")
    assert left_out == ["b"]
    assert text.startswith("A" * 10 + "\n\n" + "C" * 10 + "\n\nLeft out")
    assert len(text) <= 120
    # When even the omission line does not fit beside the kept parts, parts give way to it.
    text, left_out = within_cap(parts, 90, where="/r/messages")
    assert len(text) <= 90
    assert "b" in left_out


def test_the_guard_seam_takes_a_test_double_in_process(root: Path) -> None:
    calls: list[tuple[str, str | None, str, str]] = []

    def evaluate(
        detector: str, call: Any, data: Any, where: str, module: str
    ) -> dict[str, str] | None:
        calls.append((detector, call.tool, where, module))
        return dict.fromkeys(placeholders, call.changes[0].path)

    data = table(root)
    placeholders = data["messages"][DEPENDENCY]["placeholders"]
    data["messages"][DEPENDENCY]["condition"] = "dependency"
    (root / "data" / "dispatch-table.json").write_text(json.dumps(data), encoding="utf-8")
    stdin = io.BytesIO(json.dumps(payload_fixtures("claude-code")["PreToolUse-Write"]).encode())
    stdout = io.BytesIO()
    stderr = io.StringIO()
    code = run(
        ["PreToolUse", DEPENDENCY],
        root=str(root),
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        environ={},
        evaluate=evaluate,
    )
    assert (code, stderr.getvalue()) == (0, "")
    assert calls == [("dependency", "Write", str(root), "guards.dependency")]
    text = json.loads(stdout.getvalue())["hookSpecificOutput"]["additionalContext"]
    assert text.startswith(WENT_AHEAD + "\n\n")
    assert text.endswith(_procedure(root, DEPENDENCY))


def test_a_conditioned_context_message_speaks_only_when_its_condition_fires(
    root: Path, env: Any
) -> None:
    name = "posttooluse-proactive-compaction"
    payload = payload_fixtures("claude-code")["PostToolUse-Bash"]
    with_guards(root, {name: {"detector": "command"}})  # fires: the payload has a command
    ran = dispatch(root, "PostToolUse", name, payload=payload, env=env)
    assert ran.json()["hookSpecificOutput"]["additionalContext"] == delivered(root, name)
    with_guards(root, {name: {"detector": "first-path"}})  # silent: a Bash call writes no file
    ran = dispatch(root, "PostToolUse", name, payload=payload, env=env)
    assert (ran.code, ran.out, ran.err) == (0, b"", "")


def test_a_payload_style_module_and_the_payload_argument(root: Path, env: Any) -> None:
    """The xcsh path: no stdin (`--payload`), a payload read by its own module, `{"text": T}`."""
    (root / "hooks" / "hookmsg_dispatch" / "demo.py").write_text(
        "from hookmsg_dispatch.call import Call, FileChange\n\n"
        "def build_call(payload, contract, harness, event):\n"
        "    return Call(event, harness, tool='Write',\n"
        "                changes=(FileChange(payload['where'], '', None, True),))\n",
        encoding="utf-8",
    )
    with_guards(root, {DEPENDENCY: {"detector": "first-path"}})
    data = table(root)
    data["contracts"]["demo"] = {
        "context_events": ["PostToolUse"],
        "deny": False,
        "envelope": "xcsh",
        "event_names": {"PostToolUse": "tool_result"},
        "patch_tools": [],
        "payload": "demo",
        "tools": {},
    }
    (root / "data" / "dispatch-table.json").write_text(json.dumps(data), encoding="utf-8")
    argv = ["--contract", "demo", "--payload", json.dumps({"where": "Cargo.lock"})]
    ran = dispatch(root, *argv, "PostToolUse", DEPENDENCY, payload=b"", env=env)
    assert (ran.code, ran.err) == (0, "")
    assert ran.json() == {
        "text": _advisory(root, DEPENDENCY, path="Cargo.lock")
        + "\n\n"
        + _procedure(root, DEPENDENCY)
    }


def test_backticks_stay_in_prose_and_become_quotes_in_a_code_span() -> None:
    template = 'The question "{{ question }}" names `{{ path }}`.'
    value = "Rename `tenant_id` on `orders`?"
    filled = fill(template, {"question": value, "path": "a`b`c"})
    assert '"Rename `tenant_id` on `orders`?"' in filled
    assert "`a'b'c`" in filled
    # One backtick alone would open a code span that swallows the rest of the advisory.
    alone = fill(template, {"question": "Use `x?", "path": "p"})
    assert alone.startswith('The question "Use \'x?"')
