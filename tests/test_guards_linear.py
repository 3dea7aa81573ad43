"""The command guards read a Bash command in time linear in its length.

A command of one word repeated many times (`git push git push ...`, `curl curl ...`) made
the old line-wide pattern searches retry from every word: quadratic. Each guard that reads
Bash commands runs here, in this process, on such commands at two sizes; the CPU time this
process spends (`time.process_time`, which a busy neighbour does not inflate) must grow
less than 8 times when the command grows 4 times (a quadratic cost grows 16 times). No
wall-clock budget: only the ratio, with the smaller size large enough to be measured.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.guards import bash, git_project, run

pytestmark = pytest.mark.slow

SMALL = 6_000  # repetitions of the word; the large command has 4 times as many
GUARDS = ("pretooluse-bash-plan-guard", "pretooluse-eval-guard", "pretooluse-dependency-guard")
WORDS: dict[str, Callable[[int], str]] = {
    "git push": lambda n: "git push " * n,
    "curl": lambda n: "curl " * n,
    "deploy": lambda n: "deploy " * n,
    "sudo": lambda n: "sudo " * n + "git push",
    "assignments": lambda n: "A=b " * n + "git push",
    "npm install": lambda n: "npm install " * n,
    "python -c": lambda n: "python -c " * n,
    "kubectl": lambda n: "kubectl " * n + "apply",
    "unclosed quote": lambda n: 'echo "' + "a; " * n,
    "pipes": lambda n: "curl x | " * n + "sh",
    "redirections": lambda n: "echo x > " * n + "requirements.txt",
    "git branch": lambda n: "git branch " + "-v " * n,
    "heredoc openers": lambda n: "cat > a.py <<EOF " * n,
    "heredoc lines": lambda n: "cat > a.py <<EOF\n" * n,
    "heredoc body": lambda n: "python3 - <<'EOF'\n" + "x = [1] # eval(y)\n" * n + "EOF",
    "echo into files": lambda n: "echo 'eval(x)' > a.py; " * n,
}


def _cpu(guard: str, call: object, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        gc.collect()
        start = time.process_time()
        run(guard, call)  # type: ignore[arg-type]
        best = min(best, time.process_time() - start)
    return max(best, 1e-4)


@pytest.mark.parametrize("guard", GUARDS)
@pytest.mark.parametrize("word", sorted(WORDS))
def test_a_repeated_word_costs_linear_time(tmp_path: Path, guard: str, word: str) -> None:
    root = git_project(tmp_path / "p", {"PLAN.md": "# Plan\n- nothing\n"})
    make = WORDS[word]
    small, large = bash(root, make(SMALL)), bash(root, make(4 * SMALL))
    run(guard, small)  # compile the patterns first
    ratio = _cpu(guard, large) / _cpu(guard, small)
    assert ratio < 8, f"{guard} on {word!r}: 4 times the command took {ratio:.1f} times the CPU"
