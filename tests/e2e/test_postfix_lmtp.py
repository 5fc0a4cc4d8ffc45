"""Real Postfix delivering to pbem over LMTP: a private Postfix instance (its own configuration, queue and
log in a temporary folder; the system's /etc/postfix is only read for its list of files) takes a player's
mail over SMTP on a high port of 127.0.0.1 and hands it on with its ``lmtp`` transport to the daemon's LMTP
listener; nothing is relayed anywhere else. Skips, saying why, where Postfix is missing or cannot run here
(it needs root and its ``postfix`` user)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import aiosmtplib
import pytest
from databases import query as run_query
from ports import free_port
from test_mail_lmtp import GM_ADDRESS, PLAYER, lmtp_service

from pbem.mail.answering.policy import DEFAULT_MAX_SIZE
from pbem.mail.intake.lmtp import LmtpAddress
from pbem.sandbox.mailclient import MailboxReader, plain_mail

POSTFIX = Path("/usr/sbin/postfix")
TIMEOUT = 60.0
"""Longest Postfix may take to start, to stop, or to deliver the mail, in seconds."""

MASTER_CF = """\
127.0.0.1:{smtp_port} inet n - n - - smtpd
pickup    unix  n - n 60 1 pickup
cleanup   unix  n - n -  0 cleanup
qmgr      unix  n - n 300 1 qmgr
rewrite   unix  - - n -  - trivial-rewrite
bounce    unix  - - n -  0 bounce
defer     unix  - - n -  0 bounce
trace     unix  - - n -  0 bounce
verify    unix  - - n -  1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n -  - proxymap
showq     unix  n - n -  - showq
error     unix  - - n -  - error
retry     unix  - - n -  - error
discard   unix  - - n -  - discard
lmtp      unix  - - n -  - lmtp
anvil     unix  - - n -  1 anvil
scache    unix  - - n -  1 scache
postlog   unix-dgram n - n - 1 postlogd
"""
MAIN_CF = """\
compatibility_level = 3.6
queue_directory = {root}/queue
data_directory = {root}/data
meta_directory = /etc/postfix
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
mail_owner = postfix
setgid_group = postdrop
syslog_name = postfix-pbemtest
maillog_file_prefixes = {root}
maillog_file = {root}/maillog
myhostname = mta.pbem.test
mydomain = pbem.test
myorigin = pbem.test
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relay_domains = pbem.test
relay_transport = lmtp:inet:127.0.0.1:{lmtp_port}
default_transport = error:this test relays nowhere else
alias_maps =
alias_database =
smtpd_recipient_restrictions = permit_mynetworks, reject_unauth_destination
smtp_dns_support_level = disabled
lmtp_dns_support_level = disabled
"""



def _why_postfix_cannot_run() -> str | None:
    if not POSTFIX.exists():
        return f"Postfix is not installed ({POSTFIX} is missing; apt-get install postfix)"
    if shutil.which("script") is None:
        return "util-linux's script is missing (it shows Postfix's start-up errors)"
    if os.geteuid() != 0:
        return "a private Postfix instance is started as root, and this is not root"
    try:
        pwd.getpwnam("postfix")
    except KeyError:
        return "the postfix user does not exist"
    return None


def _postfix(root: Path, command: str) -> subprocess.CompletedProcess[str]:
    # Under `script` Postfix writes its start-up errors to the terminal; without one only to syslog.
    return subprocess.run(["script", "-qec", f"{POSTFIX} -c {root}/etc {command}", "/dev/null"],
                          capture_output=True, text=True, timeout=TIMEOUT, check=False, stdin=subprocess.DEVNULL)


@contextlib.contextmanager
def private_postfix(smtp_port: int, lmtp_port: int, settings: str = "") -> Iterator[Path]:
    """Configure and start a Postfix instance of its own in a temporary folder, with ``settings`` (lines of
    main.cf) added; yield the folder; stop it and remove the folder at the end."""
    root = Path(tempfile.mkdtemp(prefix="pbem-postfix-"))
    root.chmod(0o755)  # Postfix's daemons run as the postfix user
    try:
        (root / "etc").mkdir()
        (root / "queue").mkdir()
        (root / "data").mkdir()
        shutil.chown(root / "data", "postfix")
        (root / "etc" / "main.cf").write_text(MAIN_CF.format(root=root, lmtp_port=lmtp_port) + settings)
        (root / "etc" / "master.cf").write_text(MASTER_CF.format(smtp_port=smtp_port))
        started = _postfix(root, "start")
        if started.returncode != 0:
            pytest.skip(f"Postfix cannot run here: {started.stdout.strip() or started.stderr.strip()}")
        try:
            yield root
        finally:
            _postfix(root, "stop")
            pid_file = root / "queue" / "pid" / "master.pid"
            with contextlib.suppress(FileNotFoundError, ValueError, ProcessLookupError):
                os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)  # only if it outlived the stop
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow
def test_postfix_delivers_a_players_mail_to_pbem_over_lmtp_and_the_reply_reaches_the_player(tmp_path: Path) -> None:
    reason = _why_postfix_cannot_run()
    if reason is not None:
        pytest.skip(reason)
    lmtp_port, smtp_port = free_port(), free_port()

    async def scenario() -> None:
        async with lmtp_service(tmp_path, LmtpAddress("127.0.0.1", lmtp_port)) as service:
            with private_postfix(smtp_port, lmtp_port) as root:
                mailbox = MailboxReader(service.servers, PLAYER)
                message = plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n")
                await aiosmtplib.send(message, hostname="127.0.0.1", port=smtp_port, timeout=TIMEOUT)
                try:
                    reply = (await mailbox.new_mail(1, timeout=TIMEOUT))[0]
                except TimeoutError:
                    log = (root / "maillog").read_text() if (root / "maillog").exists() else "(no log)"
                    raise AssertionError(f"no reply; Postfix's log:\n{log}") from None
                assert "pbem commands" in reply.body and reply.in_reply_to == message["Message-ID"]
                assert "status=sent" in (root / "maillog").read_text()
                [(raw,)] = run_query(service.db_url, "SELECT raw FROM inbound_message")
                raw = bytes(raw)
                assert raw.startswith(f"Return-Path: <{PLAYER}>\r\nDelivered-To: {GM_ADDRESS}\r\n".encode())
                assert b"by mta.pbem.test (Postfix)" in raw

    asyncio.run(scenario())


@pytest.mark.slow
def test_postfix_bounces_at_once_a_mail_for_two_recipients_that_pbem_refuses_after_its_data(tmp_path: Path) -> None:
    """A mail over pbem's size limit and one with a line over 1,000 characters, each to two of the game master's
    addresses: pbem answers each recipient (RFC 2033), so Postfix bounces both at once instead of waiting for an
    answer it is owed and deferring the mail again and again."""
    reason = _why_postfix_cannot_run()
    if reason is not None:
        pytest.skip(reason)
    lmtp_port, smtp_port = free_port(), free_port()
    # Postfix would not send either mail were it to heed pbem's SIZE and fold the long line, as it does by default.
    settings = "lmtp_discard_lhlo_keywords = size\nlmtp_line_length_limit = 0\n"
    recipients = [GM_ADDRESS, "gm+x@pbem.test"]
    big = plain_mail(PLAYER, GM_ADDRESS, "big", ("HELP " * 20 + "\n") * (DEFAULT_MAX_SIZE // 100 + 1))
    long_line = (f"From: {PLAYER}\r\nTo: {GM_ADDRESS}\r\nSubject: long\r\n\r\nHELP {'x' * 2_000}\r\n").encode()

    async def scenario() -> None:
        async with lmtp_service(tmp_path, LmtpAddress("127.0.0.1", lmtp_port)) as service:
            with private_postfix(smtp_port, lmtp_port, settings) as root:
                for message in (big.as_bytes(), long_line):
                    await aiosmtplib.send(message, sender=PLAYER, recipients=recipients, hostname="127.0.0.1",
                                          port=smtp_port, timeout=TIMEOUT)
                log = root / "maillog"
                deadline = asyncio.get_running_loop().time() + TIMEOUT
                while len(_bounced_to_pbem(log)) < 4 and asyncio.get_running_loop().time() < deadline:
                    await asyncio.sleep(0.2)
                lines = _bounced_to_pbem(log)
                assert len(lines) == 4, f"Postfix's log:\n{log.read_text() if log.exists() else '(no log)'}"
                assert sum("said: 552" in line for line in lines) == 2
                assert sum("said: 500" in line for line in lines) == 2
                assert "status=deferred" not in log.read_text()
                assert service.stored() == []

    asyncio.run(scenario())


def _bounced_to_pbem(log: Path) -> list[str]:
    """The lines of Postfix's log saying it bounced a mail to one of the game master's addresses."""
    text = log.read_text() if log.exists() else ""
    return [line for line in text.splitlines() if "status=bounced" in line and "to=<gm" in line]
