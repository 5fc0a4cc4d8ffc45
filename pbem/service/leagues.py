"""Leagues: a GM creates one for a game kind, players join, and after START the service's clock pairs
round 1 and seats its tables, creating and starting their games (through :mod:`~pbem.service.creation`) a
few at a time (:mod:`pbem.service.league_steps`); when the last table of a round is over
(:func:`game_over`, called where games end) it records the results and the clock pairs and seats the next
round, until the league's rounds are played (or, in a knockout, one player is left). Work that grows with
the members (pairing a round, creating its games, mailing the standings, ending the tables at LEAGUE END)
is never done in the unit of a mail or of a game: each such unit only leaves the work to the clock
(:func:`schedule`), and the steps are stored in the league's rows, so that a restarted daemon carries on.

Members are keyed on their canonical address (:func:`pbem.addresses.checked_address`); what is shown
names them by their player names (:func:`pbem.service.players.display_name`), and only the league's GM
and the operator see their addresses beside (:mod:`pbem.leagues.view`). Every step goes into the league's
audit log (:func:`pbem.service.audit.record_league`).

Two daemons never seat a round twice: a step holds the league's row lock (``SELECT ... FOR UPDATE``
on PostgreSQL; SQLite has one writer at a time) and reads the round's tables afresh under the lock, and
``league_table`` is unique per league, round and table.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlmodel import select

from pbem import budget
from pbem.addresses import checked_address
from pbem.core import GameError, GameRng, InvalidInput, UnknownGame
from pbem.games import find_game
from pbem.leagues import pairing
from pbem.leagues.ratings import rate
from pbem.leagues.results import Place, Points, ResultKind, parse_points, places_of, points_from
from pbem.leagues.standings import TableResult, standings
from pbem.leagues.view import PUBLIC, LeagueReader, LeagueView, StandingLine, TablePlayer, TableView
from pbem.passwords import hash_password, new_password
from pbem.service import access, audit, consent, creation, queries, seats
from pbem.service.options import parse_service_options
from pbem.service.unit import Unit
from pbem.service.players import display_name
from pbem.store.tables import GameRow, GameStatus, LeagueMemberRow, LeagueRow, LeagueStatus, LeagueTableRow

FORMATS = ("swiss", "roundrobin", "knockout")
"""The league formats (``format=``)."""
DEFAULT_ROUNDS = {"swiss": 3}
"""Rounds when the GM gives none: Swiss 3; a round robin as many as everyone needs to meet everyone
(:func:`pbem.leagues.pairing.round_robin_rounds`), a knockout until one player is left
(:func:`pbem.leagues.pairing.knockout_rounds`), both fixed at START."""
MAX_ROUNDS = 50
MAX_MEMBERS = 200
"""Most rounds of a league, and most players in one."""
LEAGUE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,11}")
"""A league name: 1-12 letters, digits and ``-``; its tables are the games ``<name>-<round>-<table>``."""
LEAGUE_OPTIONS = ("format", "rounds", "table", "points")
"""The league's own options at LEAGUE CREATE; every other option goes to each table's game."""


class UnknownLeague(UnknownGame):
    """A league name that does not exist."""


class LeagueError(GameError):
    """A league request that cannot be honoured now (started, finished, not a member, ...)."""


@dataclass(frozen=True)
class TablesOpened:
    """News: a step created and started some of a round's games (their seats need passwords)."""

    league: str
    round: int
    games: tuple[str, ...]


@dataclass(frozen=True)
class RoundSeated:
    """News: the last table of a round got its game; the league's GM is told (one mail)."""

    league: str
    round: int


@dataclass(frozen=True)
class TablesEnded:
    """News: a step after LEAGUE END ended some of the round's games (everyone gets their last report)."""

    league: str
    games: tuple[str, ...]


@dataclass(frozen=True)
class StandingsDue:
    """News: the standings after ``round`` go to ``readers`` (members still playing, and the GM with the
    last of them). ``over``: the league is finished."""

    league: str
    round: int
    over: bool
    readers: tuple[str, ...]


@dataclass(frozen=True)
class LeagueSeatHandedOver:
    """News: LEAGUE REPLACE handed a seat of a running table to the new player (who needs the password)."""

    game: str
    seat: str
    address: str
    old_address: str
    password: str


