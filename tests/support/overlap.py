"""Proof that processes a test runs "at once" really overlapped.

A concurrency test that starts two processes and only checks their results passes just
as well when the second starts after the first has finished: it then tests nothing.
`probed` runs `hookmsg` or `doit` inside a small wrapper that records, in a folder
outside the tree under test, the moment the command began and the moment it returned
(`time.monotonic`, the system-wide CLOCK_MONOTONIC on Linux, so spans from different
processes compare). With `parties` > 1 each wrapper first waits until that many
wrappers have arrived, so that the commands start together instead of a Python
start-up apart. The test then asserts that the spans it needed did overlap.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

# argv: RECORD PARTIES PROGRAM ARGS...; PROGRAM is `hookmsg` or `doit`.
PROBE = r"""
import json, os, sys, time
from pathlib import Path

record, parties, program, *args = sys.argv[1:]
folder = Path(record)
folder.mkdir(parents=True, exist_ok=True)
if program == "hookmsg":
    from hookmsg.cli.main import run
elif program == "doit":
    from doit.doit_cmd import DoitMain
    def run(argv):
        return DoitMain().run(argv)
else:
    sys.exit(f"probe: unknown program {program!r}")
(folder / f"ready-{os.getpid()}").touch()
deadline = time.monotonic() + 120
while len(list(folder.glob("ready-*"))) < int(parties):
    if time.monotonic() > deadline:
        sys.exit("probe: the other processes never arrived")
    time.sleep(0.001)
start = time.monotonic()
code = 1
try:
    code = run(args)
finally:
    span = {"start": start, "end": time.monotonic()}
    (folder / f"span-{os.getpid()}.json").write_text(json.dumps(span), encoding="utf-8")
sys.exit(code)
"""


def probed(program: str, record: Path, parties: int = 1) -> list[str]:
    """The command that runs `program` (`hookmsg` or `doit`) with its span recorded."""
    return [sys.executable, "-c", PROBE, str(record), str(parties), program]


@dataclass(frozen=True, order=True)
class Span:
    start: float
    end: float


def spans(record: Path) -> list[Span]:
    """The spans recorded in `record` (by `probed`, or as `span-*.json` by a test's own
    script: an object with `start` and `end`, or a list of them), in order of start."""
    found = []
    for path in sorted(record.glob("span-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data if isinstance(data, list) else [data]:
            found.append(Span(float(item["start"]), float(item["end"])))
    return sorted(found)


def all_overlap(found: list[Span]) -> bool:
    """Some moment lies inside every span (all of them were running at once)."""
    return bool(found) and max(s.start for s in found) < min(s.end for s in found)


def overlapping(some: list[Span], others: list[Span]) -> list[Span]:
    """The spans of `some` that share a moment with at least one span of `others`."""
    return [s for s in some if any(s.start < o.end and o.start < s.end for o in others)]
