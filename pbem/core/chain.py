"""The game record as a hash chain, in pure code: the canonical form of an entry, its hash, the receipt
of a submission, and what a report shows of the record.

An entry is a JSON object; its canonical form is ``json.dumps`` with sorted keys, no spaces and ASCII
only (one line), and its hash the SHA-256 of that line in hex. Each entry names the hash of the one
before it (``prev``; the first entry's is empty) and its place ``seq`` (0, 1, 2, ...), so changing any
entry, or leaving one out, changes every hash after it. tools/verify_record.py computes the same in the
standard library alone; the formulas here and there must stay the same (docs/fair-play.md states them).

A receipt is the SHA-256 of the canonical form of ``{"game", "turn", "seat", "orders", "nonce"}``: the
orders as stored, one string a line, and a random nonce kept with them. Without the nonce the receipt
tells nothing of the orders; with it anyone can check that the orders are the ones receipted.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

RECORD_VERSION = 1
"""The version of the entries' layout (the ``v`` of every entry)."""

NONCE_BYTES = 16
"""A nonce is 16 random bytes (32 hex digits): too many to guess the orders behind a receipt."""

BLOCK_START = "~~~ record"
"""The line that opens a report's machine-readable record block (one canonical entry a line after it)."""
BLOCK_END = "~~~"
"""The line that closes it."""
RECORD_HEADING = "Game record: "
"""How the record's part of a text report begins (``Game record: turn 5, chain <hash>``, or ``the start`` before turn 1)."""


def canonical(entry: Mapping[str, Any]) -> str:
    """The canonical one-line JSON form of ``entry`` (sorted keys, no spaces, ASCII only): what its hash is
    taken of, and what a report prints."""
    return json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(line: str) -> str:
    """The SHA-256 (hex) of a canonical line."""
    return hashlib.sha256(line.encode("ascii")).hexdigest()


def new_nonce() -> str:
    """A fresh random nonce for one submission (32 hex digits, from the system's secure source)."""
    return secrets.token_hex(NONCE_BYTES)


def receipt(game: str, turn: int, seat: str, orders: Sequence[str], nonce: str) -> str:
    """The receipt of ``seat``'s ``orders`` for ``turn`` of ``game`` with its ``nonce``: the SHA-256 of their
    canonical form. It tells nothing of the orders until the nonce is shown."""
    return digest(canonical({"game": game, "turn": turn, "seat": seat, "orders": list(orders), "nonce": nonce}))


def short(hash_hex: str) -> str:
    """The first 8 hex digits of a hash, for a line on a phone (``3f2a9c1d…``)."""
    return f"{hash_hex[:8]}\u2026"


@dataclass(frozen=True)
class RevealedOrders:
    """One seat's orders of one turn as resolved, with the nonce of their receipt, as a report shows them:
    ``entry`` is the record entry whose receipt they check; ``public`` when the rules tell them to everyone
    (else only the seat itself is shown them)."""

    entry: int
    turn: int
    seat: str
    orders: tuple[str, ...]
    nonce: str
    public: bool

    @property
    def json_line(self) -> str:
        """The orders as a line of a report's record block (canonical JSON, read by tools/verify_record.py)."""
        return canonical({"entry": self.entry, "turn": self.turn, "seat": self.seat, "orders": list(self.orders),
                          "nonce": self.nonce})


@dataclass(frozen=True)
class RollbackNote:
    """A rollback a report tells: back to the start of ``turn``, by whom and when (UTC), turns undone."""

    turn: int
    by: str
    at: str
    undone: tuple[int, ...]


@dataclass(frozen=True)
class RecordExcerpt:
    """What a report shows of a game's record: the head (entry ``head_seq`` after turn ``head_turn``,
    hash ``head``), the canonical entries since the reader's previous report, the orders it reveals and
    the rollbacks among those entries."""

    head_turn: int
    head_seq: int
    head: str
    entries: tuple[str, ...] = ()
    revealed: tuple[RevealedOrders, ...] = ()
    rollbacks: tuple[RollbackNote, ...] = field(default=())

    @property
    def head_label(self) -> str:
        """Where the head stands, as the report says it: ``turn 5``, or ``the start`` before the first turn
        (turns are numbered from 1; no report speaks of a turn 0)."""
        return f"turn {self.head_turn}" if self.head_turn else "the start"

    @property
    def head_short(self) -> str:
        """The head's first hex digits, for the HTML and phone layout."""
        return short(self.head)

    def revealed_to(self, seat: str | None) -> list[RevealedOrders]:
        """The revealed orders ``seat`` may read (``None``: the public report): every public one, and the
        seat's own."""
        return [r for r in self.revealed if r.public or (seat is not None and r.seat == seat)]


def without_record(text: str) -> str:
    """A text report without its record part (from its ``Game record:`` line to the end of its record
    block): what its HTML shows in its own shorter way. Linear in the text's length."""
    kept: list[str] = []
    skipping = in_block = False
    for line in text.split("\n"):
        if not skipping and line.startswith(RECORD_HEADING):
            skipping = True
        elif skipping and line == BLOCK_START:
            in_block = True
        elif skipping and in_block and line == BLOCK_END:
            skipping = in_block = False
        elif not skipping:
            kept.append(line)
    return "\n".join(kept)
