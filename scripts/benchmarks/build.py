"""The build side's figures: check, no-op and edited doit, validate per message, hostile inputs."""

from __future__ import annotations

import importlib.util
import os
import shutil
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.common import (
    DOIT,
    ENV,
    FLOOR_IMPORTS,
    HOOKMSG,
    PYTHON,
    REPO,
    alternating,
    instructions,
    median_seconds,
    row,
)

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
    # The synthetic messages are context messages: no guards.
    shutil.rmtree(project / "catalog" / "guards", ignore_errors=True)
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


def fresh_clone(target: Path) -> Path:
    """A fresh copy of this repository after its first `doit`, as a newcomer has a clone.

    Every file is new, as in a clone, so the first `doit` records files changed less than
    3 s before ("racy", believed only after a hash); the files are then left to settle,
    and the first no-op run after that (which proves them once) is not measured.
    """
    _copy_for_doit(target)
    median_seconds(DOIT, target, 1)
    time.sleep(3.2)
    median_seconds(DOIT, target, 1)
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


def _cog_check() -> list[str] | None:
    """cog's own check of the files `hookmsg check` reads (None when cogapp is missing).

    The files hold no cog markers, so this is what cog costs to answer "unchanged" for
    them: start, read each file, find nothing to run. It comes with the `test` extra.
    """
    if importlib.util.find_spec("cogapp") is None:
        return None
    files = [
        path.relative_to(REPO).as_posix()
        for folder in ("messages", "catalog", "generated")
        for path in sorted((REPO / folder).rglob("*"))
        if path.is_file()
    ]
    return [PYTHON, "-m", "cogapp", "--check", "pyproject.toml", *files]


def bench_check(tmp: Path, repeat: int, *, count_instructions: bool) -> list[bool]:
    """A cached `hookmsg check` against cog's check of the same files; the uncached one too."""
    ENV["HOOKMSG_CACHE_DIR"] = str(tmp / "cache")
    check = [*HOOKMSG, "check"]
    median_seconds(check, REPO, 1)  # a full check that records the cache
    time.sleep(3.2)  # the files settle, as in a working tree between commits
    median_seconds(check, REPO, 1)  # the cached check that records their stamps
    results = []
    cog = _cog_check()
    if cog is None:
        print('  cog is not installed (pip install -e ".[test]"): no cog floor')
    else:
        floor, cached = alternating((cog, REPO), (check, REPO), repeat)
        results.append(row("cached hookmsg check vs cog --check", cached, floor, 1.2))
        if count_instructions:
            cached_i, floor_i = instructions(check, REPO), instructions(cog, REPO)
            row("  the same, instructions (millions)", cached_i / 1e6, floor_i / 1e6, 1.2, "M")
    floor_imports = ([PYTHON, "-c", FLOOR_IMPORTS], REPO)
    floor, cached = alternating(floor_imports, (check, REPO), repeat)
    results.append(row("cached hookmsg check vs importing libraries", cached, floor, 1.3))
    ENV["HOOKMSG_NO_CACHE"] = "1"
    cold = median_seconds(check, REPO, repeat)
    row("  the same without the cache (for reference)", cold, floor, float("inf"))
    del ENV["HOOKMSG_NO_CACHE"]
    return results


def bench_doit(tmp: Path, repeat: int, *, count_instructions: bool) -> list[bool]:
    """No-op doit here and after a fresh clone against a one-task doit; doit after an edit."""
    one = tmp / "one-task"
    one.mkdir()
    (one / "dodo.py").write_text(ONE_TASK_DODO, "utf-8")
    (one / "input.txt").write_text("x\n", "utf-8")
    median_seconds(DOIT, one, 1)
    median_seconds(DOIT, REPO, 1)
    doit_floor, doit_noop = alternating((DOIT, one), (DOIT, REPO), repeat)
    results = [row("no-op doit (this repository)", doit_noop, doit_floor, 1.15)]
    clone = fresh_clone(tmp / "fresh-clone")
    clone_floor, clone_noop = alternating((DOIT, one), (DOIT, clone), repeat)
    results.append(row("no-op doit after a fresh clone", clone_noop, clone_floor, 1.15))

    with_doit = _copy_for_doit(tmp / "edit-doit")
    with_build = _copy_for_doit(tmp / "edit-build")
    median_seconds(DOIT, with_doit, 1)  # doit's state, as after a first run
    doit_edit = edit_then(DOIT, with_doit, repeat)
    build_edit = edit_then([*HOOKMSG, "build"], with_build, repeat)
    results.append(row("doit after a one-message edit", doit_edit, build_edit, 1.3))
    if count_instructions:
        _doit_instructions(one, clone, with_doit, with_build)
    return results


def _doit_instructions(one: Path, clone: Path, with_doit: Path, with_build: Path) -> None:
    """The doit figures again, in instructions: they do not move with the neighbours."""
    noop_i = instructions(DOIT, REPO)
    floor_i = instructions(DOIT, one)
    row("  no-op doit, instructions (millions)", noop_i / 1e6, floor_i / 1e6, 1.15, "M")
    clone_i = instructions(DOIT, clone)
    row("  after a fresh clone (millions)", clone_i / 1e6, floor_i / 1e6, 1.15, "M")
    edit_i = edit_then_instructions(DOIT, with_doit)
    build_i = edit_then_instructions([*HOOKMSG, "build"], with_build)
    row(
        "  doit after an edit, instructions (millions)",
        edit_i / 1e6,
        build_i / 1e6,
        1.3,
        "M",
    )


def bench_validate(
    tmp: Path, repeat: int, small: int, large: int, *, count_instructions: bool = False
) -> list[bool]:
    """`hookmsg validate` of two corpus sizes against a block-only parse: the cost per message."""
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
    print(f"  block parse {small} messages: {parse[small]:.3f} s; {large}: {parse[large]:.3f} s")
    if count_instructions:
        counts = {
            n: (
                instructions([*HOOKMSG, "validate"], p, 1),
                instructions([PYTHON, "-c", BLOCK_PARSE, str(p / "messages")], p, 1),
            )
            for n, p in corpora.items()
        }
        mine, floor = ((counts[large][i] - counts[small][i]) / span / 1e6 for i in (0, 1))
        row("  validation per message, instructions (M)", mine, floor, 1.5, "M")
    return [
        row("validation per message", per_validate, per_parse, 1.5, unit="ms"),
        row(f"validate {large} vs {small} messages", validate[large], validate[small], 11),
    ]
