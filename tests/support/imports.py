"""The package's import graph, read from its source with `ast` (nothing is imported).

Every `import` counts, at module level or inside a function: a lazy import is code the
importer may run. A module's Jinja2 templates count as its imports too (the string
constants naming a `templates/*.j2` file), so a template belongs to whatever renders it.
Files are named as `inputs.reads.code_files` names them: relative to `scripts/hookmsg/`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from tests.support.repository import REPO

PACKAGE = REPO / "scripts" / "hookmsg"
TOP = "hookmsg"


def module_file(module: str) -> str | None:
    """`hookmsg.a.b` as `a/b.py` or `a/b/__init__.py`; None outside the package."""
    top, *parts = module.split(".")
    if top != TOP:
        return None
    folder = PACKAGE.joinpath(*parts)
    if (folder / "__init__.py").is_file():
        return "/".join([*parts, "__init__.py"])
    return "/".join(parts) + ".py" if folder.with_suffix(".py").is_file() else None


def imported_by(module: str) -> tuple[set[str], set[str]]:
    """The package modules `module` imports anywhere, and the template files it names."""
    name = module_file(module)
    assert name is not None, module
    modules: set[str] = set()
    templates: set[str] = set()
    for node in ast.walk(ast.parse((PACKAGE / name).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
            modules |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif _names_a_template(node):
            templates.add(f"templates/{node.value}")
    return {m for m in modules if module_file(m) is not None}, templates


def _names_a_template(node: ast.AST) -> bool:
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
        return False
    return node.value.endswith(".j2") and (PACKAGE / "templates" / node.value).is_file()


def closure(roots: Iterable[str], cut: Mapping[str, set[str]] | None = None) -> set[str]:
    """The files of `roots` and of everything they import, transitively (with each package's
    `__init__.py`), leaving out the import arrows `cut` names (importer -> imported)."""
    cut = cut or {}
    seen: set[str] = set()
    files: set[str] = set()
    todo = list(roots)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        parts = module.split(".")
        todo += [".".join(parts[:end]) for end in range(1, len(parts))]
        files.add(str(module_file(module)))
        modules, templates = imported_by(module)
        files |= templates
        todo += [m for m in modules if m not in cut.get(module, set())]
    return files
