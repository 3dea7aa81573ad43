"""This checkout, throw-away copies of it, and snapshots of a tree's files."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
# The mini fixture project: the goldens and the rule tests run on it, not on this catalogue.
MINI = REPO / "tests" / "fixtures" / "mini"
COPIED = ("pyproject.toml", "messages", "catalog", "generated")
# What `doit` needs besides: its dodo.py, which runs the copy's own hookmsg from scripts/.
WITH_DODO = (*COPIED, "dodo.py", "scripts")
# A fresh `doit` runs every shipped guard case through the dispatcher, one process each (about
# 25 s of CPU for the whole set on 2 cores). A copy that `doit` runs in keeps this many cases
# per guard: the tests that run doit in copies test the task graph, while the whole set runs
# in tests/test_install_guard_cases.py and in every `doit` of the checkout itself.
CASES_PER_GUARD_IN_COPIES = 6


def copy_repository(
    root: Path, names: tuple[str, ...] = COPIED, *, every_guard_case: bool = False
) -> Path:
    """Copy `names` (default: sources, catalogue, outputs, configuration) of this repository.

    Where `doit` will run in the copy (`dodo.py` is among `names`), each guard file
    keeps its first `CASES_PER_GUARD_IN_COPIES` cases unless `every_guard_case`.
    """
    root.mkdir()
    for name in names:
        source = REPO / name
        if source.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
            shutil.copytree(source, root / name, ignore=ignore)
        else:
            shutil.copy2(source, root / name)
    if "dodo.py" in names and "catalog" in names and not every_guard_case:
        for path in sorted((root / "catalog" / "guards").glob("*.toml")):
            path.write_text(first_cases(path.read_text(encoding="utf-8")), encoding="utf-8")
    return root


def first_cases(text: str, keep: int = CASES_PER_GUARD_IN_COPIES) -> str:
    """A guard file cut before its case number `keep + 1` (each case opens with a
    `[[cases]]` line, and its sub-tables follow it, so the cut leaves valid TOML)."""
    at = -1
    for _ in range(keep + 1):
        at = text.find("\n[[cases]]\n", at + 1)
        if at < 0:
            return text
    return text[: at + 1]


def outside(project: Path) -> Path:
    """A folder outside the repository copy, for messages that no registry knows."""
    folder = project.parent / "elsewhere"
    folder.mkdir(exist_ok=True)
    return folder


def files_under(folder: Path) -> dict[str, bytes]:
    """Every regular file below `folder`, by POSIX path relative to it, with its bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def leftovers(root: Path) -> list[str]:
    """Temporary files and backups of a write, anywhere in the tree."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob(".*")
        if p.name.endswith((".tmp", ".bak"))
    )


# The caches of the tools that run the suite (and of the linters beside it), not of any
# test: the interpreter's bytecode, pytest's cache, hypothesis's example database, mypy's
# and ruff's caches (all git-ignored). `.venv` and the egg-info come from installing,
# `.git` is git's own.
TOOL_CACHES = frozenset(
    {"__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache"}
)
NOT_THE_CHECKOUT = frozenset({".git", ".venv"})

# Kind ("file", "dir", "link"), size and mtime in nanoseconds; a folder's size and mtime
# are 0 (its mtime moves whenever a runner cache is made inside it).
Stamp = tuple[str, int, int]


def checkout_stamps(root: Path = REPO, skip: tuple[str, ...] = ()) -> dict[str, Stamp]:
    """Every path of the checkout (but the tools' caches) with its `Stamp`.

    `skip`: relative folders whose contents a run may change on purpose.
    """
    stamps: dict[str, Stamp] = {}
    for folder, dirs, names in os.walk(root):
        base = Path(folder)
        dirs[:] = [
            d
            for d in sorted(dirs)
            if d not in TOOL_CACHES
            and not (base == root and d in NOT_THE_CHECKOUT)
            and not d.endswith(".egg-info")
            and (base / d).relative_to(root).as_posix() not in skip
        ]
        for name in [*dirs, *sorted(names)]:
            path = base / name
            info = path.lstat()
            kind = "link" if path.is_symlink() else "dir" if path.is_dir() else "file"
            stamp = (kind, 0, 0) if kind == "dir" else (kind, info.st_size, info.st_mtime_ns)
            stamps[path.relative_to(root).as_posix()] = stamp
    return stamps


def changed_paths(before: dict[str, Stamp], after: dict[str, Stamp]) -> list[str]:
    """Paths added, removed or changed between two `checkout_stamps`."""
    return sorted(
        f"{'added' if key not in before else 'removed' if key not in after else 'changed'} {key}"
        for key in before.keys() | after.keys()
        if before.get(key) != after.get(key)
    )
