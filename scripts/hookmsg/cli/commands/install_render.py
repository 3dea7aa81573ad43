"""`hookmsg install-render --harness ID --python PATH --root PATH [--strict]`.

The low-level face of `hookmsg install`: print one harness's registration with the install
tokens filled in, after the catalogue validated and both paths passed the path rules.
"""

from __future__ import annotations

import sys

from hookmsg.errors import EXIT_OK
from hookmsg.harnesses.registration_plan import is_module
from hookmsg.install.target import checked_workspace, fill_tokens, find_harness, safe_path
from hookmsg.jsonout import dump_json
from hookmsg.project.settings import Project
from hookmsg.render.registrations import registration_data, render_registration
from hookmsg.render.xcsh_module import fill_tokens as fill_module_tokens


def install_render(
    project: Project, harness_id: str, python: str, root: str, *, strict: bool = False
) -> int:
    python = safe_path("--python", python)
    root = safe_path("--root", root)
    workspace = checked_workspace(project)
    harness, registry = find_harness(workspace, harness_id)
    if is_module(harness):
        module = render_registration(harness, registry)
        sys.stdout.write(fill_module_tokens(module, {"PYTHON_BIN": python, "HARNESS_ROOT": root}))
        return EXIT_OK
    data = registration_data(harness, registry, strict=strict)
    rendered = fill_tokens(data, {"PYTHON_BIN": python, "HARNESS_ROOT": root})
    sys.stdout.write(dump_json(rendered))
    return EXIT_OK
