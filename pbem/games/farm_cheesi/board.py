"""The Farm-cheesi board and the rules of one single move (one die, a bonus, an entry).

Geometry (CLARIFICATIONS): track squares 1..68; seats 1..4 enter on 5, 22,
39, 56 and exit on 68, 17, 34, 51 onto their own home path H1..H7, then
HOME. Safe squares: 5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63, 68.

Whole plays (which sequences of moves a roll allows) live in
:mod:`pbem.games.farm_cheesi.plays`; this module answers "may this maggot
make this one move now, and what happens".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.core import IllegalOrder
from pbem.core.track import Lane, Spot, Track
from pbem.games.farm_cheesi.state import CARCASS, FINISH, FarmState, Pos

ALL_SEATS: tuple[str, ...] = ("1", "2", "3", "4")
ENTRY: dict[str, int] = {"1": 5, "2": 22, "3": 39, "4": 56}
EXIT: dict[str, int] = {"1": 68, "2": 17, "3": 34, "4": 51}
SAFE: frozenset[int] = frozenset({5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63, 68})
CAPTURE_BONUS = 20
HOME_BONUS = 10

BOARD = Track(
    length=68,
    lanes=tuple(Lane(seat, ENTRY[seat], EXIT[seat]) for seat in ALL_SEATS),
    home_length=7,
    safe=SAFE,
)
assert all(BOARD.finish(seat) == FINISH for seat in ALL_SEATS)
_LAP = BOARD.lap("1")  # 63 for every seat: the progress of the exit square

SPOTS: dict[str, tuple[Spot, ...]] = {
    seat: tuple(BOARD.spot(seat, progress) for progress in range(FINISH + 1)) for seat in ALL_SEATS
}

KEYS: dict[str, tuple[int, ...]] = {
    seat: tuple(
        spot.number if spot.is_track else 100 * (int(seat) + 1) + spot.number for spot in SPOTS[seat]
    )
    for seat in ALL_SEATS
}
"""A small integer per square a maggot can stand on (track squares keep their number),
for fast occupancy tables; :func:`square_key` gives it for a track square."""

Occupant = tuple[int, int]  # (seat index in the state, maggot index 0..3)
Occupancy = dict[int, list[Occupant]]


def square_key(square: int) -> int:
    """Return the occupancy key of track square ``square``."""
    return square


def spot_of(seat: str, progress: int) -> Spot | None:
    """Return where a maggot of ``seat`` with ``progress`` stands (None in the carcass)."""
    return None if progress == CARCASS else SPOTS[seat][progress]


def where(seat: str, progress: int) -> str:
    """Return a maggot's place as a player writes it: ``carcass``, ``22``, ``H3`` or ``HOME``."""
    spot = spot_of(seat, progress)
    return "the carcass" if spot is None else spot.name()


@dataclass(frozen=True)
class Side:
    """Who is moving (``me``, an index into ``seats``) and who is a friend."""

    seats: tuple[str, ...]
    me: int
    partner: int | None = None

    @property
    def seat(self) -> str:
        """The moving seat's name."""
        return self.seats[self.me]

    def is_opponent(self, index: int) -> bool:
        """True when the seat at ``index`` is neither the mover nor the mover's partner."""
        return index != self.me and index != self.partner


def side_of(state: FarmState, seat: str) -> Side:
    """Return the :class:`Side` of ``seat`` in ``state`` (with its partner in a team game)."""
    partner = state.partner(seat)
    return Side(state.seats, state.index(seat), state.index(partner) if partner is not None else None)


def occupancy(seats: Sequence[str], pos: Pos) -> Occupancy:
    """Return which maggots stand on each track or home path square (carcass and HOME left out),
    keyed by :data:`KEYS`."""
    found: Occupancy = {}
    for i, seat in enumerate(seats):
        keys = KEYS[seat]
        for m, progress in enumerate(pos[i]):
            if CARCASS < progress < FINISH:
                key = keys[progress]
                if key in found:
                    found[key].append((i, m))
                else:
                    found[key] = [(i, m)]
    return found


def is_blockade(here: Sequence[Occupant]) -> bool:
    """True when the maggots on a square are two of one player: a blockade."""
    return len(here) == 2 and here[0][0] == here[1][0]


@dataclass(frozen=True)
class Step:
    """One move made: maggot ``maggot`` (0-based) went from ``start`` to ``end``
    progress; ``captured`` names a sent-back maggot (seat index, maggot index);
    ``bonus`` is 20 for a capture, 10 for reaching HOME, else 0."""

    maggot: int
    start: int
    end: int
    pos: Pos
    captured: Occupant | None = None
    bonus: int = 0


def _place(pos: Pos, index: int, maggot: int, progress: int) -> Pos:
    row = list(pos[index])
    row[maggot] = progress
    rows = list(pos)
    rows[index] = tuple(row)
    return tuple(rows)


def _holders(side: Side, here: Sequence[Occupant]) -> str:
    seats = sorted({side.seats[i] for i, _ in here})
    return "seat " + " and ".join(seats) if len(seats) == 1 else "seats " + " and ".join(seats)


