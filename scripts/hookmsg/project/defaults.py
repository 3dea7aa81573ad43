"""The defaults of `[tool.hookmsg]`, and the name of the file that holds it.

Standard library only. Finding the project and reading its table is `pyproject.py`,
checking it `rules.py`, the typed settings it becomes `settings.py`.
"""

from __future__ import annotations

from typing import Any

PYPROJECT = "pyproject.toml"

DEFAULTS: dict[str, Any] = {
    "messages": "messages",
    "catalog": "catalog",
    "generated": "generated",
    "licence-line": "<!-- SPDX-License-Identifier: MIT -->",
    "delivered-cap": 10_000,
    "skill-index-budget": 1_600,
    "max-file-bytes": 1_000_000,
}
