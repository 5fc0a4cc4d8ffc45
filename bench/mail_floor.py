"""The floor: the least work any game master must add to the bare echo pipeline for one order mail.

bench/bench_mail.py compares pbem's CPU per mail with the bare echo's (bench/mail_raw.py), which
parses each mail and sends a fixed reply. A game master that answers each submission with its check
must, besides, at the least:

* store the mail durably before it is answered (one INSERT, one COMMIT);
* check the reply address the player answered (one HMAC);
* parse the orders with the game's grammar (pbem's own parser, :class:`pbem.orders.OrderParser`) and
  check them against the position (the game's ``validate``, the position already in memory);
* store the accepted submission (its version read first) and queue the reply that says line by line
  what became of each order, in the same transaction;
* record the reply as sent once the mail server took it (one UPDATE).

:class:`FloorResponder` does exactly that and nothing more: raw ``sqlite3`` with the pragmas pbem
uses, statements prepared by the driver, no ORM, no worker thread, no consent, no preferences, no
audit, no metrics, no watchdog. It runs in :func:`mail_raw.bare_echo`'s loop, so it shares every cost
of the echo (IMAP, parsing, SMTP) and adds only the above. Its CPU per mail over the echo's is a lower
bound for any game master that keeps the promises pbem keeps; bench_mail prints it as the "floor" row.
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
from collections.abc import Sequence
from email.utils import formatdate, make_msgid, parseaddr
from pathlib import Path
from typing import Any

from mail_raw import minimal_reply, read_incoming
from mail_world import Letter

from pbem.core import GameRng
from pbem.games import find_game
from pbem.orders import OrderParser

KIND = "turkey-chase"
_KEY = b"floor-bench-key"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS inbound (id INTEGER PRIMARY KEY, message_id TEXT UNIQUE, raw BLOB, "
    "sender TEXT, status TEXT)",
    "CREATE TABLE IF NOT EXISTS submission (id INTEGER PRIMARY KEY, seat TEXT, turn INTEGER, version INTEGER, "
    "text TEXT, UNIQUE (seat, turn, version))",
    "CREATE TABLE IF NOT EXISTS outbound (id INTEGER PRIMARY KEY, recipient TEXT, raw BLOB, status TEXT, "
    "inbound_id INTEGER)",
)


def token_for(base: str, seat: str) -> str:
    """The signed local part of a seat's reply address at mailbox ``base`` (as pbem signs one: a MAC
    over the game and seat, after a ``+`` the mail server ignores)."""
    mac = hmac.new(_KEY, f"floor/{seat}".encode(), hashlib.sha256).hexdigest()[:16]
    return f"{base}+{seat}.{mac}"


class FloorResponder:
    """Answers order mails of one Turkey Chase position with the floor's work (see the module)."""

    def __init__(self, path: Path, seed: int = 1) -> None:
        self.rules = find_game(KIND)
        self.seats = self.rules.seat_names(4)
        self.state = self.rules.setup(self.seats, {}, GameRng(seed))
        self.parser = OrderParser(self.rules)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "secure_delete=ON"):
            self.db.execute(f"PRAGMA {pragma}")
        for statement in _SCHEMA:
            self.db.execute(statement)
        self._last_reply: int | None = None

    def letters(self, address: str, players: Sequence[str], seed: int = 2) -> list[Letter]:
        """One order mail per player, seats in turn, each with legal orders for its seat, sent to the
        seat's signed reply address at mailbox ``address``."""
        base, _, domain = address.partition("@")
        rng = GameRng(seed)
        letters = []
        for number, player in enumerate(players):
            seat = self.seats[number % len(self.seats)]
            orders = "\n".join(str(order) for order in self.rules.sample_orders(self.state, seat, rng)) + "\n"
            to = f"{token_for(base, seat)}@{domain}"
            raw = (f"From: {player}\r\nTo: {to}\r\nSubject: Re: [floor] Turn 1\r\n"
                   f"Message-ID: {make_msgid(domain='players.bench')}\r\nDate: {formatdate()}\r\n"
                   "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
                   + orders.replace("\n", "\r\n")).encode()
            letters.append(Letter(player, to, raw))
        return letters

    def respond(self, raw: bytes, own_address: str) -> tuple[str, bytes]:
        """Store the mail, check and store its orders, queue the reply, commit: (recipient, raw reply)."""
        incoming, recipient = read_incoming(raw)
        local = parseaddr(str(incoming.get("To", "")))[1].partition("@")[0]
        base, _, tag = local.partition("+")
        seat = tag.partition(".")[0]
        if not hmac.compare_digest(token_for(base, seat), local):
            raise ValueError(f"not a signed reply address: {local}")
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            inbound = db.execute("INSERT INTO inbound (message_id, raw, sender, status) VALUES (?, ?, ?, 'handled')",
                                 (incoming.get("Message-ID"), raw, recipient)).lastrowid
            payload: Any = incoming.get_payload(decode=True)
            text = payload.decode("utf-8")
            parsed = self.parser.parse(text)
            valid = [line for line in parsed.lines if line.problem is None]
            problems = self.rules.validate(self.state, seat, [line.order for line in valid])
            for problem in problems:
                if problem.index is not None and 0 <= problem.index < len(valid):
                    valid[problem.index].problem = problem  # type: ignore[assignment]
            version = db.execute("SELECT coalesce(max(version), 0) + 1 FROM submission WHERE seat = ? AND turn = 1",
                                 (seat,)).fetchone()[0]
            db.execute("INSERT INTO submission (seat, turn, version, text) VALUES (?, 1, ?, ?)", (seat, version, text))
            verdicts = "".join(f"{line.number}: {line.text}: {'ok' if line.problem is None else 'refused'}\r\n"
                               for line in parsed.lines)
            reply = minimal_reply(incoming, own_address, recipient,
                                  f"Your orders version {version} for seat {seat}:\r\n{verdicts}")
            self._last_reply = db.execute("INSERT INTO outbound (recipient, raw, status, inbound_id) "
                                          "VALUES (?, ?, 'queued', ?)", (recipient, reply, inbound)).lastrowid
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return recipient, reply

    def sent(self) -> None:
        """Record the last reply as sent (the mail server took it)."""
        self.db.execute("UPDATE outbound SET status = 'sent' WHERE id = ?", (self._last_reply,))

    def close(self) -> None:
        """Close the database."""
        self.db.close()
