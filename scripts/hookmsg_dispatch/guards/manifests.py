"""Dependency declarations per manifest kind, read as plain text (never executed).

Each reader maps a manifest's whole text to `{key: (name, spec)}`: one entry per declared
dependency, keyed by its group and normalised name so that the same package in two groups is
two entries. `fragment` reads a piece of a manifest (an edit's old or new text that cannot be
placed in the file) by its lines alone, and keeps only lines that are clearly dependency
declarations. TOML is read line by line (no tomllib on Python 3.9 or 3.10); only the tables
that hold dependencies are interpreted.
"""

from __future__ import annotations

import json
import re

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Callable

Entries = dict[str, tuple[str, str]]

# The rest of the line is taken whole and stripped afterwards: a lazy `(.*?)\s*$` retries
# the trailing spaces at every position of a long run of them.
_PEP508 = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?(.*)$", re.S)
# A string that does not close is consumed to the end (and dropped), so no quote is the
# start of a second scan.
_QUOTED = re.compile(r"\"((?:[^\"\\]|\\.)*)(\"?)|'([^']*)('?)")
_HEADER = re.compile(r"^\s*\[\[?([^\[\]]+)\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*(\"[^\"]+\"|'[^']+'|[A-Za-z0-9_.-]+)\s*=\s*(.*)$")
_VERSIONISH = re.compile(
    r"^(?:[\^~<>=!*]|\d|v\d|latest$|next$|workspace:|npm:|file:|link:|git|github:|https?:)"
)
_NPM_SECTIONS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
_NOT_PACKAGES = frozenset({"version", "node", "npm", "yarn", "pnpm", "python", "name"})


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# One token of a TOML line: a basic string (backslash escapes), a literal string, a bracket
# or a comment mark. A string that does not close runs to the end of the line (TOML
# strings of these kinds never span lines), so no string start is scanned twice: a line
# of `"\"\"\"...` costs one pass, not one pass per quote.
_TOKEN = re.compile(r"\"(?:[^\"\\]|\\.)*\"?|'[^']*'?|[\[\]{}#]")


def _strip_comment(line: str) -> str:
    """A TOML line without its `#` comment (a `#` inside a string is kept)."""
    if "#" not in line:
        return line
    for match in _TOKEN.finditer(line):
        if match.group(0) == "#":
            return line[: match.start()]
    return line


def _depth(value: str) -> int:
    """How many more `[`/`{` than `]`/`}` a piece of TOML opens, outside strings."""
    depth = 0
    for match in _TOKEN.finditer(value):
        token = match.group(0)
        if token in ("[", "{"):
            depth += 1
        elif token in ("]", "}"):
            depth -= 1
    return depth


def _unquote(key: str) -> str:
    return key[1:-1] if key[:1] in "\"'" and key[-1:] == key[:1] else key


def _toml_tables(text: str) -> Iterator[tuple[str, str, str]]:
    """(table, key, value) for each key of a TOML file; a multi-line array's lines are joined.

    One pass: a value that spans lines keeps a running bracket depth, each line scanned once.
    """
    table = ""
    pending: str | None = None
    parts: list[str] = []
    depth = 0
    for raw in text.split("\n"):
        line = _strip_comment(raw)
        if pending is not None:
            parts.append(line)
            depth += _depth(line)
            if depth <= 0:
                yield table, pending, " ".join(parts).strip()
                pending, parts = None, []
            continue
        header = _HEADER.match(line)
        if header is not None:
            table = ".".join(_unquote(p.strip()) for p in _split_dotted(header.group(1)))
            continue
        key = _KEY.match(line)
        if key is None:
            continue
        name, value = _unquote(key.group(1).strip()), key.group(2)
        depth = _depth(value)
        if depth <= 0:
            yield table, name, value.strip()
        else:
            pending, parts = name, [value]
    if pending is not None:
        yield table, pending, " ".join(parts).strip()


