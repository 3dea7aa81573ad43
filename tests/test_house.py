"""The house rules of the code in scripts/: small functions, small modules.

No function is over 60 lines and no module over 450 lines, but the code table. The few
that are over today are listed here with their size now: each may only shrink, and leaves
the list (the test says so) once it is within the limit.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 450
EXEMPT_MODULES = frozenset({"hookmsg/codes.py"})  # the code table: one entry per code

# Over the limit, with their size: none today. A function or module that must grow past the
# limit is split instead; this table is where one would be recorded while it is.
OVER_MODULES: dict[str, int] = {}
OVER_FUNCTIONS: dict[str, int] = {}


def _sizes() -> tuple[dict[str, int], dict[str, int]]:
    modules: dict[str, int] = {}
    functions: dict[str, int] = {}
    for path in sorted(SCRIPTS.rglob("*.py")):
        name = path.relative_to(SCRIPTS).as_posix()
        text = path.read_text(encoding="utf-8")
        modules[name] = len(text.splitlines())
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                key = f"{name}:{node.name}"
                functions[key] = max(functions.get(key, 0), (node.end_lineno or start) - start + 1)
    return modules, functions


def _over(sizes: dict[str, int], limit: int, known: dict[str, int]) -> list[str]:
    found = []
    for name, size in sorted(sizes.items()):
        if size > limit and size > known.get(name, limit):
            found.append(f"{name}: {size} lines (limit {limit}, known {known.get(name, '-')})")
    return found


def test_no_module_is_over_450_lines_but_the_code_table() -> None:
    modules, _ = _sizes()
    modules = {name: size for name, size in modules.items() if name not in EXEMPT_MODULES}
    assert _over(modules, MAX_MODULE_LINES, OVER_MODULES) == []


def test_no_function_is_over_60_lines() -> None:
    _, functions = _sizes()
    assert _over(functions, MAX_FUNCTION_LINES, OVER_FUNCTIONS) == []


def test_the_known_oversized_list_holds_only_what_is_still_over() -> None:
    modules, functions = _sizes()
    within = [name for name in OVER_MODULES if modules.get(name, 0) <= MAX_MODULE_LINES]
    within += [name for name in OVER_FUNCTIONS if functions.get(name, 0) <= MAX_FUNCTION_LINES]
    assert within == [], "split now: remove from the lists in tests/test_house.py"


def test_the_walk_measures_real_functions() -> None:
    # The AST walk measures a function as its source spans: the same count `inspect` gives.
    from hookmsg.cli import main as cli_main

    _, functions = _sizes()
    lines, _ = inspect.getsourcelines(cli_main.run)
    assert functions["hookmsg/cli/main.py:run"] == len(lines) > 5
    assert 0 < functions["hookmsg/outputs/generated.py:render_manifest"] <= MAX_FUNCTION_LINES
