#!/usr/bin/env python3
"""Benchmark hookmsg where its users feel it, against floors measured in the same run.

Each figure is the median wall time of repeated fresh processes, each run in turn with
its floor (so a busy neighbour slows both alike):

- `hookmsg check` on this repository, against `python -c "import markdown_it, jinja2, pydantic"`;
- a no-op `doit` on this repository, against a no-op `doit` of a one-task dodo.py;
- `doit` after a one-message edit, against one `hookmsg build` of the same edit (each in
  its own copy of this repository, the edit alternating so that every run has work);
- `hookmsg validate` of synthetic corpora of 200 and 2,000 valid messages (about 4 KB
  each), against a block-only markdown-it parse of the same files; the per-message cost
  is the difference between the two corpus sizes divided by 1,800;
- the hook dispatcher, run from an install root unpacked from `hookmsg package`, against
  `python -c pass`: a PreToolUse Write with its five messages and every guard silent, the
  same with two guards firing, and SessionStart with the skill index.

Hostile inputs below `max-file-bytes` (#16), each validated once, as absolute times: a
240 KB Bindings line of unclosed `<!--` (with an ASCII arrow, so the arrow rule scans
it), a 240 KB licence-like first line of keywords that never closes, a 240 KB Bindings
line of unclosed backtick runs, 4,000 dispatch entries with unknown events (each a
finding whose position is looked up) and a 240 KB catalogue string line of `[a` and
spaces. `tests/test_linear.py` proves each linear.

With `--instructions` (valgrind installed), the two doit figures are also given as
instruction counts (callgrind, median of three): on a shared machine, where other work
moves wall times by tens of percent, those do not move with the neighbours.

Last, the precision and recall of every guard on its shipped cases and, when present, on
the held-out corpus under `tests/guard_holdout/` (scripts/guard_precision.py).

Usage: python scripts/bench.py [--repeat N] [--sizes 200,2000] [--instructions]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
# The dispatcher runs on the user's own Python, not inside this project's virtualenv (whose
# site-packages hooks would slow both sides of the ratio alike and hide the difference).
HOOK_PYTHON = getattr(sys, "_base_executable", "") or sys.executable
FLOOR_IMPORTS = "import markdown_it, jinja2, pydantic"
HOOKMSG = [PYTHON, "-c", "import sys; from hookmsg.cli import run; sys.exit(run(sys.argv[1:]))"]
DOIT = [PYTHON, "-m", "doit"]
BLOCK_PARSE = """
import sys
from pathlib import Path
from markdown_it import MarkdownIt
md = MarkdownIt("commonmark")
md.core.ruler.disable(["inline"])
for path in sorted(Path(sys.argv[1]).glob("*.md")):
    md.parse(path.read_text(encoding="utf-8"))
"""
ONE_TASK_DODO = """
DOIT_CONFIG = {"backend": "sqlite3", "dep_file": ".doit.db", "verbosity": 0}

def task_copy():
    return {"actions": ["cp input.txt output.txt"], "file_dep": ["input.txt"],
            "targets": ["output.txt"]}
"""
# Bytecode caches stay on, as on a maintainer's machine: both sides of each ratio use them.
ENV = {**os.environ, "NO_COLOR": "1"}
ENV.pop("PYTHONDONTWRITEBYTECODE", None)


def median_seconds(
    command: Sequence[str],
    cwd: Path,
    repeat: int,
    ok: Sequence[int] = (0,),
    stdin: bytes | None = None,
) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(
            command, cwd=cwd, env=ENV, input=stdin, capture_output=True, check=False
        )
        times.append(time.perf_counter() - start)
        if done.returncode not in ok:
            output = done.stdout.decode() + done.stderr.decode()
            sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{output}")
    return statistics.median(times)


def alternating(
    first: tuple[Sequence[str], Path], second: tuple[Sequence[str], Path], repeat: int
) -> tuple[float, float]:
    """Median times of two commands run in turn, so a busy neighbour slows both alike."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for (command, cwd), found in zip((first, second), times, strict=True):
            found.append(median_seconds(command, cwd, 1))
    return statistics.median(times[0]), statistics.median(times[1])


