"""The commands a player runs at the shell: checking and submitting orders, reading reports, and
replaying or verifying a game from its seed."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from pbem.cli.shared import (
    EXIT_OK,
    add_db_option,
    EXIT_REFUSED,
    Subcommands,
    UsageError,
    game_kind,
    read_text,
    service_of,
)

if TYPE_CHECKING:
    from pbem.service.replay import ReplayResult


def cmd_orders(args: argparse.Namespace) -> int:
    """``pbem orders GAME SEAT [FILE|-]``: submit orders and print the check."""
    service = service_of(args)
    service.info(args.game)  # unknown game: usage error before reading input
    text = read_text(args.file)
    result = service.submit(args.game, args.seat, text, turn=args.turn)
    print(result.render(), end="")
    return EXIT_OK if result.is_clean else EXIT_REFUSED


def cmd_check(args: argparse.Namespace) -> int:
    """``pbem check KIND [FILE|-]``: syntax check with no game; ``pbem check --game GAME --seat SEAT
    [FILE|-]``: the orders checked against the game's position as that seat would play them now,
    nothing stored."""
    if args.game is not None or args.seat is not None:
        if args.game is None or args.seat is None:
            raise UsageError("a check against a game's position needs both --game and --seat")
        if args.file != "-" and args.kind is not None:
            raise UsageError("with --game and --seat give the order file alone: the game says the kind")
        service = service_of(args)
        service.info(args.game)  # unknown game: usage error before reading input
        result = service.submit(args.game, args.seat, read_text(args.kind or args.file), store=False)
    else:
        from pbem.service.checking import check_syntax

        if args.kind is None:
            raise UsageError("give a game kind (pbem check KIND [FILE]), or --game and --seat")
        try:
            kind = game_kind(args.kind)
        except argparse.ArgumentTypeError as error:
            raise UsageError(f"argument kind: {error}") from None
        result = check_syntax(kind, read_text(args.file))
    print(result.render(), end="")
    return EXIT_OK if result.is_clean else EXIT_REFUSED


def cmd_show(args: argparse.Namespace) -> int:
    """``pbem show GAME [--as SEAT] [--json]``: the report, or the state as JSON."""
    service = service_of(args)
    if args.json:
        print(json.dumps(service.state_json(args.game, args.seat), indent=2, sort_keys=False))
    else:
        print(service.report_text(args.game, args.seat), end="")
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    """``pbem report GAME [--seat SEAT] [--turn N]``: the newest report (or turn N's) as that seat reads it
    (without --seat: the public report), as REPORT by mail sends it."""
    print(service_of(args).report_text(args.game, args.seat, args.turn), end="")
    return EXIT_OK


def _print_replay(result: ReplayResult, what: str) -> int:
    """Print a replay or verification result; return 0 when everything matched, else 1."""
    for span in result.versions:
        print(f"  {span}")
    for mismatch in result.mismatches:
        print(mismatch)
    draws = f", {result.draws_checked} draws" if what == "Verified" else ""
    if result.is_identical:
        matched = "every state and draw matches" if draws else "every state matches"
        print(f"{what} {result.turns} turns{draws} of {result.game}: {matched}.")
        return EXIT_OK
    print(f"{what} {result.turns} turns{draws} of {result.game}: {len(result.mismatches)} mismatch(es).")
    return EXIT_REFUSED


def cmd_replay(args: argparse.Namespace) -> int:
    """``pbem replay GAME``: replay from the seed; exit 1 when any state differs."""
    return _print_replay(service_of(args).replay(args.game), "Replayed")


def cmd_verify(args: argparse.Namespace) -> int:
    """``pbem verify GAME``: recompute every draw from the revealed seed; exit 1 on a mismatch."""
    return _print_replay(service_of(args).verify(args.game), "Verified")


def add_commands(commands: Subcommands) -> None:
    """Add the players' commands: orders, check, show, report, replay, verify."""
    add = commands.add
    orders = add("orders", "submit orders for the current turn as a seat")
    orders.add_argument("game")
    orders.add_argument("seat")
    orders.add_argument("file", nargs="?", default="-", help="order file, or - for standard input")
    orders.add_argument("--turn", type=int, help="refuse the orders if the game is not at this turn")
    orders.set_defaults(func=cmd_orders)

    check = commands.add_plain("check", help="check orders: their syntax against a game kind, or with --game and "
                                             "--seat against a game's position (nothing stored)",
                               description="Check orders line by line. With a game kind, only their syntax: whether "
                                           "they can be played depends on a game's position. With --game and --seat, "
                                           "against the game's position as that seat would play them now; nothing is "
                                           "stored.")
    check.add_argument("kind", nargs="?", help="game kind, e.g. race-on-the-river (with --game: the order file)")
    check.add_argument("file", nargs="?", default="-", help="order file, or - for standard input (the default)")
    check.add_argument("--game", help="check against this game's position (with --seat)")
    check.add_argument("--seat", help="the seat whose orders these are (with --game)")
    add_db_option(check, "with --game: SQLite file or database URL (default ./pbem.db; env PBEM_DB)")
    check.set_defaults(func=cmd_check)

    show = add("show", "show the newest report, or the state as JSON")
    show.add_argument("game")
    show.add_argument("--as", dest="seat", help="the report or view of this seat")
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=cmd_show)

    report = add("report", "print a seat's newest report again, or the one of turn N (REPORT by mail)")
    report.add_argument("game")
    report.add_argument("--seat", help="the seat whose report it is (default: the public report)")
    report.add_argument("--turn", type=int, help="the report that told this turn (0: the opening)")
    report.set_defaults(func=cmd_report)

    add("replay", "replay a game from its seed and compare every state", arguments=("game",), func=cmd_replay)
    add("verify", "recompute every draw of a finished game from its revealed seed", arguments=("game",),
        func=cmd_verify)
