"""The state of an An Honest Trade game: the traders' action cubes and goods, the supply, the
secret colours, and the action under way with its answer windows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .orders import Act

COLOURS: tuple[str, ...] = ("red", "white", "yellow", "green", "blue")
"""The five action colours, in the order the NMR default tries them (plan 4.18)."""

CANCELLED_BY: Mapping[str, str] = {"yellow": "white", "green": "blue", "blue": "yellow"}
"""Action colour -> the colour of the reaction that cancels it; red and white cannot be cancelled."""

SECRET_CUBES_PER_COLOUR = 2
"""The secret bag holds two cubes of each action colour, so two players may share a colour."""

# The steps of one player's turn.
ACT = "act"
WINDOW = "window"
REACTOR_WINDOW = "reactor-window"
DISCARD = "discard"
TARGET = "target"


def in_colour_order(colours: Sequence[str]) -> tuple[str, ...]:
    """Return ``colours`` sorted in the order of :data:`COLOURS`."""
    return tuple(c for c in COLOURS if c in colours)


@dataclass(frozen=True)
class Trader:
    """One player's table: the action cubes still in the starting row and those pushed forward
    (both in :data:`COLOURS` order; a discarded cube is in neither), the black cubes and discs he
    holds, whether he is out, and the colours a wrong accusation showed are not his secret."""

    row: tuple[str, ...] = COLOURS
    pushed: tuple[str, ...] = ()
    blacks: int = 0
    discs: int = 0
    out: bool = False
    cleared: tuple[str, ...] = ()

    @property
    def cubes(self) -> tuple[str, ...]:
        """Every action cube he still has, pushed or not, in colour order."""
        return in_colour_order(self.row + self.pushed)

    @property
    def discarded(self) -> tuple[str, ...]:
        """The action cubes he discarded, in colour order."""
        return tuple(c for c in COLOURS if c not in self.row and c not in self.pushed)

    def push(self, colour: str) -> Trader:
        """Return him with ``colour`` pushed forward out of the starting row."""
        return replace(self, row=tuple(c for c in self.row if c != colour),
                       pushed=in_colour_order(self.pushed + (colour,)))

    def refreshed(self) -> Trader:
        """Return him with every action cube he has back in the starting row."""
        return replace(self, row=self.cubes, pushed=())

    def without(self, colour: str) -> Trader:
        """Return him with the action cube ``colour`` discarded."""
        return replace(self, row=tuple(c for c in self.row if c != colour),
                       pushed=tuple(c for c in self.pushed if c != colour))


@dataclass(frozen=True)
class TradeState:
    """Everything about a game in progress or finished.

    ``secrets[i]`` is the secret colour of ``seats[i]`` and ``traders[i]`` his table.
    ``to_play`` is the index of the player whose turn it is (the actor), ``turn`` the number of
    that turn, ``step`` what the turn waits for (:data:`ACT`, :data:`WINDOW`,
    :data:`REACTOR_WINDOW`, :data:`DISCARD`, :data:`TARGET`). While an action is under way,
    ``action`` is it, ``target`` the victim the actor named in advance (sealed), ``reacts`` the
    seats that sent REACT in its window (sealed), ``reactor`` the seat whose reaction is being
    answered, ``owed[i]`` the discards seat i owes and ``victims`` the three-of-a-kind victims the
    actor has still to name. ``last_out`` are the seats eliminated by the last step that
    eliminated anybody (they share the victory if nobody is left).
    """

    seats: tuple[str, ...]
    secrets: tuple[str, ...]
    traders: tuple[Trader, ...]
    supply_blacks: int
    supply_discs: int
    to_play: int
    window_hours: int
    owed: tuple[int, ...]
    turn: int = 1
    step: str = ACT
    action: Act | None = None
    target: str = ""
    reacts: tuple[str, ...] = ()
    reactor: str = ""
    victims: int = 0
    last_out: tuple[str, ...] = ()

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in :attr:`seats`."""
        return self.seats.index(seat)

    def trader(self, seat: str) -> Trader:
        """Return the table of ``seat``."""
        return self.traders[self.index(seat)]

    def secret_of(self, seat: str) -> str:
        """Return the secret colour of ``seat``."""
        return self.secrets[self.index(seat)]

    @property
    def actor(self) -> str:
        """The seat whose turn it is."""
        return self.seats[self.to_play]

    @property
    def living(self) -> tuple[str, ...]:
        """The seats still in the game, in seat order."""
        return tuple(s for s, t in zip(self.seats, self.traders, strict=True) if not t.out)

    def clockwise_after(self, seat: str) -> tuple[str, ...]:
        """Return the living seats after ``seat`` going clockwise (seat order), ``seat`` excluded."""
        i = self.index(seat)
        n = len(self.seats)
        order = (self.seats[(i + k) % n] for k in range(1, n))
        return tuple(s for s in order if not self.trader(s).out)

    def owes(self, seat: str) -> int:
        """Return the number of discards ``seat`` owes now."""
        return self.owed[self.index(seat)]

    def with_trader(self, seat: str, trader: Trader) -> TradeState:
        """Return the state with ``seat``'s table replaced."""
        i = self.index(seat)
        return replace(self, traders=self.traders[:i] + (trader,) + self.traders[i + 1:])


def dump_state(state: TradeState) -> dict[str, Any]:
    """Return ``state`` as JSON-compatible data (see :func:`load_state`)."""
    return {
        "seats": list(state.seats),
        "secrets": list(state.secrets),
        "traders": [{"row": list(t.row), "pushed": list(t.pushed), "blacks": t.blacks, "discs": t.discs,
                     "out": t.out, "cleared": list(t.cleared)} for t in state.traders],
        "supply_blacks": state.supply_blacks,
        "supply_discs": state.supply_discs,
        "to_play": state.to_play,
        "window_hours": state.window_hours,
        "turn": state.turn,
        "step": state.step,
        "action": None if state.action is None else {"colour": state.action.colour, "kind": state.action.kind,
                                                     "seat": state.action.seat},
        "target": state.target,
        "reacts": list(state.reacts),
        "reactor": state.reactor,
        "owed": list(state.owed),
        "victims": state.victims,
        "last_out": list(state.last_out),
    }


def load_state(data: Mapping[str, Any]) -> TradeState:
    """Rebuild a state from :func:`dump_state` output (KeyError on a missing field)."""
    action = data["action"]
    return TradeState(
        seats=tuple(data["seats"]),
        secrets=tuple(data["secrets"]),
        traders=tuple(Trader(row=tuple(t["row"]), pushed=tuple(t["pushed"]), blacks=int(t["blacks"]),
                             discs=int(t["discs"]), out=bool(t["out"]), cleared=tuple(t["cleared"]))
                      for t in data["traders"]),
        supply_blacks=int(data["supply_blacks"]),
        supply_discs=int(data["supply_discs"]),
        to_play=int(data["to_play"]),
        window_hours=int(data["window_hours"]),
        turn=int(data["turn"]),
        step=str(data["step"]),
        action=None if action is None else Act(str(action["colour"]), str(action["kind"]), str(action["seat"])),
        target=str(data["target"]),
        reacts=tuple(data["reacts"]),
        reactor=str(data["reactor"]),
        owed=tuple(int(n) for n in data["owed"]),
        victims=int(data["victims"]),
        last_out=tuple(data["last_out"]),
    )
