"""YAML front matter (`---` ... `---` at the top of a Markdown file), read safely.

The YAML is composed with PyYAML's SafeLoader, so no tag can construct anything but
plain data, and every key and value keeps the position it was written at. Whatever
the file holds, the result is data or findings, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic

DELIMITER = "---"
# Python exceptions that constructing a scalar can raise besides YAMLError
# (an impossible date, a huge exponent).
_CONSTRUCT_ERRORS = (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError)


@dataclass(frozen=True)
class Field:
    """One top-level key: its constructed value and where key and value start (1-based)."""

    key: str
    value: Any
    line: int
    col: int
    value_line: int
    value_col: int


@dataclass(frozen=True)
class FrontMatter:
    """The front matter's top-level keys in file order (empty when there is none)."""

    present: bool
    fields: dict[str, Field] = field(default_factory=dict)
    body: str = ""  # the text after the closing delimiter
    # Keys whose value could not be read (already a finding): not "missing".
    unreadable: frozenset[str] = frozenset()


def _leading_tab(line: str) -> int | None:
    """Index of a tab in the line's leading whitespace, if any."""
    for index, char in enumerate(line):
        if char == "\t":
            return index
        if char != " ":
            return None
    return None


def _offset_position(text: str, offset: int) -> tuple[int, int]:
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _error_position(error: yaml.YAMLError, text: str) -> tuple[int, int]:
    """0-based line and column of a YAML error inside the front matter."""
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        if mark is not None:
            return mark.line, mark.column
    if isinstance(error, yaml.reader.ReaderError):
        return _offset_position(text, error.position)
    return 0, 0


def _error_text(error: yaml.YAMLError) -> str:
    if isinstance(error, yaml.MarkedYAMLError):
        parts = [error.context, error.problem]
        return "; ".join(" ".join(part.split()) for part in parts if part) or "invalid YAML"
    if isinstance(error, yaml.reader.ReaderError):
        char = error.character
        code = ord(char) if isinstance(char, str) else int(char[0]) if char else 0
        return f"character U+{code:04X} is not allowed in YAML"
    return " ".join(str(error).split()) or "invalid YAML"


def read_front_matter(text: str, display: str) -> tuple[FrontMatter | None, list[Diagnostic]]:
    """Split `text` (LF endings, no BOM) into front matter and body.

    Returns FrontMatter(present=False) when the file does not start with `---`; None
    with findings when the front matter is there but unusable.
    """
    lines = text.split("\n")
    if lines[0].rstrip(" ") != DELIMITER:
        return FrontMatter(present=False, body=text), []
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip(" ") == DELIMITER), None)
    if end is None:
        return None, [
            Diagnostic(display, 1, 1, "S002", "front matter opened with `---` is never closed")
        ]
    yaml_text = "\n".join(lines[1:end])
    body = "\n".join(lines[end + 1 :])

    def at(line: int, col: int, code: Code, message: str) -> Diagnostic:
        # Line 0 of the YAML is line 2 of the file.
        return Diagnostic(display, line + 2, col + 1, code, message)

    composed = _compose(yaml_text, at)
    if isinstance(composed, Diagnostic):
        return None, [composed]
    loader, root = composed
    try:
        if root is None:
            return FrontMatter(present=True, body=body), []
        if not isinstance(root, yaml.MappingNode):
            kind = "a list" if isinstance(root, yaml.SequenceNode) else "a single value"
            mark = root.start_mark
            return None, [
                at(
                    mark.line,
                    mark.column,
                    "S004",
                    f"front matter is {kind}, not a mapping of keys",
                )
            ]
        return _fields(loader, root, body, at)
    finally:
        loader.dispose()


def _compose(
    yaml_text: str, at: Callable[[int, int, Code, str], Diagnostic]
) -> tuple[yaml.SafeLoader, yaml.Node | None] | Diagnostic:
    """The YAML's one document as a node tree, with its loader (the caller disposes of it)."""
    loader: yaml.SafeLoader | None = None
    try:
        # The reader refuses some characters (NUL, C1 controls) as soon as it is made.
        loader = yaml.SafeLoader(yaml_text)
        return loader, loader.get_single_node()
    except (RecursionError, yaml.YAMLError) as error:
        if loader is not None:
            loader.dispose()
        if isinstance(error, RecursionError):
            too_deep = "front matter nests too deeply to be read"
            return at(0, 0, "S003", too_deep)
        return _yaml_error(error, yaml_text, at)


def _yaml_error(
    error: yaml.YAMLError, yaml_text: str, at: Callable[[int, int, Code, str], Diagnostic]
) -> Diagnostic:
    """S005 when the line it failed on is indented with a tab, else S003."""
    line, col = _error_position(error, yaml_text)
    yaml_lines = yaml_text.split("\n")
    tab = _leading_tab(yaml_lines[line]) if line < len(yaml_lines) else None
    if tab is not None:
        text = "tab in the indentation of the front matter; YAML indents with spaces only"
        return at(line, tab, "S005", text)
    return at(
        line,
        col,
        "S003",
        f"front matter is not valid YAML: {_error_text(error)}",
    )


def _fields(
    loader: yaml.SafeLoader,
    root: yaml.MappingNode,
    body: str,
    at: Callable[[int, int, Code, str], Diagnostic],
) -> tuple[FrontMatter | None, list[Diagnostic]]:
    fields: dict[str, Field] = {}
    unreadable: set[str] = set()
    found: list[Diagnostic] = []
    for key_node, value_node in root.value:
        kmark, vmark = key_node.start_mark, value_node.start_mark
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
            found.append(
                at(
                    kmark.line,
                    kmark.column,
                    "S004",
                    "front matter key is not a string",
                )
            )
            continue
        key = str(key_node.value)
        if key in fields:
            first = fields[key]
            found.append(
                at(
                    kmark.line,
                    kmark.column,
                    "S014",
                    f"key '{key}' appears again (first on line {first.line}); YAML keeps one",
                )
            )
            continue
        try:
            value = loader.construct_object(value_node, deep=True)
        except _CONSTRUCT_ERRORS as error:
            text = _error_text(error) if isinstance(error, yaml.YAMLError) else str(error)
            found.append(
                at(
                    vmark.line,
                    vmark.column,
                    "S003",
                    f"value of '{key}' cannot be read: {text}",
                )
            )
            unreadable.add(key)
            continue
        fields[key] = Field(
            key, value, kmark.line + 2, kmark.column + 1, vmark.line + 2, vmark.column + 1
        )
    return FrontMatter(True, fields, body, frozenset(unreadable)), found
