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


# --------------------------------------------------------------------------- layers
#
# Data flows one way: settings -> read -> parse (the model) -> check (rules) and render
# -> the pipeline (load, validate) -> outputs (write or compare) -> the faces. A module
# may import from its own layer or one below, never from one above. The rules that judge
# raw input (settings, bytes, front matter, install files) and the output findings are
# pure constructors that sit low, so the readers below the model can call them.
LAYERS: dict[str, tuple[str, ...]] = {
    "base": (
        "__init__",
        "codes",
        "content_version",
        "declared",
        "defaults",
        "diagnostics",
        "errors",
        "file_memo",
        "harness_files",
        "jsonout",
        "lock",
        "paths",
        "regexcheck",
        "report",
        "sourcefiles",
        "spans",
        "tomlpos",
        "transcript",
        "vocabulary",
        "xcsh",
    ),
    "raw rules": (
        "rules/__init__",
        "rules/files",
        "rules/finding",
        "rules/install",
        "rules/settings",
        "rules/skills",
    ),
    "settings": ("config", "doit_state", "settings"),
    "read": ("source",),
    "model": (
        "catalogue",
        "delivery",
        "frontmatter",
        "guarddata",
        "message",
        "registration_plan",
        "skill_sources",
        "loaded",
        "mending",
        "template",
    ),
    "check and render": ("rules/*", "render/*"),
    "pipeline": ("harness_loading", "loading", "modelfile", "workspace"),
    "outputs": (
        "outputs",
        "staging",
        "check_cache",
        "archive",
        "install_root",
        "installing/*",
        "local_dispatch",
        "guard_cases",
        "guard_case_task",
    ),
    "faces": ("commands/*", "cli", "taskgraph"),
}
ORDER = list(LAYERS)


def _layer_of(module: str) -> int:
    for index, (_, members) in enumerate(LAYERS.items()):
        if module in members:
            return index
    for index, (_, members) in enumerate(LAYERS.items()):
        if any(m.endswith("/*") and module.startswith(m[:-1]) for m in members):
            return index
    raise AssertionError(f"{module} is in no layer of tests/test_layers.py")


def _imports(tree: ast.Module, module: str) -> set[str]:
    """Every hookmsg module that `module` imports, anywhere in it (lazy imports too)."""
    found = set()
    package = module.rsplit("/", 1)[0] if "/" in module else ""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(filter(None, ["hookmsg", *package.split("/"), base]))
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name == "hookmsg" or not name.startswith("hookmsg."):
                continue
            path = name.removeprefix("hookmsg.").replace(".", "/")
            if (PACKAGE / f"{path}.py").is_file():
                found.add(path)
            elif (PACKAGE / path / "__init__.py").is_file():
                found.add(f"{path}/__init__")
    return found


def _module_name(relative: str) -> str:
    return relative.removesuffix(".py")


def test_no_module_imports_from_a_layer_above_it() -> None:
    upward = []
    for relative, tree in _modules():
        module = _module_name(relative)
        mine = _layer_of(module)
        for imported in sorted(_imports(tree, module) - {module}):
            theirs = _layer_of(imported)
            if theirs > mine:
                upward.append(f"{module} ({ORDER[mine]}) imports {imported} ({ORDER[theirs]})")
    assert upward == [], "imports from a layer above:\n" + "\n".join(upward)


def test_rules_and_renderers_never_import_each_other() -> None:
    crossing = []
    for relative, tree in _modules():
        module = _module_name(relative)
        for imported in _imports(tree, module):
            for side, other in (("rules/", "render/"), ("render/", "rules/")):
                if module.startswith(side) and imported.startswith(other):
                    crossing.append(f"{module} imports {imported}")
    assert crossing == [], "\n".join(crossing)


def test_every_module_is_in_a_layer() -> None:
    for relative, _ in _modules():
        _layer_of(_module_name(relative))
