"""The dispatcher on anything a harness can send: linear time, bounded memory, the cap as the
harness counts it, and fail-open edges (the Stop loop guard, `HOOKMSG_CAP`).

No test here holds a call to a budget of seconds on one run. Scaling is measured as in
`tests/test_cli_validate_linear.py`: the CPU time this process spends at two sizes
(`time.process_time`, least of a few runs), which a quadratic cost makes grow 16 times at 4
times the input and a linear one about 4 times; the limit is 8. Memory is traced
(`tracemalloc`) in this process, or read as the peak resident size of a child process at the
sizes the harness sends.
"""

from __future__ import annotations

import ast
import gc
import io
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookmsg_dispatch import envelope, jsonio, main
from hookmsg_dispatch.contracts import build_call
from hookmsg_dispatch.guards.manifests import go_mod
from tests.support.dispatch import BOOT, build_install_root, clean_env
from tests.support.guards import detect, git_project
from tests.support.repository import REPO

TABLE: dict[str, Any] = json.loads((REPO / "generated" / "dispatch-table.json").read_text("utf-8"))
CONTRACTS: dict[str, dict[str, Any]] = TABLE["contracts"]
DEPENDENCY = "pretooluse-dependency-guard"
CAP = 10_000
MEMORY_BOUND = 100 * 1024 * 1024  # bytes: the goal for one call
HANG_GUARD_SECONDS = 60


# --------------------------------------------------------------------------- measuring


