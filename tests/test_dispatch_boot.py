"""`hookmsg_dispatch.boot`'s finder: the package's modules from their bytecode cache.

A hook call imports about twenty of the dispatcher's modules, and Python's path finder
costs each about 0.4 M instructions before its code runs. `boot` loads them from the cache
file Python itself writes, by Python's own rule (magic number, timestamp-based, the
source's modification time and size), and leaves everything else to the path finder. These
tests run it in a fresh `python -I -S`, as a hook runs, on a copy of the package.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.repository import REPO

PACKAGE = REPO / "scripts" / "hookmsg_dispatch"

# What the process imports, and for each of our modules its loader and file attributes.
PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from hookmsg_dispatch import boot
finder = boot._cached_finder() if sys.argv[2] == "finder" else None
if finder is not None:
    sys.meta_path.insert(0, finder)
sys.modules["__future__"] = boot._future()
import hookmsg_dispatch.main, hookmsg_dispatch.text, hookmsg_dispatch.envelope
import hookmsg_dispatch.seen, hookmsg_dispatch.contracts, hookmsg_dispatch.literal
import hookmsg_dispatch.guards.headers
print(repr({
    name: (
        type(module.__spec__.loader).__name__,
        module.__file__,
        module.__cached__,
        getattr(module, "__path__", None),
        module.__package__,
        sorted(k for k in vars(module) if not k.startswith("__")),
    )
    for name, module in sorted(sys.modules.items())
    if name.startswith("hookmsg_dispatch.") and name != "hookmsg_dispatch.boot"
}))
print(getattr(hookmsg_dispatch.text, "MARK", None))
"""


def _hooks(tmp_path: Path) -> Path:
    hooks = tmp_path / "hooks"
    shutil.copytree(
        PACKAGE, hooks / "hookmsg_dispatch", ignore=shutil.ignore_patterns("__pycache__")
    )
    return hooks


def _probe(hooks: Path, mode: str) -> tuple[dict[str, tuple[object, ...]], str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PROBE, str(hooks), mode],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    modules, mark = done.stdout.splitlines()
    return ast.literal_eval(modules), mark


def test_a_cached_module_is_loaded_by_the_boot_finder_with_the_path_finders_attributes(
    tmp_path: Path,
) -> None:
    hooks = _hooks(tmp_path)
    standard, _ = _probe(hooks, "path")  # compiles and writes every cache file
    cached, _ = _probe(hooks, "finder")
    assert len(cached) > 10
    assert {name: found[0] for name, found in cached.items()} == dict.fromkeys(cached, "_Cached")
    # The same modules, with the same files, packages and contents, as the path finder's.
    assert {name: found[1:] for name, found in cached.items()} == {
        name: found[1:] for name, found in standard.items()
    }


def _edit(source: Path, text: str, shift_seconds: int, mtime_ns: int) -> None:
    source.write_text(text, encoding="utf-8")
    os.utime(source, ns=(mtime_ns, mtime_ns + shift_seconds * 10**9))


def test_a_changed_source_is_never_run_from_its_stale_cache(tmp_path: Path) -> None:
    hooks = _hooks(tmp_path)
    _probe(hooks, "path")
    source = hooks / "hookmsg_dispatch" / "text.py"
    text, mtime = source.read_text(encoding="utf-8"), source.stat().st_mtime_ns
    _edit(source, text + "MARK = 1\n", 5, mtime)  # a later time and another size
    found, mark = _probe(hooks, "finder")
    assert (found["hookmsg_dispatch.text"][0], mark) == ("SourceFileLoader", "1")
    again, mark = _probe(hooks, "finder")  # the path finder wrote a fresh cache
    assert (again["hookmsg_dispatch.text"][0], mark) == ("_Cached", "1")
    _edit(source, text + "MARK = 2\n", 10, mtime)  # the same size, another time
    found, mark = _probe(hooks, "finder")
    assert (found["hookmsg_dispatch.text"][0], mark) == ("SourceFileLoader", "2")
    _edit(source, text + "MARK = 333\n", 10, mtime)  # the same time, another size
    found, mark = _probe(hooks, "finder")
    assert (found["hookmsg_dispatch.text"][0], mark) == ("SourceFileLoader", "333")


def test_without_a_cache_the_path_finder_loads_every_module(tmp_path: Path) -> None:
    hooks = _hooks(tmp_path)
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-B", "-c", PROBE, str(hooks), "finder"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = ast.literal_eval(done.stdout.splitlines()[0])
    assert {name: item[0] for name, item in found.items()} == dict.fromkeys(
        found, "SourceFileLoader"
    )
