"""preview, explain, output formats, colours and the release package, through the CLI."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg.codes import CODES
from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.config import load_project
from tests.support.diagnostics import Result
from tests.support.repository import REPO

Cli = Callable[..., Result]


def _break_licence(project: Path) -> None:
    stop = project / "messages" / "stop.md"
    stop.write_text(stop.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")


# preview


def test_preview_guard_uses_sample_values_then_the_procedure_line(project: Path, cli: Cli) -> None:
    result = cli("preview", "pretooluse-eval-guard")
    assert result.code == 0
    assert "pickle.loads" in result.out and "src/cache/store.py" in result.out
    assert result.out.startswith("This call went ahead.\n\n")
    assert result.out.endswith("/messages/pretooluse-eval-guard.md\n")
    assert "\n\nFull procedure: /" in result.out
    assert "{{" not in result.out
    size = len(result.out) - 1
    assert f"{size:,} characters (cap 10,000)" in result.err


def test_preview_guard_takes_set_values(project: Path, cli: Cli) -> None:
    result = cli("preview", "pretooluse-eval-guard", "--set", "primitive=yaml.load")
    assert result.code == 0
    assert "yaml.load" in result.out and "pickle.loads" not in result.out
    assert "src/cache/store.py" in result.out


def test_preview_context_message_prints_its_delivered_text(project: Path, cli: Cli) -> None:
    result = cli("preview", "stop")
    message = load_workspace(load_project()).authored["stop"]
    assert result.code == 0
    assert result.out == message.delivered + "\n"
    assert "SPDX" not in result.out and "## Bindings" not in result.out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("preview", "no-such-message"), "unknown message 'no-such-message'"),
        (("preview", "pretooluse-eval-guard", "--set", "colour=red"), "unknown placeholder colour"),
        (("preview", "pretooluse-eval-guard", "--set", "primitive"), "--set takes key=value"),
        (("preview", "stop", "--set", "path=x"), "'stop' is not a guard"),
    ],
)
def test_preview_errors_are_usage_errors(
    project: Path, cli: Cli, argv: tuple[str, ...], expected: str
) -> None:
    result = cli(*argv)
    assert result.code == 2
    assert expected in result.err
    assert result.out == ""


def test_preview_placeholder_without_any_value_is_an_error(project: Path, cli: Cli) -> None:
    guard = project / "catalog" / "guards" / "pretooluse-eval-guard.toml"
    text = guard.read_text(encoding="utf-8")
    assert 'primitive = "pickle.loads"' in text
    guard.write_text(text.replace('primitive = "pickle.loads"', 'primitive = ""'), encoding="utf-8")
    result = cli("preview", "pretooluse-eval-guard")
    assert result.code == 2
    assert "no value for placeholder primitive" in result.err


# explain


@pytest.mark.slow
def test_explain_every_code(cli: Cli) -> None:
    for code, rule in CODES.items():
        result = cli("explain", code.lower())
        assert result.code == 0
        assert result.out.startswith(f"{code}: {rule.summary}\n")
        assert f"Fix: {rule.fix}" in result.out and f"Example: {rule.example}" in result.out


def test_explain_lists_every_code_and_rejects_unknown_ones(cli: Cli) -> None:
    listing = cli("explain")
    assert [line.split()[0] for line in listing.out.splitlines()] == list(CODES)
    unknown = cli("explain", "Z999")
    assert unknown.code == 2 and "unknown code 'Z999'" in unknown.err


def test_the_code_type_and_the_code_table_list_the_same_codes() -> None:
    # `Code` (what mypy checks) and `CODES` (what explain and generated/rules.md print)
    # are written side by side in codes.py: neither may hold a code the other lacks.
    from typing import get_args

    from hookmsg.codes import Code

    assert list(get_args(Code)) == list(CODES)


def test_generated_rule_table_comes_from_the_code_table() -> None:
    # The committed table is drift-checked like every output (`hookmsg check`); here: it
    # has one row per code, in the table's order, with the code's text and fix.
    table = (REPO / "generated" / "rules.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(CODES)
    for row, rule in zip(rows, CODES.values(), strict=True):
        cells = [cell.strip() for cell in row.split(" | ")]
        assert cells[1:3] == [rule.summary, rule.fix]


def test_readme_links_to_the_generated_rule_table() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "(generated/rules.md)" in readme
    assert "| `F001` |" not in readme, "the rule table lives in generated/rules.md only"


# formats and colours


def test_the_format_choices_are_the_table_of_formatters() -> None:
    from hookmsg.cli.arguments import FORMAT_CHOICES
    from hookmsg.diagnostics import FORMATTERS, format_diagnostics

    assert tuple(FORMATTERS) == FORMAT_CHOICES
    with pytest.raises(ValueError, match="unknown diagnostic format 'xml'"):
        format_diagnostics([], "xml")


@pytest.mark.slow
def test_json_format_has_a_stable_schema(project: Path, cli: Cli) -> None:
    _break_licence(project)
    for argv in (("validate", "--format", "json"), ("check", "--format", "json")):
        result = cli(*argv)
        assert result.code == 1
        records = json.loads(result.out)
        assert records and all(
            set(r) == {"path", "line", "col", "code", "severity", "message"} for r in records
        )
        assert any(r["code"] == "L001" and r["path"] == "messages/stop.md" for r in records)


def test_json_format_prints_an_empty_array_when_clean(project: Path, cli: Cli) -> None:
    result = cli("validate", "--format", "json")
    assert (result.code, result.out) == (0, "[]\n")


def test_github_format_is_chosen_inside_github_actions(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    _break_licence(project)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = cli("validate")
    assert result.code == 1
    assert re.search(
        r"^::error file=messages/stop\.md,line=1,col=1,title=L001::L001 missing licence line",
        result.out,
        re.MULTILINE,
    )
    explicit = cli("validate", "--format", "text")
    assert explicit.out.startswith("messages/stop.md:1:1: L001 ")


@pytest.mark.slow
def test_colour_only_on_a_terminal_and_never_with_no_color(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    _break_licence(project)
    import hookmsg.report

    plain = cli("validate")  # captured output is not a terminal
    assert "\033[" not in plain.out

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    with monkeypatch.context() as patch:
        patch.delenv("NO_COLOR", raising=False)
        patch.setattr("sys.stdout", Terminal())
        on_terminal = hookmsg.report.use_colour()
        patch.setenv("NO_COLOR", "1")
        with_no_color = hookmsg.report.use_colour()
    assert on_terminal and not with_no_color

    monkeypatch.setattr(hookmsg.report, "use_colour", lambda: True)
    coloured = cli("validate")
    assert "\033[1;31mL001\033[0m" in coloured.out


def test_verbose_reports_a_summary(project: Path, cli: Cli) -> None:
    quiet = cli("validate")
    assert (quiet.out, quiet.err) == ("", "")
    verbose = cli("validate", "-v")
    assert "no problems found" in verbose.err


# release package


def _archive(project: Path) -> bytes:
    return next((project / "dist").glob("*.tar.gz")).read_bytes()


@pytest.mark.slow
def test_package_is_reproducible_and_its_manifest_matches(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert cli("package").code == 0
    first = _archive(project)
    (project / "dist").rename(project / "dist-1")
    assert cli("package").code == 0
    assert _archive(project) == first

    header = first[:10]
    assert header[3] & 0x08 == 0, "the gzip header must not carry a file name"
    assert int.from_bytes(header[4:8], "little") == 0, "the gzip header carries no time"

    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(first))) as tar:
        members = tar.getmembers()
        names = [m.name for m in members]
        assert names == sorted(names)
        for member in members:
            assert (member.uid, member.gid, member.uname, member.gname) == (0, 0, "", "")
            assert member.mtime == 1700000000
            assert member.mode == (0o755 if member.isdir() else 0o644)
        files = {
            m.name: tar.extractfile(m).read()  # type: ignore[union-attr]
            for m in members
            if m.isfile()
        }
    manifest = json.loads(files.pop("manifest.json"))
    listed = {f["path"]: f for f in manifest["files"]}
    assert set(listed) == set(files)
    for path, data in files.items():
        assert listed[path]["size"] == len(data)
        assert listed[path]["sha256"] == hashlib.sha256(data).hexdigest()
    assert (
        files["generated/advisories.json"] == (project / "generated/advisories.json").read_bytes()
    )
    # The entries sit at the top level: unpacked into an empty folder, it is an install root.
    assert all(not name.startswith(("/", "hookmsg-assets")) for name in names)
    assert "messages/pretooluse-eval-guard.md" in files
    assert not files["messages/stop.md"].startswith(b"<!--")
    # The installed table is the generated one, each message's guard data in a file beside it.
    table = json.loads(files["data/dispatch-table.json"])
    built = json.loads(files["generated/dispatch-table.json"])
    conditions, literals = built.pop("conditions"), built.pop("literals")
    assert table == {**built, "guard_data": sorted(conditions)}
    for name, condition in conditions.items():
        own = json.loads(files[f"data/guards/{name}.json"])
        assert own["condition"] == condition
        assert own["literals"].items() <= literals.items()
    assert {path for path in files if path.startswith("data/guards/")} == {
        f"data/guards/{name}.json" for name in conditions
    }
    assert files["hooks/dispatch.py"].startswith(b'"""hookmsg hook dispatcher')
    assert "hooks/hookmsg_dispatch/main.py" in files


