"""The main job's invariant, as a stateful property test:

- after `doit` exits 0, `hookmsg check` exits 0;
- after `doit` fails, the generated folder is byte for byte what it was.

Hypothesis drives random sequences of edits to a copy of this repository (messages,
catalogue entries, settings, Bindings-named files, generated files, stray and stale
files) and runs the real `doit` and `hookmsg check` after every step.

The bounded run in the normal suite is derandomized: HOOKMSG_INVARIANT_EXAMPLES
sequences (default 8) of up to 6 edits each, so about 50 `doit` runs. A longer run:

    HOOKMSG_INVARIANT_EXAMPLES=200 pytest tests/test_doit_invariant.py -q
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from tests.support.harnesses import harness_override
from tests.support.repository import REPO, WITH_DODO, copy_repository

pytestmark = pytest.mark.slow

LONG_RUN = os.environ.get("HOOKMSG_INVARIANT_EXAMPLES", "")
EXAMPLES = int(LONG_RUN or "8")
MESSAGES = sorted(p.name for p in (REPO / "messages").glob("*.md"))
OUTPUTS = sorted(
    p.relative_to(REPO / "generated").as_posix()
    for p in (REPO / "generated").rglob("*")
    if p.is_file()
)
HARNESSES_WITH_FILES = ["cursor", "codex", "kiro", "copilot"]


def _env(cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "NO_COLOR", "TERM")}
    env.update(PYTHONDONTWRITEBYTECODE="1", HOOKMSG_CACHE_DIR=cache, PYTHONUTF8="1")
    return env


def _generated(root: Path) -> dict[str, bytes | None]:
    folder = root / "generated"
    found: dict[str, bytes | None] = {}
    for here, dirs, names in os.walk(folder, followlinks=False):
        for name in [*dirs, *names]:
            path = Path(here) / name
            regular = path.is_file() and not path.is_symlink()
            found[path.relative_to(folder).as_posix()] = path.read_bytes() if regular else None
    return found


def _bump(path: Path, text: str) -> None:
    """Write `text` and move the mtime on (doit trusts an unchanged mtime)."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 10**9, before + 10**9))


