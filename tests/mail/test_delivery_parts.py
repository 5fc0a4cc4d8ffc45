"""The small parts of delivery straight to pbem: the ``--lmtp`` address, which recipients are the game
master's, and reading one mail from a stream with bounded memory."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pbem.mail.intake.deliver import read_mail
from pbem.mail.intake.lmtp import BadLmtpAddress, LmtpAddress, delivered, is_own_address
from pbem.mail.reading.mailstore import OVERSIZED_PREFIX


def test_lmtp_address_reads_host_and_port_v6_and_unix_sockets() -> None:
    assert LmtpAddress.parse("127.0.0.1:2424") == LmtpAddress(host="127.0.0.1", port=2424)
    assert LmtpAddress.parse("[::1]:24") == LmtpAddress(host="::1", port=24)
    assert LmtpAddress.parse("unix:/run/pbem/lmtp") == LmtpAddress(path=Path("/run/pbem/lmtp"))
    assert [str(LmtpAddress.parse(text)) for text in ("localhost:0", "[::1]:24", "unix:/run/pbem/lmtp")] == [
        "localhost:0", "[::1]:24", "unix:/run/pbem/lmtp"]


@pytest.mark.parametrize("text", ["2424", "localhost", ":2424", "host:port", "host:99999", "unix:relative/path"])
def test_lmtp_address_refuses_what_is_neither_host_port_nor_an_absolute_socket_path(text: str) -> None:
    with pytest.raises(BadLmtpAddress, match="--lmtp"):
        LmtpAddress.parse(text)


def test_own_addresses_are_the_game_masters_and_its_plus_variants_in_any_case() -> None:
    own = "gm@pbem.test"
    assert all(is_own_address(address, own) for address in ("gm@pbem.test", "GM@PBEM.test", "gm+seat-x1@pbem.test"))
    assert not any(is_own_address(address, own) for address in (
        "gmx@pbem.test", "gm@pbem.test.evil", "gm@sub.pbem.test", "other+gm@pbem.test", "gm", "@pbem.test"))


def test_a_delivered_mail_starts_with_its_return_path_and_a_delivered_to_per_recipient() -> None:
    assert delivered(b"Subject: x\r\n\r\nbody\r\n", "", ["gm@pbem.test", "gm+a@pbem.test"]) == (
        b"Return-Path: <>\r\nDelivered-To: gm@pbem.test\r\nDelivered-To: gm+a@pbem.test\r\nSubject: x\r\n\r\nbody\r\n")


def test_read_mail_keeps_a_mail_within_the_limit_whole_without_its_mbox_from_line() -> None:
    mail = b"From: a@b.test\nSubject: x\n\nFrom here on\n"
    assert read_mail(io.BytesIO(b"From a@b.test Sat Nov 28 05:00:00 2026\n" + mail)) == (mail, len(mail))
    assert read_mail(io.BytesIO(mail)) == (mail, len(mail))


def test_read_mail_keeps_only_the_beginning_of_an_oversized_mail_and_counts_all_of_it() -> None:
    mail = b"Subject: big\n\n" + b"x" * 5_000_000
    kept, size = read_mail(io.BytesIO(mail), max_size=1_000_000)
    assert size == len(mail) and kept == mail[:OVERSIZED_PREFIX]
    exactly = b"y" * 1_000_000
    assert read_mail(io.BytesIO(exactly), max_size=1_000_000) == (exactly, 1_000_000)
