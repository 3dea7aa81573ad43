"""Load one TOML file into a pydantic model, turning every failure into a finding."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from hookmsg.catalogue.rules import catalogue as rules
from hookmsg.diagnostics import Diagnostic
from hookmsg.inputs.source import read_source
from hookmsg.tomlpos import toml_error_position

M = TypeVar("M", bound=BaseModel)


def read_toml(
    path: Path, display: str, max_bytes: int, root: Path | None
) -> tuple[dict[str, Any] | None, str, list[Diagnostic]]:
    """Read and parse one TOML file: its data (None when it fails), its text and the findings.

    With `root`, a file inside the repository that leads out of it by a link is refused.
    """
    if not path.exists() and not path.is_symlink():
        return None, "", [rules.missing(display)]
    source, problems = read_source(
        path, display, max_bytes=max_bytes, root=root, check_folders=root is not None
    )
    if source is None:
        return None, "", problems
    try:
        return tomllib.loads(source.text), source.text, problems
    except tomllib.TOMLDecodeError as error:
        line, col, message = toml_error_position(error, source.text)
        return None, source.text, [*problems, rules.not_toml(display, line, col, message)]
    except RecursionError:
        message = "nested too deeply to read"
        return None, source.text, [*problems, rules.not_toml(display, 1, 1, message)]


def validated(
    model: type[M], data: Any, text: str, display: str
) -> tuple[M | None, list[Diagnostic]]:
    """`data` as `model`, or None and a C002 finding (located in `text`) per problem."""
    try:
        return model.model_validate(data), []
    except ValidationError as error:
        errors = [(tuple(item["loc"]), item["msg"]) for item in error.errors()]
        return None, rules.schema_errors(display, data, text, errors)


def load_model(
    path: Path, display: str, model: type[M], max_bytes: int, root: Path | None
) -> tuple[M | None, str, list[Diagnostic]]:
    """Read, parse and validate one TOML file with `model`; never raises for bad content.

    The model (None when the file fails), its text (for locating findings) and the findings.
    """
    data, text, problems = read_toml(path, display, max_bytes, root)
    if data is None:
        return None, text, problems
    loaded, found = validated(model, data, text, display)
    return loaded, text, [*problems, *found]
