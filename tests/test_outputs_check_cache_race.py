"""The check cache under racing edits, as a property test.

Hypothesis picks an edit that breaks the tree, a command (`check` or `build`) and the
moment the edit lands: right after the run has opened its k-th file inside the
repository (an audit hook counts the opens, so every moment of the run is reachable,
deterministically). Whatever the moment, once the edit has landed, `hookmsg check` with
its cache must answer exactly as a full check without it: no run may record as clean a
tree it did not validate. (A build may repair an output edited before it writes; then
both say clean.)

The bounded run is derandomized: HOOKMSG_RACE_EXAMPLES examples (default 20).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookmsg.cli.main import run
from tests.support.diagnostics import Result
from tests.support.repository import copy_repository
from tests.support.text import edit

Cli = Callable[..., Result]
pytestmark = pytest.mark.slow  # a hypothesis property of whole runs

EXAMPLES = int(os.environ.get("HOOKMSG_RACE_EXAMPLES", "") or "20")


class _Trigger:
    """Runs `action` once, when the `after`-th file below `root` has been opened."""

    root = ""
    remaining = -1
    action: Callable[[], None] | None = None

    @classmethod
    def hook(cls, event: str, args: tuple[object, ...]) -> None:
        if event != "open" or cls.action is None or not isinstance(args[0], str):
            return
        if not os.path.abspath(args[0]).startswith(cls.root):  # noqa: PTH100 (a str)
            return
        cls.remaining -= 1
        if cls.remaining < 0:
            action, cls.action = cls.action, None  # disarmed first: the edit opens files
            action()


sys.addaudithook(_Trigger.hook)  # audit hooks cannot be removed: it idles when unarmed


@contextmanager
def _armed(root: Path, after: int, action: Callable[[], None]) -> Iterator[None]:
    _Trigger.root, _Trigger.remaining, _Trigger.action = str(root) + os.sep, after, action
    try:
        yield
    finally:
        _Trigger.action = None


def _drop_licence(root: Path) -> None:
    stop = root / "messages" / "stop.md"
    stop.write_text(stop.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")


def _bidi_override(root: Path) -> None:
    edit(root / "messages" / "stop.md", "\n## Bindings", "\nA \u202e B.\n\n## Bindings")


def _hand_edit(root: Path) -> None:
    with (root / "generated" / "skill-index.md").open("a", encoding="utf-8") as handle:
        handle.write("A line added by hand.\n")


def _unknown_event(root: Path) -> None:
    with (root / "catalog" / "hooks.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[[dispatch]]\nevent = "Nope"\nmessages = ["stop"]\n')


def _bound_file_deleted(root: Path) -> None:
    (root / "docs" / "notes.txt").unlink()


EDITS: dict[str, Callable[[Path], None]] = {
    "licence line dropped (L001)": _drop_licence,
    "bidi override in a message (D003)": _bidi_override,
    "output edited by hand (G002)": _hand_edit,
    "unknown event (R004)": _unknown_event,
    "Bindings-named file deleted (B009)": _bound_file_deleted,
}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This repository with a Bindings-named file, built: clean."""
    root = copy_repository(tmp_path_factory.mktemp("race") / "template")
    (root / "docs").mkdir()
    (root / "docs" / "notes.txt").write_text("notes\n", encoding="utf-8")
    edit(
        root / "messages" / "stop.md",
        "- **Cross-bound with ↔** ",
        "- **Cross-bound with ↔** `docs/notes.txt` (the notes); ",
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOOKMSG_NO_CACHE", "1")
        patch.chdir(root)
        assert run(["build"]) == 0
    return root


@dataclass(frozen=True)
class Moment:
    """One edit (`change`), landing after `after` file opens of one run of `command`."""

    change: str
    command: str
    after: int


@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    moment=st.builds(
        Moment,
        change=st.sampled_from(sorted(EDITS)),
        command=st.sampled_from(["check", "build"]),
        after=st.integers(min_value=0, max_value=200),
    )
)
def test_an_edit_at_any_moment_of_a_run_is_never_answered_clean(
    template: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    cli: Cli,
    moment: Moment,
) -> None:
    change, command, after = moment.change, moment.command, moment.after
    root = tmp_path_factory.mktemp("example") / "repo"
    shutil.copytree(template, root, symlinks=True)
    monkeypatch.chdir(root)
    landed: list[bool] = []

    def land() -> None:
        EDITS[change](root)
        landed.append(True)

    with _armed(root, after, land):
        cli(command)  # passes or fails, depending on what it read
    if not landed:
        land()  # the run ended first: the edit comes after it
    monkeypatch.setenv("HOOKMSG_NO_CACHE", "1")
    full = cli("check")  # never answered from the cache, and records nothing
    monkeypatch.delenv("HOOKMSG_NO_CACHE")
    cached = cli("check")
    assert cached == full, f"{change} after {after} opens of `{command}`"
