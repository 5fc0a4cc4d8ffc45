"""A seat's orders for the turn: checking them, storing them as a new version, withdrawing
them (NOORDERS), marking them final (READY), and reading them back (a team phase shows each
owing seat its teammates' stored orders too).

Every submission is for the turn awaiting orders; orders said to be for
another turn are refused as stale, never applied.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pbem.core import GameError, StaleTurn
from pbem.core.chain import new_nonce, receipt
from pbem.orders import parser_for
from pbem.service import due, owing, queries, standby
from pbem.service.checking import FORCED, CheckResult, check_orders
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus, SeatRow, SeatStatus, SubmissionRow


def submit(unit: Unit, name: str, seat: str, text: str, *, turn: int | None = None, store: bool = True,
           source: str = "cli") -> CheckResult:
    """Check a seat's orders and, when ``store``, keep the accepted lines as the seat's new
    orders for the turn (a new version replacing earlier ones: a submission is the whole set).

    A submission without any accepted line stores nothing and leaves the
    earlier orders standing (``standing`` on the result says which), so a
    mistyped mail never withdraws orders or counts as orders in: :func:`withdraw`
    does that on purpose. Nothing is stored either when the submission as a
    whole is refused. Raises UnknownGame, UnknownSeat, GameError (the game takes
    no orders), StaleTurn (``turn`` given and not the turn awaiting orders).
    """
    row, seat_row = _taking_orders(unit, name, seat, turn)
    info = unit.snapshot(row)
    rules = info.rules
    parsed = parser_for(rules.name).parse(text)
    refusal = owing.not_your_turn(info, seat_row.name)
    if refusal is not None:
        result = CheckResult(lines=parsed.lines, general=[refusal])
    else:
        result = check_orders(rules, info.state, seat_row.name, parsed)
    result.game, result.kind, result.seat, result.turn = row.name, rules.name, seat_row.name, row.turn
    result.deadline, result.window = row.deadline, due.window_note(row, info.phase)
    result.owes = seat_row.name in owing.choosing_seats(info)
    result.teammates = shared_orders(unit, info, seat_row.name)
    if not store:
        result.position_only = True
        return result
    previous = queries.latest_version(unit.session, row, seat_row.name)
    if not result.accepted:
        result.standing = previous
        standing = queries.current_submission(unit.session, row, seat_row.name) if previous else None
        if standing is not None and standing.source == FORCED:
            result.standing, result.played_for_you = 0, list(standing.orders)
        return result
    now = unit.now()
    orders = [str(order) for order in result.accepted]
    nonce = _insert(unit, info, seat_row, version=previous + 1, text=text, orders=orders,
                    problems=[{"line": line.number, "text": line.text, "message": line.problem.message,
                               "column": line.problem.column} for line in result.lines if line.problem is not None],
                    source=source, received_at=now)
    result.version, result.received_at, result.replaced_previous = previous + 1, now, previous > 0
    result.receipt = receipt(row.name, row.turn, seat_row.name, orders, nonce)
    return result


def withdraw(unit: Unit, name: str, seat: str, *, ready: bool = False, source: str = "cli") -> int:
    """Store an empty set of orders for the seat (NOORDERS: it holds this turn), or with ``ready``
    mark its standing orders as final (READY). Returns the version that stands now.

    READY keeps the version the player sent: its standing orders are marked
    final where they are (no new version). Without standing orders READY
    stores an empty set (it holds), as NOORDERS does. Either way the seat
    counts as having sent its orders; a READY seat is not waited for even when
    the game resolves only at its deadline. Raises GameError when the game
    takes no orders or it is not the seat's turn.
    """
    row, seat_row = _taking_orders(unit, name, seat, None)
    info = unit.snapshot(row)
    refusal = owing.not_your_turn(info, seat_row.name)
    if refusal is not None:
        raise GameError(refusal)
    current = queries.current_submission(unit.session, row, seat_row.name) if ready else None
    if current is not None:
        current.ready = True
        unit.add(current)
        unit.session.flush()  # the reads of READY go to the connection
        _stored(unit, info, seat_row, received_at=unit.now(), ready=True)
        return current.version
    version = queries.latest_version(unit.session, row, seat_row.name) + 1
    _insert(unit, info, seat_row, version=version, text="", orders=[], problems=[], source=source,
            received_at=unit.now(), ready=ready)
    return version


def order_test(unit: Unit, name: str | None) -> Callable[[str], bool] | None:
    """A test of whether one line is an order (by its syntax) of the game called ``name``, or None when
    there is no such game. The test parses the line alone with the game's order grammar."""
    kind = unit.kind_of(name) if name else None
    if kind is None:
        return None
    parser = parser_for(kind)

    def is_order(line: str) -> bool:
        parsed = parser.parse(line)
        return bool(parsed.lines) and not parsed.has_problems

    return is_order


