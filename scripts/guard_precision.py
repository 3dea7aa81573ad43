#!/usr/bin/env python3
"""Precision and recall of every guard, measured through the packaged dispatcher.

Each corpus is a folder of guard cases (see docs/guards.md): the shipped cases, in the
guard files under `catalog/guards/`; the independent held-out
corpus under `tests/guard_holdout/` (written by someone who never read the guard code;
measured, never tuned against); and the earlier held-out rounds under
`tests/guard_regression/`, whose failure classes the guards were since fixed for (a
regression measure, no longer a held-out one). Each corpus is reported on its
own: per guard, the cases, precision (of the calls it fired on, how many it had to) and
recall (of the calls it had to fire on, how many it did), and every disagreement.

Usage: python scripts/guard_precision.py [--target 0.95] [FOLDER ...]
`scripts/bench.py` runs the same measurement as its last section.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookmsg.install.guard_cases import Score

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
# The shipped cases, the held-out corpus, then every regression round in the order written.
CORPORA = (
    "catalog/guards",
    "tests/guard_holdout",
    *sorted(
        (
            path.relative_to(REPO).as_posix()
            for path in (REPO / "tests" / "guard_regression").glob("round-*")
        ),
        key=lambda name: int(name.rsplit("-", 1)[1]),
    ),
)
TARGET = 0.95


def figures(score: Score, target: float) -> tuple[str, bool]:
    """One guard's (or a corpus's) line of figures, and whether it meets `target`.

    Precision needs calls that must stay silent and recall needs calls that must fire: with
    none of either kind the figure is not measured (a ratio over nothing is not 1.000), and
    the target counts as missed.
    """
    if score.cases == 0:
        return "   0 cases  no cases  MISSED", False
    wanted = score.fire_fired + score.fire_silent
    silent = score.silent_fired + score.silent_silent
    if not wanted or not silent:
        lacking = "no cases that must fire" if not wanted else "no cases that must stay silent"
        return f"{score.cases:>4} cases  {lacking}  MISSED", False
    ok = score.precision >= target and score.recall >= target
    return (
        f"{score.cases:>4} cases  precision {score.precision:.3f}"
        f"  recall {score.recall:.3f}  {'ok' if ok else 'MISSED'}",
        ok,
    )


def measure(folders: Sequence[Path], target: float = TARGET, verbose: bool = True) -> bool:
    """Print each corpus's figures; True when every guard meets `target` on every corpus."""
    from hookmsg.install.guard_cases import Score, run_folder, write_install_root

    met = True
    with tempfile.TemporaryDirectory(prefix="hookmsg-precision-") as temporary:
        root = write_install_root(REPO, Path(temporary))
        for folder in folders:
            if not folder.is_dir():
                print(f"guard precision: {folder} absent, not measured")
                continue
            shown = (
                folder.relative_to(REPO).as_posix() if folder.is_relative_to(REPO) else str(folder)
            )
            result = run_folder(folder, shown, root)
            total = Score()
            print(f"guard precision and recall on {shown} (target {target:.2f} each):")
            for guard, score in sorted(result.scores.items()):
                line, ok = figures(score, target)
                met = met and ok
                print(f"  {guard:<42} {line}")
                for name in ("fire_fired", "fire_silent", "silent_fired", "silent_silent"):
                    setattr(total, name, getattr(total, name) + getattr(score, name))
            line, ok = figures(total, target)
            met = met and ok
            print(f"  {'all guards':<42} {line}")
            if verbose:
                for diagnostic in result.diagnostics:
                    print(f"    {diagnostic.render()}")
    return met


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("folders", nargs="*", type=Path, help="corpora (default: both)")
    parser.add_argument("--target", type=float, default=TARGET)
    args = parser.parse_args(argv)
    folders = [f.resolve() for f in args.folders] or [REPO / name for name in CORPORA]
    met = measure(folders, args.target)
    print("guard targets met" if met else "some guard targets missed")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
