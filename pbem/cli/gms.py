"""The commands of a game's GM: creating, resolving and revealing games, deadlines, salts, the audit
log, observers and the campaign actions (absences, standbys, preview, rollback)."""

from __future__ import annotations

import argparse

from pbem.cli.shared import EXIT_OK, Subcommands, UsageError, address, game_kind, parse_pairs, service_of
from pbem.core.errors import GameError, InvalidInput, UnknownGame, UnknownSeat


def cmd_new(args: argparse.Namespace) -> int:
    """``pbem new KIND GAME --seat S=ADDRESS ... [--option K=V] [--seed N]``."""
    seats = parse_pairs(args.seat, "--seat")
    options = parse_pairs(args.option, "--option")
    if not seats and args.players is None:
        raise UsageError("give every seat with --seat SEAT=ADDRESS (or --players N to open seats for JOIN)")
    service = service_of(args)
    try:
        info = service.create_game(
            args.kind, args.game, seats=seats or None, players=args.players, options=options, seed=args.seed
        )
    except (GameError, InvalidInput) as error:  # a taken name, bad options or seats: the command line is at fault
        if isinstance(error, (UnknownGame, UnknownSeat)):
            raise
        raise UsageError(str(error)) from error
    from pbem.service.seeds import commitment_of
    from pbem.store.tables import GameStatus

    print(f"Created {info.rules.name} game {info.name}, seats {', '.join(info.seat_names)}.")
    commitment = commitment_of(info.row)
    if commitment is not None:
        print(f"Seed commitment (SHA-256): {commitment}")
    if info.row.status == GameStatus.ACTIVE:
        print(service.report_text(info.name, None), end="")
    return EXIT_OK


def cmd_resolve(args: argparse.Namespace) -> int:
    """``pbem resolve GAME``: resolve the current turn now (NMR defaults for the missing)."""
    service = service_of(args)
    resolved = service.resolve(args.game, reason="gm")
    for turn in resolved.turns:
        nmr = f" (NMR: {', '.join(turn.record.nmr)})" if turn.record.nmr else ""
        passed = f" (no answer, passed: {', '.join(turn.record.passed)})" if turn.record.passed else ""
        how = " (forced)" if turn.record.reason == "forced" else ""
        print(f"Resolved turn {turn.record.turn}{how}{nmr}{passed}.")
    info = service.info(args.game)
    if info.outcome is not None:
        print(f"Game over. {info.outcome.headline}.")
    return EXIT_OK


def cmd_reveal(args: argparse.Namespace) -> int:
    """``pbem reveal GAME``: end the game if it runs and print its secret, salts and seed (a game whose
    kind keeps its seed secret is ended and says why, printing none of them)."""
    from pbem.service.seeds import kept_secret_reason

    row = service_of(args).reveal(args.game)
    kept = kept_secret_reason(row)
    if kept is not None:
        print(f"Game {row.name} is over; its seed is not revealed: {kept}.")
        return EXIT_OK
    print(f"Game {row.name}: secret {row.secret}")
    for salt in row.salts:
        print(f"  salt {salt}")
    print(f"  seed {row.seed}, generator version {row.rng_version}, rules version {row.rules_version}")
    return EXIT_OK


def cmd_salt(args: argparse.Namespace) -> int:
    """``pbem salt GAME SEAT TEXT``: add a seat's entropy before the start."""
    salts = service_of(args).add_salt(args.game, args.seat, args.text)
    print(f"Game {args.game}: {len(salts)} salt(s), mixed into the seed at START.")
    return EXIT_OK


def cmd_log(args: argparse.Namespace) -> int:
    """``pbem log GAME``: the game's audit log, every GM action and automatic decision with time and actor."""
    for entry in service_of(args).log(args.game):
        print(entry.line())
    return EXIT_OK


def cmd_deadline(args: argparse.Namespace) -> int:
    """``pbem deadline GAME WHEN``: set the deadline of the current turn (UTC, an offset or an IANA zone)."""
    from pbem.clock import format_utc
    from pbem.moments import parse_when

    when = service_of(args).set_deadline(args.game, parse_when(args.when))
    print(f"Deadline of {args.game} set to {format_utc(when)}.")
    return EXIT_OK


def cmd_extend(args: argparse.Namespace) -> int:
    """``pbem extend GAME DURATION``: move the deadline of the current turn later."""
    from pbem.clock import format_utc
    from pbem.moments import parse_duration

    when = service_of(args).extend(args.game, parse_duration(args.duration))
    print(f"Deadline of {args.game} extended to {format_utc(when)}.")
    return EXIT_OK


def cmd_observe(args: argparse.Namespace) -> int:
    """``pbem observe GAME ADDRESS`` / ``pbem unobserve GAME ADDRESS``: an address follows a game's public reports."""
    from pbem.service import observers

    with service_of(args).unit() as unit:
        if args.command == "observe":
            observers.observe(unit, args.game, args.address)
            print(f"{args.address.lower()} observes {args.game}.")
        elif observers.unobserve(unit, args.game, args.address):
            print(f"{args.address.lower()} no longer observes {args.game}.")
        else:
            print(f"{args.address.lower()} does not observe {args.game}.")
    return EXIT_OK


