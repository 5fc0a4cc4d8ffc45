"""A free TCP port of 127.0.0.1, for a server a test starts in another process (which picks no port itself)."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port nothing listens on now (the probe's socket is closed again)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
