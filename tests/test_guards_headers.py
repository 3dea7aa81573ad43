"""The header guards: new files without their siblings' header; edits that drop one."""

from __future__ import annotations

from pathlib import Path

from tests.support.guards import (
    claude_edit,
    claude_write,
    codex_patch,
    git_project,
    qwen_write,
    run,
)

WRITE = "pretooluse-write-header-guard"
EDIT = "pretooluse-edit-header-guard"
PY_HEADER = "# SPDX-License-Identifier: MIT"


def test_new_file_without_the_sibling_header_fires(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"src/a.py": f"{PY_HEADER}\n\nx = 1\n"})
    expected = {"path": "src/b.py", "header": PY_HEADER}
    assert run(WRITE, claude_write(root, str(root / "src/b.py"), "y = 2\n")) == expected
    assert run(WRITE, qwen_write(root, "src/b.py", "y = 2\n")) == expected
    patch = "*** Begin Patch\n*** Add File: src/b.py\n+y = 2\n*** End Patch"
    assert run(WRITE, codex_patch(root, patch)) == expected


def test_empty_siblings_do_not_decide(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"pkg/__init__.py": "", "pkg/a.py": f"{PY_HEADER}\n"})
    assert run(WRITE, claude_write(root, "pkg/b.py", "x = 1\n")) == {
        "path": "pkg/b.py",
        "header": PY_HEADER,
    }


def test_new_file_with_a_header_after_a_shebang_is_silent(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"src/a.py": f"#!/usr/bin/env python3\n{PY_HEADER}\n"})
    content = f"#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n{PY_HEADER}\nx = 1\n"
    assert run(WRITE, claude_write(root, "src/b.py", content)) is None
    same = f"{PY_HEADER}\nx = 1\n"
    assert run(WRITE, claude_write(root, "src/c.py", same)) is None


def test_the_sibling_search_walks_up_and_stops_at_the_nearest(tmp_path: Path) -> None:
    root = git_project(
        tmp_path / "p",
        {"lib/a.ts": "// SPDX-License-Identifier: MIT\nexport {}\n", "lib/deep/er/x.md": "x\n"},
    )
    found = run(WRITE, claude_write(root, "lib/deep/er/b.ts", "export const b = 1;\n"))
    assert found == {"path": "lib/deep/er/b.ts", "header": "// SPDX-License-Identifier: MIT"}
    # The nearest sibling has no header: the project does not use headers there.
    (root / "lib/deep/c.ts").write_text("export {}\n", encoding="utf-8")
    assert run(WRITE, claude_write(root, "lib/deep/er/b.ts", "export const b = 1;\n")) is None


def test_no_sibling_unknown_kind_existing_file_or_outside_is_silent(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"src/a.py": f"{PY_HEADER}\n", "src/old.py": "x\n"})
    assert run(WRITE, claude_write(root, "src/new.rs", "fn main() {}\n")) is None
    assert run(WRITE, claude_write(root, "src/data.json", "{}\n")) is None
    bare = git_project(tmp_path / "bare", {"src/a.py": "y = 1\n", "src/old.py": "x\n"})
    assert run(WRITE, claude_write(bare, "src/old.py", "x = 2\n")) is None  # none carry one
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "a.py").write_text(f"{PY_HEADER}\n", encoding="utf-8")
    assert run(WRITE, claude_write(root, str(tmp_path / "out" / "b.py"), "x\n")) is None


def test_a_write_over_an_existing_file_must_keep_or_add_the_header(tmp_path: Path) -> None:
    """A Write gives the file's whole content: rewriting a file without the header drops it."""
    own = f"{PY_HEADER}\n\nx = 1\n"
    root = git_project(tmp_path / "p", {"src/a.py": f"{PY_HEADER}\n", "src/old.py": own})
    assert run(WRITE, claude_write(root, "src/old.py", "x = 2\n")) == {
        "path": "src/old.py",
        "header": PY_HEADER,
    }
    assert run(WRITE, claude_write(root, "src/old.py", f"{PY_HEADER}\n\nx = 2\n")) is None
    legacy = git_project(tmp_path / "q", {"src/a.py": f"{PY_HEADER}\n", "src/old.py": "x\n"})
    assert run(WRITE, claude_write(legacy, "src/old.py", "x = 2\n")) == {
        "path": "src/old.py",
        "header": PY_HEADER,
    }


def test_only_a_preamble_notice_lines_or_a_banner_precede_the_header(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"a.go": "// SPDX-License-Identifier: MIT\n"})
    build = "//go:build linux\n\n// SPDX-License-Identifier: MIT\n\npackage a\n"
    assert run(WRITE, claude_write(root, "b.go", build)) is not None
    first = "// SPDX-License-Identifier: MIT\n\n//go:build linux\n\npackage a\n"
    assert run(WRITE, claude_write(root, "b.go", first)) is None
    banner = "//\n//  b.go\n// Copyright 2026 Acme\n// SPDX-License-Identifier: MIT\npackage a\n"
    assert run(WRITE, claude_write(root, "b.go", banner)) is None


def test_the_sibling_search_does_not_leave_the_project(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(f"{PY_HEADER}\n", encoding="utf-8")
    root = git_project(tmp_path / "p")
    assert run(WRITE, claude_write(root, "b.py", "x = 1\n")) is None


def test_edit_removing_the_header_fires_and_keeping_it_is_silent(tmp_path: Path) -> None:
    text = f"{PY_HEADER}\n\nimport os\n"
    root = git_project(tmp_path / "p", {"m.py": text})
    old = f"{PY_HEADER}\n\nimport os"
    assert run(EDIT, claude_edit(root, "m.py", old, "import os")) == {
        "path": "m.py",
        "header": PY_HEADER,
    }
    assert run(EDIT, claude_edit(root, "m.py", old, f"{PY_HEADER}\n\nimport sys")) is None
    assert run(EDIT, claude_edit(root, "m.py", "import os", "import sys")) is None
    patch = f"*** Begin Patch\n*** Update File: m.py\n@@\n-{PY_HEADER}\n import os\n*** End Patch"
    assert run(EDIT, codex_patch(root, patch)) == {"path": "m.py", "header": PY_HEADER}


def test_edit_header_is_silent_outside_the_project(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p")
    (tmp_path / "o.py").write_text(f"{PY_HEADER}\n", encoding="utf-8")
    assert run(EDIT, claude_edit(root, str(tmp_path / "o.py"), PY_HEADER, "")) is None
