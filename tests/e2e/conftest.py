"""Fixtures for the end-to-end tests: the installed real clients, one runner per client.

The clients come from scripts/e2e_clients.py's cache. When one is missing its tests are
skipped, saying how to install it, unless HOOKMSG_E2E=require (as CI sets), which turns
the skip into a failure.

Before the first client runs, the test process enters a network namespace with only
loopback (tests/e2e/netns.py), where the machine allows it, so every client runs offline
and the tier proves nothing left the machine; HOOKMSG_E2E_NETWORK=host leaves the network
as it is.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.e2e.clients import RUNNERS, Runner
from tests.e2e.netns import enter_offline
from tests.support.repository import REPO

HARNESSES = tuple(RUNNERS)
# The clients whose project registration is Claude Code's hook shape under Claude Code's
# event names, which the tests that write their own registration (a raw SessionStart hook,
# a bare script, a Stop hook) lay out with `Runner.register`.
CLAUDE_SHAPED = tuple(h for h in HARNESSES if RUNNERS[h].claude_shaped)


def _clients_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "e2e_clients", REPO / "scripts" / "e2e_clients.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


CLIENTS = _clients_script()


def required() -> bool:
    return os.environ.get("HOOKMSG_E2E") == "require"


@pytest.fixture(scope="session")
def offline() -> str:
    """How this tier's network is isolated (entered once, before any client starts; every
    client test asks for it through `executables`, the stand-in's own tests do not)."""
    if os.environ.get("HOOKMSG_E2E_NETWORK") == "host":
        return "not isolated: HOOKMSG_E2E_NETWORK=host"
    return enter_offline()


@pytest.fixture(scope="session")
def executables(offline: str) -> dict[str, Path]:
    found: dict[str, Path] = CLIENTS.installed_executables()
    return found


@pytest.fixture(params=HARNESSES)
def runner(request: pytest.FixtureRequest, executables: dict[str, Path], tmp_path: Path) -> Runner:
    """A runner for one real client (each test runs once per client), with a scratch HOME."""
    return make_runner(request.param, executables, tmp_path)


# Why a test that writes its own raw command hooks (`Runner.register`) does not run on a
# client: the extension-module harnesses have no command hooks at all (their registration
# is the generated module, the harness facts say so); Copilot's and Gemini's hook files
# have shapes of their own that `register` does not write.
NOT_SHAPED = {
    "oh-my-pi": "oh-my-pi runs extension modules, not command hooks: no raw hook to register",
    "pi": "pi runs extension modules, not command hooks: no raw hook to register",
    "copilot": "Copilot CLI's hook file has its own shape; Runner.register writes Claude Code's",
    "gemini-cli": "Gemini CLI's hook file has its own shape; Runner.register writes Claude Code's",
}


@pytest.fixture(params=HARNESSES)
def shaped_runner(
    request: pytest.FixtureRequest, executables: dict[str, Path], tmp_path: Path
) -> Runner:
    """A runner for one client whose registration `Runner.register` can write; on the
    others the test is skipped, saying why."""
    if request.param not in CLAUDE_SHAPED:
        pytest.skip(NOT_SHAPED[request.param])
    return make_runner(request.param, executables, tmp_path)


def make_runner(harness: str, executables: dict[str, Path], tmp_path: Path) -> Runner:
    """A runner for `harness` with a scratch HOME; skipped or failed when it is missing."""
    if harness not in executables:
        pins = {c.harness: c.spec for c in CLIENTS.pinned_clients()}
        reason = (
            f"{pins.get(harness, harness)} is not installed in {CLIENTS.cache_root()}: "
            "run `python3 scripts/e2e_clients.py`"
        )
        if required():
            pytest.fail(f"HOOKMSG_E2E=require: {reason}")
        pytest.skip(reason)
    return RUNNERS[harness](executables[harness], tmp_path / "home")
