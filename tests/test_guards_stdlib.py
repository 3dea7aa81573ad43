"""The guard modules run inside every harness: standard library only, Python 3.9 syntax,
never the build side, and nothing heavy imported before a detector needs it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scripts" / "hookmsg_dispatch"
TOP = [PACKAGE / "state.py", PACKAGE / "project.py", PACKAGE / "compaction.py"]
OWNED = sorted([*TOP, *(PACKAGE / "guards").glob("*.py")])


@pytest.mark.parametrize("path", OWNED, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_standard_library_only_and_python_39_syntax(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), feature_version=(3, 9))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            assert top == "hookmsg_dispatch" or top in sys.stdlib_module_names, (path, name)
            assert top != "hookmsg", path


def test_importing_every_detector_loads_no_typing_or_build_side() -> None:
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "import hookmsg_dispatch.guards.dependency, hookmsg_dispatch.guards.evaluation,"
        " hookmsg_dispatch.guards.headers, hookmsg_dispatch.guards.notices,"
        " hookmsg_dispatch.guards.notice_extras,"
        " hookmsg_dispatch.guards.plans,"
        " hookmsg_dispatch.guards.questions, hookmsg_dispatch.compaction;"
        "print(sorted(m for m in ('typing', 'hookmsg', 'tempfile', 'hashlib', 'importlib.util')"
        " if m in sys.modules))"
    )
    done = subprocess.run(  # -B: no bytecode written into this checkout's scripts/
        [sys.executable, "-I", "-S", "-B", "-c", code, str(PACKAGE.parent)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]"
