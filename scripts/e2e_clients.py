#!/usr/bin/env python3
"""Install the real coding-assistant clients the end-to-end tests run, pinned, into a cache.

The versions come from catalog/e2e-clients.toml. Each client is installed from the npm
registry with `npm install` (its platform package, which holds the native binary, comes in
as an optional dependency) into `<cache>/<package>@<version>/`, first in a scratch folder
that is renamed into place only once the client answers `--version` with its pinned
version. A pin may install more beside it (`with`: Bun from npm, for oh-my-pi), unpack a
package's tarball instead (`pack`: Factory Droid's platform package), name an executable
other than node_modules/.bin/<bin> (`run`), or report another version than its package's
(`reports`: CodeBuddy Code inside the agent SDK). A second run with the cache present
installs nothing and says so: downloads are cached between runs.

The cache folder: $HOOKMSG_E2E_CACHE, else $XDG_CACHE_HOME/hookmsg/e2e, else
~/.cache/hookmsg/e2e.

    python3 scripts/e2e_clients.py            install what is missing, print each executable
    python3 scripts/e2e_clients.py --check    install nothing; exit 1 when a client is missing
    python3 scripts/e2e_clients.py --json     print {harness: executable} as JSON
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PINS = REPO / "catalog" / "e2e-clients.toml"
MARKER = ".hookmsg-e2e-complete"
INSTALL_TIMEOUT = 900
VERSION_TIMEOUT = 60
# Asked for its version, no client may update itself or phone home.
NO_UPDATE = {
    "COPILOT_AUTO_UPDATE": "false",
    "COPILOT_OFFLINE": "true",
    "DISABLE_AUTOUPDATER": "1",
    "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false",
    "PI_OFFLINE": "1",
    "PI_SKIP_VERSION_CHECK": "1",
    "GEMINI_CLI_NO_RELAUNCH": "true",
}


@dataclass(frozen=True)
class Client:
    harness: str
    package: str
    version: str
    bin: str
    # The version the client reports (its harness's `checked`), where the package differs.
    reports: str = ""
    # The executable relative to the cache folder; empty: node_modules/.bin/<bin>.
    run: str = ""
    # More npm specs installed beside it (a runtime such as Bun); on PATH when it runs.
    also: tuple[str, ...] = ()
    # Unpack the package's tarball (`npm pack`) instead of installing it.
    pack: bool = False

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"

    @property
    def client_version(self) -> str:
        return self.reports or self.version

    @property
    def relative_executable(self) -> str:
        return self.run or f"node_modules/.bin/{self.bin}"

    @property
    def folder_name(self) -> str:
        return self.spec.replace("/", "+")


class ClientError(Exception):
    """A client could not be installed or does not run."""


def pinned_clients(path: Path = PINS) -> list[Client]:
    """The clients named in the pinned-versions file, in file order."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    clients: list[Client] = []
    for index, entry in enumerate(data.get("clients", [])):
        try:
            clients.append(
                Client(
                    harness=str(entry["harness"]),
                    package=str(entry["package"]),
                    version=str(entry["version"]),
                    bin=str(entry["bin"]),
                    reports=str(entry.get("reports", "")),
                    run=str(entry.get("run", "")),
                    also=tuple(str(spec) for spec in entry.get("with", ())),
                    pack=bool(entry.get("pack", False)),
                )
            )
        except KeyError as missing:
            raise ClientError(f"{path}: clients[{index}] lacks {missing}") from None
    return clients


def cache_root(env: Mapping[str, str] | None = None) -> Path:
    """Where the clients are installed."""
    env = os.environ if env is None else env
    if env.get("HOOKMSG_E2E_CACHE"):
        return Path(env["HOOKMSG_E2E_CACHE"]).expanduser().resolve()
    if env.get("XDG_CACHE_HOME"):
        return Path(env["XDG_CACHE_HOME"]).expanduser().resolve() / "hookmsg" / "e2e"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home.resolve() / ".cache" / "hookmsg" / "e2e"


def client_folder(root: Path, client: Client) -> Path:
    return root / client.folder_name


def executable(root: Path, client: Client) -> Path:
    """The client's executable inside its cache folder (it may not exist)."""
    return client_folder(root, client) / client.relative_executable


def search_path(folder: Path, base: str | None = None) -> str:
    """PATH for running a client from `folder`: its node_modules/.bin (where a runtime
    installed beside it, such as Bun, lives) first."""
    rest = os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin") if base is None else base
    return f"{folder / 'node_modules' / '.bin'}{os.pathsep}{rest}"


def is_installed(root: Path, client: Client) -> bool:
    folder = client_folder(root, client)
    marker = folder / MARKER
    try:
        recorded = marker.read_text(encoding="utf-8").strip()
    except OSError:
        return False
    return recorded == client.spec and os.access(executable(root, client), os.X_OK)


def installed_executables(root: Path | None = None) -> dict[str, Path]:
    """{harness: executable} for every pinned client present in the cache."""
    root = cache_root() if root is None else root
    return {
        client.harness: executable(root, client)
        for client in pinned_clients()
        if is_installed(root, client)
    }


