"""The dispatcher's start: what `hooks/dispatch.py` hands over to, before anything else loads.

It puts the dispatcher's folder first on `sys.path` and drops the working directory from
it, hands the command line to `main.run`, and exits 0 whatever happens (a failure is one
line on standard error). A hook process lives for one call: the cyclic garbage collector
is switched off (nothing it could free matters before the exit), and once the answer is
written and flushed the process ends at once, without the interpreter's teardown of every
module (a large share of a short run). Nothing here imports a module found on `sys.path`
before the working directory is dropped (so no `from __future__`), and on POSIX nothing
imports `os`: `posix`, which the interpreter has already loaded, does the little this
needs (`hookmsg_dispatch.system` says why). Python 3.9 or newer, standard library only.
"""

import gc
import sys

try:
    import posix as _os
except ImportError:  # not POSIX (Windows): the full module
    import os as _os  # type: ignore[no-redef,unused-ignore]


def _abspath(path: str) -> str:
    """`os.path.abspath`, with string operations on POSIX."""
    if _os.__name__ != "posix":
        return str(_os.path.abspath(path))  # type: ignore[attr-defined,unused-ignore]
    joined = path if path.startswith("/") else _os.getcwd() + "/" + path
    initial = 2 if joined.startswith("//") and not joined.startswith("///") else 1
    parts: list[str] = []
    for part in joined.split("/"):
        if part == "..":
            parts[-1:] = []
        elif part and part != ".":
            parts.append(part)
    return "/" * initial + "/".join(parts)


def _dirname(path: str) -> str:
    """`os.path.dirname` of a path `_abspath` gave."""
    if _os.__name__ != "posix":
        return str(_os.path.dirname(path))  # type: ignore[attr-defined,unused-ignore]
    return path[: path.rfind("/")] or "/"


class _Annotations:
    """What `__future__.annotations` holds (the feature's releases and compiler flag)."""

    optional = (3, 7, 0, "beta", 1)
    mandatory = None
    compiler_flag = 0x1000000


def _future() -> object:
    """A stand-in for the module `__future__`.

    Each dispatcher module starts with `from __future__ import annotations`: a directive to
    the compiler, which at run time only imports `__future__` and takes `annotations` from
    it. That import (a module of classes and tables nothing here reads) costs a hook call
    about as much as two of the dispatcher's own modules; the hook process never needs more
    of it than `annotations`.
    """
    module = type(sys)("__future__")
    module.annotations = _Annotations()  # type: ignore[attr-defined]
    return module


def main(file: str) -> None:
    """Run the dispatcher for the entry script `file` (`<root>/hooks/dispatch.py`)."""
    gc.disable()
    try:
        here = _dirname(_abspath(file))
        # Never import from the opened project: drop the working directory, which `-c`
        # puts first on sys.path before Python 3.11's -P (or -I) leaves it out.
        cwd = _os.getcwd()
        sys.path[:] = [here] + [
            path for path in sys.path[1:] if path not in ("", ".") and _abspath(path) != cwd
        ]
        if "__future__" not in sys.modules:
            sys.modules["__future__"] = _future()  # type: ignore[assignment]
        from hookmsg_dispatch.main import run

        run(sys.argv[1:], root=_dirname(here))
    except BaseException as error:  # fail open: never exit 2, never a traceback
        try:  # noqa: SIM105 (contextlib costs start-up time)
            sys.stderr.write(f"hookmsg-dispatch: cannot start ({type(error).__name__}: {error})\n")
        except BaseException:
            pass
    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105
            stream.flush()
        except BaseException:
            pass
    _os._exit(0)
