"""Run the end-to-end tier in a network namespace with only loopback, so nothing leaves.

The test process itself moves into a new network namespace (as `unshare -n` does; without
root, inside a new user namespace as `unshare -rn` does) before the first client starts:
the stand-in endpoint, `hookmsg install` and every client it starts inherit it, so the
only reachable address is 127.0.0.1. Where the process may also have a mount namespace of
its own, `/etc/resolv.conf` is replaced there by one naming 127.0.0.1, where nothing
answers, so a client that looks a host up on start is refused at once instead of waiting.

Standard library only (ctypes for unshare(2) and mount(2), an ioctl to bring `lo` up).
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct
import tempfile
from pathlib import Path

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
SIOCSIFFLAGS = 0x8914
IFF_UP, IFF_LOOPBACK, IFF_RUNNING = 0x1, 0x8, 0x40
RESOLV = "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n"


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _unshare(libc: ctypes.CDLL, flags: int) -> int:
    """0, or the errno of a refused unshare(2)."""
    return 0 if libc.unshare(flags) == 0 else ctypes.get_errno()


def _map_user(uid: int, gid: int) -> None:
    """Inside a new user namespace: be root there, mapped to who we were outside."""
    Path("/proc/self/setgroups").write_text("deny", encoding="ascii")
    Path("/proc/self/uid_map").write_text(f"0 {uid} 1", encoding="ascii")
    Path("/proc/self/gid_map").write_text(f"0 {gid} 1", encoding="ascii")


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH", b"lo", IFF_UP | IFF_LOOPBACK | IFF_RUNNING)
        fcntl.ioctl(sock, SIOCSIFFLAGS, request.ljust(40, b"\0"))


def _quiet_resolver(libc: ctypes.CDLL) -> bool:
    """In a mount namespace of our own, bind a resolv.conf that answers nothing."""
    if _unshare(libc, CLONE_NEWNS) != 0:
        return False
    if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return False
    handle, name = tempfile.mkstemp(prefix="hookmsg-e2e-resolv.")
    with os.fdopen(handle, "w", encoding="ascii") as file:
        file.write(RESOLV)
    return libc.mount(name.encode(), b"/etc/resolv.conf", None, MS_BIND, None) == 0


def enter_offline() -> str:
    """Move this process into a loopback-only network namespace; say how, or why not."""
    libc = _libc()
    uid, gid = os.getuid(), os.getgid()
    if uid == 0:
        refused = _unshare(libc, CLONE_NEWNET)
    else:
        refused = _unshare(libc, CLONE_NEWUSER | CLONE_NEWNET)
        if refused == 0:
            _map_user(uid, gid)
    if refused:
        return f"not isolated: unshare(CLONE_NEWNET) refused: {os.strerror(refused)}"
    _loopback_up()
    resolver = "resolv.conf answers nothing" if _quiet_resolver(libc) else "host resolv.conf"
    return f"isolated: a network namespace with only loopback ({resolver})"


def interfaces() -> list[str]:
    """The network interfaces this process sees (its namespace's, from /proc/net/dev)."""
    lines = Path("/proc/net/dev").read_text(encoding="ascii").splitlines()[2:]
    return sorted(line.split(":", 1)[0].strip() for line in lines)
