"""Telling a game's players what its GM did by mail."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


def announce(conv: Conversation, row: GameRow, text: str, *, calendar: bool = False) -> None:
    """Tell every player of the game what the GM did (the GM's address too, when another address sent
    the GM session: the reply tells the sender); with ``calendar`` (the deadline moved) the seats that
    owe orders get their calendar update."""
    conv.notifier.tell_players(conv.unit, conv.unit.snapshot(row), text, calendar=calendar, actor=conv.mail.sender)
