"""`hookmsg fix [--diff] [PATH ...]`: mend the findings that have one right answer.

Like `ruff --fix`: the licence line (missing, moved, repeated, trailing spaces, a byte
order mark, no blank line after it), CRLF and CR line endings and the final newline,
the order of binding directions, ASCII arrows in Bindings sections, and a missing
reciprocal cross-binding (the partner gains a bullet naming this message back). With no
PATH: every message in the messages folder. The generated folder is never touched.
What remains of those findings afterwards (see `rules.fixable`) is reported, and the
exit code is then 1. `--diff` writes nothing and prints what would change.
"""

from __future__ import annotations

import difflib
import os
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hookmsg.diagnostics import Diagnostic
from hookmsg.errors import EXIT_FINDINGS, EXIT_OK, UsageError
from hookmsg.inputs.paths import real, real_inside
from hookmsg.inputs.rules import check_bytes, not_regular, too_large, unreadable
from hookmsg.messages.mending import add_cross_binding, cross_bound_paths, mend_bytes, mend_message
from hookmsg.messages.message import Message, is_repository_path, parse_text
from hookmsg.messages.referenced import look_up
from hookmsg.messages.rules import bindings, licence
from hookmsg.messages.rules.context import MessageContext
from hookmsg.messages.rules.fixable import left_for_fix
from hookmsg.outputs.generated import Output, write_all
from hookmsg.project.settings import Project
from hookmsg.report import emit, note

# Passes over the whole set: a partner's new bullet may need the partner mended in turn.
ROUNDS = 3


@dataclass
class _File:
    path: Path  # absolute, as given (links not resolved)
    display: str
    original: bytes
    text: str | None  # the mended text; None when the bytes are not text
    found: list[Diagnostic] = field(default_factory=list)


def _inside(path: Path, folder: Path) -> bool:
    real_path, real_folder = os.path.realpath(path), os.path.realpath(folder)
    return real_path == real_folder or real_path.startswith(real_folder + os.sep)


def _expand(project: Project, paths: Sequence[Path]) -> list[Path]:
    """The message files named, folders expanded to their `*.md` files; never generated ones."""
    chosen = list(paths) or [project.messages_dir]
    found: list[Path] = []
    for path in (p if p.is_absolute() else Path.cwd() / p for p in chosen):
        if _inside(path, project.generated_dir):
            note(f"fix: skipped {project.relative(path)}: generated files are rebuilt, not fixed")
        elif path.is_dir() and not path.is_symlink():
            found += sorted(p for p in path.glob("*.md") if not _inside(p, project.generated_dir))
        elif os.path.lexists(path):
            found.append(path)
        else:
            raise UsageError(f"no such file or folder: {path}")
    return list(dict.fromkeys(found))


def _read(project: Project, path: Path) -> _File:
    display = project.relative(path)
    limit = project.settings.max_file_bytes
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode):
            return _File(path, display, b"", None, [not_regular(display)])
        if info.st_size > limit:
            return _File(path, display, b"", None, [too_large(display, limit, info.st_size)])
        data = path.read_bytes()
    except OSError as error:
        return _File(path, display, b"", None, [unreadable(display, str(error.strerror))])
    text = mend_bytes(data)
    found = [] if text is not None else check_bytes(data, display)[2]
    if text is not None:
        text = mend_message(text, project.settings.licence_line, display, path)
    return _File(path, display, data, text, found)


def _parsed(project: Project, file: _File) -> Message | None:
    if file.text is None:
        return None
    return parse_text(file.text, project.settings.licence_line, file.display, file.path)


def _partner(project: Project, files: dict[str, _File], target: str) -> _File | None:
    """The message at real path `target`: one being fixed, else read now (inside the root)."""
    if target not in files:
        path = Path(target)
        if _inside(path, project.generated_dir) or not path.is_file():
            return None
        files[target] = _read(project, path)
    return files[target]


def _add_back_bindings(project: Project, files: dict[str, _File]) -> bool:
    """Give each cross-bound partner that does not name its message back a bullet that does."""
    root, changed = str(project.root), False
    for key, file in list(files.items()):
        message = _parsed(project, file)
        if message is None or not _inside(file.path, project.root):
            continue
        for text in cross_bound_paths(message):
            target = real_inside(root, text) if is_repository_path(text) else None
            partner = None if target is None or not target.endswith(".md") else target
            other = _partner(project, files, partner) if partner and partner != key else None
            theirs = _parsed(project, other) if other is not None else None
            if other is None or theirs is None:
                continue
            if any(real_inside(root, back) == key for back in cross_bound_paths(theirs)):
                continue
            back = os.path.relpath(key, real(root)).replace(os.sep, "/")
            added = add_cross_binding(theirs, back)
            if added is not None:
                other.text = mend_message(
                    added, project.settings.licence_line, other.display, other.path
                )
                changed = True
    return changed


def _context(project: Project, files: dict[str, _File], message: Message) -> MessageContext:
    def message_at(path: Path) -> Message | None:
        known = files.get(real(str(path)))
        if known is not None:
            return _parsed(project, known)
        try:
            data = path.read_bytes() if path.is_file() else b""
        except OSError:
            return None
        text = mend_bytes(data) if len(data) <= project.settings.max_file_bytes else None
        if text is None:
            return None
        return parse_text(text, project.settings.licence_line, str(path), path)

    settings = project.settings
    return MessageContext(
        licence_line=settings.licence_line,
        delivered_cap=settings.delivered_cap,
        referenced=look_up(message, project.root, message_at),
    )


def _left(project: Project, files: dict[str, _File]) -> list[Diagnostic]:
    """What the rules still find, of the findings `fix` is responsible for."""
    found: list[Diagnostic] = []
    for file in files.values():
        found += file.found
        message = _parsed(project, file)
        if message is not None:
            context = _context(project, files, message)
            found += licence.check(message, context) + bindings.check(message, context)
    return left_for_fix(found)


def _new_bytes(file: _File) -> bytes | None:
    """The mended bytes when they differ from the file's, else None."""
    if file.text is None:
        return None
    data = file.text.encode("utf-8")
    return data if data != file.original else None


def _diff(file: _File, data: bytes) -> str:
    old = file.original.decode("utf-8", errors="replace").splitlines(keepends=True)
    new = data.decode("utf-8").splitlines(keepends=True)
    lines = difflib.unified_diff(old, new, f"{file.display} (now)", f"{file.display} (fixed)")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def fix(project: Project, paths: Sequence[Path], *, diff: bool, fmt: str) -> int:
    files: dict[str, _File] = {}
    for path in _expand(project, paths):
        files.setdefault(real(str(path)), _read(project, path))
    for _ in range(ROUNDS):
        if not _add_back_bindings(project, files):
            break
    changes = [(file, data) for file in files.values() if (data := _new_bytes(file)) is not None]
    left = _left(project, files)
    if diff:
        sys.stdout.write("".join(_diff(file, data) for file, data in changes))
    else:
        write_all([Output(file.path, file.display, data) for file, data in changes])
        for file, _ in changes:
            note(f"fixed {file.display}")
    emit(left, fmt)
    verb = "would fix" if diff else "fixed"
    note(f"fix: {verb} {len(changes)} file(s); {len(left)} finding(s) left to fix by hand")
    if left or (diff and changes):
        return EXIT_FINDINGS
    return EXIT_OK
