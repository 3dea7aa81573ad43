"""The dispatcher's `os` without `os`: the same answers as the real module, and never loaded.

`hookmsg_dispatch.system` gives the dispatcher the real `os` wherever `os` is already
loaded (as in this test process), so the stand-in built from `posix` is checked in a fresh
`python -I -S`, the way a harness starts the hook, against the real functions on the same
inputs (real folders and links made here).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repository import REPO

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the stand-in exists on POSIX only")

DISPATCH = REPO / "scripts"

# Run in a fresh interpreter: builds the stand-in first, then loads the real modules and
# prints, per call, both answers (or the exception each raised).
COMPARE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from hookmsg_dispatch.system import os as lite, stat as lite_stat
assert "os" not in sys.modules and "posixpath" not in sys.modules, sorted(sys.modules)
import os, posixpath, stat
def both(fn_lite, fn_real, *args):
    out = []
    for fn in (fn_lite, fn_real):
        try:
            out.append(repr(fn(*args)))
        except Exception as error:
            out.append(type(error).__name__)
    return out
results = []
for name, args in json.loads(sys.argv[2]):
    results.append([name, args, *both(getattr(lite.path, name), getattr(posixpath, name), *args)])
results.append(["environ", [], repr(sorted(lite.environ.items())),
                repr(sorted(os.environ.items()))])
results.append(["supports_dir_fd", [], repr(lite.open in lite.supports_dir_fd),
                repr(os.open in os.supports_dir_fd)])
results.append(["S_ISREG", [], repr(lite_stat.S_ISREG(0o100644)), repr(stat.S_ISREG(0o100644))])
print(json.dumps(results))
"""


def _cases(tmp: Path) -> list[tuple[str, list[str]]]:
    real = tmp / "real" / "inner"
    real.mkdir(parents=True)
    (real / "file.txt").write_text("x", encoding="utf-8")
    (tmp / "link").symlink_to(tmp / "real")
    (tmp / "relative-link").symlink_to("real/inner")
    (tmp / "loop-a").symlink_to(tmp / "loop-b")
    (tmp / "loop-b").symlink_to(tmp / "loop-a")
    (tmp / "dangling").symlink_to(tmp / "nowhere")
    t = str(tmp)
    paths = [
        "",
        "/",
        "//",
        "///",
        "a",
        "a/",
        "/a/b/",
        "a//b",
        "./a/../b",
        "/../x",
        "../../x",
        "//host/share",
        "a/./b/.",
        f"{t}/link/inner/file.txt",
        f"{t}/relative-link/../x",
        f"{t}/loop-a/x",
        f"{t}/dangling/y",
        f"{t}/link/../real",
        f"{t}/real/inner/",
        f"{t}/link",
        f"{t}/nowhere",
        f"{t}/real/inner/file.txt",
        "link/inner",
        "~",
        "~/x",
    ]
    cases: list[tuple[str, list[str]]] = []
    for name in ("isabs", "dirname", "basename", "split", "normpath", "abspath", "normcase"):
        cases += [(name, [path]) for path in paths]
    for name in ("realpath", "exists", "lexists", "isdir", "isfile", "islink", "expanduser"):
        cases += [(name, [path]) for path in paths]
    cases += [("relpath", [path, start]) for path in paths for start in ("/", t, f"{t}/real/x")]
    joins = [["a", "b"], ["/a", "b", "/c", "d"], ["a/", "b"], ["", "b"], ["a", ""], ["a", "", "b"]]
    cases += [("join", parts) for parts in joins]
    return cases


def test_the_stand_in_answers_as_the_real_os_does(tmp_path: Path) -> None:
    cases = _cases(tmp_path)
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", COMPARE, str(DISPATCH), json.dumps(cases)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    differ = [row for row in json.loads(done.stdout) if row[2] != row[3]]
    assert differ == []


def test_makedirs_of_the_stand_in_creates_what_the_real_one_does(tmp_path: Path) -> None:
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from hookmsg_dispatch.system import os;"
        "os.makedirs(sys.argv[2] + '/a/b/c', exist_ok=True);"
        "os.makedirs(sys.argv[2] + '/a/b/c', exist_ok=True);"
        "print('os' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(DISPATCH), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "False"), done.stderr
    assert (tmp_path / "a" / "b" / "c").is_dir()


@pytest.mark.slow
def test_a_hook_call_through_the_bootstrap_imports_neither_os_nor_re(tmp_path: Path) -> None:
    """The registered command on a Write whose guards fire (header and eval), as a harness
    runs it: `-X importtime` lists every module the process imports."""
    from hookmsg.harnesses.registration_plan import BOOT
    from tests.support.dispatch import build_install_root, clean_env

    root = build_install_root(tmp_path)
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / ".git").mkdir()
    (project / "src" / "a.py").write_text("# SPDX-License-Identifier: MIT\n", encoding="utf-8")
    payload = {
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "tool_name": "Write",
        "tool_input": {"file_path": str(project / "src" / "b.py"), "content": "eval(x)\n"},
    }
    names = ["pretooluse-write", "pretooluse-write-header-guard", "pretooluse-eval-guard"]
    command = [sys.executable, "-X", "importtime", "-I", "-S", "-c", BOOT]
    done = subprocess.run(
        [*command, str(root / "hooks" / "dispatch.py"), "PreToolUse", *names],
        cwd=project,
        env=clean_env(tmp_path / "state"),
        input=json.dumps(payload).encode(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.count(b"Full procedure:") == 2  # both guards spoke
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.decode().splitlines()}
    assert "hookmsg_dispatch.main" in imported
    assert imported.isdisjoint({"os", "posixpath", "re", "json", "enum", "__future__"})