def shared_orders(unit: Unit, info: GameInfo, seat: str) -> dict[str, list[str] | None] | None:
    """In a team phase (:attr:`~pbem.core.Phase.shared_orders`) and for a seat that owes orders in it,
    the stored orders for this step of every other owing seat, by seat in phase order (None: it stored
    none yet; an empty list: it holds). None in any other phase, where orders are sealed until the
    step resolves, and for a seat that owes none."""
    phase = info.phase
    if phase is None or not phase.shared_orders or seat not in phase.seats:
        return None
    shared: dict[str, list[str] | None] = {}
    for other in phase.seats:
        if other != seat:
            stored = queries.current_submission(unit.session, info.row, other)
            shared[other] = list(stored.orders) if stored is not None else None
    return shared


def current_orders(unit: Unit, name: str, seat: str) -> SubmissionRow | None:
    """Return the seat's newest stored submission for the turn awaiting orders, or None."""
    row = unit.game(name)
    return queries.current_submission(unit.session, row, unit.seat(row, seat).name)


def _taking_orders(unit: Unit, name: str, seat: str, turn: int | None) -> tuple[GameRow, SeatRow]:
    """The game and seat, when the game takes orders and (``turn`` given) is at that turn."""
    row = unit.game(name)
    if row.status != GameStatus.ACTIVE:
        raise GameError(f"game {name} is {row.status}; it takes no orders now")
    seat_row = unit.seat(row, seat)
    if turn is not None and turn != row.turn:
        raise StaleTurn(name, turn, row.turn)
    return row, seat_row


def _insert(unit: Unit, info: GameInfo, seat_row: SeatRow, *, version: int, text: str, orders: list[str],
            problems: list[dict[str, object]], source: str, received_at: datetime, ready: bool = False) -> str:
    """Store one submission of the seat for the turn with a new nonce for its receipt, note it
    (:func:`_stored`) and return the nonce."""
    row = info.row
    nonce = new_nonce()
    queries.INSERT_SUBMISSION.run(unit.session.connection(), {
        "game_id": row.id, "seat": seat_row.name, "turn": row.turn, "version": version, "text": text,
        "orders": orders, "problems": problems, "received_at": received_at, "source": source, "ready": ready,
        "rolled_back": False, "nonce": nonce})
    _stored(unit, info, seat_row, received_at=received_at, ready=ready)
    return nonce


def _stored(unit: Unit, info: GameInfo, seat_row: SeatRow, *, received_at: datetime, ready: bool) -> None:
    """The seat's newest submission for the turn was stored (or marked READY): a seat that sends anything
    is no longer absent, and the offers of its seat to standbys that nobody accepted yet are withdrawn:
    its player is back. When the orders may make the turn due (every owing seat's orders in for an early
    resolution, now or after its delay; every one READY; a passed deadline), the game's ``orders_at`` has
    the clock look at it."""
    row = info.row
    unit.stored_submission(row, seat_row.name, ready=ready)  # first: a submission not READY answers all_ready
    if due.may_be_due(unit, info, received_at):
        row.orders_at = received_at
        unit.add(row)
    if seat_row.absent_since is not None or seat_row.missed_deadlines:
        if seat_row.missed_deadlines and seat_row.status != SeatStatus.RESIGNED:
            standby.player_back(unit, row, seat_row.name)
        seat_row.absent_since, seat_row.absence_reported, seat_row.missed_deadlines = None, False, 0
        unit.add(seat_row)
