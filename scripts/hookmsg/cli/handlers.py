"""What each subcommand does with its parsed arguments: one handler per row of the table.

Heavy modules are imported inside each handler so that `--help` stays instant.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hookmsg.errors import EXIT_OK


def validate(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.validate import validate
    from hookmsg.project.settings import load_project
    from hookmsg.report import choose_format

    paths = [Path(p) for p in args.paths]
    return validate(
        load_project(),
        paths,
        choose_format(args.format),
        verbose=args.verbose,
        stdin_name=args.stdin_filename,
    )


def fix(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.fix import fix
    from hookmsg.project.settings import load_project
    from hookmsg.report import choose_format

    paths = [Path(p) for p in args.paths]
    return fix(load_project(), paths, diff=args.diff, fmt=choose_format(args.format))


def _cached_check(args: argparse.Namespace) -> bool:
    """The fast path: a check of a tree already proven clean, without the heavy imports."""
    if not args.check or getattr(args, "only", None):
        return False
    from hookmsg.outputs.check_cache import known_clean
    from hookmsg.project.pyproject import find_root

    if not known_clean(find_root()):
        return False
    if args.format == "json":
        sys.stdout.write("[]\n")
    if args.verbose:
        sys.stderr.write("check: no problems found (unchanged since the last clean check)\n")
    return True


def build(args: argparse.Namespace) -> int:
    if _cached_check(args):
        return EXIT_OK
    from hookmsg.cli.commands.build import build
    from hookmsg.project.settings import load_project
    from hookmsg.report import choose_format

    names = getattr(args, "only", None)
    return build(
        load_project(),
        check=args.check,
        fmt=choose_format(args.format),
        names=names,
        verbose=args.verbose,
    )


def preview(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.preview import preview
    from hookmsg.project.settings import load_project

    return preview(load_project(), args.name, args.set or [], harness=args.harness, root=args.root)


def replay(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.replay import replay
    from hookmsg.project.settings import load_project

    return replay(
        load_project(),
        args.transcript,
        harness_id=args.harness,
        target=args.project,
        fmt=args.format,
    )


def explain(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.explain import explain

    return explain(args.code)


def package(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.package import package
    from hookmsg.project.settings import load_project
    from hookmsg.report import choose_format

    output = Path(args.output) if args.output else None
    return package(
        load_project(),
        output,
        choose_format(args.format),
        version=args.content_version,
        verbose=args.verbose,
    )


def install_render(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.install_render import install_render
    from hookmsg.project.settings import load_project

    return install_render(load_project(), args.harness, args.python, args.root, strict=args.strict)


def install(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.install import InstallRequest, install
    from hookmsg.project.settings import load_project

    return install(
        load_project(),
        InstallRequest(
            args.harness,
            root=args.root,
            target=args.project,
            python=args.python,
            dry_run=args.dry_run,
            strict=args.strict,
            user=args.user,
            into_content_repo=args.into_content_repo,
        ),
    )


def roots(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.roots import roots

    return roots(prune=args.prune)


def verify(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.verify import verify
    from hookmsg.project.settings import load_project

    return verify(load_project(), args.harness, target=args.project, user=args.user)


def uninstall(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.uninstall import uninstall
    from hookmsg.project.settings import load_project

    return uninstall(load_project(), args.harness, target=args.project, user=args.user)


def watch(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.watch import watch
    from hookmsg.report import choose_format

    return watch(choose_format(args.format), verbose=args.verbose)


def init(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.init import init

    return init(args.dir, force=args.force, repo=args.hook_repo, rev=args.hook_rev)
