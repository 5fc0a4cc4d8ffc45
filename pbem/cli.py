"""The ``pbem`` command: run games offline from the shell, or serve them by mail.

Every command calls the service layer (:class:`pbem.service.api.GameService`)
and imports what it needs when it runs: ``pbem --help`` and ``pbem check``
never load the database stack (bench/bench_startup.py measures it).

Exit codes: 0 success; 1 orders refused (some line) or a game that cannot do
what was asked; 2 usage errors (bad arguments, unknown game, kind or seat).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.core.errors import GameError, InvalidInput, PbemError, UnknownGame, UnknownSeat

if TYPE_CHECKING:
    from pbem.service.api import GameService
    from pbem.service.replay import ReplayResult

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_FAILED = 3
"""``pbem serve`` stopped by itself: a part of it kept failing (systemd restarts it)."""


class UsageError(PbemError):
    """A command line that cannot be carried out as written."""


def _read_text(source: str | None) -> str:
    if source is None or source == "-":
        return sys.stdin.read()
    path = Path(source)
    if not path.is_file():
        raise UsageError(f"no such file: {source}")
    return path.read_text(encoding="utf-8", errors="replace")


def _parse_pairs(pairs: Sequence[str], what: str) -> dict[str, str]:
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{what} {pair!r}: expected NAME=VALUE")
        result[key.strip()] = value.strip()
    return result


def _service(args: argparse.Namespace) -> GameService:
    """The game service on the database of ``--db`` (opened, and migrated as needed)."""
    if "://" not in args.db:
        path = Path(args.db).expanduser()
        if path.is_dir() or not path.parent.is_dir():
            raise UsageError(f"--db {args.db}: cannot open a database file there")
    from pbem.service.api import GameService
    from pbem.store import open_database

    return GameService(open_database(args.db))


def cmd_new(args: argparse.Namespace) -> int:
    """``pbem new KIND GAME --seat S=ADDRESS ... [--option K=V] [--seed N]``."""
    seats = _parse_pairs(args.seat, "--seat")
    options = _parse_pairs(args.option, "--option")
    if not seats and args.players is None:
        raise UsageError("give every seat with --seat SEAT=ADDRESS (or --players N to open seats for JOIN)")
    service = _service(args)
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


def cmd_orders(args: argparse.Namespace) -> int:
    """``pbem orders GAME SEAT [FILE|-]``: submit orders and print the check."""
    service = _service(args)
    service.info(args.game)  # unknown game: usage error before reading input
    text = _read_text(args.file)
    result = service.submit(args.game, args.seat, text, turn=args.turn)
    print(result.render(), end="")
    return EXIT_OK if result.is_clean else EXIT_REFUSED


def cmd_check(args: argparse.Namespace) -> int:
    """``pbem check KIND [FILE|-]``: syntax check with no game."""
    from pbem.service.checking import check_syntax

    result = check_syntax(args.kind, _read_text(args.file))
    print(result.render(), end="")
    return EXIT_OK if result.is_clean else EXIT_REFUSED


def cmd_resolve(args: argparse.Namespace) -> int:
    """``pbem resolve GAME``: resolve the current turn now (NMR defaults for the missing)."""
    service = _service(args)
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


def cmd_show(args: argparse.Namespace) -> int:
    """``pbem show GAME [--as SEAT] [--json]``: the report, or the state as JSON."""
    service = _service(args)
    if args.json:
        print(json.dumps(service.state_json(args.game, args.seat), indent=2, sort_keys=False))
    else:
        print(service.report_text(args.game, args.seat), end="")
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
    return _print_replay(_service(args).replay(args.game), "Replayed")


def cmd_verify(args: argparse.Namespace) -> int:
    """``pbem verify GAME``: recompute every draw from the revealed seed; exit 1 on a mismatch."""
    return _print_replay(_service(args).verify(args.game), "Verified")


def cmd_reveal(args: argparse.Namespace) -> int:
    """``pbem reveal GAME``: end the game if it runs and print its secret, salts and seed (a game whose
    kind keeps its seed secret is ended and says why, printing none of them)."""
    from pbem.service.seeds import kept_secret_reason

    row = _service(args).reveal(args.game)
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
    salts = _service(args).add_salt(args.game, args.seat, args.text)
    print(f"Game {args.game}: {len(salts)} salt(s), mixed into the seed at START.")
    return EXIT_OK


def cmd_upgrade_check(args: argparse.Namespace) -> int:
    """``pbem upgrade-check``: replay every game; exit 1 when this code would resolve any differently."""
    service = _service(args)
    different = service.upgrade_check()
    for result in different:
        print(f"{result.game}: {len(result.mismatches)} difference(s)")
        for mismatch in result.mismatches:
            print(f"  {mismatch}")
    print(f"Checked {len(service.games())} games: {len(different)} would resolve differently.")
    return EXIT_OK if not different else EXIT_REFUSED


def cmd_serve(args: argparse.Namespace) -> int:
    """``pbem serve [--imap URL --smtp URL] [--address A]``: the game master by mail."""
    import asyncio
    from datetime import timedelta
    from pathlib import Path

    from pbem.mail.config import BadMailUrl
    from pbem.mail.daemon import DaemonFailed
    from pbem.mail.serve import configure_logging, serve

    try:
        configure_logging("DEBUG" if args.verbose else args.log_level, args.log_format)
    except ValueError as error:
        raise UsageError(str(error)) from error
    if not 0 < args.retention_days <= 3650:
        raise UsageError(f"--retention-days {args.retention_days:g}: give a number of days from 0 to 3650")
    try:
        asyncio.run(
            serve(db_path=args.db, imap=args.imap, smtp=args.smtp, address=args.address.lower(),
                  imap_port=args.imap_port, smtp_port=args.smtp_port, out=sys.stdout,
                  secret_file=Path(args.secret_file) if args.secret_file else None,
                  retention=timedelta(days=args.retention_days), web=args.web, web_url=args.web_url)
        )
    except (BadMailUrl, ValueError) as error:
        raise UsageError(str(error)) from error
    except DaemonFailed as error:
        print(f"pbem: stopped: {error}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def cmd_web(args: argparse.Namespace) -> int:
    """``pbem web [HOST:PORT]``: the read-only web archive alone, against the same database."""
    import asyncio

    from pbem.mail.serve import configure_logging, serve_web

    configure_logging("DEBUG" if args.verbose else "INFO")
    try:
        asyncio.run(serve_web(db_path=args.db, listen=args.listen, out=sys.stdout,
                              secret_file=Path(args.secret_file) if args.secret_file else None))
    except ValueError as error:
        raise UsageError(str(error)) from error
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    """``pbem demo [--offline]``: robots play a game to the end, by mail or through the orders path."""
    from pbem.sandbox.demo import run_mail_demo, run_offline_demo

    if not args.offline:
        return run_mail_demo(db_path=args.db, seed=args.seed, out=sys.stdout)
    return run_offline_demo(_service(args), kind=args.kind, seed=args.seed, out=sys.stdout)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``pbem`` command."""
    parser = argparse.ArgumentParser(prog="pbem", description="A play-by-email game master.")
    sub = parser.add_subparsers(dest="command", required=True)

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.add_argument("--db", default=os.environ.get("PBEM_DB", "pbem.db"),
                             help="SQLite file or database URL (default ./pbem.db; env PBEM_DB)")
        return command

    new = add("new", "create a game")
    new.add_argument("kind", help="game kind, e.g. turkey-chase")
    new.add_argument("game", help="game name, e.g. tc-1")
    new.add_argument("--seat", action="append", default=[], metavar="SEAT=ADDRESS")
    new.add_argument("--players", type=int, help="open this many seats for JOIN instead of --seat")
    new.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    new.add_argument("--seed", type=int)
    new.set_defaults(func=cmd_new)

    orders = add("orders", "submit orders for the current turn as a seat")
    orders.add_argument("game")
    orders.add_argument("seat")
    orders.add_argument("file", nargs="?", default="-", help="order file, or - for standard input")
    orders.add_argument("--turn", type=int, help="refuse the orders if the game is not at this turn")
    orders.set_defaults(func=cmd_orders)

    check = add("check", "check order syntax against a game kind")
    check.add_argument("kind")
    check.add_argument("file", nargs="?", default="-")
    check.set_defaults(func=cmd_check)

    resolve = add("resolve", "resolve the current turn now")
    resolve.add_argument("game")
    resolve.set_defaults(func=cmd_resolve)

    show = add("show", "show the newest report, or the state as JSON")
    show.add_argument("game")
    show.add_argument("--as", dest="seat", help="the report or view of this seat")
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=cmd_show)

    for name, what, func in [
        ("replay", "replay a game from its seed and compare every state", cmd_replay),
        ("verify", "recompute every draw of a finished game from its revealed seed", cmd_verify),
        ("reveal", "end a game and reveal its committed secret and seed", cmd_reveal),
    ]:
        one_game = add(name, what)
        one_game.add_argument("game")
        one_game.set_defaults(func=func)

    salt = add("salt", "add a seat's entropy to a forming game's seed")
    salt.add_argument("game")
    salt.add_argument("seat")
    salt.add_argument("text")
    salt.set_defaults(func=cmd_salt)

    check = add("upgrade-check", "replay every game and list those this code would resolve differently")
    check.set_defaults(func=cmd_upgrade_check)

    serve = add("serve", "run the game master by mail (embedded mail servers when none is given)")
    serve.add_argument("--imap", default=os.environ.get("PBEM_IMAP"),
                       help="imap://user:pass@host:port/INBOX or imaps://... (env PBEM_IMAP)")
    serve.add_argument("--smtp", default=os.environ.get("PBEM_SMTP"),
                       help="smtp://host:port, smtps://..., ?starttls (env PBEM_SMTP)")
    serve.add_argument("--address", default=os.environ.get("PBEM_ADDRESS", "gm@pbem.localhost"),
                       help="the game master's address (env PBEM_ADDRESS)")
    serve.add_argument("--imap-port", type=int, default=1143, help="embedded IMAP port (default 1143; 0 = any)")
    serve.add_argument("--smtp-port", type=int, default=1025, help="embedded SMTP port (default 1025; 0 = any)")
    serve.add_argument("--secret-file", default=os.environ.get("PBEM_SECRET_FILE"),
                       help="keep the key that signs reply addresses in this file, created with mode 0600 when "
                            "absent (env PBEM_SECRET_FILE; default: in the database)")
    serve.add_argument("--retention-days", type=float, default=os.environ.get("PBEM_RETENTION_DAYS", "7"),
                       help="keep the text of handled and sent mail this many days (env PBEM_RETENTION_DAYS; "
                            "default 7)")
    serve.add_argument("--log-level", default=os.environ.get("PBEM_LOG_LEVEL", "INFO"),
                       help="DEBUG, INFO (default: a line per mail and per turn), WARNING or ERROR")
    serve.add_argument("--log-format", default=os.environ.get("PBEM_LOG_FORMAT", "text"), choices=("text", "json"),
                       help="text lines (default) or one JSON object per line")
    serve.add_argument("--web", metavar="HOST:PORT", default=os.environ.get("PBEM_WEB"),
                       help="also serve the web archive there, e.g. 127.0.0.1:8080 (env PBEM_WEB)")
    serve.add_argument("--web-url", default=os.environ.get("PBEM_WEB_URL"),
                       help="the archive's address as players reach it, for the private links in mail "
                            "(default http://HOST:PORT of --web; env PBEM_WEB_URL)")
    serve.add_argument("--verbose", action="store_true", help="the same as --log-level DEBUG")
    serve.set_defaults(func=cmd_serve)

    web = add("web", "serve the read-only web archive alone, against the same database")
    web.add_argument("listen", nargs="?", default="127.0.0.1:8080", metavar="HOST:PORT",
                     help="where to listen (default 127.0.0.1:8080)")
    web.add_argument("--secret-file", default=os.environ.get("PBEM_SECRET_FILE"),
                     help="the key file of pbem serve --secret-file, to check private links (env PBEM_SECRET_FILE)")
    web.add_argument("--verbose", action="store_true")
    web.set_defaults(func=cmd_web)

    demo = add("demo", "robots play a game to the end")
    demo.add_argument("--offline", action="store_true", help="no mail: robots submit through the orders path")
    demo.add_argument("--kind", default="turkey-chase")
    demo.add_argument("--seed", type=int, default=1)
    demo.set_defaults(func=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pbem`` command; return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # e.g. `pbem show GAME | head`: the reader left; not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except (UnknownGame, UnknownSeat, UsageError) as error:
        print(f"pbem: {error}", file=sys.stderr)
        return EXIT_USAGE
    except PbemError as error:
        print(f"pbem: {error}", file=sys.stderr)
        return EXIT_REFUSED


if __name__ == "__main__":
    sys.exit(main())
