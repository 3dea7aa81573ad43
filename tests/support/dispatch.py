"""Shared by the dispatcher tests: an install root built by `hookmsg package`, and runs of it.

The install root is built once per test session from a copy of this repository, unpacked
from the release archive exactly as a user would; tests that change it work on a copy.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookmsg.cli.main import run
from hookmsg.harnesses.registration_plan import BOOT  # noqa: F401 (re-exported: the one bootstrap string)
from tests.support.repository import REPO, copy_repository

PAYLOADS = REPO / "tests" / "fixtures" / "payloads"
PREFIX = "hookmsg-dispatch: "


@dataclass(frozen=True)
class Ran:
    code: int
    out: bytes
    err: str

    @property
    def err_lines(self) -> list[str]:
        return self.err.splitlines()

    def json(self) -> dict[str, Any]:
        data = json.loads(self.out)
        assert isinstance(data, dict)
        return data


def build_install_root(workdir: Path) -> Path:
    """`hookmsg package` on a copy of this repository, unpacked into `workdir/root`."""
    project = copy_repository(workdir / "repo")
    dist = workdir / "dist"
    previous = Path.cwd()
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
    try:
        os.chdir(project)
        assert run(["package", "--output", str(dist)]) == 0
    finally:
        os.chdir(previous)
        if saved is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved
    root = workdir / "root"
    root.mkdir()
    archive = next(dist.glob("*.tar.gz")).read_bytes()
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        tar.extractall(root, filter="data")
    return root


def clean_env(state: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKMSG_", "PYTHON"))}
    env["HOOKMSG_HOOK_STATE_DIR"] = str(state)
    env.update(extra)
    return env


def dispatch(
    root: Path,
    *argv: str,
    payload: bytes | Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    python: str = sys.executable,
    isolated: bool = False,
) -> Ran:
    """Run `<python> <root>/hooks/dispatch.py ARGV` with the payload on stdin.

    `isolated`: with `-I -S`, as the fail-open bootstrap runs it (no site-packages, so
    the test's own installed `hookmsg_dispatch` cannot stand in for a missing one).
    """
    data = payload if isinstance(payload, bytes) else json.dumps(payload or {}).encode()
    done = subprocess.run(
        [python, *(["-I", "-S"] if isolated else []), str(root / "hooks" / "dispatch.py"), *argv],
        input=data,
        capture_output=True,
        env=dict(env) if env is not None else None,
        timeout=120,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"))


def payload_fixtures(contract: str) -> dict[str, dict[str, Any]]:
    """The recorded payloads of one contract, by file stem (`<Event>[-<variant>]`)."""
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((PAYLOADS / contract).glob("*.json"))
    }


def table(root: Path) -> dict[str, Any]:
    data = json.loads((root / "data" / "dispatch-table.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def write_table(root: Path, data: Mapping[str, Any]) -> None:
    (root / "data" / "dispatch-table.json").write_text(json.dumps(data), encoding="utf-8")


# A guards module standing in for the real one: it fires on what the table's data says.
GUARDS_DOUBLE = """
def evaluate(detector, call, data, root, module):
    if detector == "explode":
        raise RuntimeError("the detector exploded")
    if detector == "values":
        return dict(data["values"])
    if detector == "first-path":
        return fill(data, path=call.changes[0].path) if call.changes else None
    if detector == "command":
        return fill(data, command=call.command) if call.command else None
    return None


def fill(data, **known):
    # Every placeholder the message's Advisory has: the known ones, the rest "the <name>".
    return {name: known.get(name, "the " + name) for name in data["placeholders"]}
"""


def with_guards(root: Path, conditions: Mapping[str, Mapping[str, Any]]) -> None:
    """Install the guards double (in place of the real guards) and give each named message
    its condition."""
    remove_guards(root)
    (root / "hooks" / "hookmsg_dispatch" / "guards.py").write_text(GUARDS_DOUBLE, encoding="utf-8")
    data = table(root)
    for name, condition in conditions.items():
        placeholders = data["messages"][name]["placeholders"]
        data.setdefault("conditions", {})[name] = {"placeholders": placeholders, **condition}
        data["messages"][name]["condition"] = condition["detector"]
    write_table(root, data)


def remove_guards(root: Path) -> None:
    """Take the guards away, whether a module (`guards.py`) or a package (`guards/`)."""
    package = root / "hooks" / "hookmsg_dispatch"
    shutil.rmtree(package / "guards", ignore_errors=True)
    (package / "guards.py").unlink(missing_ok=True)


def delivered(root: Path, name: str, contract: str = "claude-code") -> str:
    """What `contract` delivers for `name`: its file, or the one the contract's
    `message_files` names instead (a harness's skill index form; "" for none)."""
    data = json.loads((root / "data" / "dispatch-table.json").read_text(encoding="utf-8"))
    name = data["contracts"][contract].get("message_files", {}).get(name, name)
    if not name:
        return ""
    return (root / "messages" / f"{name}.md").read_text(encoding="utf-8").strip()


def python39() -> str | None:
    """A Python 3.9 interpreter, if this machine has one."""
    found = [
        *(Path.home() / ".pyenv" / "versions").glob("3.9*/bin/python3.9"),
        *(p for p in (Path("/usr/bin/python3.9"), Path("/usr/local/bin/python3.9")) if p.is_file()),
    ]
    return str(sorted(found)[0]) if found else None


def copy_root(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


def walk(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)
