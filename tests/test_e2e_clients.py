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
    binary = folder / client.get("run", f"node_modules/.bin/{client['bin']}")
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


def test_the_pins_are_exact_versions_of_the_nine_clients() -> None:
    clients = {c["harness"]: c for c in PINS["clients"]}
    assert set(clients) == {
        "claude-code-engine",
        "codex",
        "qwen-code",
        "copilot",
        "codebuddy",
        "oh-my-pi",
        "pi",
        "gemini-cli",
        "factory-droid",
    }
    for client in clients.values():
        for version in (client["version"], client.get("reports", "0")):
            assert all(part.isdigit() for part in version.split(".")), client


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
    """The built-in harness facts' `checked` version of each tested harness is the pin (the
    version the client reports, where its package has another), so a new pin (re-run
    against the new client) and the facts move together; and a harness checked against a
    client version is one the end-to-end tier runs."""
    facts = tomllib.loads(
        (REPO / "scripts" / "hookmsg" / "data" / "harnesses.toml").read_text(encoding="utf-8")
    )
    checked = {h["id"]: h.get("checked") for h in facts["harnesses"]}
    for client in PINS["clients"]:
        assert checked.get(client["harness"]) == client.get("reports", client["version"]), client
    pinned = {client["harness"] for client in PINS["clients"]}
    # The plugin install is Claude Code's, the same client as the engine install.
    live = {harness for harness, version in checked.items() if version} - {"claude-code-plugin"}
    assert live == pinned


FAKE_NPM = """#!/usr/bin/env python3
# A stand-in for npm: `install --prefix P ... SPEC...` lays out node_modules/.bin/<name>
# for each spec; `pack SPEC` writes the package's tarball (package/bin/droid) here.
import io, os, sys, tarfile
from pathlib import Path
args = sys.argv[1:]
def script(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
if args[0] == "install":
    prefix = Path(args[args.index("--prefix") + 1])
    for spec in [a for a in args[1:] if not a.startswith("-") and a != str(prefix)]:
        name, version = spec.rsplit("@", 1)
        name = name.rsplit("/", 1)[-1]
        # The client needs its runtime: it answers --version through `bun`.
        body = "bun --version >/dev/null && " if name == "agent" else ""
        script(prefix / "node_modules" / ".bin" / name, f"#!/bin/sh\\n{body}echo {version}\\n")
elif args[0] == "pack":
    data = b"#!/bin/sh\\necho 'droid 9.8.7'\\n"
    info = tarfile.TarInfo("package/bin/droid")
    info.size, info.mode = len(data), 0o644
    with tarfile.open("vendor-cli-9.8.7.tgz", "w:gz") as archive:
        archive.addfile(info, io.BytesIO(data))
"""
PINS_WITH_EXTRAS = """
[[clients]]
harness = "packed"
package = "@vendor/cli"
version = "9.8.7"
bin = "droid"
run = "package/bin/droid"
pack = true

[[clients]]
harness = "with-runtime"
package = "@vendor/agent"
version = "1.2.3"
reports = "1.2.3"
bin = "agent"
with = ["bun@4.5.6"]
"""


def test_packed_clients_and_runtimes_installed_beside_a_client(tmp_path: Path) -> None:
    """`pack` unpacks a tarball and runs `run`; `with` installs a runtime in the same folder,
    on PATH when the client answers --version."""
    tools = tmp_path / "tools"
    npm = tools / "npm"
    npm.parent.mkdir()
    npm.write_text(FAKE_NPM, encoding="utf-8")
    npm.chmod(0o755)
    pins = tmp_path / "pins.toml"
    pins.write_text(PINS_WITH_EXTRAS, encoding="utf-8")
    cache = tmp_path / "cache"
    env = {"PATH": f"{tools}:/usr/bin:/bin", "HOME": str(tmp_path / "home")}

    done = run("--cache", str(cache), "--pins", str(pins), "--json", env=env)

    assert done.returncode == 0, done.stderr
    paths = json.loads(done.stdout)
    assert paths == {
        "packed": str(cache / "@vendor+cli@9.8.7" / "package" / "bin" / "droid"),
        "with-runtime": str(cache / "@vendor+agent@1.2.3" / "node_modules" / ".bin" / "agent"),
    }
    assert (cache / "@vendor+agent@1.2.3" / "node_modules" / ".bin" / "bun").is_file()
    assert not list(cache.rglob("*.tgz")), "the tarball is unpacked and removed"
    again = run("--cache", str(cache), "--pins", str(pins), env={**env, "PATH": "/usr/bin:/bin"})
    assert again.returncode == 0 and "nothing to do" in again.stderr
