"""systemd's notify protocol as the daemon speaks it: one datagram to NOTIFY_SOCKET, an abstract name
when it starts with @, and no watchdog for a process systemd did not mean."""

from __future__ import annotations

import os
import socket
import uuid

import pytest

from pbem.ops.notify import SystemdNotifier


def test_a_notification_reaches_an_abstract_socket_as_one_datagram() -> None:
    name = f"pbem-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind("\0" + name)
        listener.settimeout(5)
        notifier = SystemdNotifier({"NOTIFY_SOCKET": f"@{name}", "WATCHDOG_USEC": "30000000",
                                    "WATCHDOG_PID": str(os.getpid())})
        notifier.send("READY=1", "STATUS=serving")
        assert listener.recv(4096) == b"READY=1\nSTATUS=serving"
    assert notifier.watchdog == 30.0


def test_without_notify_socket_nothing_is_sent_and_a_watchdog_meant_for_another_process_is_ignored() -> None:
    assert not SystemdNotifier({}).is_enabled
    SystemdNotifier({}).send("READY=1")  # nowhere to send: nothing happens
    other = SystemdNotifier({"NOTIFY_SOCKET": "/run/none", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"})
    assert other.watchdog is None


def test_a_socket_gone_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    notifier = SystemdNotifier({"NOTIFY_SOCKET": f"/nonexistent/{uuid.uuid4().hex}"})
    notifier.send("WATCHDOG=1")
    assert "cannot notify systemd" in caplog.text