def _cpu(work: Callable[[], object], repeat: int = 3) -> float:
    """The least CPU time of `repeat` runs of `work` (noise only ever adds)."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            work()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def _assert_linear(measure: Callable[[int], float], small: int, factor: int = 4) -> None:
    limit = 2 * factor  # a quadratic cost grows factor ** 2 times
    small_time = measure(small)
    ratio = float("inf")
    for _ in range(2):  # the larger size again only while noise may explain a high ratio
        large_time = measure(small * factor)
        ratio = min(ratio, large_time / max(small_time, 1e-4))
        if ratio < limit:
            break
    assert ratio < limit, (
        f"{factor}x the input took {ratio:.1f}x the CPU time "
        f"({small_time:.4f} s, then {large_time:.4f} s): not linear"
    )


def _guard(contract: str, payload: dict[str, Any], event: str = "PreToolUse") -> Any:
    """The dependency guard on `payload` as `contract` reads it (what the dispatcher runs)."""
    call = build_call(payload, CONTRACTS[contract], contract, event)
    data = {
        **TABLE["conditions"][DEPENDENCY],
        "max-file-bytes": TABLE.get("max_file_bytes", 1_000_000),
    }
    return detect("dependency", call, data, "/nonexistent/install-root")


# --------------------------------------------------------------------------- the inputs


def _pyproject(lines: int) -> str:
    body = "".join(f'  "package-{i}>=1.{i}",\n' for i in range(lines))
    return f'[project]\nname = "demo"\ndependencies = [\n{body}]\n'


def _edit_pyproject(project: Path, lines: int) -> dict[str, Any]:
    """An Edit of one line of a valid pyproject.toml holding a `lines`-line array."""
    (project / "pyproject.toml").write_text(_pyproject(lines), encoding="utf-8")
    tool_input = {
        "file_path": str(project / "pyproject.toml"),
        "old_string": 'name = "demo"',
        "new_string": 'name = "demo2"',
    }
    return {"cwd": str(project), "tool_name": "Edit", "tool_input": tool_input}


def _go_mod_line(project: Path, size: int) -> dict[str, Any]:
    """A Write of a go.mod whose one require line is a dotted word of `size` characters."""
    (project / "go.mod").write_text("module demo\n", encoding="utf-8")
    content = "module demo\n\nrequire " + "a." * (size // 2) + "\n"
    tool_input = {"file_path": str(project / "go.mod"), "content": content}
    return {"cwd": str(project), "tool_name": "Write", "tool_input": tool_input}


def _patch_sections(project: Path, sections: int) -> dict[str, Any]:
    """A Codex apply_patch with `sections` sections, every one on the same package.json."""
    (project / "package.json").write_text('{"dependencies": {"left-pad": "1.0.0"}}\n', "utf-8")
    body = "".join(
        f'*** Update File: package.json\n@@\n-  "note-{i}": "a"\n+  "note-{i}": "b"\n'
        for i in range(sections)
    )
    patch = f"*** Begin Patch\n{body}*** End Patch\n"
    return {"cwd": str(project), "tool_name": "apply_patch", "tool_input": {"command": patch}}


def _replace_all(project: Path, size: int, new: int = 2048) -> dict[str, Any]:
    """An Edit replacing a one-letter string everywhere in a package.json of `size` bytes."""
    filler = "a" * max(0, size - 60)
    text = '{"dependencies": {"left-pad": "1.0.0"}, "notes": "' + filler + '"}\n'
    (project / "package.json").write_text(text, encoding="utf-8")
    tool_input = {
        "file_path": str(project / "package.json"),
        "old_string": "a",
        "new_string": "b" * new,
        "replace_all": True,
    }
    return {"cwd": str(project), "tool_name": "Edit", "tool_input": tool_input}


# The input classes, each with the contract that sends it and its small size.
Case = tuple[str, Callable[[Path, int], dict[str, Any]], int]
SCALING: dict[str, Case] = {
    "Edit of one line of a pyproject.toml with a long array": ("claude-code", _edit_pyproject, 500),
    "go.mod of one long require line": ("claude-code", _go_mod_line, 4_000),
    "Codex patch of many sections on one manifest": ("codex", _patch_sections, 150),
}


@pytest.mark.parametrize("case", SCALING.values(), ids=SCALING.keys())
def test_the_dependency_guard_takes_linear_time(tmp_path: Path, case: Case) -> None:
    contract, payload_of, small = case

    def measure(size: int) -> float:
        project = git_project(tmp_path / f"p{size}")
        payload = payload_of(project, size)
        return _cpu(lambda: _guard(contract, payload))

    _assert_linear(measure, small)


def test_replace_all_never_builds_payload_times_file(tmp_path: Path) -> None:
    # 100 KB of one letter, each replaced by 2 KB: applied to the whole file first, that
    # is a 200 MB text. The guard must judge the edit without building it.
    project = git_project(tmp_path / "p")
    payload = _replace_all(project, 100_000)
    tracemalloc.start()
    try:
        _guard("claude-code", payload)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 1024 * 1024, f"{peak / 1e6:.0f} MB traced for a 2 KB edit"


def test_replace_all_still_fires_when_the_result_fits(tmp_path: Path) -> None:
    project = git_project(tmp_path / "p")
    (project / "package.json").write_text(
        '{"dependencies": {"left-pad": "1.0.0", "right-pad": "1.0.0"}}\n', encoding="utf-8"
    )
    tool_input = {
        "file_path": str(project / "package.json"),
        "old_string": '"1.0.0"',
        "new_string": '"2.0.0"',
        "replace_all": True,
    }
    found = _guard(
        "claude-code", {"cwd": str(project), "tool_name": "Edit", "tool_input": tool_input}
    )
    assert found is not None
    assert found["change"] == "left-pad 1.0.0 → 2.0.0; right-pad 1.0.0 → 2.0.0"


def test_many_sections_on_one_manifest_are_judged_together(tmp_path: Path) -> None:
    project = git_project(tmp_path / "p")
    (project / "package.json").write_text('{"dependencies": {"left-pad": "1.0.0"}}\n', "utf-8")
    patch = (
        "*** Begin Patch\n*** Update File: package.json\n@@\n"
        '-  "description": "old",\n+  "description": "new",\n'
        '*** Update File: package.json\n@@\n-    "left-pad": "1.0.0"\n'
        '+    "left-pad": "2.0.0"\n*** End Patch\n'
    )
    payload = {"cwd": str(project), "tool_name": "apply_patch", "tool_input": {"command": patch}}
    found = _guard("codex", payload)
    assert found is not None
    assert found == {"path": "package.json", "change": "left-pad 1.0.0 → 2.0.0"}


_OLD_GO_LINE = re.compile(r"^\s*(?:require\s+)?([A-Za-z0-9][\w.~/-]*\.[\w.~/-]+)\s+(v[^\s/]+)")
_GO_PIECES = ["require", " ", "\t", "a", "b.c", ".", "/", "~", "-", "v1", "v", "(", ")", "//", "é"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_GO_PIECES), max_size=10).map("".join), max_size=6))
def test_go_mod_is_read_word_by_word_as_the_pattern_read_it(lines: list[str]) -> None:
    text = "\n".join(["module demo", "require (", *lines, ")", *(f"require {x}" for x in lines)])
    expected: dict[str, tuple[str, str]] = {}
    in_block = False
    for raw in text.split("\n"):
        line = raw.split("//", 1)[0].strip()
        if line.startswith("require") and line.endswith("("):
            in_block = True
            continue
        if in_block and line.startswith(")"):
            in_block = False
            continue
        if in_block or line.startswith("require "):
            match = _OLD_GO_LINE.match(line)
            if match is not None:
                expected[f"go:{match.group(1)}"] = (match.group(1), match.group(2))
    assert go_mod(text) == expected


# --------------------------------------------------------------------------- whole calls


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_install_root(tmp_path_factory.mktemp("install"))


# A child that runs one hook call as the harness does and reports the call's own peak
# resident size and CPU time (its RUSAGE_CHILDREN: the call is its only child).
_MEASURED = """
import resource, subprocess, sys
limit = 1 << 30  # never let a runaway call take the machine: 1 GiB of address space
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
done = subprocess.run(sys.argv[1:], stdin=sys.stdin, capture_output=True, preexec_fn=cap)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stdout.write(repr((done.returncode, done.stdout, done.stderr, usage.ru_maxrss,
                       usage.ru_utime + usage.ru_stime)))
