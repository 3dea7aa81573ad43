"""What every benchmark section shares: the commands, their environment, timing and the row."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
PYTHON = sys.executable
# The dispatcher runs on the user's own Python, not inside this project's virtualenv (whose
# site-packages hooks would slow both sides of the ratio alike and hide the difference).
HOOK_PYTHON = getattr(sys, "_base_executable", "") or sys.executable
FLOOR_IMPORTS = "import markdown_it, jinja2, pydantic"
HOOKMSG = [
    PYTHON,
    "-c",
    "import sys; from hookmsg.cli.main import run; sys.exit(run(sys.argv[1:]))",
]
DOIT = [PYTHON, "-m", "doit"]
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


def count_instructions(
    command: Sequence[str], cwd: Path, stdin: bytes = b"", env: dict[str, str] | None = None
) -> float:
    """Instructions of one run of `command` under callgrind (children not followed)."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=cwd,
        env=ENV if env is None else env,
        input=stdin,
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
    return float(found[-1])


def instructions(command: Sequence[str], cwd: Path, repeat: int = 3) -> float:
    """Median instruction count of `command` under callgrind (children not followed)."""
    return statistics.median(count_instructions(command, cwd) for _ in range(repeat))


def row(
    label: str, value: float, floor: float, target: float, unit: str = "s", judged: bool = True
) -> bool:
    """Print one figure against its floor; True when it meets its target.

    A figure that is not `judged` (a CPU time beside the instruction count of the same
    case, which moves with the machine's load) shows its ratio but no verdict."""
    ratio = value / floor
    verdict = ("ok" if ratio <= target else "MISSED") if judged else "reported"
    shown = "none" if target == float("inf") else str(target)
    scale = 1000 if unit == "ms" else 1  # "s" and "M" (millions) are shown as they are
    print(
        f"  {label:<44} {value * scale:9.3f} {unit}  vs {floor * scale:9.3f} {unit}"
        f"  ratio {ratio:5.2f}  (target <= {shown})  {verdict}"
    )
    return ratio <= target
