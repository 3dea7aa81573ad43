"""Resolving repository paths: symbolic links followed, never out of the root.

Within one run (`one_run`: a load, a validation, a check or a build) each path is
resolved once, as the same paths recur and validation must stay linear. Outside a run
nothing is remembered, and every run starts empty: a long-lived caller of the library
never gets an answer that a link repointed since then has made stale.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath


@dataclass
class _Memo:
    real: dict[str, str] = field(default_factory=dict)
    inside: dict[tuple[str, str], str | None] = field(default_factory=dict)


# The memo of the run in progress in this thread or task (None: no run in progress).
_RUN: ContextVar[_Memo | None] = ContextVar("hookmsg_paths_run", default=None)


@contextmanager
def one_run() -> Iterator[None]:
    """Resolve each path once inside; the outermost entry starts empty and forgets on exit.

    Also a decorator. Nested entries share the outer run's memo.
    """
    if _RUN.get() is not None:
        yield
        return
    token = _RUN.set(_Memo())
    try:
        yield
    finally:
        _RUN.reset(token)


def real(path: str) -> str:
    """The canonical absolute path (links followed); once per run."""
    memo = _RUN.get()
    if memo is None:
        return os.path.realpath(path)
    found = memo.real.get(path)
    if found is None:
        found = memo.real[path] = _real_by_folder(path, memo)
    return found


def _real_by_folder(path: str, memo: _Memo) -> str:
    """`os.path.realpath`, reusing the run's answer for the folder.

    A path whose last part is a plain name and no link resolves to its folder's real path
    and that name, so each of a thousand messages in one folder costs one `lstat`, not
    one per part of its path. Anything else is resolved whole. (Not recursive: the folder
    is resolved whole, once, however many parts a hostile path has.)
    """
    folder, name = os.path.split(path)
    if not os.path.isabs(path) or name in ("", ".", "..") or folder == path:  # noqa: PTH117
        return os.path.realpath(path)
    real_folder = memo.real.get(folder)
    if real_folder is None:
        real_folder = memo.real[folder] = os.path.realpath(folder)
    candidate = os.path.join(real_folder, name)  # noqa: PTH118 (hot path: str)
    return os.path.realpath(path) if os.path.islink(candidate) else candidate  # noqa: PTH114


def is_inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def resolve_inside(root: Path, text: str) -> Path | None:
    """The real path that repository-relative `text` names, or None if it leaves `root`."""
    found = real_inside(str(root), text)
    return Path(found) if found is not None else None


def real_inside(root: str, text: str) -> str | None:
    """`resolve_inside` on strings, once per run: the hot path of the Bindings rules."""
    memo = _RUN.get()
    if memo is None:
        return _real_inside(root, text)
    key = (root, text)
    if key not in memo.inside:
        memo.inside[key] = _real_inside(root, text)
    return memo.inside[key]


def _real_inside(root: str, text: str) -> str | None:
    if text.startswith(("/", "~")) or "\\" in text:
        return None
    real_root = real(root)
    target = real(os.path.join(real_root, *PurePosixPath(text).parts))  # noqa: PTH118 (hot path: str)
    return target if is_inside(target, real_root) else None