# --- reading --------------------------------------------------------------------------------------


def league_row(unit: Unit, name: str, *, lock: bool = False) -> LeagueRow:
    """The row of the league called ``name`` (any case); with ``lock``, locked and read afresh until
    the unit ends. Raises UnknownLeague."""
    query = select(LeagueRow).where(LeagueRow.name_key == name.strip().lower())
    if lock:
        query = query.with_for_update().execution_options(populate_existing=True)
    row = unit.session.exec(query).first()
    if row is None:
        raise UnknownLeague(f"no league named {name!r}")
    return row


def members_of(unit: Unit, league: LeagueRow) -> list[LeagueMemberRow]:
    """The league's members in join order (dropped ones too)."""
    return list(unit.session.exec(select(LeagueMemberRow).where(LeagueMemberRow.league_id == league.id)
                                  .order_by(LeagueMemberRow.id)))  # type: ignore[arg-type]


def tables_of(unit: Unit, league: LeagueRow, round_number: int | None = None) -> list[LeagueTableRow]:
    """The league's tables (of one round when given) in round and table order, read afresh."""
    query = select(LeagueTableRow).where(LeagueTableRow.league_id == league.id)
    if round_number is not None:
        query = query.where(LeagueTableRow.round == round_number)
    query = query.order_by(LeagueTableRow.round, LeagueTableRow.table_number)  # type: ignore[arg-type]
    return list(unit.session.exec(query.execution_options(populate_existing=True)))


def round_games(unit: Unit, name: str) -> list[str]:
    """The games of the league's round so far, in table order. Raises UnknownLeague."""
    league = league_row(unit, name)
    tables = tables_of(unit, league, league.round)
    games = _game_names(unit, tables)
    return [games[t.game_id] for t in tables if t.game_id]


def all_leagues(unit: Unit) -> list[LeagueRow]:
    """Every league, oldest first."""
    return list(unit.session.exec(select(LeagueRow).order_by(LeagueRow.id)))  # type: ignore[arg-type]


def view(unit: Unit, name: str, reader: LeagueReader = PUBLIC) -> LeagueView:
    """The league's standings and tables as ``reader`` sees them (by default as the public does: names
    only). Raises UnknownLeague."""
    return _full_view(unit, league_row(unit, name)).seen_by(reader)


def views_for(unit: Unit, name: str, addresses: Sequence[str]) -> dict[str, LeagueView]:
    """The league as each of ``addresses`` sees it in its mail (see :func:`reader_of`), worked out once.
    Raises UnknownLeague."""
    league = league_row(unit, name)
    full = _full_view(unit, league)
    return {address: full.seen_by(reader_of(league, address)) for address in addresses}


def reader_of(league: LeagueRow, address: str) -> LeagueReader:
    """How ``address`` sees the league: its own row marked, and every member's address beside its name
    when it is the league's GM."""
    return LeagueReader(you=address, addresses=(league.gm_address or "").lower() == address.lower())


def _full_view(unit: Unit, league: LeagueRow) -> LeagueView:
    """The league as shown, with every member's address (for :meth:`LeagueView.seen_by`)."""
    members = members_of(unit, league)
    tables = tables_of(unit, league)
    results = _results(tables)
    ids = [m.id for m in members if m.id is not None]
    ratings = rate(ids, results)
    lines = standings(ids, results, _points(league), {p: r.ordinal for p, r in ratings.items()})
    by_id = {m.id: m for m in members}
    names = {m.id: display_name(unit.session, m.address) for m in members}
    shown = []
    for line in lines:
        member, rating = by_id[line.player], ratings[line.player]
        shown.append(StandingLine(
            line.rank, names[member.id], line.points, line.played, line.count(ResultKind.WIN),
            line.count(ResultKind.SHARED), line.count(ResultKind.DRAW), line.count(ResultKind.LOSS),
            line.count(ResultKind.DEFEAT), line.count(ResultKind.BYE), line.opponents_points, rating.mu,
            rating.sigma, rating.ordinal, member.dropped, address=member.address))
    games = _game_names(unit, tables)
    table_views = []
    for table in tables:
        order = [int(m) for m in table.seats.values()] if table.table_number else [int(m) for m in table.places or {}]
        places = table.places
        table_views.append(TableView(table.round, table.table_number, games.get(table.game_id), tuple(
            TablePlayer(names[m], str(places[str(m)]["kind"]) if places is not None else None,
                        address=by_id[m].address) for m in order)))
    return LeagueView(league.name, league.kind, league.format, str(league.status), league.round, league.rounds,
                      league.table_size, _points(league).as_text(), tuple(shown), tuple(table_views))


