"""Every test file that a document, a comment, a docstring or `.ci/run` names exists.

Test files are renamed after the modules they test; a name left behind in the README, in
`docs/`, in a comment or in `.ci/run` would send a reader (or CI) to nothing. In Python
files only comments and docstrings are read: string literals hold the paths of made-up
tool calls, as guard cases and recorded corpora (left out) do.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from tests.support.repository import REPO

# A path under tests/, or a bare test file name (the docs name many by file name alone).
NAMED = re.compile(r"(?<![\w/.-])(tests/[\w/]+\.py|test_\w+\.py)")
READ = ("README.md", "ARCHITECTURE.md", "dodo.py", "pyproject.toml", ".ci/run")
FOLDERS = (("docs", "*.md"), ("scripts", "*.py"), ("scripts", "*.toml"), ("tests", "*.py"))
NOT_READ = ("tests/fixtures", "tests/corpus", "tests/golden", "tests/guard_")
DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _documents() -> list[Path]:
    found = [REPO / name for name in READ]
    for folder, pattern in FOLDERS:
        found += sorted((REPO / folder).rglob(pattern))
    return [
        path
        for path in found
        if not path.relative_to(REPO).as_posix().startswith(NOT_READ)
        and ".egg-info" not in path.as_posix()
    ]


def _exists(name: str) -> bool:
    if name.startswith("tests/"):
        return (REPO / name).is_file()
    return any((REPO / "tests" / folder / name).is_file() for folder in ("", "e2e"))


def _prose(path: Path) -> str:
    """The text a reader follows: all of a document, a Python file's comments and docstrings."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return text
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    comments = [token.string for token in tokens if token.type == tokenize.COMMENT]
    nodes = [node for node in ast.walk(ast.parse(text)) if isinstance(node, DOCUMENTED)]
    docstrings = [ast.get_docstring(node) or "" for node in nodes]
    return "\n".join(comments + docstrings)


def test_every_named_test_file_exists() -> None:
    missing = [
        f"{path.relative_to(REPO).as_posix()}: {name}"
        for path in _documents()
        for name in NAMED.findall(_prose(path))
        if not _exists(name)
    ]
    assert missing == [], missing


def test_the_scan_finds_the_names_it_is_for() -> None:
    # What makes the test above able to fail: the pattern sees both spellings, and a
    # comment is read while a string literal is not.
    text = "see `tests/test_codes.py`, `test_golden.py` and tests/e2e/test_fold.py"
    assert NAMED.findall(text) == [
        "tests/test_codes.py",
        "test_golden.py",
        "tests/e2e/test_fold.py",
    ]
    assert not _exists("test_no_such_module.py") and _exists("test_fold.py")


def test_a_python_file_is_read_for_its_comments_and_docstrings(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text(
        '"""Module: tests/test_a.py."""\n\n\n# see tests/test_b.py\n'
        'def f() -> str:\n    """tests/test_c.py"""\n    return "tests/test_d.py"\n',
        encoding="utf-8",
    )
    named = NAMED.findall(_prose(source))
    assert sorted(named) == ["tests/test_a.py", "tests/test_b.py", "tests/test_c.py"]
