"""The dispatcher's figures: each case as a harness runs it, against the bare interpreter."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.common import ENV, HOOK_PYTHON, HOOKMSG, REPO, count_instructions, row

HEADER = "# SPDX-License-Identifier: MIT"
WRITE_SET = (
    "pretooluse-write",
    "pretooluse-write-header-guard",
    "pretooluse-write-plan-guard",
    "pretooluse-dependency-guard",
    "pretooluse-eval-guard",
)
# The interpreter as the registrations start it, doing nothing: the dispatcher's floor.
FLOOR_FLAGS = ("-I", "-S", "-c", "pass")


def _write_payload(cwd: Path, path: str, content: str, session: str = "bench") -> bytes:
    return json.dumps(
        {
            "cwd": str(cwd),
            "hook_event_name": "PreToolUse",
            "session_id": session,
            "transcript_path": "",
            "tool_name": "Write",
            "tool_input": {"file_path": str(cwd / path), "content": content},
        }
    ).encode()


def install_root(tmp: Path) -> Path:
    """`hookmsg package` of this repository, unpacked: the dispatcher as users run it."""
    dist = tmp / "dist"
    done = subprocess.run(
        [*HOOKMSG, "package", "--output", str(dist)],
        cwd=REPO,
        env={**ENV, "SOURCE_DATE_EPOCH": "1700000000"},
        capture_output=True,
        check=False,
    )
    if done.returncode:
        sys.exit(f"hookmsg package failed:\n{done.stdout.decode()}{done.stderr.decode()}")
    root = tmp / "install"
    root.mkdir()
    with tarfile.open(next(dist.glob("*.tar.gz"))) as tar:
        tar.extractall(root, filter="data")
    return root


def registered_command(
    root: Path, harness: str, file: str, event: str, matcher: str | None
) -> list[str]:
    """The command line the harness's generated registration runs for `event` and
    `matcher`, tokens filled as `hookmsg install` fills them, split as the shell splits it."""
    import shlex

    data = json.loads((root / "generated" / harness / file).read_text(encoding="utf-8"))
    for group in data["hooks"][event]:
        if group.get("matcher") == matcher:
            line = str(group["hooks"][0]["command"])
            line = line.replace("${PYTHON_BIN}", HOOK_PYTHON).replace("${HARNESS_ROOT}", str(root))
            return shlex.split(line)
    sys.exit(f"{harness}/{file} registers no {event} {matcher}")


def rusage_run(
    command: Sequence[str], cwd: Path, stdin: bytes, env: dict[str, str]
) -> tuple[float, int]:
    """(CPU seconds, peak resident KiB) of one run of `command`.

    CPU time is the kernel's rusage of the process. The peak is GNU time's (`%M`) where
    /usr/bin/time exists: a child started from this process inherits its resident size
    until it executes, so its own rusage would report this process's peak (0 without it).
    """
    with tempfile.TemporaryFile() as source:
        source.write(stdin)
        source.seek(0)
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdin=source,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"{' '.join(command)} exited {os.waitstatus_to_exitcode(status)}")
    peak = 0
    if Path(GNU_TIME).is_file():
        with tempfile.NamedTemporaryFile("r") as report:
            subprocess.run(
                [GNU_TIME, "-f", "%M", "-o", report.name, *command],
                cwd=cwd,
                env=env,
                input=stdin,
                capture_output=True,
                check=False,
            )
            peak = int(report.read().split()[-1])
    return usage.ru_utime + usage.ru_stime, peak


GNU_TIME = "/usr/bin/time"


class Case:
    """One registered command and its payload; `first`: each run in a fresh state folder
    (the first call of a context), else after one run (the context holds its messages)."""

    def __init__(self, label: str, command: list[str], payload: bytes, target: float) -> None:
        self.label, self.command, self.payload, self.target = label, command, payload, target


def _env(state: Path) -> dict[str, str]:
    return {**ENV, "HOOKMSG_HOOK_STATE_DIR": str(state)}


def measure_case(case: Case, project: Path, tmp: Path, repeat: int, first: bool) -> list[bool]:
    floor = [HOOK_PYTHON, *FLOOR_FLAGS]
    steady = tmp / f"state-{abs(hash(case.label))}"
    runs = iter(range(10**6))

    def env() -> dict[str, str]:
        # A fresh folder per run: every run is a context's first call.
        return _env(tmp / f"fresh-{next(runs)}") if first else _env(steady)

    subprocess.run(
        case.command,
        cwd=project,
        env=_env(steady),
        input=case.payload,
        capture_output=True,
        check=False,
    )  # bytecode caches; the context's record
    suffix = "first call in a context" if first else "later call"
    results = []
    if shutil.which("valgrind"):
        times = max(1, min(3, repeat))
        values = [
            count_instructions(case.command, project, case.payload, env()) for _ in range(times)
        ]
        floors = [count_instructions(floor, project, b"", env()) for _ in range(times)]
        value, base = statistics.median(values), statistics.median(floors)
        results.append(
            row(f"{case.label} ({suffix}), instructions", value / 1e6, base / 1e6, case.target, "M")
        )
    cpu: tuple[list[float], list[float]] = ([], [])
    memory: tuple[list[int], list[int]] = ([], [])
    for _ in range(max(repeat * 3, 5)):
        for command, stdin, into in ((floor, b"", 0), (case.command, case.payload, 1)):
            seconds, peak = rusage_run(command, project, stdin, env())
            cpu[into].append(seconds)
            memory[into].append(peak)
    # Judged only where valgrind is missing: otherwise the instructions are the figure.
    cpu_ok = row(
        "  the same, CPU time",
        statistics.median(cpu[1]),
        statistics.median(cpu[0]),
        case.target,
        "ms",
        judged=not results,
    )
    results += [] if results else [cpu_ok]
    results.append(
        row(
            "  the same, peak memory (MiB)",
            statistics.median(memory[1]) / 1024,
            statistics.median(memory[0]) / 1024,
            1.5,
            "M",
        )
    )
    return results


def bench_dispatcher(tmp: Path, repeat: int) -> list[bool]:
    """The registered commands, exactly as the harness runs them, against the floor."""
    root = install_root(tmp)
    # A git project whose Python files carry a licence header, with no plan in force.
    project = tmp / "project"
    (project / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=False, capture_output=True)
    for name in ("models.py", "views.py"):
        (project / "src" / name).write_text(f"{HEADER}\n\nVALUE = 1\n", "utf-8")
    engine = ("claude-code-engine", "settings.json")
    write = registered_command(root, *engine, "PreToolUse", "Write")
    start = registered_command(root, *engine, "SessionStart", None)
    folded = registered_command(root, "codex", "hooks.json", "PreToolUse", "Edit|Write|apply_patch")
    silent = _write_payload(project, "src/app.py", f"{HEADER}\n\nprint('hello')\n")
    # A new Python file without the header: the write-header guard. Holding an evaluation
    # primitive too: the eval guard as well, which compiles its pattern (and imports re).
    one = _write_payload(project, "src/app.py", "print('hello')\n")
    firing = _write_payload(project, "src/app.py", "value = eval(input())\n")
    update = (
        "*** Begin Patch\n*** Update File: src/models.py\n@@\n-VALUE = 1\n+VALUE = 2\n"
        "*** End Patch\n"
    )
    patch = json.dumps(
        {
            "cwd": str(project),
            "hook_event_name": "PreToolUse",
            "session_id": "bench",
            "transcript_path": "",
            "tool_name": "apply_patch",
            "tool_input": {"command": update},
        }
    ).encode()
    spoke = [
        subprocess.run(
            write,
            input=payload,
            capture_output=True,
            env=_env(tmp / f"probe-{n}"),
            cwd=project,
            check=False,
        ).stdout.count(b"Full procedure:")
        for n, payload in enumerate((silent, one, firing))
    ]
    print(f"  note: guards that spoke: {spoke[0]}, {spoke[1]} and {spoke[2]} on the three Writes")
    print(f"  note: each command is the registered one: {shlex_join(write[:5])} ...")
    cases = (
        (Case("dispatcher PreToolUse Write, guards silent", write, silent, 1.5), (False, True)),
        (Case("dispatcher PreToolUse Write, one guard fires", write, one, 2.0), (False,)),
        (Case("dispatcher PreToolUse Write, two guards fire", write, firing, 2.0), (False,)),
        (Case("dispatcher SessionStart with the skill index", start, START_PAYLOAD, 1.5), (True,)),
        (Case("dispatcher Codex apply_patch update (folded)", folded, patch, 1.5), (False,)),
    )
    results = []
    for case, kinds in cases:
        for first in kinds:
            results += measure_case(case, project, tmp, repeat, first)
    results.append(session_figure(root, project, tmp))
    return results


def shlex_join(words: Sequence[str]) -> str:
    import shlex

    return " ".join(shlex.quote(word) for word in words)


START_PAYLOAD = json.dumps({"cwd": "/", "session_id": "bench", "source": "startup"}).encode()
SESSION_COMMANDS = ("pytest -q", "git status --short", "ls -la src", "ruff check src", "git diff")


def session_figure(root: Path, project: Path, tmp: Path) -> bool:
    """Characters of context a session of 100 Bash, 60 Edit and 20 Write calls (each with
    its PostToolUse) carries, through the packaged dispatcher as Claude Code registers it."""
    sys.path.insert(0, str(root / "hooks"))
    import io

    from hookmsg_dispatch.main import run  # the packaged dispatcher, in this process

    env = _env(tmp / "session-state")
    # The compaction condition finds its folder in this process's environment.
    os.environ["HOOKMSG_HOOK_STATE_DIR"] = env["HOOKMSG_HOOK_STATE_DIR"]
    total = 0

    def call(event: str, names: Sequence[str], **fields: object) -> None:
        nonlocal total
        payload = {
            "cwd": str(project),
            "hook_event_name": event,
            "session_id": "s-180",
            "transcript_path": "",
            **fields,
        }
        out = io.BytesIO()
        run(
            [event, *names],
            root=str(root),
            stdin=io.BytesIO(json.dumps(payload).encode()),
            stdout=out,
            stderr=io.StringIO(),
            environ=env,
        )
        if out.getvalue():
            total += len(json.loads(out.getvalue())["hookSpecificOutput"]["additionalContext"])

    edit_set = ["pretooluse-edit", "pretooluse-edit-header-guard", *WRITE_SET[2:]]
    bash_set = ["pretooluse-bash", "pretooluse-bash-plan-guard", "pretooluse-eval-guard"]
    post = ["posttooluse-proactive-compaction"]
    for index in range(100):
        command = SESSION_COMMANDS[index % len(SESSION_COMMANDS)]
        call("PreToolUse", bash_set, tool_name="Bash", tool_input={"command": command})
        call("PostToolUse", post, tool_name="Bash", tool_input={}, tool_response="ok")
        if index % 5 < 3:
            path = str(project / "src" / ("models.py" if index % 2 else "views.py"))
            edit = {"file_path": path, "old_string": "VALUE = ", "new_string": "VALUE: int = "}
            call("PreToolUse", edit_set, tool_name="Edit", tool_input=edit)
            call("PostToolUse", post, tool_name="Edit", tool_input={}, tool_response="ok")
        if index % 5 == 4:
            path = str(project / "src" / f"new_{index}.py")
            content = f"{HEADER}\n\n\ndef helper() -> int:\n    return {index}\n"
            write = {"file_path": path, "content": content}
            call("PreToolUse", WRITE_SET, tool_name="Write", tool_input=write)
            call("PostToolUse", post, tool_name="Write", tool_input={}, tool_response="ok")
    ok = total <= 10_000
    print(
        f"  {'180-call session (100 Bash, 60 Edit, 20 Write)':<44} {total:9,} characters of "
        f"context  (target <= 10,000)  {'ok' if ok else 'MISSED'}"
    )
    return ok
