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

from hookmsg.cli import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare only; never write")
    args = parser.parse_args(argv)
    return run(["build", "--only", "skill-index.md", *(["--check"] if args.check else [])])


if __name__ == "__main__":
    sys.exit(main())