# --- the GM's and the players' actions --------------------------------------------------------------


def create(unit: Unit, name: str, kind: str, options: Mapping[str, str], *, gm_address: str | None = None,
           gm_password_hash: str | None = None) -> LeagueRow:
    """Create a forming league of ``kind``: ``options`` are the league's own (``format=swiss|roundrobin|
    knockout``, ``rounds=N``, ``table=K``, ``points=win:3,...``) and every table's game options.

    Raises UnknownGame for an unknown kind, InvalidInput for a bad name or option (naming it), and
    LeagueError for a taken name."""
    rules = find_game(kind)
    name = name.strip()
    if not LEAGUE_NAME.fullmatch(name):
        raise InvalidInput(f"league name {name!r}: use 1-12 letters, digits and '-', starting with a letter or digit")
    own = {k.strip().lower(): v.strip() for k, v in options.items() if k.strip().lower() in LEAGUE_OPTIONS}
    game_options = {k: v for k, v in options.items() if k.strip().lower() not in LEAGUE_OPTIONS}
    league_format = own.get("format", "swiss").lower()
    if league_format not in FORMATS:
        raise InvalidInput(f"format={league_format}: use one of {', '.join(FORMATS)}")
    size = _whole("table", own.get("table", str(rules.max_players)), 2, 100)
    if not rules.min_players <= size <= rules.max_players:
        raise InvalidInput(f"table={size}: {rules.name} is for {rules.min_players} to {rules.max_players} players")
    rounds = _whole("rounds", own["rounds"], 1, MAX_ROUNDS) if "rounds" in own else DEFAULT_ROUNDS.get(league_format, 0)
    points = parse_points(own["points"]) if "points" in own else Points()
    service, rules_options = creation.split_options(rules, game_options)
    parse_service_options(service)
    rules.setup(rules.seat_names(size), rules_options, GameRng(0))  # the options are checked now, not at START
    if unit.session.exec(select(LeagueRow).where(LeagueRow.name_key == name.lower())).first() is not None:
        raise LeagueError(f"a league named {name} exists already")
    row = LeagueRow(name=name, name_key=name.lower(), kind=rules.name, format=league_format, rounds=rounds,
                    table_size=size, options=dict(game_options), points=points.as_dict(), created_at=unit.now(),
                    gm_address=gm_address, gm_password_hash=gm_password_hash)
    unit.add(row)
    unit.session.flush()
    audit.record_league(unit, row, "CREATE", f"{rules.name} league {name} created: {league_format}, tables of {size}, "
                        f"{rounds or 'automatic'} rounds, points {points.as_text()}"
                        + (f", game options {', '.join(f'{k}={v}' for k, v in game_options.items())}" if game_options else ""))
    if gm_address:
        consent.record_asked(unit, gm_address)
    return row


def create_for_gm(unit: Unit, name: str, kind: str, options: Mapping[str, str], *,
                  gm_address: str) -> tuple[LeagueRow, str]:
    """Create a league whose GM is ``gm_address`` (LEAGUE CREATE by mail); return it and the league's
    password (shown once; it is also the GM password of each of its tables). Raises as :func:`create`."""
    password = new_password()
    return create(unit, name, kind, options, gm_address=gm_address, gm_password_hash=hash_password(password)), password


def check_gm(unit: Unit, name: str, password: str) -> LeagueRow:
    """Return the league when ``password`` is its password. Raises LockedOut while checks are paused after
    repeated wrong passwords, NotAuthorised for a wrong one (counted toward a lockout), UnknownLeague."""
    row = league_row(unit, name)
    access.check_gm_password(unit, row, password, f"league password checks for {row.name}",
                             f"password for league {row.name}")
    return row


