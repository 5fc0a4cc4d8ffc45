"""Mail that says who sent it (issue 24): every mail pbem sends is DKIM-signed when it has a key, and a
From that the trusted receiving server marks as failing DMARC is treated as forged."""

from __future__ import annotations

import asyncio
from pathlib import Path

import dkim
from mail_games import eventually, inbound_rows, prove_quiet, send_raw
from mail_harness import GM_ADDRESS, TEST_MAIL_BUDGET, MailHarness, running_service

from pbem.mail.outbound.dkim_signing import DkimSigner, dns_record, new_key_pair
from pbem.mail.running.daemon import DaemonOptions

TRUSTED = "mx.pbem.test"
QUICK = {"mail_budget": TEST_MAIL_BUDGET, "idle_recheck": 0.5, "send_retry_min": 0.5, "clock_interval": 0.1}


def dns_of(record: str):  # type: ignore[no-untyped-def]
    """A DNS lookup for dkimpy that serves only the TXT record pbem dkim-keygen printed."""
    name = record.split(" ", 1)[0]
    value = "".join(part.strip('"') for part in record.split("( ", 1)[1].rsplit(" )", 1)[0].split('" "'))

    def lookup(asked: bytes, timeout: int = 5) -> bytes | None:
        return value.encode() if asked.decode().rstrip(".") == name.rstrip(".") else None

    return lookup


def test_a_reply_leaves_signed_and_its_signature_verifies_as_received(tmp_path: Path) -> None:
    private, public = new_key_pair()
    (tmp_path / "dkim.pem").write_bytes(private)
    signer = DkimSigner.load(tmp_path / "dkim.pem", selector="pbem2026", domain="pbem.test")
    lookup = dns_of(dns_record("pbem2026", "pbem.test", public))

    async def scenario() -> None:
        async with running_service(tmp_path, options=DaemonOptions(**QUICK, dkim=signer)) as service:
            alice = service.person("alice@players.test")
            await alice.send("HELP\n", subject="help")
            answer = await alice.last()
            assert b"\r\nDKIM-Signature: " in answer.raw
            assert b"d=pbem.test" in answer.raw and b"s=pbem2026" in answer.raw
            assert dkim.verify(answer.raw, dnsfunc=lookup)
            tampered = answer.raw.replace(b"pbem game master. Send HELP", b"pbem game master! Send HELP", 1)
            assert tampered != answer.raw and not dkim.verify(tampered, dnsfunc=lookup)

    asyncio.run(scenario())


def _join(sender: str, results: list[str], message_id: str) -> bytes:
    """A JOIN from ``sender`` with the Authentication-Results fields ``results`` on top, as the receiving
    server adds them."""
    fields = "".join(f"Authentication-Results: {value}\r\n" for value in results)
    return (f"{fields}From: {sender}\r\nTo: {GM_ADDRESS}\r\nSubject: join\r\nMessage-ID: {message_id}\r\n"
            "\r\nJOIN rr-1\r\n").encode()


async def _holders(service: MailHarness) -> set[str]:
    return {seat.address for seat in service.runner.info("rr-1").seats if seat.address}


def test_a_join_whose_from_fails_dmarc_at_the_trusted_server_is_not_obeyed_nor_answered(tmp_path: Path) -> None:
    async def scenario() -> None:
        options = DaemonOptions(**QUICK, trusted_authserv=(TRUSTED,))
        async with running_service(tmp_path, options=options) as service:
            service.runner.create_game("race-on-the-river", "rr-1", players=3, seed=3)
            victim = "victim@players.test"
            forged = [f"{TRUSTED}; spf=fail smtp.mailfrom=players.test; dmarc=fail (p=none) header.from=players.test",
                      "other.example; dmarc=pass header.from=players.test"]
            await send_raw(service, _join(victim, forged, "<forged@x>"), mail_from="attacker@elsewhere.test")
            await eventually(lambda: any(row.message_id == "<forged@x>" and row.status != "new"
                                         for row in inbound_rows(service)))
            assert victim not in await _holders(service)
            await prove_quiet(service, addresses=(victim,))

            lower = [f"{TRUSTED}; dmarc=pass header.from=players.test",
                     f"{TRUSTED}; dmarc=fail header.from=players.test"]  # the sender's own, below: ignored
            await send_raw(service, _join("ann@players.test", lower, "<ann@x>"), mail_from="ann@players.test")
            other = ["mx.elsewhere.test; dmarc=fail header.from=players.test"]  # not a server pbem trusts
            await send_raw(service, _join("bob@players.test", other, "<bob@x>"), mail_from="bob@players.test")
            ann, bob = service.person("ann@players.test"), service.person("bob@players.test")
            assert "REFUSED" not in (await ann.last()).body and "REFUSED" not in (await bob.last()).body
            assert {"ann@players.test", "bob@players.test"} <= await _holders(service)

    asyncio.run(scenario())


def test_without_trust_authserv_an_authentication_result_changes_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            service.runner.create_game("race-on-the-river", "rr-1", players=3, seed=3)
            failing = [f"{TRUSTED}; dmarc=fail header.from=players.test"]
            await send_raw(service, _join("cat@players.test", failing, "<cat@x>"), mail_from="cat@players.test")
            assert "REFUSED" not in (await service.person("cat@players.test").last()).body
            assert "cat@players.test" in await _holders(service)

    asyncio.run(scenario())
