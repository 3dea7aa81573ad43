"""hookmsg hook dispatcher: run by every generated hook registration.

Shipped as `<install root>/hooks/dispatch.py`, beside `hooks/hookmsg_dispatch/`. Python 3.9
or newer, standard library only; no installed package is needed. It puts its own folder
first on `sys.path` and hands over to `hookmsg_dispatch.boot`, which exits 0 whatever
happens. The bootstrap compiles this file on every call (the package's modules are
compiled once, into their cache), so it stays this small.
"""

import sys

if __name__ == "__main__":
    try:
        _at = max(__file__.rfind("/"), __file__.rfind("\\"))
        sys.path[:] = [__file__[:_at] if _at > 0 else ".", *sys.path]
        from hookmsg_dispatch.boot import main
    except BaseException as _error:  # fail open: never exit 2, never a traceback
        sys.stderr.write(f"hookmsg-dispatch: cannot start ({type(_error).__name__}: {_error})\n")
        sys.stderr.flush()
        sys.exit(0)
    main(__file__)
