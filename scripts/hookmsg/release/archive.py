"""The release archive: the install root, reproducible to the byte.

Entries sit at the archive's top level (no wrapping folder): unpacking it into an empty
folder makes that folder an install root.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import subprocess
import tarfile
from collections.abc import Mapping
from pathlib import Path

from hookmsg import __version__
from hookmsg.errors import UsageError
from hookmsg.jsonout import dump_json
from hookmsg.project.rules import source_date_epoch_problem

MANIFEST = "manifest.json"


def source_date_epoch(root: Path, environ: Mapping[str, str] = os.environ) -> int:
    """`SOURCE_DATE_EPOCH`, else the last commit's time; never the clock."""
    value = environ.get("SOURCE_DATE_EPOCH")
    if value is not None:
        problem = source_date_epoch_problem(value)
        if problem is not None:
            raise problem
        return int(value)
    try:
        done = subprocess.run(
            ["git", "log", "-1", "--format=%ct"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
        return int(done.stdout.strip())
    except (OSError, subprocess.SubprocessError, ValueError):
        raise UsageError(
            "cannot date the archive: set SOURCE_DATE_EPOCH or run inside a git checkout"
        ) from None


def build_archive(files: Mapping[str, bytes], epoch: int) -> bytes:
    """A .tar.gz of `files` (archive path -> bytes) plus a manifest, the same bytes every time.

    Entries are sorted, every mtime is `epoch`, owners are 0 with empty names, modes are
    0644 and 0755, and the gzip header holds neither a file name nor the clock.
    """
    manifest = {
        "files": [
            {"path": path, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            for path, data in sorted(files.items())
        ],
        "version": __version__,
    }
    entries = {
        **files,
        MANIFEST: dump_json(manifest, ascii=True).encode(),
    }
    folders = sorted({parent.as_posix() for p in entries for parent in Path(p).parents} - {"."})
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as gz,
        tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        members: list[tuple[str, bytes | None]] = [(f, None) for f in folders]
        members += list(entries.items())
        for name, data in sorted(members, key=lambda item: item[0]):
            info = tarfile.TarInfo(name)
            info.mtime = epoch
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            if data is None:
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                tar.addfile(info)
            else:
                info.mode = 0o644
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def archive_name(version: str) -> str:
    """The release archive's file name, inside `dist/`, for a content version."""
    return f"hookmsg-assets-{version}.tar.gz"
