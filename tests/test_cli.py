"""Command-line conventions, through the CLI: a closed pipe, -q and -v, --color and its
variables, --select and --ignore, `validate -`, paths from the working directory, the
nearest name for a typo, --version, and `watch`."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.diagnostics import Result, parse_findings

Cli = Callable[..., Result]
MAIN = [sys.executable, "-c", "from hookmsg.cli.main import main; main()"]
LICENCE = "<!-- SPDX-License-Identifier: MIT -->\n"


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, **extra}


def _break(project: Path) -> None:
    """Two findings in stop.md: L001 (no licence line) and B011 (a stray Bindings line)."""
    stop = project / "messages" / "stop.md"
    text = stop.read_text(encoding="utf-8").removeprefix(LICENCE)
    stop.write_text(text.rstrip("\n") + "\n\nnot a bullet\n", encoding="utf-8")


def _codes(result: Result) -> list[str]:
    return sorted(f.code for f in parse_findings(result.out))


# a closed pipe


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ("explain",),
        ("explain", "L001"),
        ("--help",),
        ("--version",),
        ("validate", "--format", "json"),
        ("check", "--format", "json"),
        ("build", "--check", "--format", "json"),
        ("validate",),
        ("preview", "sessionstart"),
    ],
    ids=" ".join,
)
def test_a_closed_pipe_ends_quietly(project: Path, argv: tuple[str, ...]) -> None:
    """`hookmsg explain | head -1`, with the reader gone before the first write."""
    _break(project)  # so that `validate` has findings to print
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [*MAIN, *argv],
            cwd=project,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    assert done.stderr == "" or "Traceback" not in done.stderr
    assert "BrokenPipeError" not in done.stderr and "Exception ignored" not in done.stderr
    assert done.returncode == 141


# -q and -v


def test_quiet_prints_findings_only(project: Path, cli: Cli) -> None:
    _break(project)
    loud = cli("validate")
    assert loud.code == 1 and ": 2 problems in 1 file" in loud.err
    quiet = cli("validate", "-q")
    assert (quiet.code, quiet.err) == (1, "")
    assert _codes(quiet) == ["B011", "L001"]
    assert cli("-q", "validate").err == ""  # before the subcommand too


def test_verbose_before_the_subcommand(project: Path, cli: Cli) -> None:
    result = cli("-v", "validate")
    assert result.code == 0
    assert "catalogue: no problems found" in result.err


def test_quiet_and_verbose_together_are_refused(project: Path, cli: Cli) -> None:
    result = cli("validate", "-q", "-v")
    assert result.code == 2
    assert "-q and -v cannot be combined" in result.err


# colour


def _on_terminal(project: Path, *argv: str, **env: str) -> str:
    """Standard output of `hookmsg ARGV` when it is a terminal (a pseudo-terminal)."""
    import pty  # POSIX only, like the terminals this is about

    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [*MAIN, *argv],
            cwd=project,
            stdout=follower,
            stderr=subprocess.DEVNULL,
            env=_env(**env),
        )
        os.close(follower)
        chunks = []
        with contextlib.suppress(OSError):  # EIO once the child has closed the terminal
            while chunk := os.read(leader, 65536):
                chunks.append(chunk)
        process.wait(timeout=120)
    finally:
        os.close(leader)
    return b"".join(chunks).decode("utf-8")


COLOURED = "\033[1;31mL001\033[0m"


@pytest.mark.slow
def test_colour_on_a_terminal_but_not_a_dumb_one(project: Path) -> None:
    _break(project)
    assert COLOURED in _on_terminal(project, "validate", TERM="xterm-256color")
    assert "\033[" not in _on_terminal(project, "validate", TERM="dumb")
    assert "\033[" not in _on_terminal(project, "validate", TERM="xterm", NO_COLOR="1")
    assert "\033[" not in _on_terminal(project, "validate", "--color", "never", TERM="xterm")
    assert COLOURED in _on_terminal(project, "validate", TERM="dumb", FORCE_COLOR="1")


def _piped(project: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MAIN, *argv],
        cwd=project,
        capture_output=True,
        text=True,
        env=_env(**env),
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_force_color_and_color_always_colour_a_pipe(project: Path) -> None:
    _break(project)
    assert "\033[" not in _piped(project, "validate").stdout
    assert COLOURED in _piped(project, "validate", FORCE_COLOR="1").stdout
    assert COLOURED in _piped(project, "validate", "--color", "always", NO_COLOR="1").stdout
    assert COLOURED in _piped(project, "--colour", "always", "validate").stdout
    # NO_COLOR outranks FORCE_COLOR; an empty variable counts as unset
    assert "\033[" not in _piped(project, "validate", FORCE_COLOR="1", NO_COLOR="1").stdout
    assert COLOURED in _piped(project, "validate", FORCE_COLOR="1", NO_COLOR="").stdout


def test_colour_choices_are_the_reports(project: Path) -> None:
    from hookmsg.cli.parser import COLOUR_CHOICES
    from hookmsg.report import COLOUR_CHOICES as REPORTED

    assert COLOUR_CHOICES == REPORTED


# --select and --ignore


def test_select_takes_codes_and_prefixes(project: Path, cli: Cli) -> None:
    _break(project)
    assert _codes(cli("validate", "--select", "L001")) == ["L001"]
    assert _codes(cli("validate", "--select", "L")) == ["L001"]
    assert _codes(cli("validate", "--select", "b01,l")) == ["B011", "L001"]
    assert _codes(cli("validate", "--select", "B", "--select", "L00")) == ["B011", "L001"]


def test_ignore_hides_codes_and_a_run_with_only_hidden_findings_passes(
    project: Path, cli: Cli
) -> None:
    _break(project)
    some = cli("validate", "--ignore", "L")
    assert (some.code, _codes(some)) == (1, ["B011"])
    assert ": 1 problem in 1 file" in some.err
    none = cli("validate", "--ignore", "L001,B011")
    assert (none.code, none.out) == (0, "")
    as_json = cli("validate", "--ignore", "ALL", "--format", "json")
    assert (as_json.code, as_json.out) == (0, "[]\n")


def test_ignored_drift_prints_no_diff_and_passes(project: Path, cli: Cli) -> None:
    inventory = project / "generated" / "hook-message-inventory.json"
    inventory.write_text(inventory.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    drifted = cli("check")
    assert drifted.code == 1 and "(committed)" in drifted.out
    ignored = cli("check", "--ignore", "G")
    assert (ignored.code, ignored.out) == (0, "")


def test_the_more_specific_entry_wins(project: Path, cli: Cli) -> None:
    _break(project)
    assert _codes(cli("validate", "--select", "B011", "--ignore", "B")) == ["B011"]
    assert _codes(cli("validate", "--ignore", "ALL", "--select", "L")) == ["L001"]
    assert _codes(cli("validate", "--select", "L", "--ignore", "L")) == []


def test_a_selector_that_matches_no_code_is_a_usage_error(project: Path, cli: Cli) -> None:
    result = cli("validate", "--select", "L0O1")
    assert result.code == 2
    assert "--select L0O1: no code starts with it; did you mean 'L001'?" in result.err


# validate -


def _stdin(project: Path, text: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MAIN, "validate", *argv],
        cwd=project,
        input=text,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_validate_reads_a_message_from_standard_input(project: Path) -> None:
    stop = (project / "messages" / "stop.md").read_text(encoding="utf-8")
    clean = _stdin(project, stop, "-", "--stdin-filename", "messages/stop.md")
    assert (clean.returncode, clean.stdout) == (0, ""), clean.stdout
    broken = _stdin(project, stop.removeprefix(LICENCE), "-")
    assert broken.returncode == 1
    assert broken.stdout.startswith("-:1:1: L001 missing licence line")
    named = _stdin(project, stop.removeprefix(LICENCE), "-", "--stdin-filename", "messages/stop.md")
    assert named.stdout.startswith("messages/stop.md:1:1: L001 ")


@pytest.mark.slow
def test_stdin_filename_in_the_messages_folder_brings_the_registry_rules(project: Path) -> None:
    stop = (project / "messages" / "stop.md").read_text(encoding="utf-8")
    anywhere = _stdin(project, stop, "-", "--stdin-filename", "notes/stop.md")
    assert " R001 " not in anywhere.stdout
    registered = _stdin(project, stop, "-", "--stdin-filename", "messages/new-stop.md")
    assert registered.returncode == 1
    assert "messages/new-stop.md:1:1: R001 " in registered.stdout
    twice = _stdin(project, stop, "-", "-")
    assert twice.returncode == 2 and "only once" in twice.stderr


# paths from the working directory


def test_paths_print_relative_to_the_working_directory(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    _break(project)
    monkeypatch.chdir(project / "messages")
    result = cli("validate")
    assert {f.path for f in parse_findings(result.out)} == {"stop.md"}
    given = cli("validate", "stop.md", "--select", "L")
    assert given.out.startswith("stop.md:1:1: L001 ")
    (project / "catalog").mkdir(exist_ok=True)
    monkeypatch.chdir(project / "catalog")
    assert cli("validate", "--select", "L").out.startswith("../messages/stop.md:1:1: L001 ")
    assert "  1 problem(s)   ../messages/stop.md" in cli("validate", "-v", "--select", "L").err
    # GitHub resolves annotation paths against the repository root
    assert "file=messages/stop.md," in cli("validate", "--format", "github").out


# the nearest name


def test_a_mistyped_subcommand_suggests_the_nearest(project: Path, cli: Cli) -> None:
    result = cli("valdate")
    assert result.code == 2
    assert "did you mean 'validate'?" in result.err


def test_a_mistyped_option_suggests_the_nearest(project: Path, cli: Cli) -> None:
    result = cli("check", "--fromat", "json")
    assert result.code == 2
    assert "unrecognized arguments: --fromat json; did you mean '--format'" in result.err
    choice = cli("check", "--format", "jsno")
    assert choice.code == 2 and "did you mean 'json'?" in choice.err


# --version


def test_version_shows_the_tool_and_the_content(project: Path, cli: Cli) -> None:
    from hookmsg import __version__

    declared = cli("--version")
    assert declared.code == 0
    assert declared.out.splitlines()[0] == f"hookmsg {__version__}"
    assert declared.out.splitlines()[1].startswith("content 0.1.0 ([project] version of ")
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace('version = "0.1.0"\n', "", 1), encoding="utf-8")
    hashed = cli("--version").out.splitlines()[1]
    assert hashed.startswith("content sha256:") and "hash of the sources" in hashed
    (project / "messages" / "stop.md").write_text(LICENCE + "\nChanged.\n", encoding="utf-8")
    assert cli("--version").out.splitlines()[1] != hashed


def test_version_outside_a_content_repository(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = cli("--version")
    assert result.code == 0
    assert result.out.splitlines()[1].startswith("content: none (")


# watch


@contextlib.contextmanager
def _watching(project: Path) -> Iterator[tuple[subprocess.Popen[str], queue.Queue[str]]]:
    process = subprocess.Popen(
        [*MAIN, "watch"],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    try:
        yield process, lines
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=60)


def _status(lines: queue.Queue[str]) -> str:
    """The next status line (bounded: a watch that never answers fails, it does not hang)."""
    while True:
        line = lines.get(timeout=120)
        if line.startswith("watch: "):
            return line.rstrip("\n")


@pytest.mark.slow
def test_watch_builds_after_each_save_with_one_status_line(project: Path) -> None:
    stop = project / "messages" / "stop.md"
    good = stop.read_text(encoding="utf-8")
    inventory = project / "generated" / "hook-message-inventory.json"
    before = inventory.read_bytes()
    with _watching(project) as (process, lines):
        assert _status(lines) == "watch: run 1 (start): ok"
        stop.write_text(good.removeprefix(LICENCE), encoding="utf-8")
        assert _status(lines) == "watch: run 2 (messages/stop.md): problems found, nothing written"
        stop.write_text(good.replace("## Bindings", "Saved again.\n\n## Bindings"), "utf-8")
        assert _status(lines) == "watch: run 3 (messages/stop.md): ok"
        process.terminate()
        assert _status(lines) == "watch: stopped after 3 runs"
        assert process.wait(timeout=60) == 0
    assert inventory.read_bytes() != before  # the last run wrote stop.md's new size