def _split_dotted(name: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    quote = ""
    for char in name:
        if quote:
            current.append(char)
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
            current.append(char)
        elif char == ".":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def _quoted(value: str) -> list[str]:
    found = []
    for match in _QUOTED.finditer(value):
        if match.group(2):
            found.append(match.group(1))
        elif match.group(4):
            found.append(match.group(3))
    return found


def _requirement(text: str, group: str, found: Entries) -> None:
    match = _PEP508.match(text)
    if match is not None:
        name = match.group(1)
        spec = ((match.group(2) or "") + " " + match.group(3).strip()).strip()
        found[f"{group}:{_normal(name)}"] = (name, spec)


def _spec_value(value: str) -> str:
    """A TOML dependency value as shown: a plain string unquoted, a table compacted."""
    value = value.strip()
    strings = _quoted(value)
    if value[:1] in "\"'" and len(strings) == 1:
        return strings[0]
    return " ".join(value.split())


def pyproject(text: str) -> Entries:
    found: Entries = {}
    for table, key, value in _toml_tables(text):
        if table == "project" and key == "dependencies":
            group = "project"
        elif table in ("project.optional-dependencies", "dependency-groups"):
            group = f"{table}.{key}"
        elif table == "tool.uv" and key == "dev-dependencies":
            group = "tool.uv.dev"
        elif _is_poetry_table(table):
            if key != "python":
                found[f"{table}:{_normal(key)}"] = (key, _spec_value(value))
            continue
        else:
            continue
        for item in _quoted(value):
            _requirement(item, group, found)
    return found


def _is_poetry_table(table: str) -> bool:
    if table in ("tool.poetry.dependencies", "tool.poetry.dev-dependencies"):
        return True
    return table.startswith("tool.poetry.group.") and table.endswith(".dependencies")


def _is_cargo_table(table: str) -> bool:
    last = table.rsplit(".", 1)[-1]
    return last in ("dependencies", "dev-dependencies", "build-dependencies")


def cargo(text: str) -> Entries:
    found: Entries = {}
    sub_tables: dict[str, list[str]] = {}
    for table, key, value in _toml_tables(text):
        if _is_cargo_table(table):
            found[f"{table}:{key}"] = (key.split(".")[0], _spec_value(value))
            continue
        parent = table.rpartition(".")[0]
        if parent and _is_cargo_table(parent):
            sub_tables.setdefault(table, []).append(f"{key} = {_spec_value(value)}")
    for table, keys in sub_tables.items():
        parent, _, name = table.rpartition(".")
        version = next((k[len("version = ") :] for k in keys if k.startswith("version = ")), "")
        found[f"{parent}:{name}"] = (name, version or "{ " + ", ".join(keys) + " }")
    return found


def package_json(text: str) -> Entries:
    try:
        data = json.loads(text)
    except RecursionError:  # nested deeper than the parser goes: not a manifest to judge
        raise ValueError("nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    found: Entries = {}
    for section in _NPM_SECTIONS:
        entries = data.get(section)
        if isinstance(entries, dict):
            for name, spec in entries.items():
                found[f"{section}:{name}"] = (name, spec if isinstance(spec, str) else str(spec))
    return found


def requirements(text: str) -> Entries:
    found: Entries = {}
    for raw in text.replace("\\\n", " ").split("\n"):
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if not line or (line.startswith("-") and not line.startswith(("-e ", "--editable"))):
            continue
        if line.startswith(("-e ", "--editable")):
            target = line.split(None, 1)[1] if " " in line else line
            egg = re.search(r"#egg=([A-Za-z0-9._-]+)", target)
            name = egg.group(1) if egg else target
            found[f"req:{_normal(name)}"] = (name, target)
            continue
        _requirement(line, "req", found)
    return found


# A required module and its version, word by word: one pattern over the whole line
# (`[\w.~/-]*\.[\w.~/-]+\s+`) retried every dot of a long word against the rest of it.
_GO_MODULE = re.compile(r"[A-Za-z0-9][\w.~/-]*\Z")
_GO_VERSION = re.compile(r"v[^\s/]+")


def _go_line(line: str) -> tuple[str, str] | None:
    """(module, version) of a `require` line or a line of a require block, or None."""
    words = line.split(None, 3)
    if words[:1] == ["require"]:
        words = words[1:]
    if len(words) < 2 or "." not in words[0][1:-1] or _GO_MODULE.match(words[0]) is None:
        return None
    version = _GO_VERSION.match(words[1])
    return None if version is None else (words[0], version.group(0))


def go_mod(text: str) -> Entries:
    found: Entries = {}
    in_block = False
    for raw in text.split("\n"):
        line = raw.split("//", 1)[0].strip()
        if line.startswith("require") and line.endswith("("):
            in_block = True
            continue
        if in_block and line.startswith(")"):
            in_block = False
            continue
        if in_block or line.startswith("require "):
            required = _go_line(line)
            if required is not None:
                found[f"go:{required[0]}"] = required
    return found


_GEM = re.compile(r"^\s*gem\s*\(?\s*[\"']([^\"']+)[\"']\s*(.*)$")


def gemfile(text: str) -> Entries:
    found: Entries = {}
    for raw in text.split("\n"):
        match = _GEM.match(raw.split(" #", 1)[0])
        if match is not None:
            versions = [q for q in _quoted(match.group(2)) if re.match(r"^[~<>=!\d]", q)]
            found[f"gem:{match.group(1)}"] = (match.group(1), ", ".join(versions))
    return found


READERS: dict[str, Callable[[str], Entries]] = {
    "package-json": package_json,
    "pyproject": pyproject,
    "requirements": requirements,
    "cargo": cargo,
    "go-mod": go_mod,
    "gemfile": gemfile,
}


def fragment(kind: str, text: str) -> Entries:
    """Dependency-looking lines of a piece of a manifest, read without their context."""
    if kind in ("requirements", "gemfile"):
        return READERS[kind](text)
    if kind == "go-mod":
        found: Entries = {}
        for line in text.split("\n"):
            required = _go_line(line.split("//", 1)[0])
            if required is not None:
                found[f"go:{required[0]}"] = required
        return found
    found = {}
    for raw in text.split("\n"):
        line = raw.strip().rstrip(",")
        keyed = re.match(r"^\"([^\"]+)\"\s*:\s*\"([^\"]*)\"$", line) or re.match(
            r"^([A-Za-z0-9_.-]+)\s*=\s*\"([^\"]*)\"$", line
        )
        if keyed is not None:
            name, spec = keyed.group(1), keyed.group(2)
            if name not in _NOT_PACKAGES and _VERSIONISH.match(spec):
                found[f"any:{_normal(name)}"] = (name, spec)
            continue
        table = re.match(r"^([A-Za-z0-9_-]+)\s*=\s*\{(.*)\}$", line)
        if table is not None and re.search(r"\b(version|path|git)\s*=", table.group(2)):
            found[f"any:{_normal(table.group(1))}"] = (table.group(1), _spec_value(table.group(2)))
            continue
        lone = re.match(r"^[\"']([^\"']+)[\"']$", line)
        if kind == "pyproject" and lone is not None and re.search(r"[<>=!~@]", lone.group(1)):
            _requirement(lone.group(1), "any", found)
    return found