def _land(side: Side, pos: Pos, maggot: int, start: int, end: int, occ: Occupancy, pairs: frozenset[frozenset[int]]) -> Step:
    """Put the moving maggot on ``end``, capturing a lone opponent; raise IllegalOrder if it may not."""
    seat = side.seat
    label = f"maggot {maggot + 1}"
    spot = SPOTS[seat][end]
    new = _place(pos, side.me, maggot, end)
    if spot.is_goal:
        return Step(maggot, start, end, new, bonus=HOME_BONUS)
    here = occ.get(KEYS[seat][end], [])
    name = spot.name()
    if len(here) >= 2:
        if is_blockade(here):
            return _refuse(f"{label} would land on a blockade at {name}")
        return _refuse(f"{label} would land on {name}, which already holds two maggots")
    if not here:
        return Step(maggot, start, end, new)
    (index, other) = here[0]
    if index == side.me:
        if frozenset((maggot, other)) in pairs:
            return _refuse(
                f"maggots {min(maggot, other) + 1} and {max(maggot, other) + 1} started this roll as a blockade "
                f"and may not move forward together to form a new one at {name}"
            )
        return Step(maggot, start, end, new)
    if not side.is_opponent(index):
        return Step(maggot, start, end, new)  # team play: partners may share a square
    if BOARD.is_safe(spot.number):
        return _refuse(f"{label} would land on safe square {name}, held by seat {side.seats[index]}'s maggot")
    captured = _place(new, index, other, CARCASS)
    return Step(maggot, start, end, captured, captured=(index, other), bonus=CAPTURE_BONUS)


def _refuse(reason: str) -> Step:
    raise IllegalOrder(reason)


def move_maggot(
    side: Side,
    pos: Pos,
    maggot: int,
    steps: int,
    *,
    pairs: frozenset[frozenset[int]] = frozenset(),
    teams: bool = False,
) -> Step:
    """Move the mover's ``maggot`` (0-based) ``steps`` forward and return the :class:`Step`.

    ``pairs`` are the mover's blockades at the start of the roll (pairs of
    maggot indices), which may not re-form together. Raises
    :class:`~pbem.core.IllegalOrder` with the reason ("maggot 2 would land on
    a blockade at 22") when the move breaks a rule.
    """
    seat = side.seat
    label = f"maggot {maggot + 1}"
    start = pos[side.me][maggot]
    if start == CARCASS:
        raise IllegalOrder(f"{label} is in the carcass (a 5 brings it out with ENTER)")
    if start == FINISH:
        raise IllegalOrder(f"{label} is already HOME")
    if start + steps > FINISH:
        raise IllegalOrder(f"{label} is {FINISH - start} from HOME and HOME needs an exact count")
    occ = occupancy(side.seats, pos)
    keys = KEYS[seat]
    for progress in range(start + 1, start + steps):
        here = occ.get(keys[progress])
        if here is None or len(here) < 2:
            continue
        name = SPOTS[seat][progress].name()
        if is_blockade(here):
            raise IllegalOrder(f"{label} would pass a blockade at {name}")
        if teams and progress == _LAP and all(side.is_opponent(i) for i, _ in here):
            raise IllegalOrder(f"{label} cannot exit: the opposing team has two maggots on your exit square {name}")
    return _land(side, pos, maggot, start, start + steps, occ, pairs)


def enter_maggot(side: Side, pos: Pos) -> Step:
    """Bring the mover's lowest-numbered carcass maggot onto its entry square; return the :class:`Step`.

    A lone opponent maggot on the entry square is captured even though the
    square is safe. Raises :class:`~pbem.core.IllegalOrder` when no maggot
    waits in the carcass or the entry square holds two maggots.
    """
    row = pos[side.me]
    if CARCASS not in row:
        raise IllegalOrder("no maggot of yours is in the carcass")
    maggot = row.index(CARCASS)
    spot = SPOTS[side.seat][0]
    here = occupancy(side.seats, pos).get(KEYS[side.seat][0], [])
    if len(here) >= 2:
        kind = "a blockade" if is_blockade(here) else "two maggots"
        raise IllegalOrder(f"your entry square {spot.name()} is blocked by {kind} of {_holders(side, here)}")
    new = _place(pos, side.me, maggot, 0)
    if here and side.is_opponent(here[0][0]):
        index, other = here[0]
        captured = _place(new, index, other, CARCASS)
        return Step(maggot, CARCASS, 0, captured, captured=(index, other), bonus=CAPTURE_BONUS)
    return Step(maggot, CARCASS, 0, new)


def can_move(side: Side, pos: Pos, maggot: int, steps: int, *, teams: bool = False) -> bool:
    """True when :func:`move_maggot` would allow the move (no start-of-roll blockade rule)."""
    try:
        move_maggot(side, pos, maggot, steps, teams=teams)
    except IllegalOrder:
        return False
    return True


def start_pairs(side: Side, pos: Pos) -> frozenset[frozenset[int]]:
    """Return the mover's blockades as pairs of maggot indices (for the no-moving-together rule)."""
    occ = occupancy(side.seats, pos)
    return frozenset(
        frozenset(m for _, m in here) for here in occ.values() if is_blockade(here) and here[0][0] == side.me
    )


def most_advanced(row: Sequence[int]) -> int | None:
    """Return the index of the most advanced maggot on the board (not in the carcass, not HOME),
    the lower number on a tie, or None when there is none."""
    candidates = [(progress, -m) for m, progress in enumerate(row) if CARCASS < progress < FINISH]
    if not candidates:
        return None
    return -max(candidates)[1]
