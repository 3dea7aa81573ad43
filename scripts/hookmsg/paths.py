"""Resolving repository paths once: symbolic links followed, never out of the root."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path, PurePosixPath


@lru_cache(maxsize=65536)
def real(path: str) -> str:
    """The canonical absolute path (links followed); cached, as the same paths recur."""
    return os.path.realpath(path)


def is_inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def resolve_inside(root: Path, text: str) -> Path | None:
    """The real path that repository-relative `text` names, or None if it leaves `root`."""
    found = real_inside(str(root), text)
    return Path(found) if found is not None else None


@lru_cache(maxsize=65536)
def real_inside(root: str, text: str) -> str | None:
    """`resolve_inside` on strings, cached: the hot path of the Bindings rules."""
    if text.startswith(("/", "~")) or "\\" in text:
        return None
    real_root = real(root)
    target = real(os.path.join(real_root, *PurePosixPath(text).parts))  # noqa: PTH118 (hot path: str)
    return target if is_inside(target, real_root) else None