def _client_version(path: Path, folder: Path) -> str:
    env = dict(os.environ, PATH=search_path(folder), HOME=str(folder / ".home"))
    env.update(NO_UPDATE)
    try:
        done = subprocess.run(
            [str(path), "--version"],
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT,
            stdin=subprocess.DEVNULL,
            check=False,
            env=env,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ClientError(f"{path} --version: {error}") from None
    if done.returncode != 0:
        raise ClientError(f"{path} --version exited {done.returncode}: {done.stderr.strip()}")
    # Some clients (pi) print their version on standard error.
    return done.stdout.strip() or done.stderr.strip()


def _npm(command: list[str], what: str, cwd: Path) -> None:
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            stdin=subprocess.DEVNULL,
            check=False,
            cwd=cwd,
        )
    except subprocess.TimeoutExpired:
        raise ClientError(f"{what}: no answer in {INSTALL_TIMEOUT} s") from None
    if done.returncode != 0:
        raise ClientError(f"{what} exited {done.returncode}: {done.stderr.strip()}")


def _unpack(scratch: Path, client: Client, npm: str) -> None:
    """`npm pack` the package into `scratch` and unpack it there (as `package/`)."""
    _npm([npm, "pack", "--loglevel=error", client.spec], f"npm pack {client.spec}", scratch)
    tarballs = sorted(scratch.glob("*.tgz"))
    if len(tarballs) != 1:
        raise ClientError(f"npm pack {client.spec} left {len(tarballs)} tarballs")
    with tarfile.open(tarballs[0]) as archive:
        archive.extractall(scratch, filter="data")
    tarballs[0].unlink()
    found = scratch / client.relative_executable
    if found.is_file():
        found.chmod(found.stat().st_mode | 0o755)


def install(root: Path, client: Client, npm: str) -> Path:
    """Install one client into the cache; return its executable."""
    root.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{client.folder_name}.", dir=root))
    try:
        specs = list(client.also) + ([] if client.pack else [client.spec])
        if specs:
            command = [
                npm,
                "install",
                "--prefix",
                str(scratch),
                "--no-save",
                "--no-package-lock",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                *specs,
            ]
            _npm(command, f"npm install {' '.join(specs)}", scratch)
        if client.pack:
            _unpack(scratch, client, npm)
        found = scratch / client.relative_executable
        if not os.access(found, os.X_OK):
            raise ClientError(f"installing {client.spec} left no executable {found.name}")
        reported = _client_version(found, scratch)
        if client.client_version not in reported:
            raise ClientError(
                f"{client.bin} --version says {reported!r}, not {client.client_version}"
            )
        (scratch / MARKER).write_text(client.spec + "\n", encoding="utf-8")
        target = client_folder(root, client)
        if target.exists():
            shutil.rmtree(target)
        scratch.rename(target)
    finally:
        if scratch.exists():
            shutil.rmtree(scratch, ignore_errors=True)
    return executable(root, client)


def run(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="e2e_clients.py", description="Install the pinned real clients into a cache."
    )
    parser.add_argument("--cache", type=Path, help="cache folder (default: see the module text)")
    parser.add_argument("--check", action="store_true", help="install nothing; exit 1 if missing")
    parser.add_argument("--json", action="store_true", help="print {harness: executable} as JSON")
    parser.add_argument("--pins", type=Path, default=PINS, help="the pinned-versions file")
    options = parser.parse_args(argv)
    root = options.cache.expanduser().resolve() if options.cache else cache_root()
    try:
        clients = pinned_clients(options.pins)
    except (OSError, tomllib.TOMLDecodeError, ClientError) as error:
        print(f"e2e_clients: {error}", file=sys.stderr)
        return 2
    missing = [client for client in clients if not is_installed(root, client)]
    status = 0
    if missing and not options.check:
        npm = shutil.which("npm")
        if npm is None:
            print("e2e_clients: npm is not on PATH", file=sys.stderr)
            return 2
        for client in missing:
            print(f"installing {client.spec} into {client_folder(root, client)}", file=sys.stderr)
            try:
                install(root, client, npm)
            except (OSError, ClientError) as error:
                print(f"e2e_clients: {error}", file=sys.stderr)
                status = 1
    elif missing:
        for client in missing:
            print(f"e2e_clients: {client.spec} is not installed in {root}", file=sys.stderr)
        status = 1
    else:
        print(
            f"all {len(clients)} clients already installed in {root}: nothing to do",
            file=sys.stderr,
        )
    paths = {
        client.harness: str(executable(root, client))
        for client in clients
        if is_installed(root, client)
    }
    if options.json:
        print(json.dumps(paths, indent=2, sort_keys=True))
    else:
        for client in clients:
            if client.harness in paths:
                print(f"{client.harness}\t{client.spec}\t{paths[client.harness]}")
    return status


if __name__ == "__main__":
    sys.exit(run())
