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
import marshal
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

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


def _future() -> object:
    """A stand-in for the module `__future__`.

    Each dispatcher module starts with `from __future__ import annotations`: a directive to
    the compiler, which at run time only imports `__future__` and takes `annotations` from
    it. That import (a module of classes and tables nothing here reads) costs a hook call
    about as much as two of the dispatcher's own modules; the hook process never needs more
    of it than `annotations`.
    """
    module = type(sys)("__future__")
    # What `__future__.annotations` holds (the feature's releases and compiler flag), on a
    # `types.SimpleNamespace` (the type of `sys.implementation`): a class costs more.
    namespace: Any = type(sys.implementation)
    module.annotations = namespace(  # type: ignore[attr-defined]
        optional=(3, 7, 0, "beta", 1), mandatory=None, compiler_flag=0x1000000
    )
    return module


_MAX_CACHE = 1 << 22  # bytes; none of ours comes near, a larger one is left to Python


class _Cached:
    """A finder and loader for this package's own modules, from their bytecode cache only.

    Python's path finder costs a module about 0.4 M instructions before its code runs
    (path hooks, spec, stat and checks written in Python), and a hook call imports about
    twenty of ours. This one takes a module whose cache file is the one Python itself
    would use, by Python's own rule: the same magic number, timestamp-based, the source's
    modification time and size. Anything else (no cache yet, a stale or hash-based one, a
    cache prefix, another finder's path) it leaves to the path finder, which compiles and
    writes the cache as it always does.
    """

    def __init__(self, magic: bytes, tag: str) -> None:
        self.magic, self.tag = magic, tag

    def find_spec(self, name: str, path: object = None, target: object = None) -> object:
        if not name.startswith("hookmsg_dispatch.") or not isinstance(path, list):
            return None
        if len(path) != 1 or not isinstance(path[0], str) or not path[0].startswith("/"):
            return None  # a relative folder: the path finder's to make absolute
        stem = name[name.rfind(".") + 1 :]
        folder = path[0] + "/" + stem
        for source, cache, package in (
            (folder + "/__init__.py", folder + "/__pycache__/__init__." + self.tag, True),
            (folder + ".py", path[0] + "/__pycache__/" + stem + "." + self.tag, False),
        ):
            code = self._code(source, cache + ".pyc")
            if code is not None:
                spec = type(sys.__spec__)(name, self, origin=source, is_package=package)  # type: ignore[arg-type]
                spec.cached, spec.has_location = cache + ".pyc", True
                if package:
                    spec.submodule_search_locations = [folder]
                spec.loader_state = code
                return spec
            if package and _exists(folder):
                return None  # a package folder: Python's own finder decides
        return None

    def _code(self, source: str, cache: str) -> object:
        try:
            info = _os.stat(source)
            handle = _os.open(cache, _os.O_RDONLY)
            try:
                data = _os.read(handle, _MAX_CACHE)
            finally:
                _os.close(handle)
        except OSError:
            return None
        if len(data) >= _MAX_CACHE:
            return None
        mtime = int(info.st_mtime) & 0xFFFFFFFF
        size = info.st_size & 0xFFFFFFFF
        if (
            data[:4] != self.magic
            or data[4:8] != b"\0\0\0\0"
            or int.from_bytes(data[8:12], "little") != mtime
            or int.from_bytes(data[12:16], "little") != size
        ):
            return None
        try:  # a damaged cache: the path finder's to report or replace
            code = marshal.loads(memoryview(data)[16:])
        except (ValueError, EOFError, TypeError):
            return None
        return code if isinstance(code, type(_exists.__code__)) else None

    def create_module(self, spec: object) -> None:
        return None

    def exec_module(self, module: object) -> None:
        spec = module.__spec__  # type: ignore[attr-defined]
        code, spec.loader_state = spec.loader_state, None
        exec(code, module.__dict__)


def _exists(path: str) -> bool:
    try:
        _os.stat(path)
    except OSError:
        return False
    return True


def _cached_finder() -> object:
    """`_Cached` where this interpreter's cache files can be told (CPython on POSIX)."""
    external = sys.modules.get("_frozen_importlib_external")
    magic = getattr(external, "MAGIC_NUMBER", None)
    tag = sys.implementation.cache_tag
    if _os.__name__ != "posix" or not isinstance(magic, bytes) or not tag:
        return None
    if getattr(sys, "pycache_prefix", None) is not None:
        return None
    return _Cached(magic, tag)


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
        finder = _cached_finder()
        if finder is not None:
            sys.meta_path.insert(0, finder)  # type: ignore[arg-type]
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
