"""hookmsg hook dispatcher: run by every generated hook registration.

Shipped as `<install root>/hooks/dispatch.py`, beside `hooks/hookmsg_dispatch/`. It puts
its own folder first on `sys.path`, hands the command line to the package, and exits 0
whatever happens (a failure is one line on standard error). Python 3.9 or newer, standard
library only; no installed package is needed.

A hook process lives for one call: the cyclic garbage collector is switched off (nothing
it could free matters before the exit), and once the answer is written and flushed the
process ends at once, without the interpreter's teardown of every module (a large share
of a short run).
"""

import gc
import os
import sys

if __name__ == "__main__":
    gc.disable()
    try:
        _here = os.path.dirname(os.path.abspath(__file__))
        # Never import from the opened project: drop the working directory, which `-c`
        # puts first on sys.path before Python 3.11's -P (or -I) leaves it out.
        _cwd = os.getcwd()
        sys.path[:] = [_here] + [
            _p for _p in sys.path if _p not in ("", ".") and os.path.abspath(_p) != _cwd
        ]
        from hookmsg_dispatch.main import run

        run(sys.argv[1:], root=os.path.dirname(_here))
    except BaseException as _error:  # fail open: never exit 2, never a traceback
        try:  # noqa: SIM105 (contextlib costs start-up time)
            sys.stderr.write(
                f"hookmsg-dispatch: cannot start ({type(_error).__name__}: {_error})\n"
            )
        except BaseException:
            pass
    for _stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105
            _stream.flush()
        except BaseException:
            pass
    os._exit(0)