def join(unit: Unit, name: str, address: str) -> LeagueMemberRow:
    """Add ``address`` (canonical) to a forming league. Raises LeagueError once it started, when the
    address is a member already, or the league is full (:data:`MAX_MEMBERS`)."""
    league = league_row(unit, name, lock=True)
    key = checked_address(address)
    if league.status != LeagueStatus.FORMING:
        raise LeagueError(f"league {league.name} has started; its GM can bring you in with LEAGUE REPLACE")
    members = members_of(unit, league)
    if any(m.address == key for m in members):
        raise LeagueError(f"{key} is in league {league.name} already")
    if len(members) >= MAX_MEMBERS:
        raise LeagueError(f"league {league.name} is full ({MAX_MEMBERS} players)")
    member = LeagueMemberRow(league_id=league.id, address=key, joined_at=unit.now())
    unit.add(member)
    unit.session.flush()
    consent.record_asked(unit, key)  # it asked by its LEAGUE JOIN (on the command line: the operator's word)
    audit.record_league(unit, league, "JOIN", f"{key} joined")
    return member


def start(unit: Unit, name: str) -> int:
    """Start a forming league: leave the pairing of round 1 and the creation of its games to the clock
    (:mod:`pbem.service.league_steps`); return how many tables round 1 will have. Raises LeagueError
    when it is not forming or has too few players for one table."""
    league = league_row(unit, name, lock=True)
    if league.status != LeagueStatus.FORMING:
        raise LeagueError(f"league {league.name} has started already")
    active = [m for m in members_of(unit, league) if not m.dropped]
    rules = find_game(league.kind)
    if len(active) < max(rules.min_players, 2):
        raise LeagueError(f"league {league.name} has {len(active)} player(s); a table of {league.kind} needs "
                          f"{rules.min_players}")
    if league.rounds == 0:
        league.rounds = (pairing.round_robin_rounds(len(active), league.table_size) if league.format == "roundrobin"
                         else pairing.knockout_rounds(len(active), league.table_size, rules.min_players))
    league.status = LeagueStatus.ACTIVE
    unit.add(league)
    audit.record_league(unit, league, "START", f"league started with {len(active)} players")
    schedule(unit, league)
    return len(pairing.table_sizes(len(active), league.table_size, rules.min_players)[0])


def replace(unit: Unit, name: str, old: str, new: str) -> list[str]:
    """Hand ``old``'s place (its points and record) to ``new``: the next rounds seat ``new``, and so do
    the seats ``old`` holds at the round's tables still playing; return those games. Raises LeagueError
    for a finished league, an ``old`` that is no member or a ``new`` that is one."""
    league = league_row(unit, name, lock=True)
    old_key, new_key = checked_address(old), checked_address(new)
    if league.status == LeagueStatus.FINISHED:
        raise LeagueError(f"league {league.name} is finished")
    members = members_of(unit, league)
    member = next((m for m in members if m.address == old_key), None)
    if member is None:
        raise LeagueError(f"{old_key} is not in league {league.name}")
    if any(m.address == new_key for m in members):
        raise LeagueError(f"{new_key} is in league {league.name} already")
    member.address = new_key
    unit.add(member)
    unit.session.flush()
    handed = []
    for game, seat in _running_seats(unit, league, member):
        joined = seats.replace(unit, game.name, seat, new_key)
        unit.news.append(LeagueSeatHandedOver(game.name, joined.seat, new_key, old_key, joined.password))
        handed.append(game.name)
    audit.record_league(unit, league, "REPLACE", f"{old_key}'s place handed to {new_key}"
                        + (f" (and its seats in {', '.join(handed)})" if handed else ""))
    return handed


def drop(unit: Unit, name: str, address: str) -> None:
    """Seat ``address`` no more in the league's next rounds (its results stay in the standings) and
    resign its seats at the tables still playing. Raises LeagueError for a finished league or a non-member."""
    league = league_row(unit, name, lock=True)
    key = checked_address(address)
    if league.status == LeagueStatus.FINISHED:
        raise LeagueError(f"league {league.name} is finished")
    member = next((m for m in members_of(unit, league) if m.address == key and not m.dropped), None)
    if member is None:
        raise LeagueError(f"{key} is not playing in league {league.name}")
    member.dropped = True
    unit.add(member)
    for game, seat in _running_seats(unit, league, member):
        seats.resign(unit, game.name, seat)
    audit.record_league(unit, league, "DROP", f"{key} dropped: seated in no further round")


