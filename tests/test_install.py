"""`hookmsg install`, `verify` and `uninstall` on every harness settings file.

Each surface starts from a file that already holds other hooks (other events, other
matchers, the user's own `dispatch.py`) and other keys, written the way its owner wrote
it. The round trip must keep all of that, recognise our entries by the install root's
dispatcher, replace them in place, and put the file back exactly on uninstall.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookmsg.install.identity import default_root
from hookmsg.install.merge import CONTAINERS, is_ours
from hookmsg.install.target import fill_tokens
from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.settings import load_project
from hookmsg.render.registrations import registration_data
from tests.support.diagnostics import Result, parse_findings
from tests.support.harnesses import harness_override
from tests.support.repository import files_under

Cli = Callable[..., Result]
PYTHON = "/usr/bin/python3"
SCRIPT = "hooks/dispatch.py"

# The user's own hooks, in each format: other events, other matchers, their own dispatch.py.
USER_COMMAND = "python3 /home/me/tools/hooks/dispatch.py --mine"
_CLAUDE_LIKE: dict[str, Any] = {
    "model": "opus",
    "hooks": {
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        "PreToolUse": [
            {"matcher": "Write", "hooks": [{"type": "command", "command": USER_COMMAND}]},
            {"matcher": "Grep", "hooks": [{"type": "command", "command": "echo grep"}]},
        ],
        "SessionStart": [{"hooks": [{"type": "command", "command": "echo hello"}]}],
    },
    "permissions": {"allow": ["Bash(ls:*)"], "ratio": 1.5, "ids": [1, 2, 3]},
}
USER_FILES: dict[str, dict[str, Any]] = {
    "claude-code-engine": _CLAUDE_LIKE,
    "qwen-code": _CLAUDE_LIKE,
    "codebuddy": _CLAUDE_LIKE,
    "devin-local": _CLAUDE_LIKE,
    "codex": {"description": "team hooks", "hooks": _CLAUDE_LIKE["hooks"]},
    "copilot": {
        "version": 1,
        "hooks": {
            "agentStop": [{"type": "command", "bash": "echo bye", "powershell": "echo bye"}],
            "sessionStart": [{"type": "command", "bash": USER_COMMAND, "powershell": USER_COMMAND}],
        },
    },
    "cursor": {
        "version": 1,
        "hooks": {
            "beforeShellExecution": [{"command": "./audit.sh"}],
            "sessionStart": [{"command": USER_COMMAND, "timeout": 5}],
        },
    },
    "kiro": {
        "version": "v1",
        "hooks": [
            {
                "name": "mine",
                "trigger": "SessionStart",
                "action": {"type": "command", "command": USER_COMMAND},
                "enabled": True,
            }
        ],
    },
}
PROJECT_FILES = {
    "claude-code-engine": ".claude/settings.json",
    "qwen-code": ".qwen/settings.json",
    "codebuddy": ".codebuddy/settings.local.json",
    "devin-local": ".devin/config.local.json",
    "codex": ".codex/hooks.json",
    "copilot": ".github/hooks/hookmsg.json",
    "cursor": ".cursor/hooks.json",
    "kiro": ".kiro/hooks/hookmsg.json",
}
SURFACES = list(PROJECT_FILES)
# Each layout a user may have written the file in; the round trip keeps it.
LAYOUTS: dict[str, Callable[[Any], str]] = {
    "indent4": lambda data: json.dumps(data, indent=4) + "\n",
    "tabs": lambda data: json.dumps(data, indent="\t"),
    "one-line": json.dumps,
}


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    """(a project folder, an install root that does not exist yet)."""
    target = tmp_path / "my project"
    target.mkdir()
    return target, tmp_path / "data" / "hookmsg" / "1.0"


def _install(cli: Cli, surface: str, target: Path, root: Path, *extra: str) -> Result:
    return cli(
        "install",
        "--harness",
        surface,
        "--project",
        str(target),
        "--root",
        str(root),
        "--python",
        PYTHON,
        *extra,
    )


def _ours(surface: str, root: Path, *, strict: bool = False) -> dict[str, Any]:
    workspace = load_workspace(load_project())
    harnesses, registry = workspace.catalogue.harnesses, workspace.catalogue.registry
    assert harnesses is not None and registry is not None
    harness = next(h for h in harnesses.harnesses if h.id == surface)
    data = registration_data(harness, registry, strict=strict)
    result: dict[str, Any] = fill_tokens(data, {"PYTHON_BIN": PYTHON, "HARNESS_ROOT": str(root)})
    return result


def _items(document: dict[str, Any], surface: str) -> list[tuple[str, Any]]:
    """(event, item) of every hook item in the file, in order."""
    hooks = document.get("hooks", {})
    if CONTAINERS[_format(surface)] == "list":
        return [("", item) for item in hooks]
    return [(event, item) for event, items in hooks.items() for item in items]


def _format(surface: str) -> str:
    return {
        "claude-code-engine": "claude-settings",
        "qwen-code": "qwen",
        "codebuddy": "claude-compatible",
        "devin-local": "devin",
        "codex": "codex",
        "copilot": "copilot",
        "cursor": "cursor",
        "kiro": "kiro",
    }[surface]


@pytest.mark.slow
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("surface", SURFACES)
def test_install_verify_uninstall_round_trip_keeps_the_users_file(
    project: Path, cli: Cli, places: tuple[Path, Path], surface: str, layout: str
) -> None:
    target, root = places
    settings = target / PROJECT_FILES[surface]
    settings.parent.mkdir(parents=True)
    original = LAYOUTS[layout](USER_FILES[surface]).encode("utf-8")
    settings.write_bytes(original)

    result = _install(cli, surface, target, root)
    assert result.code == 0, result.out + result.err
    installed = settings.read_bytes()
    document = json.loads(installed)
    # Every key and hook that is not ours is still there, in order and unchanged.
    theirs = [(e, i) for e, i in _items(document, surface) if not is_ours(i, SCRIPT)]
    assert theirs == _items(USER_FILES[surface], surface)
    assert [k for k in document if k in USER_FILES[surface]] == list(USER_FILES[surface])
    for key, value in USER_FILES[surface].items():
        if key != "hooks":
            assert document[key] == value
    # Ours are exactly the registration, event by event, in its order.
    mine = [(e, i) for e, i in _items(document, surface) if is_ours(i, SCRIPT)]
    assert mine, surface
    assert sorted(map(json.dumps, mine)) == sorted(
        map(json.dumps, _items(_ours(surface, root), surface))
    )
    # The user's own dispatch.py is not taken for ours.
    assert USER_COMMAND in installed.decode("utf-8")
    # Members the merge did not touch stay byte for byte: what comes before the hooks, and
    # the members after them.
    cut = original.index(b'"hooks"')
    assert installed[:cut] == original[:cut]
    if b'"permissions"' in original:
        tail = original.index(b'"permissions"')
        assert installed[installed.index(b'"permissions"') :] == original[tail:]

    verify = cli("verify", "--harness", surface, "--project", str(target))
    assert verify.code == 0, verify.out + verify.err

    again = _install(cli, surface, target, root)
    assert again.code == 0, again.out + again.err
    assert settings.read_bytes() == installed, "re-install changed the file"

    removed = cli("uninstall", "--harness", surface, "--project", str(target))
    assert removed.code == 0, removed.out + removed.err
    left = json.loads(settings.read_bytes())
    assert left == USER_FILES[surface]
    if layout == "indent4":
        # Written in the layout the file already had: the bytes come back exactly.
        assert settings.read_bytes() == original
    absent = cli("verify", "--harness", surface, "--project", str(target))
    assert absent.code == 1
    assert [f.code for f in parse_findings(absent.out)] == ["I007"]


@pytest.mark.slow
@pytest.mark.parametrize("surface", SURFACES)
def test_install_into_a_project_without_the_file_and_uninstall_removes_it(
    project: Path, cli: Cli, places: tuple[Path, Path], surface: str
) -> None:
    target, root = places
    settings = target / PROJECT_FILES[surface]
    result = _install(cli, surface, target, root)
    assert result.code == 0, result.out + result.err
    assert json.loads(settings.read_bytes()) == _ours(surface, root)
    assert (root / "manifest.json").is_file()
    removed = cli("uninstall", "--harness", surface, "--project", str(target))
    assert removed.code == 0, removed.out + removed.err
    assert not settings.exists()
    assert (root / "manifest.json").is_file(), "uninstall leaves the install root in place"


@pytest.mark.slow
def test_codex_install_says_how_to_trust_the_hooks(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    result = _install(cli, "codex", target, root)
    assert result.code == 0, result.out + result.err
    assert "trusted project" in result.err and "/hooks" in result.err
    assert "trustStatus" in result.err


# The one line each harness that runs hooks only after a trust step or an opt-in needs,
# as install and verify print it: the exact setting.
NEEDS = {
    "codex": ("trusted_hash", 'trust_level = \\"trusted\\"'),
    "copilot": ("COPILOT_ALLOW_ALL=true", "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true"),
    "gemini-cli": ("trusted workspace", "GEMINI_CLI_TRUST_WORKSPACE=true"),
}


@pytest.mark.parametrize("surface", sorted(NEEDS))
def test_install_and_verify_say_what_the_harness_needs_before_it_runs_hooks(
    project: Path, cli: Cli, places: tuple[Path, Path], surface: str
) -> None:
    target, root = places
    installed = _install(cli, surface, target, root)
    verified = cli("verify", "--harness", surface, "--project", str(target))
    assert installed.code == 0 and verified.code == 0, installed.err + verified.err
    for result in (installed, verified):
        lines = [line for line in result.err.splitlines() if NEEDS[surface][0] in line]
        assert len(lines) == 1, result.err
        for setting in NEEDS[surface]:
            assert setting.replace("\\", "") in lines[0], lines[0]


def test_a_harness_that_needs_no_step_says_none(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    for surface in ("claude-code-engine", "factory-droid"):
        for result in (
            _install(cli, surface, target, root),
            cli("verify", "--harness", surface, "--project", str(target)),
        ):
            assert result.code == 0, result.err
            assert "trust" not in result.err.lower(), result.err


def test_codex_file_with_another_top_level_key_is_refused(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    settings = target / ".codex" / "hooks.json"
    settings.parent.mkdir(parents=True)
    original = b'{"hooks": {}, "model": "o3"}\n'
    settings.write_bytes(original)
    result = _install(cli, "codex", target, root)
    assert result.code == 1
    assert [f.code for f in parse_findings(result.out)] == ["I005"]
    assert settings.read_bytes() == original
    assert not root.exists()


@pytest.mark.slow
def test_reinstall_with_another_root_replaces_our_entries_in_place(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    settings = target / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps(_CLAUDE_LIKE, indent=2), encoding="utf-8")
    assert _install(cli, "claude-code-engine", target, root).code == 0
    first = json.loads(settings.read_bytes())
    newer = root.parent / "2.0"
    assert _install(cli, "claude-code-engine", target, newer).code == 0
    second = json.loads(settings.read_bytes())
    assert str(root) not in json.dumps(second)
    # Same places, same count: replaced where they stood, never duplicated.
    shape = [
        (event, is_ours(item, SCRIPT)) for event, items in first["hooks"].items() for item in items
    ]
    assert shape == [
        (event, is_ours(item, SCRIPT)) for event, items in second["hooks"].items() for item in items
    ]
    assert cli("verify", "--harness", "claude-code-engine", "--project", str(target)).code == 0


@pytest.mark.slow
def test_strict_install_registers_qwen_guards_that_can_only_deny(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    plain = _ours("qwen-code", root)
    assert "PreToolUse" not in plain["hooks"]
    result = _install(cli, "qwen-code", target, root, "--strict")
    assert result.code == 0, result.out + result.err
    document = json.loads((target / ".qwen" / "settings.json").read_bytes())
    matchers = [group["matcher"] for group in document["hooks"]["PreToolUse"]]
    assert matchers == ["^write_file$", "^edit$", "^run_shell_command$"]
    for event, item in _items(document, "qwen-code"):
        assert " --strict " in item["hooks"][0]["command"], event
    assert cli("verify", "--harness", "qwen-code", "--project", str(target)).code == 0


# --------------------------------------------------------------------------- refusals

REFUSED: dict[str, tuple[bytes, str]] = {
    "not JSON": (b'{"hooks": {', "I003"),
    "empty": (b"", "I003"),
    "duplicate key": (b'{"hooks": {}, "hooks": {}}', "I003"),
    "NaN": (b'{"n": NaN}', "I003"),
    "exponent": (b'{"n": 1E2}', "I004"),
    "trailing zero": (b'{"n": 1.50}', "I004"),
    "big integer": (b'{"n": 12345678901234567890}', "I004"),
    "lone surrogate": (b'{"s": "\\ud800"}', "I004"),
    "escaped slash": (b'{"s": "a\\/b"}', "I004"),
    "hooks not an object": (b'{"hooks": []}', "I005"),
    "event not a list": (b'{"hooks": {"Stop": {}}}', "I005"),
    "not an object": (b"[1, 2]", "I005"),
    "not UTF-8": (b'{"s": "\xe9"}', "I003"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", REFUSED)
@pytest.mark.parametrize("command", ["install", "uninstall", "verify"])
def test_a_file_that_cannot_be_kept_exactly_is_refused_and_left_untouched(
    project: Path, cli: Cli, places: tuple[Path, Path], case: str, command: str
) -> None:
    target, root = places
    settings = target / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    content, code = REFUSED[case]
    settings.write_bytes(content)
    if command == "install":
        result = _install(cli, "claude-code-engine", target, root)
    else:
        result = cli(command, "--harness", "claude-code-engine", "--project", str(target))
    assert result.code == 1, result.out + result.err
    assert "Traceback" not in result.err
    found = parse_findings(result.out)
    assert [f.code for f in found] == [code]
    assert found[0].path == str(settings)
    assert settings.read_bytes() == content
    assert not root.exists()


def test_an_existing_folder_that_is_not_an_install_root_is_never_replaced(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    root.mkdir(parents=True)
    (root / "thesis.tex").write_text("precious", encoding="utf-8")
    result = _install(cli, "cursor", target, root)
    assert result.code == 1
    assert [f.code for f in parse_findings(result.out)] == ["I006"]
    assert files_under(root) == {"thesis.tex": b"precious"}
    assert not (target / ".cursor").exists()


@pytest.mark.slow
def test_a_previous_install_root_holding_a_stranger_file_is_not_replaced(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    assert _install(cli, "cursor", target, root).code == 0
    (root / "notes.txt").write_text("mine", encoding="utf-8")
    (root / "generated" / "skill-index.md").write_text("changed", encoding="utf-8")
    before = files_under(root)
    result = _install(cli, "cursor", target, root)
    assert result.code == 1
    assert [f.code for f in parse_findings(result.out)] == ["I006"]
    assert files_under(root) == before


@pytest.mark.slow
def test_a_previous_install_root_is_replaced_whole(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    assert _install(cli, "cursor", target, root).code == 0
    expected = files_under(root)
    (root / "generated" / "skill-index.md").write_text("changed", encoding="utf-8")
    cache = root / "hooks" / "hookmsg_dispatch" / "__pycache__"
    cache.mkdir(parents=True)
    (cache / "main.cpython-311.pyc").write_bytes(b"bytecode")
    assert cli("verify", "--harness", "cursor", "--project", str(target)).code == 1
    assert _install(cli, "cursor", target, root).code == 0
    assert files_under(root) == expected
    siblings = sorted(p.name for p in root.parent.iterdir())
    assert siblings == [root.name], "no temporary folder is left beside the root"


# --------------------------------------------------------------------------- dry run, verify


@pytest.mark.slow
@pytest.mark.parametrize("surface", SURFACES)
def test_dry_run_prints_the_diff_and_writes_nothing(
    project: Path, cli: Cli, places: tuple[Path, Path], surface: str
) -> None:
    target, root = places
    settings = target / PROJECT_FILES[surface]
    settings.parent.mkdir(parents=True)
    original = json.dumps(USER_FILES[surface], indent=2).encode()
    settings.write_bytes(original)
    result = _install(cli, surface, target, root, "--dry-run")
    assert result.code == 0, result.out + result.err
    assert f"--- {settings}\n+++ {settings}\n" in result.out
    added = [line for line in result.out.split("\n") if line.startswith("+") and "-I -S" in line]
    assert added, result.out
    assert "dry run: nothing was changed" in result.err
    assert settings.read_bytes() == original
    assert not root.exists()
    assert sorted(p.name for p in settings.parent.iterdir()) == [settings.name]


@pytest.mark.slow
def test_verify_reports_a_stale_registration_and_an_incomplete_root(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    assert _install(cli, "codex", target, root).code == 0
    settings = target / ".codex" / "hooks.json"
    installed = settings.read_text(encoding="utf-8")
    # An older install also registered Stop on Codex, whose output never reaches the model.
    document = json.loads(installed)
    stop = json.loads(json.dumps(document["hooks"]["PostToolUse"][0]))
    for handler in stop["hooks"]:
        for key in ("command", "commandWindows"):
            handler[key] = handler[key].replace(
                "PostToolUse posttooluse-proactive-compaction", "Stop stop"
            )
    del stop["matcher"]
    document["hooks"]["Stop"] = [stop]
    settings.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    shutil.rmtree(root / "installs")  # an older hookmsg kept no record of what it added
    stale = cli("verify", "--harness", "codex", "--project", str(target))
    assert stale.code == 1
    found = parse_findings(stale.out)
    assert [f.code for f in found] == ["I008"]
    assert "Stop" in found[0].message
    assert _install(cli, "codex", target, root).code == 0
    assert "Stop" not in json.loads(settings.read_bytes())["hooks"]
    assert cli("verify", "--harness", "codex", "--project", str(target)).code == 0
    (root / "generated" / "hook-wiring.md").unlink()
    broken = cli("verify", "--harness", "codex", "--project", str(target))
    assert broken.code == 1
    found = parse_findings(broken.out)
    assert [f.code for f in found] == ["I009"]
    assert "hook-wiring.md is missing" in found[0].message


def test_verify_an_absent_file(project: Path, cli: Cli, places: tuple[Path, Path]) -> None:
    target, _ = places
    result = cli("verify", "--harness", "kiro", "--project", str(target))
    assert result.code == 1
    assert [f.code for f in parse_findings(result.out)] == ["I007"]


def test_the_plugin_is_not_installed_into_a_project(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    result = _install(cli, "claude-code-plugin", target, root)
    assert result.code == 2
    assert "install-render" in result.err
    assert not root.exists()


# --------------------------------------------------------------------------- paths

HOSTILE_PATHS = {
    "option": "-cimport os;os.system('touch pwned')#",
    "relative": "hooks/root",
    "drive-relative": "C:hooks",
    "tilde": "~/hookmsg",
    "dollar": "/opt/$(touch pwned)",
    "backtick": "/opt/`touch pwned`",
    "percent": "/opt/%USERPROFILE%",
    "backslash": "/opt/a\\b",
    "ascii quote": '/opt/a"b',
    "apostrophe": "/opt/it's",
    "left double quotation mark": "/opt/a\u201cb",
    "right double quotation mark": "/opt/a\u201db",
    "low double quotation mark": "/opt/a\u201eb",
    "left single quotation mark": "/opt/a\u2018b",
    "guillemet": "/opt/a\u00abb",
    "newline": "/opt/a\nb",
    "bidi override": "/opt/a\u202eb",
}


@pytest.mark.slow
@pytest.mark.parametrize("case", [case for case in HOSTILE_PATHS if case != "relative"])
@pytest.mark.parametrize("option", ["--root", "--python", "--project"])
def test_install_refuses_a_path_that_could_change_the_command(
    project: Path, cli: Cli, places: tuple[Path, Path], case: str, option: str
) -> None:
    target, root = places
    paths = {"--root": str(root), "--python": PYTHON, "--project": str(target)}
    paths[option] = HOSTILE_PATHS[case]
    before = files_under(project.parent)
    result = cli(
        "install",
        "--harness",
        "codex",
        "--project",
        paths["--project"],
        "--root",
        paths["--root"],
        "--python",
        paths["--python"],
    )
    assert result.code == 2, result.out + result.err
    assert option in result.err
    assert files_under(project.parent) == before
    assert not list(project.parent.rglob("pwned"))


@pytest.mark.slow
@pytest.mark.parametrize("case", HOSTILE_PATHS)
@pytest.mark.parametrize("option", ["--root", "--python"])
def test_install_render_refuses_the_same_paths(
    project: Path, cli: Cli, case: str, option: str
) -> None:
    paths = {"--root": "/opt/hookmsg", "--python": PYTHON, option: HOSTILE_PATHS[case]}
    result = cli(
        "install-render",
        "--harness",
        "codex",
        "--python",
        paths["--python"],
        "--root",
        paths["--root"],
    )
    assert result.code == 2, result.out + result.err
    assert result.out == ""
    assert option in result.err


@pytest.mark.parametrize("command", ["install-render", "install"])
def test_a_hostile_event_name_in_the_catalogue_is_refused_before_rendering(
    project: Path, cli: Cli, places: tuple[Path, Path], command: str
) -> None:
    target, root = places
    hooks = project / "catalog" / "hooks.toml"
    text = hooks.read_text(encoding="utf-8")
    hooks.write_text(
        text.replace(
            'event = "Stop"\nmessages = ["stop"]',
            'event = "Stop;$(touch pwned)"\nmessages = ["stop"]',
        ),
        encoding="utf-8",
    )
    assert "Stop;$(touch pwned)" in hooks.read_text(encoding="utf-8")
    result = cli(
        command,
        "--harness",
        "claude-code-engine",
        "--python",
        PYTHON,
        "--root",
        str(root),
        *(["--project", str(target)] if command == "install" else []),
    )
    assert result.code == 1, result.out + result.err
    for line in result.out.split("\n")[:-1]:
        assert line.startswith("catalog/hooks.toml:"), line  # diagnostics only, no JSON
    assert "nothing is rendered" in result.err
    assert not root.exists()
    assert not (target / ".claude").exists()


def test_a_hostile_harness_event_spelling_is_refused(project: Path, cli: Cli) -> None:
    harnesses = harness_override(project)
    text = harnesses.read_text(encoding="utf-8")
    harnesses.write_text(
        text.replace(
            'SessionStart = "sessionStart"', 'SessionStart = "sessionStart;$(touch x)"', 1
        ),
        encoding="utf-8",
    )
    result = cli("install-render", "--harness", "cursor", "--python", PYTHON, "--root", "/opt/h")
    assert result.code == 1
    assert "C002" in result.out
    assert "hooks" not in result.out


def test_default_root_follows_xdg_only_when_absolute(monkeypatch: pytest.MonkeyPatch) -> None:
    content = "ab" * 32
    expected = f"/srv/data/hookmsg/roots/mine-{content[:16]}"
    assert default_root("mine", content, {"XDG_DATA_HOME": "/srv/data"}) == expected
    home = Path.home()
    for value in ("relative/data", "", "~/data"):
        assert default_root("mine", content, {"XDG_DATA_HOME": value}) == str(
            home / ".local" / "share" / "hookmsg" / "roots" / f"mine-{content[:16]}"
        )


@pytest.mark.slow
def test_install_defaults_to_the_base_interpreter_and_a_root_keyed_by_content(
    project: Path, cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "xdg data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    base = tmp_path / "base python3"
    base.write_text("")
    base.chmod(0o755)
    monkeypatch.setattr(sys, "executable", "/opt/venv/bin/python3")
    monkeypatch.setattr(sys, "_base_executable", str(base), raising=False)
    target = tmp_path / "elsewhere"
    target.mkdir()
    # the working directory is the content repository: a relative --project is resolved
    result = cli("install", "--harness", "cursor", "--project", "../elsewhere")
    assert result.code == 0, result.out + result.err
    document = json.loads((target / ".cursor" / "hooks.json").read_bytes())
    command = document["hooks"]["sessionStart"][0]["command"]
    # a virtual environment's base interpreter, so the hooks outlive the venv
    assert command.startswith(f'"{base}" -I -S -c ')
    [root] = (data / "hookmsg" / "roots").iterdir()
    assert root.name.startswith("hookmsg-")
    assert f'"{root}/hooks/dispatch.py"' in command
    manifest = json.loads((root / "manifest.json").read_bytes())
    assert manifest["source"] == "hookmsg"
    assert root.name == f"hookmsg-{manifest['content'][:16]}"


@pytest.mark.slow
def test_a_group_holding_our_handler_beside_the_users_keeps_the_users(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    assert _install(cli, "claude-code-engine", target, root).code == 0
    settings = target / ".claude" / "settings.json"
    document = json.loads(settings.read_bytes())
    group = document["hooks"]["Stop"][0]
    mine = {"type": "command", "command": "echo my own stop hook"}
    group["hooks"].insert(0, mine)  # the user added a handler of their own to our group
    settings.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    assert _install(cli, "claude-code-engine", target, root).code == 0
    again = json.loads(settings.read_bytes())
    handlers = [h for g in again["hooks"]["Stop"] for h in g["hooks"]]
    assert handlers.count(mine) == 1
    assert len([h for h in handlers if is_ours(h, SCRIPT)]) == 1
    assert cli("uninstall", "--harness", "claude-code-engine", "--project", str(target)).code == 0
    left = json.loads(settings.read_bytes())
    assert left == {"hooks": {"Stop": [{"hooks": [mine]}]}}


def test_a_linked_settings_file_is_refused(
    project: Path, cli: Cli, places: tuple[Path, Path], tmp_path: Path
) -> None:
    target, root = places
    elsewhere = tmp_path / "dotfiles.json"
    elsewhere.write_text("{}\n", encoding="utf-8")
    (target / ".cursor").mkdir()
    (target / ".cursor" / "hooks.json").symlink_to(elsewhere)
    result = _install(cli, "cursor", target, root)
    assert result.code == 1
    assert [f.code for f in parse_findings(result.out)] == ["I005"]
    assert elsewhere.read_text(encoding="utf-8") == "{}\n"
    assert (target / ".cursor" / "hooks.json").is_symlink()


def test_a_project_that_is_not_a_folder_is_a_usage_error(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    for command in ("install", "verify", "uninstall"):
        extra = ["--root", str(root)] if command == "install" else []
        result = cli(command, "--harness", "kiro", "--project", str(target / "nope"), *extra)
        assert result.code == 2, command
        assert "is not a folder" in result.err
    assert not (target / "nope").exists()
    assert not root.exists()


def test_a_windows_path_with_forward_slashes_is_absolute(project: Path, cli: Cli) -> None:
    result = cli(
        "install-render",
        "--harness",
        "codex",
        "--python",
        "C:/Python312/python.exe",
        "--root",
        "D:/hookmsg/1.0",
    )
    assert result.code == 0, result.out + result.err
    windows = json.loads(result.out)["hooks"]["SessionStart"][0]["hooks"][0]["commandWindows"]
    assert windows.startswith('& "C:/Python312/python.exe" -I -S -c "')
    assert '"D:/hookmsg/1.0/hooks/dispatch.py" --contract codex SessionStart' in windows


def test_every_install_code_is_asserted_here() -> None:
    # I003-I013 are tested in this file and the install tests beside it (tests/test_codes.py
    # leaves them to them).
    import re

    from hookmsg.codes import CODES

    source = Path(__file__).read_text(encoding="utf-8")
    install_codes = [
        code for code in CODES if code.startswith("I") and code not in ("I001", "I002")
    ]
    assert install_codes == [f"I{n:03d}" for n in range(3, 14)]
    here = Path(__file__).parent
    source += "".join(
        (here / name).read_text(encoding="utf-8")
        for name in ("test_install_confinement.py", "test_install_roots.py")
    )
    for code in install_codes:
        assert re.search(rf"\"{code}\"", source), code  # asserted by some test here


# ---------------------------------------------------------------- the installed root runs


def _session_start_command(settings: Path) -> str:
    document = json.loads(settings.read_bytes())
    group = next(g for g in document["hooks"]["SessionStart"] if "matcher" not in g)
    command: str = group["hooks"][0]["command"]
    return command


@pytest.mark.slow
def test_the_installed_registration_delivers_and_fails_open_once_the_root_is_gone(
    project: Path, cli: Cli, places: tuple[Path, Path], tmp_path: Path
) -> None:
    import subprocess

    target, root = places
    result = cli(
        "install",
        "--harness",
        "claude-code-engine",
        "--project",
        str(target),
        "--root",
        str(root),
        "--python",
        sys.executable,
    )
    assert result.code == 0, result.out + result.err
    command = _session_start_command(target / ".claude" / "settings.json")
    payload = json.dumps(
        {
            "hook_event_name": "SessionStart",
            "source": "startup",
            "session_id": "install-test",
            "cwd": str(target),
            "transcript_path": str(tmp_path / "transcript.jsonl"),
        }
    )
    env = {"PATH": "/usr/bin:/bin", "HOOKMSG_HOOK_STATE_DIR": str(tmp_path / "state")}

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["sh", "-c", command],
            cwd=target,
            env=env,
            input=payload,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    done = run()
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    session_start = (root / "messages" / "sessionstart.md").read_text(encoding="utf-8")
    assert session_start.strip()[:200] in context
    assert cli("verify", "--harness", "claude-code-engine", "--project", str(target)).code == 0

    shutil.rmtree(root)
    gone = run()
    assert (gone.returncode, gone.stdout) == (0, "")
    verify = cli("verify", "--harness", "claude-code-engine", "--project", str(target))
    assert verify.code == 1
    assert [f.code for f in parse_findings(verify.out)] == ["I009"]


@pytest.mark.slow
def test_a_users_inline_event_list_keeps_its_bytes_through_install_and_uninstall(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    # The user's PreToolUse list is written inline; our install adds entries to that very
    # list. Their element must keep its exact text while ours sit beside it, and uninstall
    # must give the file back byte for byte.
    target, root = places
    settings = target / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = (
        b"{\n"
        b'    "permissions": {"allow": ["Bash(ls:*)"]},\n'
        b'    "hooks": {\n'
        b'        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",'
        b' "command": "echo mine"}]}]\n'
        b"    }\n"
        b"}\n"
    )
    settings.write_bytes(original)
    assert _install(cli, "claude-code-engine", target, root).code == 0
    installed = settings.read_bytes()
    users_element = b'{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}'
    assert users_element in installed
    assert len(json.loads(installed)["hooks"]["PreToolUse"]) > 1
    uninstalled = cli("uninstall", "--harness", "claude-code-engine", "--project", str(target))
    assert uninstalled.code == 0, uninstalled.err
    assert settings.read_bytes() == original


# ------------------------------------------------------------------ where install goes


def test_install_without_project_is_refused_in_the_content_repository(
    project: Path, cli: Cli, places: tuple[Path, Path]
) -> None:
    _, root = places
    before = files_under(project)
    for extra in ([], ["--project", "."], ["--project", str(project)]):
        result = cli("install", "--harness", "cursor", "--root", str(root), *extra)
        assert result.code == 2, extra
        assert "is the content repository itself" in result.err
        assert "--into-content-repo" in result.err
    assert files_under(project) == before
    assert not root.exists()
    asked = cli(
        "install", "--harness", "cursor", "--root", str(root), "--python", PYTHON,
        "--into-content-repo",
    )  # fmt: skip
    assert asked.code == 0, asked.out + asked.err
    assert (project / ".cursor" / "hooks.json").is_file()


def test_relative_project_and_root_are_resolved_against_the_working_directory(
    project: Path, cli: Cli, places: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    target, _ = places
    monkeypatch.chdir(target.parent)
    result = cli(
        "install", "--harness", "cursor", "--project", f"./{target.name}", "--root",
        "data/relative-root", "--python", PYTHON,
    )  # fmt: skip
    # the content repository is found from the working directory: run from inside it
    assert result.code == 2 and "pyproject.toml" in result.err
    monkeypatch.chdir(project)
    relative = Path("..") / target.name
    result = cli(
        "install", "--harness", "cursor", "--project", str(relative), "--root",
        "../data/relative-root", "--python", PYTHON,
    )  # fmt: skip
    assert result.code == 0, result.out + result.err
    hooks = json.loads((target / ".cursor" / "hooks.json").read_bytes())["hooks"]
    root = target.parent / "data" / "relative-root"
    commands = [item["command"] for items in hooks.values() for item in items]
    assert commands and all(f'"{root}/hooks/dispatch.py"' in c for c in commands)
    assert (root / "manifest.json").is_file()
    assert cli("verify", "--harness", "cursor", "--project", str(relative)).code == 0
