"""`hookmsg install-render --harness ID --python PATH --root PATH`."""

from __future__ import annotations

import json
import sys
from typing import Any

from hookmsg.config import Project
from hookmsg.errors import EXIT_OK, FindingsError, UsageError
from hookmsg.render.registrations import is_module, registration_data, render_registration
from hookmsg.render.xcsh_module import fill_tokens
from hookmsg.workspace import load_workspace

# Each of these would let a path escape its double quotes in a shell command line
# (or start an expansion), so that the hook ran another file.
FORBIDDEN = {"$": "a dollar sign", "`": "a backtick", '"': "a double quote", "\\": "a backslash"}


def _refuse_dangerous(option: str, path: str) -> None:
    for char, name in FORBIDDEN.items():
        if char in path:
            raise UsageError(f"{option} '{path}' contains {name}; choose a path without it")
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in path):
        raise UsageError(f"{option} {path!r} contains a control character")
    if not path.strip():
        raise UsageError(f"{option} is empty")


def _render_tokens(value: Any, tokens: dict[str, str]) -> Any:
    if isinstance(value, str):
        for token, replacement in tokens.items():
            value = value.replace("${" + token + "}", replacement)
        return value
    if isinstance(value, list):
        return [_render_tokens(item, tokens) for item in value]
    if isinstance(value, dict):
        return {key: _render_tokens(item, tokens) for key, item in value.items()}
    return value


def install_render(project: Project, harness_id: str, python: str, root: str) -> int:
    _refuse_dangerous("--python", python)
    _refuse_dangerous("--root", root)
    workspace = load_workspace(project)
    harnesses = workspace.catalogue.harnesses
    registry = workspace.catalogue.registry
    if harnesses is None or registry is None:
        raise FindingsError("the catalogue does not load; run `hookmsg validate`")
    known = [h.id for h in harnesses.harnesses if h.registration is not None]
    harness = next((h for h in harnesses.harnesses if h.id == harness_id), None)
    if harness is None or harness.registration is None:
        raise UsageError(f"unknown harness '{harness_id}'; known: {', '.join(known)}")
    tokens = {"PYTHON_BIN": python, "HARNESS_ROOT": root.rstrip("/")}
    if is_module(harness):
        sys.stdout.write(fill_tokens(render_registration(harness, registry), tokens))
        return EXIT_OK
    rendered = _render_tokens(registration_data(harness, registry), tokens)
    sys.stdout.write(json.dumps(rendered, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return EXIT_OK
