#!/usr/bin/env python3
"""Render generated/skill-index.md from catalog/skills.toml, or check it with --check.

The documented maintainer command; it runs the same library code as `hookmsg build
--only skill-index.md` (validation first, atomic write, check mode never writes).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # works before `pip install` too

try:  # the libraries the build imports lazily, checked up front
    import jinja2  # noqa: F401
    import markdown_it  # noqa: F401
    import pydantic  # noqa: F401

    from hookmsg.cli.main import run
except ModuleNotFoundError as missing:  # run outside the project's virtual environment
    sys.stderr.write(
        f"generate_skill_index.py: cannot import {missing.name!r}: this Python lacks hookmsg's "
        "dependencies. Run it with the project's environment:\n"
        "  python3 -m venv .venv && .venv/bin/pip install -e .\n"
        "  .venv/bin/python scripts/generate_skill_index.py\n"
    )
    sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare only; never write")
    args = parser.parse_args(argv)
    return run(["build", "--only", "skill-index.md", *(["--check"] if args.check else [])])


if __name__ == "__main__":
    sys.exit(main())
