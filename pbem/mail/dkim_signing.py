"""DKIM signatures on the mail pbem sends (RFC 6376), and the key pair and DNS record to publish.

A receiving provider checks the signature against the public key published
under ``<selector>._domainkey.<domain>``; with it (and SPF/DMARC set up for the
domain) pbem's reports are delivered rather than filed as spam. dkimpy
signs (a maintained implementation, also of ARC); the key pair is made by
the ``cryptography`` package. Signatures are RSA-SHA256, relaxed/relaxed, over
the header fields a reader sees and acts on, From signed twice so that no
second From can be added after signing.
"""

from __future__ import annotations

import base64
import os
import re
from dataclasses import dataclass
from pathlib import Path

import dkim
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

SIGNED_HEADERS = (b"from", b"from", b"to", b"cc", b"subject", b"date", b"message-id", b"in-reply-to", b"references",
                  b"reply-to", b"mime-version", b"content-type", b"list-unsubscribe", b"list-unsubscribe-post")
"""The header fields signed (From twice: a From added on the way breaks the signature)."""
_DNS_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")
_TXT_CHUNK = 255
_SAMPLE = b"From: a@example.org\r\nTo: b@example.org\r\nSubject: test\r\n\r\ntest\r\n"


class DkimKeyError(ValueError):
    """A DKIM key, selector or domain pbem cannot sign with; the message says which and why."""


@dataclass(frozen=True)
class DkimSigner:
    """Signs raw mail for ``domain`` with the private key published under ``selector``."""

    selector: str
    domain: str
    private_key: bytes

    @classmethod
    def load(cls, key_path: Path, *, selector: str, domain: str) -> DkimSigner:
        """The signer of the PEM private key at ``key_path``, tried once on a sample mail. Raises
        DkimKeyError when the file cannot be read, holds no key dkimpy signs with, or the selector or domain
        is not a DNS name."""
        check_name("--dkim-selector", selector)
        check_name("--dkim-domain", domain)
        try:
            private_key = key_path.read_bytes()
        except OSError as error:
            raise DkimKeyError(f"--dkim-key {key_path}: cannot be read ({error.strerror or error})") from error
        signer = cls(selector=selector, domain=domain.lower(), private_key=private_key)
        try:
            signer.sign(_SAMPLE)
        except (dkim.DKIMException, ValueError, IndexError, TypeError) as error:
            raise DkimKeyError(f"--dkim-key {key_path}: no private key to sign with (PEM, RSA): {error}") from error
        return signer

    def sign(self, raw: bytes) -> bytes:
        """``raw`` with a DKIM-Signature field on top. Raises dkim.DKIMException for a mail that cannot be
        signed (no From)."""
        signature = dkim.sign(raw, self.selector.encode(), self.domain.encode(), self.private_key,
                              canonicalize=(b"relaxed", b"relaxed"), include_headers=list(SIGNED_HEADERS))
        return signature + raw


def check_name(option: str, name: str) -> None:
    """Raise DkimKeyError unless ``name`` is a DNS name (letters, digits, hyphens, dots; at most 253)."""
    if len(name) > 253 or not _DNS_NAME.fullmatch(name):
        raise DkimKeyError(f"{option} {name!r}: give a DNS name such as mail2026 or example.org")


def new_key_pair(bits: int = 2048) -> tuple[bytes, bytes]:
    """A new RSA key pair: the private key as PEM (PKCS#8) and the public key as DER (SubjectPublicKeyInfo,
    what the DNS record carries). Raises DkimKeyError for a size other than 1024 to 4096 bits."""
    if not 1024 <= bits <= 4096:
        raise DkimKeyError(f"--bits {bits}: give 1024 to 4096 (2048 is what receivers expect)")
    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.DER,
                                           serialization.PublicFormat.SubjectPublicKeyInfo)
    return private, public


def dns_record(selector: str, domain: str, public_der: bytes) -> str:
    """The TXT record to publish for ``public_der``, as a zone-file line: the value split into strings of
    at most 255 characters, as DNS needs."""
    value = "v=DKIM1; k=rsa; p=" + base64.b64encode(public_der).decode()
    strings = " ".join(f'"{value[start:start + _TXT_CHUNK]}"' for start in range(0, len(value), _TXT_CHUNK))
    return f"{selector}._domainkey.{domain}. IN TXT ( {strings} )"


def write_private_key(path: Path, private_pem: bytes) -> None:
    """Write ``private_pem`` to a new file at ``path`` readable by its owner alone (mode 0600). Raises
    DkimKeyError when the file exists (a published key is never overwritten) or cannot be written."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError as error:
        raise DkimKeyError(f"--out {path}: exists already; a key that may be published is not overwritten") \
            from error
    except OSError as error:
        raise DkimKeyError(f"--out {path}: cannot be written ({error.strerror or error})") from error
    with os.fdopen(descriptor, "wb") as file:
        file.write(private_pem)