def end(unit: Unit, name: str) -> list[str]:
    """End the league now: no further round, and the round's tables still waiting for their games get
    none; its tables still playing are left to the clock to end (ranked by their own rules, as the GM's END
    of a game; :func:`running_tables`), without counting toward the standings, and then the final standings
    go to every member. Return those games. Raises LeagueError for a finished league."""
    league = league_row(unit, name, lock=True)
    if league.status == LeagueStatus.FINISHED:
        raise LeagueError(f"league {league.name} is finished already")
    league.status, league.ended_at, league.ended_early = LeagueStatus.FINISHED, unit.now(), True
    unit.add(league)
    for table in waiting_tables(unit, league):
        unit.session.delete(table)
    ending = running_tables(unit, league)
    audit.record_league(unit, league, "END", f"league ended early in round {league.round}"
                        + (f"; tables to end: {', '.join(ending)}" if ending else ""))
    if league.round:
        league.tell_round, league.told_through = league.round, 0
        schedule(unit, league)
    return ending


# --- rounds ------------------------------------------------------------------------------------------


def game_over(unit: Unit, game: GameRow) -> None:
    """Record the result of a league table whose game just ended, and seat the next round when it was the
    round's last table (see :func:`advance`). Nothing for a game of no league, or of an ended league."""
    table = unit.session.exec(select(LeagueTableRow).where(LeagueTableRow.game_id == game.id)).first()
    if table is None or table.places is not None:
        return
    league = unit.session.get(LeagueRow, table.league_id)
    if league is None or league.status != LeagueStatus.ACTIVE:
        return
    if _record_result(unit, league, table, game):
        advance(unit, league.name)


def advance(unit: Unit, name: str) -> bool:
    """When every table of the league's round is over, leave the round's end (the standings, the next
    round's pairing and seating) to the clock; return True when the round is complete. Safe to call from
    several daemons at once: the league's row is locked and its tables read afresh, and the step that
    pairs the next round looks again under the lock (:func:`finish_round`)."""
    league = league_row(unit, name, lock=True)
    if not is_round_complete(unit, league):
        return False
    schedule(unit, league)
    return True


def schedule(unit: Unit, league: LeagueRow) -> None:
    """Have the clock take the league's next step now (see :mod:`pbem.service.league_steps`)."""
    league.step_at = unit.now()
    unit.add(league)


def is_round_complete(unit: Unit, league: LeagueRow) -> bool:
    """True when the active league's round has tables and every one of them is over (none waits for
    its game)."""
    if league.status != LeagueStatus.ACTIVE or league.round == 0:
        return False
    tables = tables_of(unit, league, league.round)
    return bool(tables) and all(t.places is not None for t in tables)


def finish_round(unit: Unit, league: LeagueRow) -> None:
    """The round of the (locked) league is complete: pair the next round, or finish the league after its
    last (or a knockout with one player left); either way its standings are to be mailed."""
    finished = league.round
    audit.record_league(unit, league, "ROUND", f"round {finished} complete", actor=audit.SERVICE)
    if finished >= league.rounds or not pair_round(unit, league, finished + 1):
        league.status, league.ended_at = LeagueStatus.FINISHED, unit.now()
        audit.record_league(unit, league, "FINISH", f"league finished after round {finished}", actor=audit.SERVICE)
    league.tell_round, league.told_through = finished, 0
    schedule(unit, league)


def waiting_tables(unit: Unit, league: LeagueRow, limit: int | None = None) -> list[LeagueTableRow]:
    """The tables of the league's round still waiting for their games, in table order (up to ``limit``)."""
    query = (select(LeagueTableRow).where(LeagueTableRow.league_id == league.id, LeagueTableRow.round == league.round,
                                          LeagueTableRow.table_number > 0, LeagueTableRow.game_id.is_(None))  # type: ignore[union-attr]
             .order_by(LeagueTableRow.table_number).limit(limit))  # type: ignore[arg-type]
    return list(unit.session.exec(query.execution_options(populate_existing=True)))