class DoitInvariant(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.base = Path(tempfile.mkdtemp(prefix="hookmsg-invariant-"))
        self.root = copy_repository(self.base / "repo", WITH_DODO)
        self.env = _env(str(self.base / "cache"))
        self.steps: list[str] = []

    def teardown(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)

    # -- running ---------------------------------------------------------------------

    def _run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv,
            cwd=self.root,
            env=self.env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            check=False,
            timeout=600,
        )

    def _doit_then_check(self) -> None:
        before = _generated(self.root)
        done = self._run(sys.executable, "-m", "doit")
        output = done.stdout + done.stderr
        assert "Traceback" not in output, (self.steps, output)
        if done.returncode == 0:
            check = self._run(
                sys.executable,
                "-c",
                "import sys; from hookmsg.cli.main import run; sys.exit(run())",
                "check",
            )
            assert check.returncode == 0, (self.steps, output, check.stdout, check.stderr)
        else:
            assert _generated(self.root) == before, (self.steps, output)

    @initialize()
    def first_doit(self) -> None:
        self._doit_then_check()

    # -- edits -------------------------------------------------------------------------

    @rule(name=st.sampled_from(MESSAGES), sentence=st.sampled_from(["More.", "Also this."]))
    def edit_message(self, name: str, sentence: str) -> None:
        path = self.root / "messages" / name
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            _bump(path, text.replace("\n## Bindings", f"\n{sentence}\n\n## Bindings", 1))
        self.steps.append(f"edit {name}")
        self._doit_then_check()

    @rule(name=st.sampled_from(MESSAGES))
    def break_message(self, name: str) -> None:
        path = self.root / "messages" / name
        if path.is_file():
            _bump(path, path.read_text(encoding="utf-8").split("\n", 1)[1])  # no licence line
        self.steps.append(f"break {name}")
        self._doit_then_check()

    @rule(name=st.sampled_from(MESSAGES), how=st.sampled_from(["delete", "rename", "copy"]))
    def move_message(self, name: str, how: str) -> None:
        path = self.root / "messages" / name
        if path.is_file():
            if how == "delete":
                path.unlink()
            elif how == "rename":
                path.rename(path.with_name("renamed-" + name))
            else:
                shutil.copy2(path, path.with_name("copy-" + name))
        self.steps.append(f"{how} {name}")
        self._doit_then_check()

    @rule(harness=st.sampled_from(HARNESSES_WITH_FILES), new=st.sampled_from(["a.json", "b.json"]))
    def rename_registration(self, harness: str, new: str) -> None:
        path = harness_override(self.root)
        text = path.read_text(encoding="utf-8")
        start = text.find(f'id = "{harness}"')
        at = text.find('\nfile = "', start)
        if start >= 0 and at >= 0:
            end = text.index("\n", at + 1)
            _bump(path, text[:at] + f'\nfile = "{new}"' + text[end:])
        self.steps.append(f"rename {harness} registration to {new}")
        self._doit_then_check()

    @rule(words=st.sampled_from(["Short.", "A much longer description " * 8]))
    def edit_skill(self, words: str) -> None:
        path = self.root / "catalog/skills.toml"
        text = path.read_text(encoding="utf-8")
        at = text.find('description = "')
        if at >= 0:
            end = text.index("\n", at)
            _bump(path, text[:at] + f'description = "{words.strip()}"' + text[end:])
        self.steps.append("edit a skill description")
        self._doit_then_check()

    @rule(
        setting=st.sampled_from(
            [
                ("skill-index-budget = ", "skill-index-budget = 100"),
                ("skill-index-budget = ", "skill-index-budget = 5000"),
                ("delivered-cap = ", "delivered-cap = 50"),
                ('generated = "', 'generated = "."'),
                ('generated = "', 'generated = "messages"'),
                ('generated = "', 'generated = "generated"'),
                ("max-file-bytes = ", "max-file-bytes = 100"),
                ("max-file-bytes = ", "max-file-bytes = 1000000"),
            ]
        )
    )
    def edit_setting(self, setting: tuple[str, str]) -> None:
        prefix, line = setting
        path = self.root / "pyproject.toml"
        lines = path.read_text(encoding="utf-8").split("\n")
        _bump(path, "\n".join(line if x.startswith(prefix) else x for x in lines))
        self.steps.append(f"set {line}")
        self._doit_then_check()

    @rule(action=st.sampled_from(["create", "reference", "delete", "edit"]))
    def bindings_named_file(self, action: str) -> None:
        extra = self.root / "docs/extra.md"
        if action in {"create", "edit"}:
            extra.parent.mkdir(exist_ok=True)
            _bump(extra, f"Extra notes ({action}).\n")
        elif action == "delete":
            extra.unlink(missing_ok=True)
        else:
            path = self.root / "messages/stop.md"
            if path.is_file():
                text = path.read_text(encoding="utf-8")
                _bump(path, text.replace("`catalog/hooks.toml`, the", "`docs/extra.md`, the", 1))
        self.steps.append(f"{action} docs/extra.md")
        self._doit_then_check()

    @rule(
        name=st.sampled_from(OUTPUTS),
        how=st.sampled_from(["edit", "delete", "stray", "stale"]),
    )
    def touch_generated(self, name: str, how: str) -> None:
        folder = self.root / "generated"
        path = folder / name
        if how == "edit" and path.is_file():
            path.write_bytes(path.read_bytes() + b"hand edit\n")
        elif how == "delete":
            path.unlink(missing_ok=True)
        elif how == "stray" and folder.is_dir():
            (folder / "notes.md").write_text("mine\n", encoding="utf-8")
        elif how == "stale" and (folder / "outputs.json").is_file():
            old = path.parent / "old-output.json"
            old.parent.mkdir(parents=True, exist_ok=True)
            old.write_text("{}\n", encoding="utf-8")
            manifest = folder / "outputs.json"
            record = json.loads(manifest.read_text(encoding="utf-8"))
            record["outputs"] = sorted({*record["outputs"], old.relative_to(folder).as_posix()})
            manifest.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        self.steps.append(f"{how} generated/{name}")
        self._doit_then_check()

    @precondition(lambda self: (self.root / "generated/notes.md").exists())
    @rule()
    def remove_stray_file(self) -> None:
        (self.root / "generated/notes.md").unlink(missing_ok=True)
        self.steps.append("remove the stray file")
        self._doit_then_check()

    @invariant()
    def no_temporaries_left(self) -> None:
        left = [k for k in _generated(self.root) if k.endswith((".tmp", ".bak"))]
        assert left == [], (self.steps, left)


DoitInvariant.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=6,
    deadline=None,
    derandomize=True,
    database=None,
    phases=list(Phase) if LONG_RUN else [p for p in Phase if p != Phase.shrink],
    suppress_health_check=list(HealthCheck),
)
TestDoitInvariant = DoitInvariant.TestCase