def _message(index: int, partner: int) -> str:
    paragraph = (
        f"Step {index}: read the file before changing it, keep the change small, and run the "
        "tests that cover it. Say what was verified and what was not, with the command used. "
    )
    body = "\n\n".join(paragraph * 2 for _ in range(4))
    sections = "\n\n".join(f"## Part {n}\n\n{body}\n\n- check one\n- check two" for n in range(3))
    return (
        "<!-- SPDX-License-Identifier: MIT -->\n\n"
        f"Synthetic message {index} for the benchmark, shaped like a real one.\n\n"
        f"{sections}\n\n## Bindings\n\n"
        f"- **Drives →** careful work on step {index}.\n"
        "- **Established by ↑** `catalog/hooks.toml`, the PostToolUse entry.\n"
        f"- **Cross-bound with ↔** `messages/m{partner:05d}.md` (its pair)"
        + ("; `generated/skill-index.md` (the index)" if index == 0 else "")
        + ".\n"
    )


def make_corpus(root: Path, count: int) -> Path:
    """A project with `count` valid, wired, reciprocally bound messages."""
    project = root / f"corpus-{count}"
    (project / "messages").mkdir(parents=True)
    shutil.copytree(REPO / "catalog", project / "catalog")
    shutil.copy2(REPO / "pyproject.toml", project / "pyproject.toml")
    names = []
    for index in range(count):
        partner = index ^ 1 if index ^ 1 < count else index
        names.append(f"m{index:05d}")
        (project / "messages" / f"m{index:05d}.md").write_text(_message(index, partner), "utf-8")
    registry = (
        "[timeouts]\nPostToolUse = 10\nSessionStart = 30\n\n"
        '[[dispatch]]\nevent = "SessionStart"\nmessages = ["skill-index"]\n\n'
        '[[dispatch]]\nevent = "PostToolUse"\nmatcher = "*"\nmessages = [\n'
        + "".join(f'  "{n}",\n' for n in names)
        + "]\n"
    )
    (project / "catalog" / "hooks.toml").write_text(registry, "utf-8")
    # The synthetic messages are context messages: no guard data.
    (project / "catalog" / "guards.toml").write_text("# No guards here.\n", "utf-8")
    skills = (REPO / "catalog" / "skills.toml").read_text("utf-8")
    head, rest = skills.split("[cross-bound]\n", 1)
    rest = rest.split("\n", 1)[1]  # the repository's own cross-binding
    skills = f'{head}[cross-bound]\nm00000 = "the first synthetic message"\n{rest}'
    (project / "catalog" / "skills.toml").write_text(skills, "utf-8")
    return project


def _copy_for_doit(target: Path) -> Path:
    target.mkdir()
    for name in ("pyproject.toml", "messages", "catalog", "generated", "dodo.py", "scripts"):
        source = REPO / name
        if source.is_dir():
            ignore = shutil.ignore_patterns("*.egg-info")
            shutil.copytree(source, target / name, ignore=ignore)
        else:
            shutil.copy2(source, target / name)
    return target


def _edit_once(root: Path, turn: int) -> None:
    path = root / "messages/stop.md"
    text = path.read_text(encoding="utf-8")
    marker = "\nBenchmark edit "
    if marker in text:
        text = text[: text.index(marker)] + text[text.index("\n\n## Bindings") :]
    text = text.replace("\n\n## Bindings", f"{marker}{turn}.\n\n## Bindings", 1)
    before = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 10**9, before + 10**9))  # doit trusts an unchanged mtime


