"""The package's shape, proved from its source: where codes are produced, who imports whom.

- Every diagnostic code belongs to one domain package (`codes.DOMAINS`) and is built only in
  that package's modules, where its problem is found (a reader reports what it reads; a rule
  what it judges); the code table (`codes.py`) is the one other module that names codes.
- The domain packages form one order (`PACKAGES`, the map in ARCHITECTURE.md): a module imports
  from its own package or one below it, so there is no import cycle between packages and no
  arrow back up.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hookmsg.codes import DOMAINS, KNOWN_CODES
from tests.support.imports import imported_files

PACKAGE = Path(__file__).resolve().parent.parent / "scripts" / "hookmsg"
CODE = re.compile(r"^[A-Z]\d{3}$")
# A code inside a longer string, as in a `path:line:col: CODE message` line.
EMBEDDED = re.compile(r"(?::\d+)?: ([A-Z]\d{3}) ")


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


def _is_rules(name: str) -> bool:
    """A domain's rules module: `<domain>/rules.py` or a module of `<domain>/rules/`."""
    parts = name.split("/")
    return len(parts) >= 2 and (parts[1] == "rules.py" or parts[1] == "rules")


def _codes_named(tree: ast.Module) -> list[tuple[int, str]]:
    """Every code a module names outside its prose: a literal code, or one inside a
    `path:line:col: CODE message` line."""
    prose = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if id(node) in prose:
            continue
        if CODE.match(node.value):
            found.append((node.lineno, node.value))
        found.extend((node.lineno, code) for code in EMBEDDED.findall(node.value))
    return found


def test_every_code_belongs_to_exactly_one_domain() -> None:
    owned = [code for codes in DOMAINS.values() for code in codes]
    assert sorted(owned) == sorted(KNOWN_CODES), "each code is in DOMAINS exactly once"
    assert set(DOMAINS) <= set(PACKAGES[1:]), "DOMAINS names packages of the map"


def test_codes_are_built_only_in_their_domain() -> None:
    owner = {code: domain for domain, codes in DOMAINS.items() for code in codes}
    outside = []
    for name, tree in _modules():
        if name == "codes.py":
            continue
        package = name.split("/", 1)[0] if "/" in name else "base"
        outside.extend(
            f"{name}:{line}: {code} belongs to {owner.get(code, 'no domain')}/"
            for line, code in _codes_named(tree)
            if owner.get(code) != package
        )
    assert outside == [], "codes built outside their domain:\n" + "\n".join(outside)


def test_every_code_is_built_somewhere() -> None:
    # The walk above looks at real literals: every code of the table is built by the code
    # of its domain, readers included (the front matter reader, the installer).
    built = {code for _, tree in _modules() for _, code in _codes_named(tree)}
    assert sorted(KNOWN_CODES - built) == []
    readers = {name for name, tree in _modules() if _codes_named(tree) and not _is_rules(name)}
    assert {"catalogue/frontmatter.py", "install/jsonfile.py"} <= readers


# --------------------------------------------------------------------------- packages
#
# Data flows one way: what a run reads (inputs) -> the project's settings -> the models and
# their rules (messages, catalogue, harnesses) -> the loaded project and its renderers ->
# the pipeline (load once, run every rule family) -> outputs (write or compare, the check
# cache) -> install -> release -> the command line. `base` is the top-level modules that
# every package may use: the code table, `Diagnostic`, errors, the JSON writer, TOML
# positions, the vocabulary, the lock and the report.
PACKAGES = (
    "base",
    "inputs",
    "project",
    "messages",
    "catalogue",
    "harnesses",
    "render",
    "pipeline",
    "outputs",
    "install",
    "release",
    "cli",
)
BASE = (
    "__init__",
    "codes",
    "diagnostics",
    "errors",
    "jsonout",
    "lock",
    "report",
    "tomlpos",
    "vocabulary",
)


def _package_of(module: str) -> str:
    if "/" not in module:
        assert module in BASE, f"{module} is loose at the top of scripts/hookmsg/ and not in BASE"
        return "base"
    package = module.split("/", 1)[0]
    assert package in PACKAGES, f"{package}/ is in no place of PACKAGES in tests/test_layers.py"
    return package


def _imports(tree: ast.Module, module: str) -> set[str]:
    """Every hookmsg module that `module` imports, anywhere in it (lazy imports too)."""
    return {_module_name(name) for name in imported_files(tree, f"{module}.py")}


def _module_name(relative: str) -> str:
    return relative.removesuffix(".py")


def test_no_module_imports_from_a_package_above_it() -> None:
    upward = []
    for relative, tree in _modules():
        module = _module_name(relative)
        mine = PACKAGES.index(_package_of(module))
        for imported in sorted(_imports(tree, module) - {module}):
            theirs = PACKAGES.index(_package_of(imported))
            if theirs > mine:
                upward.append(
                    f"{module} ({PACKAGES[mine]}) imports {imported} ({PACKAGES[theirs]})"
                )
    assert upward == [], "imports from a package above:\n" + "\n".join(upward)


def test_rules_never_import_renderers_nor_renderers_rules() -> None:
    # A rule judges a model (or rendered bytes handed to it); a renderer makes bytes. The
    # loaded project (`render/loaded`) is the model both read.
    crossing = []
    for relative, tree in _modules():
        module = _module_name(relative)
        for imported in _imports(tree, module):
            renderer = imported.startswith("render/") and imported != "render/loaded"
            if _is_rules(relative) and renderer and not _is_rules(f"{imported}.py"):
                crossing.append(f"{module} imports {imported}")
            if (
                module.startswith("render/")
                and _is_rules(f"{imported}.py")
                and module != "render/rules"
            ):
                crossing.append(f"{module} imports {imported}")
    assert crossing == [], "\n".join(crossing)


def test_every_module_is_in_a_package_of_the_map() -> None:
    for relative, _ in _modules():
        _package_of(_module_name(relative))


def test_the_top_of_the_package_holds_only_the_base() -> None:
    loose = sorted(path.stem for path in PACKAGE.glob("*.py"))
    assert loose == sorted(BASE)
    folders = sorted(
        path.name
        for path in PACKAGE.iterdir()
        if path.is_dir() and (path / "__init__.py").is_file()
    )
    assert folders == sorted(PACKAGES[1:])
