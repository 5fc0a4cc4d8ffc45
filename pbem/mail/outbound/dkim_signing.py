"""DKIM signatures on the mail pbem sends (RFC 6376), and the key pair and DNS record to publish.

A receiving provider checks the signature against the public key published
under ``<selector>._domainkey.<domain>``; with it (and SPF/DMARC set up for the
domain) pbem's reports are delivered rather than filed as spam. Signatures are
RSA-SHA256, relaxed/relaxed, over the header fields a reader sees and acts
on; From and the other fields in :data:`SIGNED_HEADERS` are signed even where
the mail has none (an absent field is signed as absent, RFC 6376 5.4.2), so
that no From, Subject or Reply-To can be added on the way.

The signature is written here, the RSA step by OpenSSL through the
``cryptography`` package: dkimpy (which the tests use to verify every
signature, as a receiver would) does the RSA arithmetic in Python, 5.5 ms a
mail against OpenSSL's 0.2 ms, more than handling the mail costs. The
canonicalization is the few lines of RFC 6376 3.4.2 and 3.4.4.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

SIGNED_HEADERS = ("from", "to", "cc", "subject", "date", "message-id", "in-reply-to", "references", "reply-to",
                  "mime-version", "content-type", "list-unsubscribe", "list-unsubscribe-post")
"""The header fields signed (as present, and once more as absent, so none can be added after signing)."""
_DNS_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")
_TXT_CHUNK = 255
_LINE = re.compile(rb"\r?\n")
_WSP = re.compile(rb"[ \t]+")
_FOLD = re.compile(rb"\r?\n(?=[ \t])")
_B64_LINE = 72


class DkimKeyError(ValueError):
    """A DKIM key, selector or domain pbem cannot sign with; the message says which and why."""


@dataclass(frozen=True)
class DkimSigner:
    """Signs raw mail for ``domain`` with the private key published under ``selector``."""

    selector: str
    domain: str
    private_key: rsa.RSAPrivateKey

    @classmethod
    def load(cls, key_path: Path, *, selector: str, domain: str) -> DkimSigner:
        """The signer of the PEM private key at ``key_path``. Raises DkimKeyError when the file cannot be
        read, holds no unencrypted RSA private key of 1024 bits or more, or the selector or domain is not a
        DNS name."""
        check_name("--dkim-selector", selector)
        check_name("--dkim-domain", domain)
        try:
            pem = key_path.read_bytes()
        except OSError as error:
            raise DkimKeyError(f"--dkim-key {key_path}: cannot be read ({error.strerror or error})") from error
        try:
            key = serialization.load_pem_private_key(pem, password=None)
        except (ValueError, TypeError, UnsupportedAlgorithm) as error:
            raise DkimKeyError(f"--dkim-key {key_path}: no private key to sign with (PEM, RSA, no password): "
                               f"{error}") from error
        if not isinstance(key, rsa.RSAPrivateKey) or key.key_size < 1024:
            raise DkimKeyError(f"--dkim-key {key_path}: give an RSA key of 1024 bits or more (2048: "
                               "pbem dkim-keygen makes one)")
        return cls(selector=selector, domain=domain.lower(), private_key=key)

    def sign(self, raw: bytes, *, now: float | None = None) -> bytes:
        """``raw`` with a DKIM-Signature field on top (``now``: the signing time, seconds since the epoch)."""
        head, _, body = raw.partition(b"\r\n\r\n") if b"\r\n\r\n" in raw else raw.partition(b"\n\n")
        fields = _fields(head)
        body_hash = base64.b64encode(hashlib.sha256(_relaxed_body(body)).digest()).decode()
        signed = [name for name in SIGNED_HEADERS for _ in range(_count(fields, name) + 1)]
        value = (f"v=1; a=rsa-sha256; c=relaxed/relaxed; d={self.domain}; s={self.selector};\r\n\t"
                 f"t={int(time.time() if now is None else now)}; h={':'.join(signed)};\r\n\tbh={body_hash};\r\n\tb=")
        data = b"".join(_relaxed_field(name, field) for name, field in _picked(fields, signed))
        data += _relaxed_field(b"dkim-signature", value.encode()).removesuffix(b"\r\n")
        signature = base64.b64encode(self.private_key.sign(data, padding.PKCS1v15(), hashes.SHA256())).decode()
        folded = "\r\n\t".join(signature[start:start + _B64_LINE] for start in range(0, len(signature), _B64_LINE))
        return f"DKIM-Signature: {value}{folded}\r\n".encode() + raw


def _fields(head: bytes) -> list[tuple[bytes, bytes]]:
    """The header fields of a header block, in order: (name in lower case, value as written, folds kept)."""
    fields: list[tuple[bytes, bytes]] = []
    for line in _LINE.split(head):
        if line[:1] in (b" ", b"\t") and fields:
            name, value = fields[-1]
            fields[-1] = (name, value + b"\r\n" + line)
        elif b":" in line:
            name, _, value = line.partition(b":")
            fields.append((name.strip().lower(), value))
    return fields


def _count(fields: list[tuple[bytes, bytes]], name: str) -> int:
    return sum(field_name == name.encode() for field_name, _ in fields)


def _picked(fields: list[tuple[bytes, bytes]], signed: list[str]) -> list[tuple[bytes, bytes]]:
    """The fields the ``h=`` list names, each instance from the bottom up (RFC 6376 5.4.2); a name listed
    once more than it occurs signs its absence and contributes nothing."""
    used: dict[bytes, int] = {}
    picked = []
    for name in signed:
        key = name.encode()
        instances = [value for field_name, value in fields if field_name == key]
        taken = used.get(key, 0)
        if taken < len(instances):
            picked.append((key, instances[len(instances) - 1 - taken]))
        used[key] = taken + 1
    return picked


def _relaxed_field(name: bytes, value: bytes) -> bytes:
    """RFC 6376 3.4.2: the name in lower case, the value unfolded, white space runs as one space, none at
    the ends, then CRLF."""
    unfolded = _WSP.sub(b" ", _FOLD.sub(b"", value)).strip(b" ")
    return name.lower().strip() + b":" + unfolded + b"\r\n"


def _relaxed_body(body: bytes) -> bytes:
    """RFC 6376 3.4.4: white space runs as one space, none at line ends, no empty lines at the end, and a
    body that is not empty ends with CRLF."""
    lines = [_WSP.sub(b" ", line).rstrip(b" ") for line in _LINE.split(body)]
    while lines and not lines[-1]:
        lines.pop()
    return b"".join(line + b"\r\n" for line in lines)


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
