"""The check's cache may skip work but must never answer "clean" when a full check fails.

Each case: a full check proves the tree clean (and records it); then one kind of input
or output changes; then `hookmsg check` must fail exactly as the full check does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import hookmsg.cli.commands.build
import hookmsg.inputs.fingerprint
import hookmsg.outputs.check_cache
from hookmsg.outputs.check_cache import cache_path, known_clean
from tests.support.diagnostics import Result
from tests.support.harnesses import harness_override

pytestmark = pytest.mark.slow

Cli = Callable[..., Result]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _refuse_full_check(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> int:
        raise AssertionError("the full check ran")

    monkeypatch.setattr(hookmsg.cli.commands.build, "build", refuse)


def test_a_second_clean_check_skips_the_work(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli("check").code == 0
    assert cache_path(project).is_file()
    _refuse_full_check(monkeypatch)
    assert cli("check") == Result(0, "", "")
    assert cli("check", "--format", "json").out == "[]\n"
    assert "unchanged since the last clean check" in cli("check", "-v").err


def test_a_clean_build_also_records(project: Path, cli: Cli) -> None:
    assert cli("build").code == 0
    assert known_clean(project)


def test_no_cache_when_disabled(project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKMSG_NO_CACHE", "1")
    assert cli("check").code == 0
    assert not cache_path(project).exists()


def test_failures_are_never_recorded(project: Path, cli: Cli) -> None:
    (project / "generated" / "stray.md").write_text("x\n", encoding="utf-8")
    assert cli("check").code == 1
    assert not cache_path(project).exists()


def _message_body(root: Path) -> None:
    _edit(root / "messages" / "stop.md", "## Verify", "One more sentence.\n\n## Verify")


def _new_message(root: Path) -> None:
    shutil.copy(root / "messages" / "stop.md", root / "messages" / "extra.md")


def _deleted_message(root: Path) -> None:
    (root / "messages" / "pretooluse-notebookedit.md").unlink()


def _registry(root: Path) -> None:
    _edit(root / "catalog" / "hooks.toml", "Stop = 60\n", "")


def _registry_wiring(root: Path) -> None:
    _edit(
        root / "catalog" / "hooks.toml", 'messages = ["stop"]', 'messages = ["stop", "precompact"]'
    )


def _harnesses(root: Path) -> None:
    _edit(harness_override(root), 'name = "Cursor"', 'name = "Cursor IDE"')


def _skills(root: Path) -> None:
    _edit(root / "catalog" / "skills.toml", 'title = "Plan"', 'title = "Planning"')


def _configuration(root: Path) -> None:
    _edit(root / "pyproject.toml", "skill-index-budget = 1600", "skill-index-budget = 500")


def _hand_edit(root: Path) -> None:
    _edit(root / "generated" / "skill-index.md", "Slash commands", "Slash-commands")


def _deleted_output(root: Path) -> None:
    (root / "generated" / "advisories.json").unlink()


def _stray_output(root: Path) -> None:
    (root / "generated" / "old").mkdir()
    (root / "generated" / "old" / ".index.md.tmp").write_text("x\n", encoding="utf-8")


def _symlinked_message(root: Path) -> None:
    outside = root.parent / "elsewhere.md"
    path = root / "messages" / "stop.md"
    outside.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(outside)


def _folder_link_in_generated(root: Path) -> None:
    # a symlinked folder inside generated/ was never entered by the fingerprint.
    behind = root.parent / "behind"
    behind.mkdir()
    (behind / "hooks.json").write_text("{}\n", encoding="utf-8")
    (root / "generated" / "extra").symlink_to(behind, target_is_directory=True)


CHANGES = {
    "message body": _message_body,
    "new message": _new_message,
    "deleted message": _deleted_message,
    "registry setting": _registry,
    "registry wiring": _registry_wiring,
    "harness facts": _harnesses,
    "skill catalogue": _skills,
    "configuration": _configuration,
    "hand-edited output": _hand_edit,
    "deleted output": _deleted_output,
    "stray output": _stray_output,
    "message swapped for a link out": _symlinked_message,
    "folder link in generated": _folder_link_in_generated,
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_every_change_falls_back_to_the_full_check(
    project: Path, cli: Cli, change: Callable[[Path], None]
) -> None:
    assert cli("check").code == 0
    assert known_clean(project)
    change(project)
    assert not known_clean(project)
    result = cli("check")
    assert result.code == 1, result.out + result.err


def _bind_to(root: Path, target: str) -> None:
    _edit(
        root / "messages" / "stop.md",
        "- **Cross-bound with ↔** ",
        f"- **Cross-bound with ↔** `{target}` (the notes); ",
    )


def test_a_path_named_in_bindings_is_part_of_the_key(project: Path, cli: Cli) -> None:
    notes = project / "docs" / "notes.txt"
    notes.parent.mkdir()
    notes.write_text("notes\n", encoding="utf-8")
    _bind_to(project, "docs/notes.txt")
    assert cli("build").code == 0
    assert cli("check").code == 0
    notes.unlink()
    result = cli("check")
    assert result.code == 1 and "B009" in result.out


def test_a_partner_outside_the_messages_folder_is_part_of_the_key(project: Path, cli: Cli) -> None:
    partner = project / "docs" / "partner.md"
    partner.parent.mkdir()
    stop = (project / "messages" / "stop.md").read_text(encoding="utf-8")
    partner.write_text(
        stop.replace(
            "- **Cross-bound with ↔** ", "- **Cross-bound with ↔** `messages/stop.md` (x); "
        ),
        encoding="utf-8",
    )
    _bind_to(project, "docs/partner.md")
    assert cli("build").code == 0
    assert cli("check").code == 0
    _edit(partner, "`messages/stop.md` (x); ", "")
    result = cli("check")
    assert result.code == 1 and "B010" in result.out


def _partner_behind_a_folder_link(project: Path) -> Path:
    """`docs` -> `shelf/first`, whose partner.md names stop.md back; `shelf/second`'s does not.

    stop.md is bound to `docs/partner.md`. Returns the link, for a test to repoint.
    """
    stop = (project / "messages" / "stop.md").read_text(encoding="utf-8")
    reciprocal = stop.replace(
        "- **Cross-bound with ↔** ", "- **Cross-bound with ↔** `messages/stop.md` (x); "
    )
    for folder, text in (("first", reciprocal), ("second", stop)):
        (project / "shelf" / folder).mkdir(parents=True)
        (project / "shelf" / folder / "partner.md").write_text(text, encoding="utf-8")
    link = project / "docs"
    link.symlink_to(project / "shelf" / "first", target_is_directory=True)
    _bind_to(project, "docs/partner.md")
    return link


def test_a_partner_behind_a_repointed_folder_link_is_part_of_the_key(project: Path) -> None:
    # the partner is reached through a symlinked folder inside the repository;
    # repointing the link to a folder whose partner no longer names stop.md must not be
    # answered from the cache. Each check is its own process, as in pre-commit and CI.
    def check() -> subprocess.CompletedProcess[str]:
        hookmsg = Path(sys.executable).parent / "hookmsg"
        return subprocess.run(
            [str(hookmsg), "check"], cwd=project, capture_output=True, text=True, check=False
        )

    link = _partner_behind_a_folder_link(project)
    subprocess.run([str(Path(sys.executable).parent / "hookmsg"), "build"], cwd=project, check=True)
    assert check().returncode == 0  # clean, and recorded as clean
    assert check().returncode == 0  # answered from the cache
    link.unlink()
    link.symlink_to(project / "shelf" / "second", target_is_directory=True)
    repointed = check()
    assert repointed.returncode == 1, repointed.stdout + repointed.stderr
    assert "B010" in repointed.stdout


def test_a_repointed_folder_link_is_followed_anew_in_one_process(project: Path, cli: Cli) -> None:
    # In-process: a long-lived caller of the library (the `cli` fixture runs
    # `run(argv)` in this test's process) must not answer from paths resolved by an
    # earlier check. The first check resolves `docs/partner.md` through the link; the
    # link is repointed; the second check must resolve it again and report B010.
    link = _partner_behind_a_folder_link(project)
    assert cli("build").code == 0
    assert cli("check") == Result(0, "", "")  # clean, and recorded as clean
    assert known_clean(project)
    link.unlink()
    link.symlink_to(project / "shelf" / "second", target_is_directory=True)
    assert not known_clean(project)
    repointed = cli("check")
    assert repointed.code == 1, repointed.out + repointed.err
    assert "B010" in repointed.out
    assert not known_clean(project)  # the stale answer was not recorded either


def test_pipeline_code_and_libraries_are_part_of_the_key(
    project: Path, cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = tmp_path / "code"
    shutil.copytree(
        hookmsg.outputs.check_cache.PACKAGE, code, ignore=shutil.ignore_patterns("__pycache__")
    )
    monkeypatch.setattr(hookmsg.outputs.check_cache, "PACKAGE", code)
    assert cli("check").code == 0
    assert known_clean(project)
    _edit(code / "messages" / "rules" / "licence.py", '"""', '"""Changed. ')
    assert not known_clean(project)

    assert cli("check").code == 0
    monkeypatch.setattr(
        hookmsg.outputs.check_cache, "_library_stamps", lambda: ["markdown_it=99.0"]
    )
    assert not known_clean(project)


# -- the cache records exactly what the check read --------------------------------------


def test_an_edit_while_the_check_runs_is_never_recorded_as_clean(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_validate = hookmsg.cli.commands.build.validate_workspace
    stop = project / "messages" / "stop.md"
    edits: list[Path] = []

    def validate_then_edit(workspace: object) -> object:
        found = real_validate(workspace)  # type: ignore[arg-type]
        # The check has read the clean file; now someone breaks it (no licence line).
        stop.write_text(stop.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
        edits.append(stop)
        return found

    monkeypatch.setattr(hookmsg.cli.commands.build, "validate_workspace", validate_then_edit)
    assert cli("check").code == 0  # it validated the clean bytes
    assert edits == [stop], "the edit happened while the check ran, once"
    monkeypatch.setattr(hookmsg.cli.commands.build, "validate_workspace", real_validate)
    assert not known_clean(project)
    result = cli("check")
    assert result.code == 1 and "L001" in result.out


def test_a_fifo_named_in_bindings_is_not_a_missing_file(project: Path, cli: Cli) -> None:
    pipe = project / "docs" / "pipe"
    pipe.parent.mkdir()
    os.mkfifo(pipe)
    _bind_to(project, "docs/pipe")
    assert cli("build").code == 0
    assert cli("check").code == 0
    assert known_clean(project)
    pipe.unlink()
    assert not known_clean(project)
    result = cli("check")
    assert result.code == 1 and "B009" in result.out


def test_every_file_of_the_libraries_is_part_of_the_key(
    project: Path, cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = tmp_path / "libs" / "fakelib" / "deeper" / "module.py"
    deep.parent.mkdir(parents=True)
    (deep.parents[1] / "__init__.py").write_text("", encoding="utf-8")
    deep.write_text("X = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "libs"))
    monkeypatch.setattr(hookmsg.outputs.check_cache, "LIBRARIES", ("fakelib",))
    assert cli("check").code == 0
    assert known_clean(project)
    deep.write_text("X = 22\n", encoding="utf-8")  # a change below the package's __init__.py
    assert not known_clean(project)


def test_nothing_is_read_before_the_settings_are_valid(
    project: Path, cli: Cli, tmp_path: Path
) -> None:
    # with `generated = "/usr"` the fast path read 5.3 GB before K001. Here the
    # generated folder is set to a folder outside the repository; after a clean check
    # (so the cache has a record to compare with), no file or listing there is opened.
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "deep").mkdir(parents=True)
    (elsewhere / "deep" / "big.json").write_text("{}\n", encoding="utf-8")
    assert cli("check").code == 0
    assert cache_path(project).is_file()
    pyproject = project / "pyproject.toml"
    _edit(pyproject, 'generated = "generated"', f'generated = "{elsewhere}"')
    touched: list[str] = []
    read_inside: list[str] = []  # proves the hook sees the reads it is looking for

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event in ("open", "os.scandir", "os.listdir", "glob.glob") and args:
            path = args[0]
            if isinstance(path, (str, os.PathLike)):
                text = os.path.abspath(os.fspath(path))  # noqa: PTH100 (a str)
                if text.startswith(str(elsewhere)):
                    touched.append(f"{event} {text}")
                elif text.startswith(str(project)):
                    read_inside.append(text)

    _AUDIT.append(hook)
    try:
        result = cli("check")
    finally:
        _AUDIT.remove(hook)
    assert result.code == 2, result.out + result.err
    assert "K001" in result.err
    assert str(pyproject) in read_inside
    assert touched == []


# Audit hooks cannot be removed; one that forwards to the hooks of the test running now.
_AUDIT: list[Callable[[str, tuple[object, ...]], None]] = []


def _forward(event: str, args: tuple[object, ...]) -> None:
    for hook in list(_AUDIT):
        hook(event, args)


sys.addaudithook(_forward)


_LIMITED = """
import resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from hookmsg.cli.main import run
raise SystemExit(run(sys.argv[2:]))
"""


def _check_within(
    project: Path, limit: int, command: str = "check"
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _LIMITED, str(limit), command],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_huge_bindings_named_file_is_never_read_whole(project: Path) -> None:
    """One Bindings line naming a 3 GB file: every check stays within a small memory limit.

    The file is sparse (no disk used); a check that read it whole would need 3 GB.
    """
    huge = project / "docs" / "huge.bin"
    huge.parent.mkdir()
    with huge.open("wb") as handle:
        handle.truncate(3 * 1024**3)
    _bind_to(project, "docs/huge.bin")
    limit = 1024**3  # well above what a check needs, a third of the file
    built = _check_within(project, limit, "build")
    assert built.returncode == 0, built.stderr[-2000:]
    for run in ("records the clean result", "answers from the cache"):
        done = _check_within(project, limit)
        assert (done.returncode, done.stderr) == (0, "") or (
            done.returncode == 0 and "unchanged since" in done.stderr
        ), (run, done.stderr[-2000:])
        assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert known_clean(project)
    huge.unlink()
    result = _check_within(project, limit)
    assert result.returncode == 1 and "B009" in result.stdout, result.stdout[-2000:]


# -- the record is believed by stamps once the files have settled -----------------------


def _opened_by(call: Callable[[], bool], *folders: Path) -> tuple[bool, list[str]]:
    """What `call()` returned, and every file below `folders` it opened."""
    opened: list[str] = []

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event == "open" and args and isinstance(args[0], (str, os.PathLike)):
            text = os.path.abspath(os.fspath(args[0]))  # noqa: PTH100 (a str)
            if text.startswith(tuple(str(folder) + os.sep for folder in folders)):
                opened.append(text)

    _AUDIT.append(hook)
    try:
        answer = call()
    finally:
        _AUDIT.remove(hook)
    return answer, opened


def _settle() -> None:
    """Wait until every file written so far has settled (`inputs.fingerprint`)."""
    time.sleep(hookmsg.inputs.fingerprint.SETTLE_NS / 1e9 + 0.2)


def test_a_settled_tree_is_answered_without_reading_a_file(project: Path, cli: Cli) -> None:
    # Every file had settled when the check began: the record's stamps and remembered
    # settings stand, so neither a source, an output nor a module of the pipeline is opened.
    _settle()
    assert cli("check").code == 0
    package = hookmsg.outputs.check_cache.PACKAGE
    answer, opened = _opened_by(lambda: known_clean(project), project, package.parent)
    assert (answer, opened) == (True, [])
    # The same stamps, a different file behind one of them: an edit is never believed.
    _message_body(project)
    answer, opened = _opened_by(lambda: known_clean(project), project)
    assert not answer
    assert str(project / "messages" / "stop.md") in opened


def test_files_hashed_once_settled_are_believed_by_their_stamp_next_time(
    project: Path, cli: Cli
) -> None:
    # stop.md is written (with the same bytes) just before the check, so the record's
    # stamp of it is racy (taken within SETTLE_NS of its change) and the next check must
    # hash it; once it has settled, that check records its stamp for the one after it.
    stop = str(project / "messages" / "stop.md")
    Path(stop).write_bytes(Path(stop).read_bytes())
    assert cli("check").code == 0
    _settle()
    answer, opened = _opened_by(lambda: known_clean(project), project)
    assert answer and stop in opened
    answer, opened = _opened_by(lambda: known_clean(project), project)
    assert (answer, opened) == (True, [])


_HEAVY = """
import sys
import time
from hookmsg.cli.main import run
code = run(["check"])
heavy = ("argparse", "hookmsg.cli.parser", "hookmsg.pipeline", "markdown_it", "jinja2", "tomllib")
print(code, [name for name in heavy if name in sys.modules])
"""


def test_a_bare_check_of_a_clean_tree_builds_no_parser_and_parses_nothing(project: Path) -> None:
    def bare_check() -> str:
        done = subprocess.run(
            [sys.executable, "-c", _HEAVY], cwd=project, capture_output=True, text=True, check=True
        )
        return done.stdout

    assert bare_check().startswith("0 [")  # a full check, which records the tree clean
    _settle()
    # The files have settled: this one may still parse the settings, to remember them.
    assert bare_check() in ("0 []\n", "0 ['tomllib']\n")
    assert bare_check() == "0 []\n"
    _message_body(project)
    every = (
        "['argparse', 'hookmsg.cli.parser', 'hookmsg.pipeline', 'markdown_it', 'jinja2', 'tomllib']"
    )
    assert bare_check().endswith(f"\n1 {every}\n")
