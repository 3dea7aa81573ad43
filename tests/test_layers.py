"""The package's shape, proved from its source: where codes are produced, who imports whom.

- Every diagnostic code is produced inside the rules package (`scripts/hookmsg/rules/`);
  the code table (`codes.py`) is the one other module that names codes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scripts" / "hookmsg"
CODE = re.compile(r"^[A-Z]\d{3}$")
# A code inside a longer string, as in a `path:line:col: CODE message` line.
EMBEDDED = re.compile(r":\d+: [A-Z]\d{3} |: [A-Z]\d{3} ")


def _modules() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of every docstring node: prose may name a code."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def test_codes_are_produced_only_inside_the_rules_package() -> None:
    outside = []
    for name, tree in _modules():
        if name.startswith("rules/") or name == "codes.py":
            continue
        prose = _docstrings(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            if id(node) in prose:
                continue
            if CODE.match(node.value) or EMBEDDED.search(node.value):
                outside.append(f"{name}:{node.lineno}: {node.value!r}")
    assert outside == [], "codes produced outside scripts/hookmsg/rules/:\n" + "\n".join(outside)


def test_the_scan_sees_a_code_where_one_is_produced() -> None:
    # The rules package does produce codes: the walk above is looking at real literals.
    produced = {
        code
        for name, tree in _modules()
        if name.startswith("rules/")
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        for code in re.findall(r"\b[A-Z]\d{3}\b", node.value)
        if CODE.match(node.value) or EMBEDDED.search(node.value)
    }
    assert {"F001", "K001", "C002", "G001", "R009", "I003", "S001"} <= produced
