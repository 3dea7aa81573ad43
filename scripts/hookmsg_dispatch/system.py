"""`os` and `stat` for the dispatcher, without importing them on POSIX.

Under `python -I -S` the interpreter has loaded `posix` (what `os` is built on) but not
`os`, whose import (with `posixpath`, `genericpath`, `stat` and `_collections_abc`) costs a
hook call about a fifth of the interpreter's own start-up. On POSIX this module gives the
dispatcher an `os` made of `posix` itself plus the few pure functions it uses from
`os` and `os.path`, written with string operations as `posixpath` writes them, and `stat`
as the C module `_stat` that `stat` re-exports. Where `os` is already loaded (a test, a
host process) or there is no `posix` (Windows), `os` and `stat` are the real modules, so
nothing changes there. Standard library only, Python 3.9 or newer.

    from hookmsg_dispatch.system import os, stat
"""

from __future__ import annotations

import sys

__all__ = ["os", "stat"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    import stat
else:
    try:
        if "os" in sys.modules:
            raise ImportError("os is loaded: use it")
        import _stat as stat

        from hookmsg_dispatch import _posixpath
    except ImportError:
        import os
        import stat
    else:
        os = _posixpath.lite_os()