def _git(root: Path, *argv: str) -> None:
    subprocess.run(["git", *argv], cwd=root, check=True, capture_output=True)


def _git_checkout(root: Path) -> None:
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(
        root,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "commit",
        "-qm",
        "first",
    )
    _git(root, "tag", "v9.8.7")


@pytest.mark.slow
def test_build_and_package_are_quiet_without_verbose(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    (project / "generated/advisories.json").write_text("{}\n", encoding="utf-8")
    assert (cli("build").code, cli("build").out) == (0, "")
    (project / "generated/advisories.json").write_text("{}\n", encoding="utf-8")
    built = cli("build")
    assert (built.code, built.out, built.err) == (0, "", "")
    packed = cli("package")
    assert (packed.code, packed.out, packed.err) == (0, "", "")
    assert "wrote " in cli("package", "--content-version", "v2", "-v").err


@pytest.mark.slow
def test_archive_name_carries_the_content_version(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    _git_checkout(project)
    assert cli("package").code == 0
    assert [p.name for p in (project / "dist").iterdir()] == ["hookmsg-assets-v9.8.7.tar.gz"]
    assert cli("package", "--content-version", "2026.12.1").code == 0
    assert (project / "dist/hookmsg-assets-2026.12.1.tar.gz").is_file()
    bad = cli("package", "--content-version", "../../x")
    assert bad.code == 2
    assert not (project.parent / "x.tar.gz").exists()


@pytest.mark.slow
def test_packaging_a_dirty_tree_warns(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    _git_checkout(project)
    clean = cli("package")
    assert clean.code == 0 and "uncommitted" not in clean.err
    (project / "catalog/skills.toml").write_text(
        (project / "catalog/skills.toml").read_text(encoding="utf-8") + "\n", encoding="utf-8"
    )
    dirty = cli("package")
    assert dirty.code == 0, dirty.err
    assert "warning: the working tree has uncommitted changes" in dirty.err
    assert (project / "dist/hookmsg-assets-v9.8.7-dirty.tar.gz").is_file()


@pytest.mark.slow
def test_existing_archive_with_different_bytes_is_never_overwritten(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert cli("package", "--content-version", "1.0").code == 0
    target = project / "dist/hookmsg-assets-1.0.tar.gz"
    same = target.read_bytes()
    assert cli("package", "--content-version", "1.0").code == 0  # same bytes: fine
    assert target.read_bytes() == same
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    result = cli("package", "--content-version", "1.0")
    assert result.code == 1
    assert "exists with different bytes" in result.err
    assert target.read_bytes() == same


def test_package_refuses_when_check_fails(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    (project / "generated" / "advisories.json").write_text("{}\n", encoding="utf-8")
    result = cli("package")
    assert result.code == 1
    assert "package refused" in result.err
    assert not (project / "dist").exists()


@pytest.mark.slow
def test_package_rejects_a_bad_source_date_epoch(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    result = cli("package")
    assert result.code == 2
    assert "SOURCE_DATE_EPOCH" in result.err


@pytest.mark.slow
def test_package_holds_only_what_the_check_validated(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A source edited after the check passed (here: a bidi override, D003) is never
    archived: package notices that its inputs changed and writes nothing."""
    import hookmsg.cli.commands.package as command

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    real_build = command.build
    stop = project / "messages/stop.md"

    def check_then_edit(*args: object, **kwargs: object) -> int:
        code = real_build(*args, **kwargs)  # type: ignore[arg-type]
        text = stop.read_text(encoding="utf-8")
        stop.write_text(text.replace("\n## Bindings", "\nA \u202e B.\n\n## Bindings"), "utf-8")
        return code

    monkeypatch.setattr(command, "build", check_then_edit)
    result = cli("package", "--content-version", "1.0")
    assert result.code == 1
    assert "changed while it ran" in result.err
    assert not (project / "dist").exists()


def test_generated_folder_may_not_overlap_a_skill_source_folder(project: Path, cli: Cli) -> None:
    with (project / "catalog/skills.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[[sources]]\nkind = "skills"\npath = "skill-files"\n')
    text = (project / "pyproject.toml").read_text(encoding="utf-8")
    (project / "pyproject.toml").write_text(
        text.replace('generated = "generated"', 'generated = "skill-files/out"'), encoding="utf-8"
    )
    result = cli("build")
    assert result.code == 2
    assert "K001" in result.err and "lies inside 'skill-files'" in result.err
