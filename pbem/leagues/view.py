"""A league as shown to one reader: the standings and every round's tables, names first.

Members are shown by their player names (REGISTER), or without one by a stand-in made from their
address (``player-3f9a1c``). Who reads decides the rest (:class:`LeagueReader`): a member finds its own
row and seats marked (``→`` and ``(you)``), the league's GM and the operator see each member's address
beside the name (they hand places over by address), and nobody else ever sees an address.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, TypeVar

from pbem.leagues.results import number_text

YOU_MARK = "→"
"""What marks the reader's own row in the text standings."""
ABSENT = "-"
"""A cell of the text tables with nothing in it (a bye's game)."""
NAMES_NOTE = ("Players are shown by the name they chose with REGISTER <name>; "
              "without one, by a stand-in such as player-3f9a1c.")
"""How the standings name players, said under them (text and HTML)."""


@dataclass(frozen=True)
class StandingLine:
    """One line of a league's standings as shown: ``address`` only to the GM and the operator, ``you``
    on the reader's own line."""

    rank: int
    name: str
    points: float
    played: int
    wins: int
    shared: int
    draws: int
    losses: int
    defeats: int
    byes: int
    opponents_points: float
    mu: float
    sigma: float
    ordinal: float
    dropped: bool
    address: str | None = None
    you: bool = False

    @property
    def rating(self) -> str:
        """The rating with its uncertainty: ``27.6 ± 8.1``."""
        return f"{self.mu:.1f} ± {self.sigma:.1f}"

    @property
    def label(self) -> str:
        """The player as the text standings name it: ``Ace (you)``, ``Ace <ann@example.org>``,
        ``player-3f9a1c (dropped)``."""
        return _label(self.name, self.address, self.you) + (" (dropped)" if self.dropped else "")


@dataclass(frozen=True)
class TablePlayer:
    """One player at a table as shown: its name, its result once the game is over (``win``, ``loss``,
    ``bye``, ...), ``address`` only to the GM and the operator, ``you`` for the reader."""

    name: str
    result: str | None
    address: str | None = None
    you: bool = False

    @property
    def label(self) -> str:
        """The player as the text tables name it: ``Ace (you) (win)``."""
        return _label(self.name, self.address, self.you) + (f" ({self.result})" if self.result else "")


_Shown = TypeVar("_Shown", StandingLine, TablePlayer)


@dataclass(frozen=True)
class LeagueReader:
    """Who a league is shown to: ``you``, the address whose own row and seats are marked (None: nobody's),
    and ``addresses``, whether each member's address stands beside its name (the GM and the operator)."""

    you: str | None = None
    addresses: bool = False

    def sees(self, shown: _Shown) -> _Shown:
        """``shown`` (holding its member's address) as this reader sees it: marked when it is the reader's
        own, its address left out unless the reader sees addresses."""
        own = self.you is not None and shown.address is not None and self.you.lower() == shown.address.lower()
        return replace(shown, address=shown.address if self.addresses else None, you=own)


PUBLIC = LeagueReader()
"""The web archive and anyone not in the league: names only, nobody marked."""
OPERATOR = LeagueReader(addresses=True)
"""``pbem league standings``: every member's address beside its name."""


@dataclass(frozen=True)
class TableView:
    """One table of a round as shown: its game (None for the round's byes, table 0) and its players in
    seat order."""

    round: int
    table: int
    game: str | None
    players: tuple[TablePlayer, ...]


@dataclass(frozen=True)
class LeagueView:
    """A league as shown by LEAGUE STANDINGS, the standings mail, ``pbem league standings`` and the web
    archive."""

    name: str
    kind: str
    format: str
    status: str
    round: int
    rounds: int
    table_size: int
    points: str
    standings: tuple[StandingLine, ...]
    tables: tuple[TableView, ...]

    def as_json(self) -> dict[str, Any]:
        """The view as JSON data (``pbem league standings --json``)."""
        return asdict(self)

    @property
    def names_note(self) -> str:
        """How the standings name players, said under them (text and HTML)."""
        return NAMES_NOTE

    def seen_by(self, reader: LeagueReader) -> LeagueView:
        """This view (which must hold every member's address, as the service builds it) as ``reader`` sees
        it: its own row and seats marked, the addresses kept only when it may see them."""
        return replace(self, standings=tuple(reader.sees(s) for s in self.standings),
                       tables=tuple(replace(t, players=tuple(reader.sees(p) for p in t.players))
                                    for t in self.tables))

    def text(self) -> str:
        """The standings and the tables as aligned plain-text tables, with the league's state above them."""
        head = (f"League {self.name}: {self.kind}, {self.format}, tables of {self.table_size}; "
                f"round {self.round} of {self.rounds} ({self.status}). Points: {self.points}.")
        standings = aligned(
            [["", "#", "player", "pts", "games", "W", "S", "D", "L", "X", "bye", "opp", "rating (mu ± sigma)"],
             *([YOU_MARK if s.you else "", str(s.rank), s.label, number_text(s.points), str(s.played), str(s.wins),
                str(s.shared), str(s.draws), str(s.losses), str(s.defeats), str(s.byes),
                number_text(s.opponents_points), s.rating] for s in self.standings)],
            left={2, 12})
        legend = ("W win, S shared win, D draw, L loss, X defeat (nobody won), opp: opponents' points. Ties go "
                  "by opponents' points, then wins, then rating (mu - 3 sigma), then who joined first. "
                  f"{NAMES_NOTE}")
        parts = [head, "", "Standings", *standings, "", legend]
        if self.tables:
            parts += ["", "Tables", *aligned(
                [["round", "table", "game", "players"],
                 *([str(t.round), str(t.table) if t.table else "bye", t.game or ABSENT,
                    ", ".join(p.label for p in t.players)] for t in self.tables)],
                left={2, 3})]
        return "\n".join(parts) + "\n"


def aligned(rows: Sequence[Sequence[str]], *, left: set[int]) -> list[str]:
    """``rows`` (the first is the header) as lines of a plain-text table: each column as wide as its
    widest cell, the columns in ``left`` aligned left and the others right, two spaces between columns
    and none at the ends of lines; a column empty in every row is left out."""
    widths = {i: width for i in range(len(rows[0])) if (width := max(len(row[i]) for row in rows))}
    return ["  ".join(row[i].ljust(width) if i in left else row[i].rjust(width) for i, width in widths.items())
            .rstrip() for row in rows]


def _label(name: str, address: str | None, you: bool) -> str:
    return name + (f" <{address}>" if address else "") + (" (you)" if you else "")
