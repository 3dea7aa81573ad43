#!/usr/bin/env python3
"""Benchmark hookmsg where its users feel it, against floors measured in the same run.

Each figure is the median wall time of repeated fresh processes, each run in turn with
its floor (so a busy neighbour slows both alike):

- a cached `hookmsg check` on this repository, against cog's `--check` of the same files
  (cogapp, from the `test` extra) and against `python -c "import markdown_it, jinja2,
  pydantic"`;
- a no-op `doit` on this repository, against a no-op `doit` of a one-task dodo.py; and
  the same in a fresh copy after its first `doit`, as after a clone (see `fresh_clone`);
- `doit` after a one-message edit, against one `hookmsg build` of the same edit (each in
  its own copy of this repository, the edit alternating so that every run has work);
- `hookmsg validate` of synthetic corpora of 200 and 2,000 valid messages (about 4 KB
  each), against a block-only markdown-it parse of the same files; the per-message cost
  is the difference between the two corpus sizes divided by 1,800;
- the hook dispatcher exactly as a harness runs it: the command line of the generated
  registration (the fail-open bootstrap, `python3 -I -S -c BOOT <root>/hooks/dispatch.py
  ...`, tokens filled as `hookmsg install` fills them) from an install root unpacked from
  `hookmsg package`, the payload on standard input and a git project as the working folder,
  against `python3 -I -S -c pass`: in instructions (callgrind, when valgrind is installed),
  CPU time and peak memory (the kernel's rusage), each run alternating with the floor. The
  cases: a PreToolUse Write with every guard silent (a context's first call, and a later
  one, once its messages are in the context), the same with one and with two guards firing,
  SessionStart with the skill index, and Codex's folded matcher on a patch that updates a
  file, each stating its target and whether it is met (ok or MISSED); then the
  characters of context a session of 100 Bash, 60 Edit and 20 Write calls carries.

Hostile inputs below `max-file-bytes`, each validated once, as absolute times: a
240 KB Bindings line of unclosed `<!--` (with an ASCII arrow, so the arrow rule scans
it), a 240 KB licence-like first line of keywords that never closes, a 240 KB Bindings
line of unclosed backtick runs, 4,000 dispatch entries with unknown events (each a
finding whose position is looked up) and a 240 KB catalogue string line of `[a` and
spaces. `tests/test_cli_validate_linear.py` proves each linear.

With `--instructions` (valgrind installed), the two doit figures are also given as
instruction counts (callgrind, median of three): on a shared machine, where other work
moves wall times by tens of percent, those do not move with the neighbours.

Last, the precision and recall of every guard on its shipped cases and, when present, on
the held-out corpus under `tests/guard_holdout/` (scripts/guard_precision.py).

Usage: python scripts/bench.py [--repeat N] [--sizes 200,2000] [--instructions] [--dispatcher]

`--dispatcher`: the dispatcher figures alone.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.build import bench_check, bench_doit, bench_validate, hostile_inputs
from benchmarks.common import ENV, REPO
from benchmarks.dispatcher import bench_dispatcher


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=7, help="processes per figure (median)")
    parser.add_argument("--sizes", default="200,2000", help="two corpus sizes, small,large")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count check, doit and validate in instructions (valgrind: slow, noise-free)",
    )
    parser.add_argument("--dispatcher", action="store_true", help="only the dispatcher figures")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    small, large = (int(n) for n in args.sizes.split(","))
    repeat = args.repeat
    results = []
    with tempfile.TemporaryDirectory(prefix="hookmsg-bench-") as scratch:
        tmp = Path(scratch)
        version = sys.version.split()[0]
        print(f"hookmsg benchmark: median of {repeat} fresh processes each, Python {version}")

        results += bench_dispatcher(tmp, repeat)
        if args.dispatcher:
            print("all targets met" if all(results) else "some targets missed")
            return 0
        results += bench_check(tmp, repeat, count_instructions=args.instructions)
        results += bench_doit(tmp, repeat, count_instructions=args.instructions)
        hostile_inputs(tmp)
        results += bench_validate(tmp, repeat, small, large, count_instructions=args.instructions)
    # Precision and recall of every guard, per corpus, in a process of its own: this one
    # has imported the dispatcher from an unpacked install root, which the cases must not use.
    script = Path(__file__).resolve().parent / "guard_precision.py"
    measured = subprocess.run([sys.executable, str(script)], cwd=REPO, env=ENV, check=False)
    results.append(measured.returncode == 0)
    print("all targets met" if all(results) else "some targets missed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