def running_tables(unit: Unit, league: LeagueRow, limit: int | None = None) -> list[str]:
    """The games of the league's round still playing, in table order (up to ``limit``)."""
    query = (select(GameRow.name).join(LeagueTableRow, LeagueTableRow.game_id == GameRow.id)  # type: ignore[arg-type]
             .where(LeagueTableRow.league_id == league.id, LeagueTableRow.round == league.round,
                    GameRow.status != GameStatus.FINISHED)
             .order_by(LeagueTableRow.table_number).limit(limit))  # type: ignore[arg-type]
    return list(unit.session.exec(query))


def _record_result(unit: Unit, league: LeagueRow, table: LeagueTableRow, game: GameRow) -> bool:
    """Keep each player's place at ``table`` from its ended game's outcome and scores; False when the game
    has no outcome."""
    info = unit.snapshot(game)
    if info.outcome is None:
        return False
    scores = {seat: float(score) for seat, score in info.rules.scores(info.state).items()}
    places = places_of(info.outcome, list(table.seats), scores)
    table.places = {str(member): {"kind": places[seat].kind.value, "score": places[seat].score}
                    for seat, member in table.seats.items()}
    table.finished_at = unit.now()
    unit.add(table)
    unit.session.flush()
    audit.record_league(unit, league, "RESULT", f"round {table.round} table {table.table_number} ({game.name}): "
                        + ", ".join(f"{seat} {places[seat].kind.value}" for seat in table.seats), actor=audit.SERVICE)
    return True


def pair_round(unit: Unit, league: LeagueRow, number: int) -> bool:
    """Pair round ``number`` (bounded work: :data:`pbem.leagues.pairing.SEARCH_WORK`) and store its tables,
    each waiting for its game (see :func:`open_tables`), and its byes; the clock is to create the games.
    False when the format has no further round (a knockout with one player left)."""
    rules = find_game(league.kind)
    members = members_of(unit, league)
    active = [m.id for m in members if not m.dropped and m.id is not None]
    tables = tables_of(unit, league)
    seated = _seating(league, rules.min_players, active, [m.id for m in members if m.id is not None], tables, number)
    if seated is None:
        return False
    for index, players in enumerate(seated.tables, start=1):
        budget.check()
        unit.add(LeagueTableRow(league_id=league.id, round=number, table_number=index,
                                seats=dict(zip(rules.seat_names(len(players)), players))))
    if seated.byes:
        unit.add(LeagueTableRow(league_id=league.id, round=number, table_number=0, seats={},
                                places={str(p): {"kind": ResultKind.BYE.value, "score": 0.0} for p in seated.byes},
                                finished_at=unit.now()))
    unit.session.flush()  # a second daemon pairing this round fails here (unique league, round, table)
    league.round = number
    schedule(unit, league)
    return True


def open_tables(unit: Unit, league: LeagueRow, tables: Sequence[LeagueTableRow]) -> list[str]:
    """Create and start the games of ``tables`` (of the locked league's round, waiting for their games);
    return their names. A member dropped since the pairing is seated and resigns at once (as at a table
    still playing); a game that ended as it was set up has its result recorded."""
    members = {m.id: m for m in members_of(unit, league)}
    games = []
    for table in tables:
        budget.check()
        game = _free_name(unit, f"{league.name}-{table.round}-{table.table_number}")
        info = creation.create_game(unit, league.kind, game,
                                    seats={s: members[int(m)].address for s, m in table.seats.items()},
                                    options=league.options, gm_address=league.gm_address,
                                    gm_password_hash=league.gm_password_hash, asked=False)
        table.game_id = info.row.id
        unit.add(table)
        unit.session.flush()
        for seat, member in table.seats.items():
            if members[int(member)].dropped and info.row.status != GameStatus.FINISHED:
                seats.resign(unit, info.name, seat)
        if info.row.status == GameStatus.FINISHED:  # it ended as it was set up
            _record_result(unit, league, table, info.row)
        games.append(info.name)
    unit.news.append(TablesOpened(league.name, league.round, tuple(games)))
    return games


