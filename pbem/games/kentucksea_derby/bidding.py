"""Turn order by sealed bids, with tie re-bids by the tied seats only (rule book phase 1, plan §4.10).

A *standing* is the turn order being built: groups of seats, best first. A
group of one seat has its place; a group of several is tied and re-bids (every
tied group in the same phase). Each re-bid splits a group by the bids, highest
first. The plan's safety rule ends the re-bids: a group that has tied three
times in a row, or whose members all sent no bid, is ordered by the speed
column (higher racer first); a member left without shells takes the group's
last place (several: in the previous turn order); a lone member left is not
asked and takes the group's first place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MAX_BID = 5
TIES_BEFORE_SPEED_ORDER = 3


@dataclass(frozen=True)
class Group:
    """Seats sharing a stretch of the turn order; ``ties`` counts their ties in a row (0 once placed)."""

    seats: tuple[str, ...]
    ties: int = 0

    @property
    def is_tied(self) -> bool:
        """True while the seats must re-bid."""
        return len(self.seats) > 1


@dataclass(frozen=True)
class Split:
    """What one bid did to a group: the groups replacing it, and why some seats were placed."""

    groups: tuple[Group, ...]
    notes: tuple[str, ...]


def split_group(
    group: Sequence[str],
    ties: int,
    bids: Mapping[str, int],
    silent: frozenset[str],
    shells: Mapping[str, int],
    previous: Sequence[str],
    speed_rank: Mapping[str, int],
) -> Split:
    """Split ``group`` by ``bids`` (highest first) after a bid or re-bid; ``ties`` is how many times
    the group had tied before. ``silent`` are the seats that sent no bid, ``shells`` what each has
    left after paying, ``previous`` the last turn order, ``speed_rank`` each seat's racer row."""
    groups: list[Group] = []
    notes: list[str] = []
    for bid in sorted({bids[seat] for seat in group}, reverse=True):
        tied = [seat for seat in group if bids[seat] == bid]
        if len(tied) == 1:
            groups.append(Group((tied[0],)))
            continue
        broke = sorted((s for s in tied if shells[s] == 0), key=previous.index)
        able = [s for s in tied if shells[s] > 0]
        count = ties + 1
        if len(able) > 1 and (count >= TIES_BEFORE_SPEED_ORDER or set(able) <= silent):
            why = "sent no bid" if set(able) <= silent else f"tied {count} times in a row"
            able.sort(key=lambda s: speed_rank[s])
            notes.append(f"Seats {_names(able)} {why}: the speed column orders them, higher racer first.")
            groups.extend(Group((seat,)) for seat in able)
        elif len(able) > 1:
            groups.append(Group(tuple(able), count))
        elif able:
            groups.append(Group((able[0],)))
            if broke:
                notes.append(f"Seat {able[0]} is the only one of seats {_names(tied)} with shells left: "
                             "it takes the first of their places without bidding again.")
        if broke:
            notes.append(f"Seat{'s' if len(broke) > 1 else ''} {_names(broke)} "
                         f"{'have' if len(broke) > 1 else 'has'} no shells left to re-bid and "
                         f"take{'' if len(broke) > 1 else 's'} the last of the tied places.")
            groups.extend(Group((seat,)) for seat in broke)
    return Split(tuple(groups), tuple(notes))


def order_of(groups: Sequence[Group]) -> tuple[str, ...]:
    """Return the seats of ``groups`` in order (the turn order once no group is tied)."""
    return tuple(seat for group in groups for seat in group.seats)


def places(groups: Sequence[Group]) -> list[tuple[int, int, Group]]:
    """Return each group with the first and last place (1-based) it stands for."""
    found = []
    first = 1
    for group in groups:
        found.append((first, first + len(group.seats) - 1, group))
        first += len(group.seats)
    return found


def _names(seats: Sequence[str]) -> str:
    return ", ".join(seats[:-1]) + " and " + seats[-1] if len(seats) > 1 else seats[0]