def cmd_campaign(args: argparse.Namespace) -> int:
    """``pbem absent|back|standby|accept|preview|rollback ...``: the campaign actions of the mail commands."""
    from datetime import date

    from pbem.reports import render_report
    from pbem.service import absences, rewind, standby

    with service_of(args).unit() as unit:
        if args.command == "absent":
            first, last = date.fromisoformat(args.first), date.fromisoformat(args.last or args.first)
            absences.announce(unit, args.game, args.seat, *absences.whole_days(first, last))
            print(f"Seat {args.seat} of {args.game} is away {first} to {last} (UTC days).")
        elif args.command == "back":
            print(f"{absences.back(unit, args.game, args.seat)} absence(s) ended.")
        elif args.command == "standby":
            if args.kind.lower() == "off":
                print(f"Off the standby lists: {', '.join(standby.leave_lists(unit, args.address)) or 'none'}.")
            else:
                print(f"{args.address.lower()} is on the standby list of {standby.join_list(unit, args.address, args.kind)}.")
        elif args.command == "accept":
            offer = standby.accept(unit, args.address, args.game)
            print(f"{args.address.lower()} accepted seat {offer.seat} ({offer.status}).")
        elif args.command == "preview":
            dry = rewind.preview(unit, args.game)
            for seat in [None, *([] if unit.info(args.game).rules.has_hidden_information
                                 else unit.info(args.game).seat_names)]:
                print(f"===== {'public report' if seat is None else 'seat ' + seat} =====")
                print(render_report(dry.report, seat), end="")
        elif args.confirm is None:
            print(f"Confirm with: pbem rollback {args.game} {args.turn} --confirm "
                  f"{rewind.request_rollback(unit, args.game, args.turn)}")
        else:
            done = rewind.confirm_rollback(unit, args.game, args.turn, args.confirm)
            print(f"{args.game} is back at the start of turn {done.turn}; {done.undone} turn(s) undone.")
    return EXIT_OK


def add_commands(commands: Subcommands) -> None:
    """Add the GMs' commands: new, resolve, reveal, log, salt, deadline, extend, (un)observe and the campaign actions."""
    add = commands.add
    new = add("new", "create a game")
    new.add_argument("kind", type=game_kind, help="game kind, e.g. turkey-chase (README's games table lists them)")
    new.add_argument("game", help="game name, e.g. tc-1")
    new.add_argument("--seat", action="append", default=[], metavar="SEAT=ADDRESS",
                     help="seat an address (the operator's word: it gets the game's mail at once); repeat per seat")
    new.add_argument("--players", type=int, help="open this many seats for JOIN instead of --seat")
    new.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="a game option, e.g. turn_hours=48 or variant=aggressive (HELP <kind> lists a kind's); "
                          "repeat per option")
    new.add_argument("--seed", type=int, help="the seed of the game's dice and draws (default: a random one, "
                                              "committed to in the first report)")
    new.set_defaults(func=cmd_new)

    add("reveal", "end a game and reveal its committed secret and seed", arguments=("game",), func=cmd_reveal)
    add("log", "print a game's audit log: every GM action and automatic decision, with time and actor",
        arguments=("game",), func=cmd_log)
    add("resolve", "resolve the current turn now", arguments=("game",), func=cmd_resolve)
    add("salt", "add a seat's entropy to a forming game's seed", arguments=("game", "seat", "text"), func=cmd_salt)
    add("deadline", "set the deadline of the current turn: 2026-11-25 18:00 (UTC), with an offset "
                    "(+01:00) or a time zone (2026-11-25 19:00 Europe/Berlin)",
        arguments=("game", "when"), func=cmd_deadline)
    add("extend", "move the deadline of the current turn later: 2d, 12h, 1d6h, 30m", arguments=("game", "duration"),
        func=cmd_extend)

    for name, what in (("observe", "an address follows a game's public reports (OBSERVE by mail)"),
                       ("unobserve", "an address stops following a game (UNOBSERVE by mail)")):
        watch = add(name, what)
        watch.add_argument("game")
        watch.add_argument("address", type=address)
        watch.set_defaults(func=cmd_observe)

    absent = add("absent", "a seat is away from FIRST to LAST day (UTC; ABSENT by mail)")
    absent.add_argument("game")
    absent.add_argument("seat")
    absent.add_argument("first", help="the first day away, YYYY-MM-DD")
    absent.add_argument("last", nargs="?", help="the last day away (default: the first)")
    absent.set_defaults(func=cmd_campaign)
    add("back", "a seat's absences end now (BACK by mail)", arguments=("game", "seat"), func=cmd_campaign)
    standby_list = add("standby", "put an address on a kind's standby list, or OFF every list (STANDBY by mail)")
    standby_list.add_argument("address", type=address)
    standby_list.add_argument("kind", help="a game kind, or off")
    standby_list.set_defaults(func=cmd_campaign)
    accept = add("accept", "a standby takes the seat offered to it (ACCEPT by mail)")
    accept.add_argument("address", type=address)
    accept.add_argument("game", nargs="?")
    accept.set_defaults(func=cmd_campaign)
    add("preview", "print the reports of a dry run of the current turn, changing nothing (PREVIEW)",
        arguments=("game",), func=cmd_campaign)
    rollback = add("rollback", "return a game to the start of a turn: prints a code, then --confirm CODE (ROLLBACK)")
    rollback.add_argument("game")
    rollback.add_argument("turn", type=int)
    rollback.add_argument("--confirm", metavar="CODE")
    rollback.set_defaults(func=cmd_campaign)
