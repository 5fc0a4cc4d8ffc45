"""Creating a game and starting it: names, seats, options, the committed seed, the setup."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from typing import Any

from pbem import budget
from pbem.addresses import checked_address
from pbem.core import Game, GameError, GameRng, InvalidInput, UnknownSeat
from pbem.core.rng import CURRENT_VERSION, LEGACY_VERSION, VERSIONS, derive_seed
from pbem.games import find_game
from pbem.passwords import hash_password, new_password
from pbem.service import absences, audit, consent, due, queries, record
from pbem.service.options import SERVICE_OPTIONS, BadOption, parse_service_options, service_defaults
from pbem.service.resolution import play_forced
from pbem.service.snapshot import GameInfo, rules_version_of
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus, SeatRow

GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,19}")
"""What a game name may be: up to 20 letters, digits and ``-``, starting with a letter or digit."""


def create_game(
    unit: Unit,
    kind: str,
    name: str,
    *,
    seats: Mapping[str, str | None] | None = None,
    players: int | None = None,
    options: Mapping[str, str] | None = None,
    seed: int | None = None,
    rng_version: int = CURRENT_VERSION,
    gm_address: str | None = None,
    gm_password_hash: str | None = None,
    asked: bool = True,
) -> GameInfo:
    """Create a game. With ``seats`` (seat -> address) it starts at once; with
    only ``players`` it waits for JOINs (status ``forming``) until :func:`start`.

    ``asked``: the seats' holders asked for the game's mail by being seated (the operator's word, or the
    sender's as GM). A league seats its members with ``asked=False``: they asked when they joined, and
    one that said STOP since stays stopped (its seat goes silent, as any stopped seat).

    The game commits to a secret (random, or the text of ``seed`` when given);
    the seed it plays with is derived at START from the secret and the
    players' salts. ``rng_version=1`` creates a game with the legacy generator
    seeded directly with ``seed`` (no commitment), as games were before.

    Raises UnknownGame for an unknown kind, UnknownSeat for seat names the game
    does not use, InvalidInput for a bad name, option, player count, a seed
    outside 0 to 2**63 - 1 (what the database holds), a seat address that is not
    a plain mail address or missing seats, and GameError for a taken name.
    """
    rules = find_game(kind)
    if seed is not None and not 0 <= seed < 2**63:
        raise InvalidInput(f"seed {seed}: give a whole number from 0 to {2**63 - 1}")
    name = name.strip()
    if not GAME_NAME.fullmatch(name):
        raise InvalidInput(f"game name {name!r}: use 1-20 letters, digits and '-', starting with a letter or digit")
    service, rules_options = split_options(rules, options or {})
    count = len(seats) if seats else players
    if count is None:
        raise InvalidInput("give the seats or the number of players")
    if not rules.min_players <= count <= rules.max_players:
        wanted = (f"exactly {rules.min_players}" if rules.min_players == rules.max_players
                  else f"{rules.min_players} to {rules.max_players}")
        raise InvalidInput(f"{rules.name} is for {wanted} players, not {count}")
    seat_names = rules.seat_names(count)
    if seats:
        _check_seats(rules, seat_names, seats)
    if rng_version not in VERSIONS:
        raise InvalidInput(f"random generator version {rng_version} is unknown; known: {VERSIONS}")
    row = GameRow(
        name=name,
        kind=rules.name,
        options=rules_options,
        seed=0,
        status=GameStatus.FORMING,
        rng_version=rng_version,
        rules_version=rules_version_of(rules),
        created_at=unit.now(),
        **{**service_defaults(rules), **parse_service_options(service)},
        gm_address=gm_address,
        gm_password_hash=gm_password_hash,
    )
    if rng_version == LEGACY_VERSION:
        row.seed = seed if seed is not None else secrets.randbelow(2**31)
    else:
        row.secret = str(seed) if seed is not None else secrets.token_hex(32)
        row.seed = derive_seed(row.secret)
    # Check the rules' options now, not at START.
    rules.setup(seat_names, rules_options, GameRng(row.seed, version=row.rng_version))
    if queries.game_by_name(unit.session, name) is not None:
        raise GameError(f"a game named {name} exists already")
    unit.add(row)
    unit.session.flush()
    by_upper = {s.upper(): a for s, a in (seats or {}).items()}
    for position, seat in enumerate(seat_names):
        budget.check()
        unit.add(SeatRow(game_id=row.id, name=seat, position=position, address=by_upper.get(seat.upper())))
    unit.session.flush()
    audit.record(unit, row, "CREATE", f"{rules.name} game {name} created for {count} players"
                 + (f", options {', '.join(f'{k}={v}' for k, v in (options or {}).items())}" if options else ""))
    # The creator's word: the operator's on the command line; by mail the GM is the sender, who asked anyway.
    for address in {a for a in [*(seats or {}).values(), gm_address] if a and asked}:
        consent.record_asked(unit, address)
    if seats:
        return start(unit, name, waits_for_acceptance=asked)
    return unit.snapshot(row)


def create_for_gm(unit: Unit, kind: str, name: str, *, gm_address: str, players: int,
                  options: Mapping[str, str], seed: int | None) -> tuple[GameInfo, str]:
    """Create a forming game whose GM is ``gm_address`` (CREATE by mail); return it and the
    GM's password (shown once). Raises as :func:`create_game`."""
    password = new_password()
    info = create_game(unit, kind, name, players=players, options=options, seed=seed,
                       gm_address=gm_address, gm_password_hash=hash_password(password))
    return info, password


def start(unit: Unit, name: str, *, waits_for_acceptance: bool = True) -> GameInfo:
    """Set a forming game up from its seed and open turn 1 (playing any forced turns that follow).

    Raises GameError when it is not forming, a seat is still empty, or (``waits_for_acceptance``) a seat's
    holder has not accepted its invitation (:mod:`pbem.service.consent`: such a seat counts as open).
    """
    row = unit.game(name)
    if row.status != GameStatus.FORMING:
        raise GameError(f"game {name} has started already")
    seats = unit.seats(row)
    empty = [s.name for s in seats if not s.address]
    if empty:
        raise GameError(f"game {name} cannot start: seats {', '.join(empty)} are still open")
    waiting = consent.unaccepted(unit, row) if waits_for_acceptance else []
    if waiting:
        raise GameError(f"game {name} cannot start: " + ", ".join(f"seat {s.name} ({s.address})" for s in waiting)
                        + " did not accept the invitation yet (a reply to it, or JOIN " + name + "); START again "
                        "once they did, or REPLACE the seat")
    rules = find_game(row.kind)
    if row.secret is not None:
        row.seed = derive_seed(row.secret, row.salts)
    rng = GameRng(row.seed, version=row.rng_version)
    state = rules.setup([s.name for s in seats], row.options, rng)
    row.setup_draws = list(rng.draws)
    row.state = rules.dump(state)
    unit.set_rng_state(row, rng.get_state())
    row.status = GameStatus.ACTIVE
    row.turn = 1
    due.open_turn(row, unit.now(), unit.snapshot(row).phase)
    unit.add(row)
    audit.record(unit, row, "START", "game started: " + ", ".join(f"{s.name} {s.address}" for s in seats))
    record.append_start(unit, row, [s.name for s in seats])
    play_forced(unit, unit.snapshot(row))
    absences.extend_for_absences(unit, row)
    return unit.snapshot(row)


def split_options(rules: Game[Any, Any], options: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """Split creation options into the service's (as given) and the rules' own (lower-cased).
    Raises BadOption naming an option neither knows."""
    service: dict[str, str] = {}
    own: dict[str, str] = {}
    for key, value in options.items():
        key = key.strip().lower()
        if key in SERVICE_OPTIONS:
            service[key] = value.strip()
        elif key in rules.options():
            own[key] = value.strip().lower()
        else:
            known = sorted([*SERVICE_OPTIONS, *rules.options()])
            raise BadOption(f"unknown option {key!r} for {rules.name}; options are: {', '.join(known)}")
    return service, own


def _check_seats(rules: Game[Any, Any], seat_names: tuple[str, ...] | list[str],
                 seats: Mapping[str, str | None]) -> None:
    """Refuse seat names the game does not use, missing seats and addresses that are no plain mail address."""
    wanted = {s.upper() for s in seats}
    canonical = {s.upper(): s for s in seat_names}
    unknown = sorted(wanted - set(canonical))
    if unknown:
        raise UnknownSeat(f"{rules.name} has no seat {unknown[0]}; seats are {', '.join(seat_names)}")
    if len(wanted) != len(seat_names):
        missing = [s for s in seat_names if s.upper() not in wanted]
        raise InvalidInput(f"seats missing: {', '.join(missing)}")
    for seat, address in seats.items():
        if address is not None:
            try:
                checked_address(address)
            except InvalidInput as error:
                raise InvalidInput(f"seat {seat}: {error}") from None
