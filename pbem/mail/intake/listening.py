"""Whether ``pbem serve`` can listen where it is told, asked before it creates anything (its database,
its mailboxes), so that a taken port ends it with one line naming the port and the option that changes
it, and leaves nothing behind."""

from __future__ import annotations

import errno
import socket
from pathlib import Path


class CannotListen(OSError):
    """A port (or UNIX socket) ``pbem serve`` is to listen on cannot be taken: another program listens
    there, or the system refuses it. The message names it and the option that changes it."""


def check_port(host: str, port: int, *, what: str, option: str) -> None:
    """Return when ``what`` (such as ``the embedded IMAP server``) can listen on ``host:port`` now, bound
    as asyncio binds a server (``SO_REUSEADDR``, IPv6 sockets IPv6 only); port 0 (any free port) always
    can. Raises :class:`CannotListen` saying why and naming ``option`` otherwise."""
    if port == 0:
        return
    try:
        places = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise CannotListen(f"{what} cannot listen on {host}:{port}: {error.strerror}; give another host with "
                           f"{option}") from None
    for family, kind, protocol, _, address in places:
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    raise CannotListen(f"port {port} on {host} is in use by another program (another pbem "
                                       f"serve?), so {what} cannot listen there; give another port with "
                                       f"{option}") from None
                raise CannotListen(f"{what} cannot listen on port {port} on {host}: {error.strerror}; give "
                                   f"another port with {option}") from None


def is_listened(path: Path) -> bool:
    """True when a process listens on the UNIX socket at ``path`` (a socket file nobody listens on is
    one left by a process that died)."""
    if not path.is_socket():
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def check_socket_path(path: Path, *, what: str, option: str) -> None:
    """Return when ``what`` can make a UNIX socket at ``path``: nobody listens there and its folder
    exists. Raises :class:`CannotListen` naming ``option`` otherwise."""
    if is_listened(path):
        raise CannotListen(f"another process listens on {path}, so {what} cannot; give another path with {option}")
    if not path.parent.is_dir():
        raise CannotListen(f"{what} cannot listen on {path}: there is no folder {path.parent}; give another "
                           f"path with {option}")