"""


def _measured_call(
    root: Path, argv: list[str], payload: Mapping[str, Any], env: Mapping[str, str]
) -> tuple[int, bytes, str, int, float]:
    if not sys.platform.startswith("linux"):
        pytest.skip("ru_maxrss is in KiB on Linux only")
    command = [sys.executable, "-I", "-S", "-c", BOOT, str(root / "hooks" / "dispatch.py"), *argv]
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, *command],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=dict(env),
        timeout=HANG_GUARD_SECONDS,
        check=True,
    )
    code, out, err, peak_kib, cpu = ast.literal_eval(done.stdout.decode())
    return code, out, err.decode("utf-8", "replace"), peak_kib * 1024, cpu


ISSUE: dict[str, tuple[str, Callable[[Path], dict[str, Any]]]] = {
    "6,000-line array in pyproject.toml": ("claude-code", lambda p: _edit_pyproject(p, 6_000)),
    "300 KB go.mod line": ("claude-code", lambda p: _go_mod_line(p, 300_000)),
    "300 KB Codex patch on one manifest": ("codex", lambda p: _patch_sections(p, 4_000)),
    "replace_all on a 1 MB package.json": ("claude-code", lambda p: _replace_all(p, 999_000)),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", ISSUE.values(), ids=ISSUE.keys())
def test_a_call_at_the_issues_size_is_bounded(
    built: Path, tmp_path: Path, case: tuple[str, Callable[[Path], dict[str, Any]]]
) -> None:
    contract, payload_of = case
    project = git_project(tmp_path / "project")
    payload = payload_of(project)
    argv = ["--contract", contract, "PreToolUse", "pretooluse-write", DEPENDENCY]
    code, out, err, peak, cpu = _measured_call(built, argv, payload, clean_env(tmp_path / "s"))
    assert code == 0
    assert "failed" not in err and "Traceback" not in err, err
    assert not out or isinstance(json.loads(out), dict)
    assert peak <= MEMORY_BOUND, f"peak resident size {peak / 1e6:.0f} MB"
    # The goal, in CPU time (not wall-clock): a neighbour's load does not add to it.
    assert cpu <= 1.0, f"{cpu:.2f} s of CPU for one call"


# --------------------------------------------------------------------------- the cap


def _root(tmp_path: Path, texts: Mapping[str, str]) -> Path:
    """An install root holding the real dispatch table and context messages of these texts."""
    root = tmp_path / "root"
    (root / "data").mkdir(parents=True)
    (root / "messages").mkdir()
    data = json.loads(json.dumps(TABLE))
    for name, text in texts.items():
        (root / "messages" / f"{name}.md").write_text(text, encoding="utf-8")
        data["messages"][name] = {
            "advisory": None,
            "condition": None,
            "file": f"messages/{name}.md",
            "kind": "context",
            "placeholders": [],
        }
    (root / "data" / "dispatch-table.json").write_text(json.dumps(data), encoding="utf-8")
    return root


def _call(
    root: Path,
    argv: list[str],
    payload: bytes | Mapping[str, Any],
    environ: Mapping[str, str] | None = None,
) -> tuple[bytes, str]:
    stdout, stderr = io.BytesIO(), io.StringIO()
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    code = main.run(
        argv,
        root=str(root),
        stdin=io.BytesIO(data),
        stdout=stdout,
        stderr=stderr,
        environ=dict(environ or {}),
    )
    assert code == 0
    assert "Traceback" not in stderr.getvalue()
    return stdout.getvalue(), stderr.getvalue()


def _length(text: str, unit: str) -> int:
    """`text` counted as a harness counts: UTF-8 bytes, UTF-16 units or characters."""
    if unit == "utf16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    if unit == "chars":
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def _counted(contract: Mapping[str, Any], out: bytes) -> int:
    """What the harness counts of `out`: the whole stdout, or the field it takes out."""
    unit = contract.get("cap_unit", "bytes")
    if contract.get("cap_counts") == "field":
        data = json.loads(out)
        text = data["hookSpecificOutput"]["additionalContext"]
        return _length(text, unit)
    return _length(out.decode("utf-8"), unit)


# A text that validates (under 10,000 characters) but grows when JSON-escaped, and text in
# a non-Latin script: 2,000 letters take 12,000 characters as `\\uXXXX` escapes.
ESCAPED = ('"quoted" and \\back\\slashed\n' * 400)[:9_943]
CYRILLIC = "Проверьте зависимости перед сборкой. " * 60
CAP_CASES = {"JSON escaping": ESCAPED, "non-Latin text": CYRILLIC}


def _first_context_event(contract: Mapping[str, Any]) -> str:
    events: list[str] = contract["context_events"]
    return "SessionStart" if "SessionStart" in events else events[0]


@pytest.mark.parametrize("text", CAP_CASES.values(), ids=CAP_CASES.keys())
@pytest.mark.parametrize("contract_id", sorted(CONTRACTS))
def test_the_answer_stays_within_the_cap_as_each_harness_counts_it(
    tmp_path: Path, contract_id: str, text: str
) -> None:
    contract = CONTRACTS[contract_id]
    root = _root(tmp_path, {"short-note": "A short note.", "long-note": text})
    event = _first_context_event(contract)
    argv = ["--contract", contract_id, event, "short-note", "long-note"]
    payload = {"cwd": str(tmp_path), "session_id": "s", "sessionId": "s", "type": "x"}
    out, _ = _call(root, argv, payload, {"HOOKMSG_HOOK_STATE_DIR": str(tmp_path / "s")})
    assert out, "nothing delivered"
    assert _counted(contract, out) <= CAP
    if contract["envelope"] != "text":
        answer = json.loads(out)  # an answer cut by the harness would no longer parse
        assert isinstance(answer, dict)
    decoded = out.decode("utf-8")
    assert "A short note." in decoded
    shown = text.strip()  # a message file's text is delivered stripped
    whole = json.dumps(shown)[1:-1] in decoded or shown in decoded
    assert whole or "Left out to stay within 10000 characters: long-note" in decoded


def test_claude_code_stdout_is_at_most_10000_characters_whatever_the_text(tmp_path: Path) -> None:
    # Claude Code replaces a whole stdout over 10,000 characters by a preview: the JSON
    # answer is lost. Here the limit is asserted on the bytes, independent of the table.
    root = _root(tmp_path, {"long-note": ESCAPED, "short-note": "A short note."})
    argv = ["SessionStart", "long-note", "short-note"]
    out, _ = _call(root, argv, {"session_id": "s"}, {"HOOKMSG_HOOK_STATE_DIR": str(tmp_path)})
    assert len(out) <= CAP
    assert json.loads(out)["hookSpecificOutput"]["additionalContext"].startswith("A short note.")


def test_a_text_that_fits_the_answer_is_delivered_whole(tmp_path: Path) -> None:
    text = "x" * (CAP - 200)
    root = _root(tmp_path, {"note": text})
    out, _ = _call(root, ["SessionStart", "note"], {"session_id": "s"})
    assert json.loads(out)["hookSpecificOutput"]["additionalContext"] == text
    assert len(out) <= CAP


def test_the_rules_answer_sizes_are_the_dispatchers(tmp_path: Path) -> None:
    # D005 (build side) computes the answer's size without the dispatcher; both must agree.
    from hookmsg.catalogue.models import Contract
    from hookmsg.harnesses.rules.envelope import answer_size

    text = ESCAPED[:3_000] + CYRILLIC[:500] + "\U0001f600"
    for contract_id, contract in CONTRACTS.items():
        model = Contract(
            envelope=contract["envelope"],
            payload=contract["payload"],
            cap_counts=contract["cap_counts"],
            cap_unit=contract["cap_unit"],
        )
        spelled = contract["event_names"].get("SessionStart", "SessionStart")
        overhead, size = envelope.budget(contract, spelled)
        assert answer_size(model, spelled, text) == overhead + size(text), contract_id
        if contract["cap_counts"] != "field":
            written = envelope.context(contract["envelope"], spelled, text)
            assert overhead + size(text) == _length(written.decode("utf-8"), contract["cap_unit"])


# --------------------------------------------------------------------------- fail-open edges


def test_stop_says_nothing_when_the_payload_is_over_the_limit(tmp_path: Path) -> None:
    # Over 4 MiB the payload is not read, so `stop_hook_active` cannot be seen: answering
    # could continue a turn that a Stop hook already continued, again and again.
    root = _root(tmp_path, {"stop-note": "Before you stop, run the checks."})
    payload = {"stop_hook_active": True, "padding": "x" * (jsonio.MAX_PAYLOAD + 10)}
    out, err = _call(root, ["Stop", "stop-note"], payload)
    assert out == b""
    assert "unusable payload" in err
    readable, _ = _call(root, ["Stop", "stop-note"], {"stop_hook_active": False})
    assert b"Before you stop" in readable


@pytest.mark.parametrize("value", ["\u00b2", "\u0663", "9" * 5_000, "-1", "1e4"])
def test_a_hookmsg_cap_that_is_not_a_number_is_ignored(tmp_path: Path, value: str) -> None:
    root = _root(tmp_path, {"note": "The note."})
    out, err = _call(root, ["SessionStart", "note"], {"session_id": "s"}, {"HOOKMSG_CAP": value})
    assert json.loads(out)["hookSpecificOutput"]["additionalContext"] == "The note."
    assert "HOOKMSG_CAP" in err and "ignored" in err


# --------------------------------------------------------------------------- hostile payloads

_HOSTILE_STRINGS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            "\x00",
            "../../etc/passwd",
            "package.json",
            "pyproject.toml",
            "go.mod",
            "/",
            "\ud800",
            "*** Begin Patch\n*** Update File: package.json\n@@\n-a\n+b\n*** End Patch",
            "*** Begin Patch\n" + "*** Update File: package.json\n@@\n-a\n+b\n" * 200,
            '"\\"' * 2_000,
            "a." * 5_000,
            "x" * 20_000,
            "[\n" * 3_000,
        ]
    ),
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _HOSTILE_STRINGS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(_HOSTILE_STRINGS, children, max_size=4)
    ),
    max_leaves=12,
)
_KEYS = [
    "tool_name", "toolName", "tool_input", "toolArgs", "input", "tool_response", "toolResult",
    "cwd", "session_id", "sessionId", "transcript_path", "stop_hook_active", "source", "type",
    "file_path", "path", "content", "old_string", "new_string", "replace_all", "command",
    "edits", "questions", "contextUsage", "workspace_roots",
]  # fmt: skip


def _payloads(contract: Mapping[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    tools = sorted({*contract["tools"], *contract["patch_tools"], "Write", "Edit", "Bash"})
    tool_input = st.dictionaries(st.sampled_from(_KEYS), _JSON, max_size=6)
    return st.fixed_dictionaries(
        {},
        optional={
            "tool_name": st.sampled_from(tools),
            "toolName": st.sampled_from(tools),
            "tool_input": tool_input,
            "toolArgs": tool_input.map(json.dumps) | tool_input,
            "input": tool_input,
            "session_id": _HOSTILE_STRINGS,
            "sessionId": _HOSTILE_STRINGS,
            "transcript_path": _HOSTILE_STRINGS,
            "stop_hook_active": _JSON,
            "contextUsage": _JSON,
            "extra": _JSON,
        },
    )


def _all_messages() -> list[str]:
    return sorted(TABLE["messages"])


@pytest.mark.slow
@pytest.mark.parametrize("contract_id", sorted(CONTRACTS))
def test_hostile_payloads_fail_open_within_bounds(tmp_path: Path, contract_id: str) -> None:
    contract = CONTRACTS[contract_id]
    project = git_project(tmp_path / "project", {"package.json": '{"dependencies": {}}\n'})
    texts = {n: f"Text of {n}." for n, m in TABLE["messages"].items() if m["kind"] == "context"}
    root = _root(tmp_path, texts)
    state_dir = tmp_path / "state"

    @settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(payload=_payloads(contract), event=st.sampled_from(TABLE["events"]))
    def check(payload: dict[str, Any], event: str) -> None:
        payload.setdefault("cwd", str(project))
        raw = json.dumps(payload).encode("utf-8", "surrogatepass")
        argv = ["--contract", contract_id, event, *_all_messages()]
        start = time.process_time()
        out, _ = _call(root, argv, raw, {"HOOKMSG_HOOK_STATE_DIR": str(state_dir)})
        spent.append(time.process_time() - start)
        if out and contract["envelope"] != "text":
            assert isinstance(json.loads(out), dict)  # one JSON object, nothing else
            assert out.count(b"\n") == 1
        if out:
            assert _counted(contract, out) <= CAP

    previous = os.environ.get("HOOKMSG_HOOK_STATE_DIR")
    os.environ["HOOKMSG_HOOK_STATE_DIR"] = str(state_dir)  # the compaction reminder's state
    spent: list[float] = []
    resident = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    try:
        check()
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - resident) * 1024
        # The cost of every call is bounded: peak resident size (the whole run's, so one
        # runaway call shows) and CPU time (a hang guard far above any call's real cost).
        assert grown < MEMORY_BOUND, f"peak resident size grew by {grown / 1e6:.0f} MB"
        assert max(spent) < 5.0, f"one call took {max(spent):.1f} s of CPU"
    finally:
        if previous is None:
            del os.environ["HOOKMSG_HOOK_STATE_DIR"]
        else:
            os.environ["HOOKMSG_HOOK_STATE_DIR"] = previous


# --------------------------------------------------------------------------- the real client

EMOJI_NOTE = "\U0001f600" * 5_000  # 5,000 characters, 10,000 UTF-16 units: over Claude Code's cap


@pytest.mark.e2e
def test_claude_code_receives_the_answer_whole_never_its_over_cap_preview(
    built: Path, tmp_path: Path
) -> None:
    # Claude Code replaces an over-cap hook output by "Output too large ... saved to": the
    # model then gets no text at all. The dispatcher must leave the long message out and
    # deliver the rest, whole.
    from tests.e2e.clients import RUNNERS
    from tests.e2e.clients import git_project as client_project
    from tests.e2e.conftest import CLIENTS, required
    from tests.e2e.standin import Finish, StandIn

    executables = CLIENTS.installed_executables()
    if "claude-code-engine" not in executables:
        if required():
            pytest.fail("HOOKMSG_E2E=require: Claude Code is not installed")
        pytest.skip("Claude Code is not installed: run `python3 scripts/e2e_clients.py`")
    root = tmp_path / "root"
    shutil.copytree(built, root)
    data = json.loads((root / "data" / "dispatch-table.json").read_text("utf-8"))
    for name, text in {"short-note": "A short note.", "emoji-note": EMOJI_NOTE}.items():
        (root / "messages" / f"{name}.md").write_text(text, encoding="utf-8")
        data["messages"][name] = {
            "advisory": None,
            "condition": None,
            "file": f"messages/{name}.md",
            "kind": "context",
            "placeholders": [],
        }
    (root / "data" / "dispatch-table.json").write_text(json.dumps(data), encoding="utf-8")
    runner = RUNNERS["claude-code-engine"](executables["claude-code-engine"], tmp_path / "home")
    project = client_project(tmp_path / "project")
    argv = [sys.executable, "-I", "-S", "-c", BOOT, str(root / "hooks" / "dispatch.py")]
    runner.register(
        project, [("SessionStart", None, [*argv, "SessionStart", "short-note", "emoji-note"])]
    )
    with StandIn([Finish("Done.")], cap=5) as standin:
        state = {"HOOKMSG_HOOK_STATE_DIR": str(tmp_path / "s")}
        session = runner.session(project, standin, "Say done.", env=state)
    assert session.returncode == 0, session.describe()
    texts = [t for r in standin.main_requests() for t in runner.hook_context(r.body)]
    joined = "\n".join(texts)
    assert "A short note." in joined, joined[:2000]
    assert "Left out to stay within 10000 characters: emoji-note" in joined
    assert "Output too large" not in joined