def instructions(command: Sequence[str], cwd: Path, repeat: int = 3) -> float:
    """Median instruction count of `command` under callgrind (children not followed)."""
    counts = []
    for _ in range(repeat):
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
            cwd=cwd,
            env=ENV,
            capture_output=True,
            check=False,
        )
        found = [
            line.split()[-1].replace(",", "")
            for line in done.stderr.decode(errors="replace").splitlines()
            if "Collected :" in line
        ]
        if done.returncode or not found:
            sys.exit(f"valgrind {' '.join(command)} failed:\n{done.stderr.decode()[-2000:]}")
        counts.append(float(found[-1]))
    return statistics.median(counts)


def edit_then_instructions(command: Sequence[str], root: Path, repeat: int = 3) -> float:
    counts = []
    for turn in range(repeat):
        _edit_once(root, 1000 + turn)
        counts.append(instructions(command, root, 1))
    return statistics.median(counts)


def edit_then(command: Sequence[str], root: Path, repeat: int) -> float:
    """Median time of `command` right after a one-message edit, in `root`."""
    times = []
    for turn in range(repeat):
        _edit_once(root, turn)
        times.append(median_seconds(command, root, 1))
    return statistics.median(times)


def hostile_inputs(tmp: Path) -> None:
    """Time `hookmsg validate` on each hostile input (no floor: linear time is the point)."""
    stop = (REPO / "messages/stop.md").read_text(encoding="utf-8")
    size = 240_000
    runs, length = [], 1
    while sum(len(run) for run in runs) < size:
        runs.append("`" * length + "a")
        length += 1
    files = {
        "240 KB Bindings line of unclosed `<!--`": stop.replace(
            "- **Drives →** ", "- **Drives →** " + "<!--" * (size // 4) + " -> ", 1
        ),
        "240 KB licence-like first line, keywords": "<!-- "
        + "licence " * (size // 8)
        + "\n"
        + stop.split("\n", 1)[1],
        "240 KB Bindings line of backtick runs": stop.replace(
            "- **Drives →** ", "- **Drives →** " + "".join(runs) + " -> ", 1
        ),
    }
    for label, text in files.items():
        path = tmp / "hostile.md"
        path.write_text(text, encoding="utf-8")
        seconds = median_seconds([*HOOKMSG, "validate", str(path)], REPO, 1, ok=(0, 1))
        print(f"  hostile: {label:<40} {seconds:7.3f} s")
    project = _copy_for_doit(tmp / "hostile-catalogue")
    hooks = project / "catalog/hooks.toml"
    original = hooks.read_text(encoding="utf-8")
    entries = "".join(
        f'\n[[dispatch]]\nevent = "Unknown{i}"\nmessages = ["stop"]\n' for i in range(4000)
    )
    hooks.write_text(original + entries, encoding="utf-8")
    seconds = median_seconds([*HOOKMSG, "validate"], project, 1, ok=(1,))
    print(f"  hostile: {'4,000 dispatch entries, unknown events':<40} {seconds:7.3f} s")
    spaces = (
        f'\n[[dispatch]]\nevent = "Stop"\nmessages = ["stop"]\nnote = """\n[a{" " * size}\n"""\n'
    )
    hooks.write_text(original + spaces, encoding="utf-8")
    seconds = median_seconds([*HOOKMSG, "validate"], project, 1, ok=(1,))
    print(f"  hostile: {'240 KB TOML string line of `[a`, spaces':<40} {seconds:7.3f} s")


HEADER = "# SPDX-License-Identifier: MIT"
WRITE_SET = (
    "pretooluse-write",
    "pretooluse-write-header-guard",
    "pretooluse-write-plan-guard",
    "pretooluse-dependency-guard",
    "pretooluse-eval-guard",
)


def _write_payload(cwd: Path, path: str, content: str) -> bytes:
    return json.dumps(
        {
            "cwd": str(cwd),
            "hook_event_name": "PreToolUse",
            "session_id": "bench",
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


def bench_dispatcher(tmp: Path, repeat: int) -> list[bool]:
    root = install_root(tmp)
    # A git project whose Python files carry a licence header, with no plan in force.
    project = tmp / "project"
    (project / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=False, capture_output=True)
    for name in ("models.py", "views.py"):
        (project / "src" / name).write_text(f"{HEADER}\n\nVALUE = 1\n", "utf-8")
    ENV["HOOKMSG_HOOK_STATE_DIR"] = str(tmp / "state")
    script = str(root / "hooks" / "dispatch.py")
    package = root / "hooks" / "hookmsg_dispatch"
    has_guards = (package / "guards.py").is_file() or (package / "guards").is_dir()
    table = json.loads((root / "data" / "dispatch-table.json").read_text("utf-8"))
    detectors = sum(1 for name in WRITE_SET if table["messages"][name]["condition"])
    if not has_guards or detectors < 4:
        print(
            f"  note: guards module {'present' if has_guards else 'absent'}, "
            f"{detectors} of the 4 Write guards have a detector; guards not evaluated are "
            "silent, so the guard figures below measure less work than the real thing"
        )
    times = max(repeat * 3, 5)
    floor_command = [HOOK_PYTHON, "-c", "pass"]
    silent = _write_payload(project, "src/app.py", f"{HEADER}\n\nprint('hello')\n")
    # A new Python file without the header, holding an evaluation primitive: the write-header
    # and eval guards.
    firing = _write_payload(project, "src/app.py", "value = eval(input())\n")
    spoke = []
    for payload in (silent, firing):
        done = subprocess.run(
            [HOOK_PYTHON, script, "PreToolUse", *WRITE_SET],
            input=payload,
            capture_output=True,
            env=ENV,
            cwd=project,
            check=False,
        )
        spoke.append(done.stdout.count(b"Full procedure:"))
    print(f"  note: guards that spoke: {spoke[0]} on the silent payload, {spoke[1]} on the other")
    cases = (
        ("dispatcher PreToolUse Write, guards silent", ["PreToolUse", *WRITE_SET], silent, 1.5),
        ("dispatcher PreToolUse Write, two guards fire", ["PreToolUse", *WRITE_SET], firing, 1.8),
        ("dispatcher SessionStart with the skill index", START, _START_PAYLOAD, 1.5),
    )
    results = []
    for label, argv, payload, target in cases:
        command = [HOOK_PYTHON, script, *argv]
        median_seconds(command, project, 1, stdin=payload)  # writes the bytecode caches
        # Floor and dispatcher alternate, so a busy neighbour slows both alike.
        floors, values = [], []
        for _ in range(times):
            floors.append(median_seconds(floor_command, project, 1))
            values.append(median_seconds(command, project, 1, stdin=payload))
        floor, value = statistics.median(floors), statistics.median(values)
        results.append(row(label, value, floor, target, unit="ms"))
    return results


START = ["SessionStart", "sessionstart", "skill-index"]
_START_PAYLOAD = json.dumps({"cwd": "/", "session_id": "bench", "source": "startup"}).encode()


def row(label: str, value: float, floor: float, target: float, unit: str = "s") -> bool:
    ratio = value / floor
    verdict = "ok" if ratio <= target else "OVER"
    shown = "none" if target == float("inf") else str(target)
    scale = 1000 if unit == "ms" else 1  # "s" and "M" (millions) are shown as they are
    print(
        f"  {label:<44} {value * scale:9.3f} {unit}  vs {floor * scale:9.3f} {unit}"
        f"  ratio {ratio:5.2f}  (target <= {shown})  {verdict}"
    )
    return ratio <= target


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=7, help="processes per figure (median)")
    parser.add_argument("--sizes", default="200,2000", help="two corpus sizes, small,large")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count the doit figures' instructions under valgrind (slow, noise-free)",
    )
    args = parser.parse_args(argv)
    small, large = (int(n) for n in args.sizes.split(","))
    repeat = args.repeat
    results = []
    with tempfile.TemporaryDirectory(prefix="hookmsg-bench-") as scratch:
        tmp = Path(scratch)
        version = sys.version.split()[0]
        print(f"hookmsg benchmark: median of {repeat} fresh processes each, Python {version}")

        results += bench_dispatcher(tmp, repeat)

        ENV["HOOKMSG_CACHE_DIR"] = str(tmp / "cache")
        median_seconds([*HOOKMSG, "check"], REPO, 1)  # a full check that records the cache
        floor_imports = ([PYTHON, "-c", FLOOR_IMPORTS], REPO)
        floor, check = alternating(floor_imports, ([*HOOKMSG, "check"], REPO), repeat)
        results.append(row("hookmsg check (this repository)", check, floor, 1.3))
        ENV["HOOKMSG_NO_CACHE"] = "1"
        cold = median_seconds([*HOOKMSG, "check"], REPO, repeat)
        row("  the same without the cache (for reference)", cold, floor, float("inf"))
        del ENV["HOOKMSG_NO_CACHE"]

        one = tmp / "one-task"
        one.mkdir()
        (one / "dodo.py").write_text(ONE_TASK_DODO, "utf-8")
        (one / "input.txt").write_text("x\n", "utf-8")
        median_seconds(DOIT, one, 1)
        median_seconds(DOIT, REPO, 1)
        doit_floor, doit_noop = alternating((DOIT, one), (DOIT, REPO), repeat)
        results.append(row("no-op doit (this repository)", doit_noop, doit_floor, 1.15))

        with_doit = _copy_for_doit(tmp / "edit-doit")
        with_build = _copy_for_doit(tmp / "edit-build")
        median_seconds(DOIT, with_doit, 1)  # doit's state, as after a first run
        doit_edit = edit_then(DOIT, with_doit, repeat)
        build_edit = edit_then([*HOOKMSG, "build"], with_build, repeat)
        results.append(row("doit after a one-message edit", doit_edit, build_edit, 1.3))
        if args.instructions:
            noop_i = instructions(DOIT, REPO)
            floor_i = instructions(DOIT, one)
            row("  no-op doit, instructions (millions)", noop_i / 1e6, floor_i / 1e6, 1.15, "M")
            edit_i = edit_then_instructions(DOIT, with_doit)
            build_i = edit_then_instructions([*HOOKMSG, "build"], with_build)
            row(
                "  doit after an edit, instructions (millions)",
                edit_i / 1e6,
                build_i / 1e6,
                1.3,
                "M",
            )

        hostile_inputs(tmp)

        corpora = {n: make_corpus(tmp, n) for n in (small, large)}
        validate: dict[int, float] = {}
        parse: dict[int, float] = {}
        for n, p in corpora.items():  # validate is never cached
            parse[n], validate[n] = alternating(
                ([PYTHON, "-c", BLOCK_PARSE, str(p / "messages")], p),
                ([*HOOKMSG, "validate"], p),
                max(3, repeat // 2),
            )
        span = large - small
        per_validate = (validate[large] - validate[small]) / span
        per_parse = (parse[large] - parse[small]) / span
        sizes = f"{small} messages: {{:.3f}} s; {large}: {{:.3f}} s"
        print("  validate " + sizes.format(validate[small], validate[large]))
        print(
            f"  block parse {small} messages: {parse[small]:.3f} s; {large}: {parse[large]:.3f} s"
        )
        results.append(row("validation per message", per_validate, per_parse, 1.5, unit="ms"))
        results.append(
            row(f"validate {large} vs {small} messages", validate[large], validate[small], 11)
        )
    import guard_precision  # this folder: precision and recall of every guard, per corpus

    results.append(guard_precision.measure([REPO / name for name in guard_precision.CORPORA]))
    print("all targets met" if all(results) else "some targets missed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
