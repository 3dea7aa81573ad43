"""This checkout, throw-away copies of it, and snapshots of a tree's files."""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
COPIED = ("pyproject.toml", "messages", "catalog", "generated")
# What `doit` needs besides: its dodo.py, which runs the copy's own hookmsg from scripts/.
WITH_DODO = (*COPIED, "dodo.py", "scripts")


def copy_repository(root: Path, names: tuple[str, ...] = COPIED) -> Path:
    """Copy `names` (default: sources, catalogue, outputs, configuration) of this repository."""
    root.mkdir()
    for name in names:
        source = REPO / name
        if source.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
            shutil.copytree(source, root / name, ignore=ignore)
        else:
            shutil.copy2(source, root / name)
    return root


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
