"""A report's record shows a seat of a game with hidden information its own orders as resolved (and the
nonce that checks its receipt), and nobody else's: the secrecy tests take those lines out before looking
for another seat's secrets."""

from __future__ import annotations

import re


def without_own_orders(text: str, seat: str | None) -> str:
    """``text`` without the lines of a report's record that show ``seat`` its own orders: the readable line
    (``turn 3, seat 1: KEEP blue black | nonce ...`` in the text part, without the nonce in the HTML part)
    and the record block's JSON line (``"seat":"1"`` with its ``"nonce"``). Every other line stays, so
    another seat's orders would still be found."""
    if seat is None:
        return text
    readable = re.compile(rf"^\s*turn \d+, seat {re.escape(seat)}: .*$")
    as_json = re.compile(rf'^\{{"entry":\d+,"nonce":"[0-9a-f]+","orders":\[.*\],"seat":"{re.escape(seat)}",'
                         rf'"turn":\d+\}}\s*$')
    return "\n".join(line for line in text.splitlines() if not (readable.match(line) or as_json.match(line)))
