"""The end-to-end tier runs with no network but loopback, so a pass proves that no client
reached anything beyond the stand-in endpoint on 127.0.0.1."""

from __future__ import annotations

import os
import socket

import pytest

from tests.e2e.conftest import required
from tests.e2e.netns import interfaces

pytestmark = pytest.mark.e2e


def test_the_tier_sees_only_loopback_and_resolves_nothing(offline: str) -> None:
    if os.environ.get("HOOKMSG_E2E_NETWORK") == "host":
        pytest.skip(offline)
    if not offline.startswith("isolated:") and not required():
        pytest.skip(offline)  # the machine does not allow it; CI (require) must isolate
    assert offline.startswith("isolated:"), offline
    assert interfaces() == ["lo"]
    with pytest.raises(OSError):
        socket.create_connection(("192.0.2.1", 443), timeout=5)  # TEST-NET-1: unreachable
    with pytest.raises(OSError):
        socket.getaddrinfo("registry.npmjs.org", 443)
    with (
        socket.create_server(("127.0.0.1", 0)) as server,
        socket.create_connection(server.getsockname(), timeout=5),
    ):
        pass
