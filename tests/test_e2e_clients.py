"""scripts/e2e_clients.py: where the real clients are cached, and that a second run is a
no-op. (The installs themselves run in CI before the end-to-end tests.)"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support.repository import REPO

pytestmark = pytest.mark.slow

SCRIPT = REPO / "scripts" / "e2e_clients.py"
PINS = tomllib.loads((REPO / "catalog" / "e2e-clients.toml").read_text(encoding="utf-8"))


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def folder_name(client: dict[str, str]) -> str:
    return f"{client['package']}@{client['version']}".replace("/", "+")


def present(cache: Path, client: dict[str, str], version: str | None = None) -> Path:
    """Lay out a cached client as the script leaves one: its folder, marker, executable."""
    folder = cache / folder_name(client)
    binary = folder / "node_modules" / ".bin" / client["bin"]
    binary.parent.mkdir(parents=True)
    binary.write_text("#!/bin/sh\necho cached\n", encoding="utf-8")
    binary.chmod(0o755)
    spec = f"{client['package']}@{version or client['version']}"
    (folder / ".hookmsg-e2e-complete").write_text(spec + "\n", encoding="utf-8")
    return binary


def no_npm_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """An environment whose PATH holds no npm: an attempt to install would fail loudly."""
    empty = tmp_path / "empty-bin"
    empty.mkdir(exist_ok=True)
    return {"PATH": str(empty), "HOME": str(tmp_path / "home"), **extra}


def test_the_pins_are_exact_versions_of_the_three_clients() -> None:
    clients = {c["harness"]: c for c in PINS["clients"]}
    assert set(clients) == {"claude-code-engine", "codex", "qwen-code"}
    for client in clients.values():
        assert all(part.isdigit() for part in client["version"].split(".")), client


def test_a_second_run_with_the_cache_present_installs_nothing_and_says_so(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    binaries = {c["harness"]: present(cache, c) for c in PINS["clients"]}
    before = sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*"))

    done = run("--cache", str(cache), env=no_npm_env(tmp_path))

    assert done.returncode == 0, done.stderr
    assert "already installed" in done.stderr and "nothing to do" in done.stderr
    for harness, binary in binaries.items():
        assert f"{harness}\t" in done.stdout and str(binary) in done.stdout
    assert sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*")) == before


def test_json_lists_every_executable(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    binaries = {c["harness"]: str(present(cache, c)) for c in PINS["clients"]}
    done = run("--cache", str(cache), "--json", env=no_npm_env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == binaries


def test_check_names_what_is_missing_and_installs_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first, *others = PINS["clients"]
    present(cache, first)
    # A client cached at another version does not count: a new pin installs anew.
    present(cache, others[0], version="0.0.1")

    done = run("--cache", str(cache), "--check", env=no_npm_env(tmp_path))

    assert done.returncode == 1
    for client in others:
        assert f"{client['package']}@{client['version']} is not installed" in done.stderr
    assert f"{first['package']}@{first['version']} is not" not in done.stderr
    assert not any(p.name.startswith(".") and p.is_dir() for p in cache.iterdir())


def test_without_npm_a_missing_client_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    done = run("--cache", str(tmp_path / "cache"), env=no_npm_env(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip() == "e2e_clients: npm is not on PATH"


def test_the_cache_folder_follows_the_environment(tmp_path: Path) -> None:
    base = no_npm_env(tmp_path)
    expected = {
        "HOOKMSG_E2E_CACHE": (str(tmp_path / "own"), tmp_path / "own"),
        "XDG_CACHE_HOME": (str(tmp_path / "xdg"), tmp_path / "xdg" / "hookmsg" / "e2e"),
    }
    for variable, (value, folder) in expected.items():
        done = run("--check", env={**base, variable: value})
        assert done.returncode == 1
        assert f"is not installed in {folder.resolve()}" in done.stderr, done.stderr
    done = run("--check", env=base)
    home_cache = (tmp_path / "home").resolve() / ".cache" / "hookmsg" / "e2e"
    assert f"is not installed in {home_cache}" in done.stderr, done.stderr
    both = {**base, "HOOKMSG_E2E_CACHE": str(tmp_path / "own"), "XDG_CACHE_HOME": "/x"}
    assert f"in {(tmp_path / 'own').resolve()}" in run("--check", env=both).stderr


def test_the_harness_facts_name_the_versions_the_end_to_end_tests_pin() -> None:
    """The built-in harness facts' `checked` version of each tested harness is the pin, so a
    new pin (re-run against the new client) and the facts move together."""
    facts = tomllib.loads(
        (REPO / "scripts" / "hookmsg" / "data" / "harnesses.toml").read_text(encoding="utf-8")
    )
    checked = {h["id"]: h.get("checked") for h in facts["harnesses"]}
    for client in PINS["clients"]:
        assert checked.get(client["harness"]) == client["version"], client
