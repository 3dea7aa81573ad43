"""`hookmsg roots [--prune]`: the install roots on this machine, the content each holds
and the projects that still run it; `--prune` removes the keyed roots no project uses.

A project uses a root while its record is in the root and the file the record names (the
settings file, or the module) still runs that root's dispatcher.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from hookmsg.errors import EXIT_OK
from hookmsg.install import record as records
from hookmsg.install import root as install_root
from hookmsg.install.confine import locate, read_bounded
from hookmsg.install.identity import data_home, roots_home
from hookmsg.install.jsonfile import JsonRefusal
from hookmsg.install.record import Record
from hookmsg.report import note


def still_uses(record: Record, root: Path) -> bool:
    """Whether the project's file that the record names still runs `root`."""
    names = [record.settings] if record.settings else [item.path for item in record.files]
    needle = f"{root}/".encode("utf-8", "surrogateescape")
    for name in names:
        if name is None:
            continue
        try:
            target = locate(Path(record.project), name)
            data = read_bounded(target.path, target.display)
        except JsonRefusal:
            continue
        if data is not None and needle in data:
            return True
    return False


def known_roots() -> list[Path]:
    """Every install root under the data folder: the keyed ones, then older ones."""
    keyed, home = roots_home(), data_home()
    found = []
    for folder in (keyed, home):
        if not folder.is_dir() or folder.is_symlink():
            continue
        for entry in sorted(folder.iterdir()):
            if entry == keyed or entry.is_symlink() or not entry.is_dir():
                continue
            if install_root.load_manifest(entry) is not None:
                found.append(entry)
    return found


def roots(*, prune: bool) -> int:
    for root in known_roots():
        manifest = install_root.load_manifest(root)
        assert manifest is not None
        users = [item for item in records.records(root) if still_uses(item, root)]
        source = manifest.source or "(unrecorded source)"
        content = (manifest.content or "(no content version)")[:16]
        state = f"{len(users)} project(s)" if users else "unused"
        sys.stdout.write(f"{root}\t{source}\t{content}\t{state}\n")
        for user in users:
            sys.stdout.write(f"\t{user.project}\t{user.harness}\n")
        if prune and not users and root.parent == roots_home():
            with install_root.locked(root.parent):
                if not [r for r in records.records(root) if still_uses(r, root)]:
                    shutil.rmtree(root)
                    note(f"{root}: removed (no project uses it)")
    return EXIT_OK