def record_seated(unit: Unit, league: LeagueRow) -> None:
    """Every table of the locked league's round has its game: log the round's seating (by the service,
    whose clock seated it) and have the GM told."""
    members = {m.id: m.address for m in members_of(unit, league)}
    tables = tables_of(unit, league, league.round)
    games = _game_names(unit, tables)
    played = [f"{games[t.game_id]}: {', '.join(members[int(m)] for m in t.seats.values())}"
              for t in tables if t.table_number]
    byes = [members[int(m)] for t in tables if not t.table_number for m in t.places or {}]
    audit.record_league(unit, league, "SEAT", f"round {league.round} seated: " + "; ".join(played)
                        + (f"; bye: {', '.join(byes)}" if byes else ""), actor=audit.SERVICE)
    unit.news.append(RoundSeated(league.name, league.round))


def _free_name(unit: Unit, name: str) -> str:
    """``name``, or when a game holds it already ``name`` followed by the first free letter (``spring-1-1b``)."""
    for candidate in [name, *(f"{name}{letter}" for letter in "bcdefghijklmnopqrstuvwxyz")]:
        if queries.game_by_name(unit.session, candidate) is None:
            return candidate
    raise LeagueError(f"the games {name} to {name}z exist already; rename them to seat the round")


def _seating(league: LeagueRow, min_players: int, active: Sequence[int], everyone: Sequence[int],
             tables: Sequence[LeagueTableRow], number: int) -> pairing.Round | None:
    """The seating of round ``number`` by the league's format (None: a knockout that is over)."""
    results = _results(tables)
    size = league.table_size
    met = pairing.meetings_of([[int(m) for m in t.seats.values()] for t in tables if t.table_number])
    byes_had = Counter(int(p) for t in tables if not t.table_number for p in (t.places or {}))
    if league.format == "roundrobin":
        return pairing.round_robin(list(active), number, size=size, min_players=min_players, meetings=met,
                                   byes_had=byes_had)
    if league.format == "knockout":
        seed_rank = {p: i for i, p in enumerate(everyone)}
        if number == 1:
            still_in = list(active)
        else:
            last = [t for t in tables if t.round == number - 1]
            on = [pairing.advancing(_places(t), seed_rank) if t.table_number else None for t in last]
            byes = [int(p) for t in last if not t.table_number for p in (t.places or {})]
            still_in = sorted({*[p for p in on if p is not None], *byes} & set(active), key=lambda p: seed_rank[p])
        if len(still_in) < max(min_players, 2):
            return None
        return pairing.knockout(still_in, size=size, min_players=min_players)
    ratings = rate(everyone, results)
    order = [line.player for line in standings(list(everyone), results, points_from(league.points),
                                               {p: r.ordinal for p, r in ratings.items()}) if line.player in active]
    return pairing.swiss(order, size=size, min_players=min_players, meetings=met, byes_had=byes_had)


def _running_seats(unit: Unit, league: LeagueRow, member: LeagueMemberRow) -> list[tuple[GameRow, str]]:
    """The seats ``member`` holds at the league's tables still playing."""
    held = []
    for table in tables_of(unit, league, league.round):
        game = unit.session.get(GameRow, table.game_id) if table.game_id else None
        if game is None or game.status == GameStatus.FINISHED:
            continue
        held.extend((game, seat) for seat, m in table.seats.items() if int(m) == member.id)
    return held


def _results(tables: Sequence[LeagueTableRow]) -> list[TableResult]:
    """The finished tables as results for the standings and ratings."""
    return [TableResult(t.round, t.table_number, _places(t)) for t in tables if t.places is not None]


def _places(table: LeagueTableRow) -> dict[int, Place]:
    return {int(m): Place(ResultKind(p["kind"]), float(p["score"])) for m, p in (table.places or {}).items()}


def _points(league: LeagueRow) -> Points:
    return points_from(league.points)


def _game_names(unit: Unit, tables: Sequence[LeagueTableRow]) -> dict[int | None, str]:
    ids = [t.game_id for t in tables if t.game_id]
    if not ids:
        return {}
    rows = unit.session.exec(select(GameRow.id, GameRow.name).where(GameRow.id.in_(ids)))  # type: ignore[union-attr]
    return {game_id: name for game_id, name in rows}


def _whole(name: str, text: str, least: int, most: int) -> int:
    """``text`` as a whole number from ``least`` to ``most``; InvalidInput quoting it otherwise."""
    value = text.strip()
    if not value.isascii() or not value.isdigit() or len(value) > 6 or not least <= int(value) <= most:
        raise InvalidInput(f"{name}={text}: give a whole number from {least} to {most}")
    return int(value)

