"""DKIM keys, DNS records and signatures (pbem/mail/outbound/dkim_signing.py, pbem dkim-keygen)."""

from __future__ import annotations

import stat
from pathlib import Path

import dkim
import pytest

from pbem.cli import main
from pbem.mail.outbound.dkim_signing import DkimKeyError, DkimSigner, dns_record, new_key_pair

MAIL = (b"From: pbem <gm@example.org>\r\nTo: ann@example.org\r\nSubject: [g] Turn 2\r\n"
        b"Message-ID: <1@example.org>\r\n\r\nYour orders, please.\r\n")


def test_keygen_writes_a_private_key_for_its_owner_and_prints_a_record_that_verifies(tmp_path: Path,
                                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "dkim.pem"
    assert main(["dkim-keygen", "--selector", "s1", "--domain", "example.org", "--out", str(key)]) == 0
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    record = next(line for line in capsys.readouterr().out.splitlines() if "IN TXT" in line)
    assert record.startswith("s1._domainkey.example.org. IN TXT (")
    assert all(len(part) <= 255 for part in record.split('"')[1::2])
    value = "".join(record.split('"')[1::2]).encode()
    signed = DkimSigner.load(key, selector="s1", domain="example.org").sign(MAIL)
    assert dkim.verify(signed, dnsfunc=lambda name, timeout=5: value if name == b"s1._domainkey.example.org." else None)
    assert main(["dkim-keygen", "--selector", "s1", "--domain", "example.org", "--out", str(key)]) == 2  # kept


def test_a_from_added_after_signing_breaks_the_signature(tmp_path: Path) -> None:
    private, public = new_key_pair()
    (tmp_path / "k.pem").write_bytes(private)
    record = "".join(dns_record("s", "example.org", public).split('"')[1::2]).encode()
    signed = DkimSigner.load(tmp_path / "k.pem", selector="s", domain="example.org").sign(MAIL)
    assert dkim.verify(signed, dnsfunc=lambda name, timeout=5: record)
    added = signed.replace(b"To: ann", b"From: evil@example.net\r\nTo: ann", 1)
    assert not dkim.verify(added, dnsfunc=lambda name, timeout=5: record)


@pytest.mark.parametrize(("content", "selector", "domain", "said"), [
    (None, "s", "example.org", "cannot be read"),
    (b"not a key", "s", "example.org", "no private key"),
    (b"", "bad selector!", "example.org", "--dkim-selector"),
    (b"", "s", "exa mple.org", "--dkim-domain"),
])
def test_a_key_pbem_cannot_sign_with_is_refused_saying_why(tmp_path: Path, content: bytes | None, selector: str,
                                                         domain: str, said: str) -> None:
    key = tmp_path / "k.pem"
    if content is not None:
        key.write_bytes(content)
    with pytest.raises(DkimKeyError, match=said):
        DkimSigner.load(key, selector=selector, domain=domain)


def test_pbem_serve_refuses_a_bad_dkim_key_before_it_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "k.pem").write_text("junk")
    db = str(tmp_path / "p.db")
    assert main(["serve", "--db", db, "--dkim-key", str(tmp_path / "k.pem"), "--dkim-selector", "s"]) == 2
    assert "no private key" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--dkim-key", str(tmp_path / "k.pem")]) == 2
    assert "--dkim-selector" in capsys.readouterr().err
