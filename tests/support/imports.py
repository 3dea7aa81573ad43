"""The package's import graph, read from its source with `ast` (nothing is imported).

Every `import` counts, at module level or inside a function: a lazy import is code the
importer may run. Files are named relative to `scripts/hookmsg/` (`a/b.py`,
`a/__init__.py`), as `inputs.reads.code_files` names them. For the closure of what a
module runs, its Jinja2 templates count as imports too (the string constants naming a
`templates/*.j2` file), so a template belongs to whatever renders it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from tests.support.repository import REPO

PACKAGE = REPO / "scripts" / "hookmsg"
TOP = "hookmsg"


def module_file(module: str) -> str | None:
    """`hookmsg.a.b` as `a/b.py` or `a/b/__init__.py`; None for the top package itself and
    for a name outside the package."""
    top, *parts = module.split(".")
    if top != TOP or not parts:
        return None
    folder = PACKAGE.joinpath(*parts)
    if (folder / "__init__.py").is_file():
        return "/".join([*parts, "__init__.py"])
    return "/".join(parts) + ".py" if folder.with_suffix(".py").is_file() else None


def parse(relative: str) -> ast.Module:
    return ast.parse((PACKAGE / relative).read_text(encoding="utf-8"))


def imported_files(tree: ast.Module, relative: str) -> set[str]:
    """The package files that the module at `relative` imports, anywhere in it (relative
    imports resolved against its package)."""
    package = relative.rsplit("/", 1)[0].split("/") if "/" in relative else []
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    filter(None, [TOP, *package[: len(package) - node.level + 1], base])
                )
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        found |= {name for name in map(module_file, names) if name is not None}
    return found


def templates_named(tree: ast.Module) -> set[str]:
    """The template files (`templates/<name>.j2`) a module names in a string constant."""
    return {
        f"templates/{node.value}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.endswith(".j2")
        and (PACKAGE / "templates" / node.value).is_file()
    }


def _packages_of(relative: str) -> list[str]:
    """The `__init__.py` of every package that holds `relative`, the top one included."""
    parts = relative.split("/")[:-1]
    return ["/".join([*parts[:end], "__init__.py"]) for end in range(len(parts) + 1)]


def closure(roots: Iterable[str], cut: Mapping[str, set[str]] | None = None) -> set[str]:
    """The files of the modules `roots` and of everything they import, transitively (with
    each package's `__init__.py` and the templates named), leaving out the import arrows
    that `cut` names (importing module -> imported modules, by dotted name)."""
    cut_files = {
        module_file(importer): {module_file(m) for m in imported}
        for importer, imported in (cut or {}).items()
    }
    todo = [name for name in map(module_file, roots) if name is not None]
    files: set[str] = set()
    while todo:
        relative = todo.pop()
        if relative in files:
            continue
        files.add(relative)
        if relative.startswith("templates/"):
            continue
        tree = parse(relative)
        files |= templates_named(tree)
        skipped = cut_files.get(relative, set())
        todo += [name for name in imported_files(tree, relative) if name not in skipped]
        todo += _packages_of(relative)
    return files
