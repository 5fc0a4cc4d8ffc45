"""The ``pbem`` command: run games offline from the shell, or serve them by mail.

Every command calls the service layer (:class:`pbem.service.api.GameService`)
and imports what it needs when it runs: ``pbem --help`` and ``pbem check``
never load the database stack (bench/bench_startup.py measures it).

Exit codes: 0 success; 1 orders refused (some line) or a game that cannot do
what was asked; 2 usage errors (bad arguments, unknown game, kind or seat);
``pbem deliver`` those of sysexits.h that mail servers expect (0, 65, 75).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.core.errors import GameError, InvalidInput, PbemError, UnknownGame, UnknownSeat
from pbem.launch import installed_version

if TYPE_CHECKING:
    from pbem.mail.dkim_signing import DkimSigner
    from pbem.service.api import GameService
    from pbem.service.replay import ReplayResult
    from pbem.web.server import WebLimits

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


def _address(text: str) -> str:
    """An address argument, stripped and in lower case; argparse refuses (exit 2) one pbem does not take."""
    from pbem.addresses import checked_address

    try:
        return checked_address(text)
    except InvalidInput as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _service(args: argparse.Namespace) -> GameService:
    """The game service on the database of ``--db`` (opened, and migrated as needed)."""
    if "://" not in args.db:
        path = Path(args.db).expanduser()
        if path.is_dir() or not path.parent.is_dir():
            raise UsageError(f"--db {args.db}: cannot open a database file there")
    from pbem.service.api import GameService
    from pbem.store import open_database

    return GameService(open_database(args.db), actor="command line")


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
    """``pbem check KIND [FILE|-]``: syntax check with no game; ``pbem check --game GAME --seat SEAT
    [FILE|-]``: the orders checked against the game's position as that seat would play them now,
    nothing stored."""
    if args.game is not None or args.seat is not None:
        if args.game is None or args.seat is None:
            raise UsageError("a check against a game's position needs both --game and --seat")
        if args.file != "-" and args.kind is not None:
            raise UsageError("with --game and --seat give the order file alone: the game says the kind")
        service = _service(args)
        service.info(args.game)  # unknown game: usage error before reading input
        result = service.submit(args.game, args.seat, _read_text(args.kind or args.file), store=False)
    else:
        from pbem.service.checking import check_syntax

        if args.kind is None:
            raise UsageError("give a game kind (pbem check KIND [FILE]), or --game and --seat")
        try:
            kind = _kind(args.kind)
        except argparse.ArgumentTypeError as error:
            raise UsageError(f"argument kind: {error}") from None
        result = check_syntax(kind, _read_text(args.file))
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


def cmd_report(args: argparse.Namespace) -> int:
    """``pbem report GAME [--seat SEAT] [--turn N]``: the newest report (or turn N's) as that seat reads it
    (without --seat: the public report), as REPORT by mail sends it."""
    print(_service(args).report_text(args.game, args.seat, args.turn), end="")
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


def cmd_players(args: argparse.Namespace) -> int:
    """``pbem players [--json]``: every registered player, with games played and reliability."""
    found = _service(args).players()
    if args.json:
        print(json.dumps([p.to_json() for p in found], indent=2))
        return EXIT_OK
    for summary in found:
        record = summary.record
        print(f"{summary.name}: {record.played} played, {record.finished} finished; "
              f"reliability {record.reliability_text()}")
    if not found:
        print("No registered players (players choose a name by mail: REGISTER <name>).")
    return EXIT_OK


def cmd_player(args: argparse.Namespace) -> int:
    """``pbem player NAME [--json]``: one player's record, games and addresses (the operator's view)."""
    from pbem.service import players

    try:
        profile = _service(args).player(args.name)
    except players.UnknownPlayer as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps(profile.to_json(with_addresses=True), indent=2))
        return EXIT_OK
    print(players.record_text(profile.summary.name, profile.summary.record))
    print(f"Addresses: {', '.join(profile.addresses)}.")
    for game in profile.games:
        print(f"  {game.name} ({game.kind}), {game.status}" + (f": {game.share_text}" if game.share else ""))
    return EXIT_OK


def cmd_mydata(args: argparse.Namespace) -> int:
    """``pbem mydata ADDRESS [--json]``: everything stored about an address (what MYDATA mails to it)."""
    from pbem.service import privacy

    with _service(args).unit(lock=False) as unit:
        data = privacy.data_of(unit, args.address)
    print(json.dumps(data.as_json(), indent=2) if args.json else data.as_text())
    return EXIT_OK


def cmd_forget(args: argparse.Namespace) -> int:
    """``pbem forget ADDRESS``: erase an address as a confirmed FORGET by mail does; say what it left."""
    from pbem.service import privacy

    with _service(args).unit() as unit:
        done = privacy.forget(unit, args.address)
    print(f"{args.address} is forgotten: it is {done.pseudonym} now ({done.rows} rows changed).")
    for game, seat in done.resigned:
        print(f"  seat {seat} of {game} resigned: tell its GM (it gets NMR defaults until the GM REPLACEs it)")
    for game, seat in done.freed:
        print(f"  seat {seat} of {game} (forming) is open again: tell its GM")
    for name in done.gm_left:
        print(f"  {name} has no GM now")
    return EXIT_OK


def cmd_log(args: argparse.Namespace) -> int:
    """``pbem log GAME``: the game's audit log, every GM action and automatic decision with time and actor."""
    for entry in _service(args).log(args.game):
        print(entry.line())
    return EXIT_OK


def cmd_deadline(args: argparse.Namespace) -> int:
    """``pbem deadline GAME WHEN``: set the deadline of the current turn (UTC, an offset or an IANA zone)."""
    from pbem.clock import format_utc
    from pbem.commands import parse_when

    when = _service(args).set_deadline(args.game, parse_when(args.when))
    print(f"Deadline of {args.game} set to {format_utc(when)}.")
    return EXIT_OK


def cmd_extend(args: argparse.Namespace) -> int:
    """``pbem extend GAME DURATION``: move the deadline of the current turn later."""
    from pbem.clock import format_utc
    from pbem.commands import parse_duration

    when = _service(args).extend(args.game, parse_duration(args.duration))
    print(f"Deadline of {args.game} extended to {format_utc(when)}.")
    return EXIT_OK


def cmd_prefs(args: argparse.Namespace) -> int:
    """``pbem prefs ADDRESS [--zone Z]``: what mail to an address looks like, as its SET commands set it."""
    from pbem.mail import preferences
    from pbem.zones import read_zone

    service = _service(args)
    with service.unit() as unit:
        now = unit.now()
        if args.zone is not None:
            preferences.set_zone(unit.session, args.address, read_zone(args.zone), now=now)
        for name in ("digest", "textonly", "press"):
            if getattr(args, name) is not None:
                preferences.set_preference(unit.session, args.address, name, on=getattr(args, name) == "on", now=now)
        row = preferences.preferences_of(unit.session, args.address)
        digest = "game's choice" if row is None or row.digest is None else ("on" if row.digest else "off")
        print(f"{args.address.lower()}: zone {(row.zone if row else None) or 'UTC'}, digest {digest}, "
              f"textonly {'on' if row and row.text_only else 'off'}, press {'off' if row and row.press_off else 'on'}, "
              f"view.json {'on' if row and row.view_json else 'off'}")
    return EXIT_OK


def cmd_observe(args: argparse.Namespace) -> int:
    """``pbem observe GAME ADDRESS`` / ``pbem unobserve GAME ADDRESS``: an address follows a game's public reports."""
    from pbem.service import observers

    with _service(args).unit() as unit:
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

    with _service(args).unit() as unit:
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


def cmd_league(args: argparse.Namespace) -> int:
    """``pbem league create|join|start|standings|replace|drop|end ...``: the LEAGUE mail commands, as the
    operator (no league password asked; the standings show each member's address beside its name). Only
    mail tells the players: a round seated from here reaches them with its games' reports, as ``pbem new``
    does. ``start`` and ``end`` take the steps that follow (creating or ending the round's games, see
    :mod:`pbem.service.league_steps`) to the end, each step a unit of its own, before they print."""
    from pbem.leagues.view import OPERATOR
    from pbem.service import league_steps, leagues

    service = _service(args)
    with service.unit() as unit:
        if args.action == "create":
            options = _parse_pairs(args.options, "option")
            if args.gm:
                row, password = leagues.create_for_gm(unit, args.league, args.kind, options, gm_address=args.gm)
            else:
                row, password = leagues.create(unit, args.league, args.kind, options), None
            print(f"Created league {row.name}: {row.kind}, {row.format}, tables of {row.table_size}, "
                  f"{row.rounds or 'automatic'} rounds, points {leagues.view(unit, row.name).points}.")
            if password:
                print(f"League password of {row.gm_address}: {password}")
        elif args.action == "join":
            member = leagues.join(unit, args.league, args.address)
            print(f"{member.address} joined league {args.league}.")
        elif args.action == "start":
            leagues.start(unit, args.league)
        elif args.action == "replace":
            handed = leagues.replace(unit, args.league, args.old, args.new)
            print(f"{args.new} takes {args.old}'s place in {args.league}"
                  + (f" and its seats in {', '.join(handed)}" if handed else "") + ".")
        elif args.action == "drop":
            leagues.drop(unit, args.league, args.address)
            print(f"{args.address} is seated in no further round of {args.league}.")
        elif args.action == "end":
            ended = leagues.end(unit, args.league)
        else:
            view = leagues.view(unit, args.league, OPERATOR)
            print(json.dumps(view.as_json(), indent=2, ensure_ascii=False) if args.json else view.text(), end="\n" if args.json else "")
    if args.action in ("start", "end"):
        league_steps.run_steps(service.unit, args.league)
    if args.action == "start":
        with service.unit(lock=False) as unit:
            print(f"League {args.league} started; round 1: {', '.join(leagues.round_games(unit, args.league))}.")
    elif args.action == "end":
        print(f"League {args.league} ended" + (f"; games ended: {', '.join(ended)}" if ended else "") + ".")
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
    """``pbem serve [--imap URL] [--lmtp HOST:PORT|unix:/path] [--smtp URL] [--address A]``: the game master by
    mail."""
    import asyncio
    from datetime import timedelta
    from pathlib import Path

    from pbem.mail.config import BadMailUrl, SendRate
    from pbem.mail.daemon import DaemonFailed
    from pbem.mail.listening import CannotListen
    from pbem.mail.serve import configure_logging, serve

    try:
        configure_logging("DEBUG" if args.verbose else args.log_level, args.log_format)
    except ValueError as error:
        raise UsageError(str(error)) from error
    if not 0 < args.retention_days <= 3650:
        raise UsageError(f"--retention-days {args.retention_days:g}: give a number of days from 0 to 3650")
    if not 1 <= args.smtp_connections <= 16:
        raise UsageError(f"--smtp-connections {args.smtp_connections}: give a number from 1 to 16")
    if not 0 < args.mail_budget <= 600:
        raise UsageError(f"--mail-budget {args.mail_budget:g}: give a number of seconds above 0, up to 600")
    dkim = _dkim_signer(args)
    try:
        asyncio.run(
            serve(db_path=args.db, imap=args.imap, smtp=args.smtp, address=args.address.lower(),
                  imap_port=args.imap_port, smtp_port=args.smtp_port, out=sys.stdout,
                  secret_file=Path(args.secret_file) if args.secret_file else None,
                  retention=timedelta(days=args.retention_days), web=args.web, web_url=args.web_url,
                  web_limits=_web_limits(args),
                  smtp_connections=args.smtp_connections, lmtp=args.lmtp, mail_budget=args.mail_budget,
                  dkim=dkim, trusted_authserv=tuple(args.trust_authserv),
                  send_rate=SendRate.parse(args.send_rate) if args.send_rate else None,
                  mailboxes=Path(args.mailboxes) if args.mailboxes else None)
        )
    except (BadMailUrl, ValueError) as error:
        raise UsageError(str(error)) from error
    except CannotListen as error:  # a port taken (LmtpUnavailable too)
        raise UsageError(str(error)) from error
    except DaemonFailed as error:
        print(f"pbem: stopped: {error}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def _add_web_limits(command: argparse.ArgumentParser) -> None:
    """The web server's caps: ``--web-connections`` and ``--web-idle``."""
    command.add_argument("--web-connections", type=int, default=os.environ.get("PBEM_WEB_CONNECTIONS"), metavar="N",
                         help="web connections served at once, 1 to 10000; at the cap a new one replaces the one "
                              "idle longest (env PBEM_WEB_CONNECTIONS; default 200)")
    command.add_argument("--web-idle", type=float, default=os.environ.get("PBEM_WEB_IDLE"), metavar="SECONDS",
                         help="close a web connection idle this long (env PBEM_WEB_IDLE; default 30)")


def _web_limits(args: argparse.Namespace) -> WebLimits:
    """The web server's caps from ``--web-connections`` and ``--web-idle`` (the defaults where not given).
    Raises UsageError for one out of range."""
    from pbem.web.server import BadWebLimits, WebLimits

    given = {"connections": args.web_connections, "idle_seconds": args.web_idle}
    try:
        return WebLimits(**{name: value for name, value in given.items() if value is not None})
    except BadWebLimits as error:
        raise UsageError(str(error)) from error


def _dkim_signer(args: argparse.Namespace) -> DkimSigner | None:
    """The DKIM signer of ``pbem serve --dkim-key`` (None without it); a key, selector or domain it cannot
    sign with is a usage error."""
    if not args.dkim_key:
        if args.dkim_selector or args.dkim_domain:
            raise UsageError("--dkim-selector and --dkim-domain go with --dkim-key")
        return None
    from pbem.mail.dkim_signing import DkimKeyError, DkimSigner

    if not args.dkim_selector:
        raise UsageError("--dkim-key needs --dkim-selector: the name the public key is published under")
    domain = args.dkim_domain or args.address.rpartition("@")[2]
    try:
        return DkimSigner.load(Path(args.dkim_key), selector=args.dkim_selector, domain=domain)
    except DkimKeyError as error:
        raise UsageError(str(error)) from error


def cmd_dkim_keygen(args: argparse.Namespace) -> int:
    """``pbem dkim-keygen --selector S --domain D --out PATH``: write a new private key (mode 0600) and
    print the DNS TXT record that publishes its public key."""
    from pbem.mail.dkim_signing import DkimKeyError, check_name, dns_record, new_key_pair, write_private_key

    try:
        check_name("--selector", args.selector)
        check_name("--domain", args.domain)
        private, public = new_key_pair(args.bits)
        write_private_key(Path(args.out), private)
    except DkimKeyError as error:
        raise UsageError(str(error)) from error
    print(f"; private key written to {args.out} (mode 0600): pbem serve --dkim-key {args.out} "
          f"--dkim-selector {args.selector}")
    print("; publish this record in the DNS zone of " + args.domain + ":")
    print(dns_record(args.selector, args.domain, public))
    return EXIT_OK


def cmd_deliver(args: argparse.Namespace) -> int:
    """``pbem deliver [--db DB]``: store the mail on standard input for the running daemon; exit 0 when
    stored, 75 (EX_TEMPFAIL) when the mail server should try again, 65 when the input holds no mail."""
    import logging

    from pbem.mail.deliver import deliver

    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    return deliver(args.db, sys.stdin.buffer)


def cmd_mail(args: argparse.Namespace) -> int:
    """``pbem mail [--json]``: the mail that ended unhandled (failed, set aside) or waits for another try;
    ``pbem mail retry ID``: queue one to be handled again (exit 2 for an unknown id)."""
    from pbem.mail.retries import UnknownMail, retry_by_hand, troubled_mail

    db = _service(args).db
    if args.action == "retry":
        if args.id is None:
            raise UsageError("pbem mail retry ID: give the id of a mail (pbem mail lists them)")
        try:
            retry_by_hand(db, args.id)
        except UnknownMail as error:
            raise UsageError(str(error)) from error
        print(f"Mail {args.id} is queued to be handled again (a running pbem serve takes it at once).")
        return EXIT_OK
    if args.id is not None:
        raise UsageError(f"pbem mail {args.id}: did you mean pbem mail retry {args.id}?")
    mails = troubled_mail(db)
    if args.json:
        print(json.dumps([mail.as_json() for mail in mails], indent=2))
    elif not mails:
        print("No failed or set-aside mail.")
    else:
        for mail in mails:
            print(mail.line())
    return EXIT_OK


def cmd_web(args: argparse.Namespace) -> int:
    """``pbem web [HOST:PORT]``: the read-only web archive alone, against the same database."""
    import asyncio

    from pbem.mail.listening import CannotListen
    from pbem.mail.serve import configure_logging, serve_web

    configure_logging("DEBUG" if args.verbose else "INFO")
    try:
        asyncio.run(serve_web(db_path=args.db, listen=args.listen, out=sys.stdout,
                              secret_file=Path(args.secret_file) if args.secret_file else None,
                              limits=_web_limits(args)))
    except (ValueError, CannotListen) as error:
        raise UsageError(str(error)) from error
    return EXIT_OK


def cmd_status(args: argparse.Namespace) -> int:
    """``pbem status [--json]``: the service's figures from the database, for one look (no daemon needed,
    nothing is started)."""
    from pbem.ops.figures import read_figures

    if "://" not in args.db and not Path(args.db).expanduser().is_file():
        raise UsageError(f"--db {args.db}: no database there")
    figures = read_figures(_service(args).db)
    print(json.dumps(figures.as_json(), indent=2) if args.json else figures.as_text(), end="\n" if args.json else "")
    return EXIT_OK


def cmd_backup(args: argparse.Namespace) -> int:
    """``pbem backup FILE``: a consistent copy of the live database, written to FILE atomically with mode 0600
    (exit 2 when there is no pbem database at ``--db``, or FILE cannot be written there; 1 when the copy
    fails)."""
    from pbem.store.backup import BackupRefused, backup

    try:
        size = backup(args.db, Path(args.file))
    except BackupRefused as error:
        raise UsageError(str(error)) from error
    print(f"Backed up {_shown_db(args.db)} to {args.file} ({size} bytes, mode 0600).")
    return EXIT_OK


def cmd_restore(args: argparse.Namespace) -> int:
    """``pbem restore FILE --db TARGET``: fill the empty database TARGET from a backup (exit 2 when TARGET is
    not empty or cannot be made or reached, or FILE is no backup for it; 1 when pg_restore fails) and say
    what it holds and what mail it lacks."""
    from pbem.store.backup import BackupRefused, restore

    try:
        restored = restore(Path(args.file), args.db)
    except BackupRefused as error:
        raise UsageError(str(error)) from error
    print(f"Restored {args.file} into {_shown_db(args.db)}: {restored.games} game(s), {restored.mails} stored "
          f"mail(s), {restored.handled} of them handled.")
    if restored.newest_mail is not None:
        print(f"The newest mail in it was received at {restored.newest_mail:%Y-%m-%d %H:%M:%S} UTC: mail received "
              "later is not in it. Put that mail back before pbem serve starts (docs/operators.md, Backups).")
    return EXIT_OK


def _shown_db(db: str) -> str:
    """The ``--db`` of a command as it may be printed: a URL's password hidden."""
    from pbem.store.pg_programs import shown_url

    return shown_url(db) if "://" in db else db


def cmd_demo(args: argparse.Namespace) -> int:
    """``pbem demo [--offline] [--db PATH]``: robots play a game to the end, by mail or through the orders
    path, in a database of the demo's own: a new one in a temporary directory (printed), or the one of
    ``--db`` when it holds no game the demo did not create (else a UsageError: exit 2)."""
    from pbem.sandbox.demo import others_games, run_mail_demo, run_offline_demo

    if args.db is None:
        folder = tempfile.mkdtemp(prefix="pbem-demo-")
        print(f"pbem demo: working in {folder}", flush=True)
        args.db = str(Path(folder) / "demo.db")
    service = _service(args)
    others = others_games(service)
    if others:
        service.db.close()
        shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        raise UsageError(f"--db {args.db} holds games the demo did not create ({shown}); the demo would play "
                         "them out. Give it a database of its own, or no --db (a temporary one).")
    if not args.offline:
        service.db.close()
        return run_mail_demo(db_path=args.db, seed=args.seed, out=sys.stdout)
    return run_offline_demo(service, kind=args.kind, seed=args.seed, out=sys.stdout)


_ARGUMENT_HELP = {
    "game": "the game's name, e.g. tc-1",
    "seat": "a seat of the game, as its reports name it (e.g. A, or 2)",
    "address": "a mail address, e.g. ann@example.org",
    "json": "print JSON instead of text",
    "text": "the seat's entropy: one short line of any text",
    "when": "the new deadline: 2026-11-25 18:00 (UTC), with an offset (+01:00) or a time zone name",
    "duration": "how much later: 2d, 12h, 1d6h or 30m",
    "turn": "the turn whose start the game returns to",
    "confirm": "the code the first call printed: carries the rollback out",
    "verbose": "log at DEBUG (every request)",
}
"""Help of the arguments that several commands share (or that speak for themselves), where a command gives
none of its own."""


def _kind(text: str) -> str:
    """argparse type of a game kind: its name as the registry spells it; an unknown kind is refused at
    once, naming the kinds there are (the game's module is not loaded)."""
    from pbem.games import GAMES

    key = text.strip().lower()
    if key not in GAMES:
        raise argparse.ArgumentTypeError(f"no game kind {text!r}; kinds are: {', '.join(sorted(GAMES))}")
    return key


class _ShowVersion(argparse.Action):
    """``--version``: print the installed version and exit; read only when asked (reading the installed
    packages' metadata costs more than the rest of ``pbem check``'s start)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(f"pbem {installed_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``pbem`` command."""
    parser = argparse.ArgumentParser(prog="pbem", description="A play-by-email game master.")
    parser.add_argument("--version", action=_ShowVersion, nargs=0, default=argparse.SUPPRESS,
                        help="show program's version number and exit")
    sub = parser.add_subparsers(dest="command", required=True)

    def add(name: str, help_text: str, *, db_help: str | None = None) -> argparse.ArgumentParser:
        """A subcommand with ``--db``: by default ./pbem.db or PBEM_DB; with ``db_help``, no default (None)."""
        command = sub.add_parser(name, help=help_text, description=help_text)
        if db_help is not None:
            command.add_argument("--db", default=None, help=db_help)
        else:
            command.add_argument("--db", default=os.environ.get("PBEM_DB", "pbem.db"),
                                 help="SQLite file or database URL (default ./pbem.db; env PBEM_DB)")
        return command

    new = add("new", "create a game")
    new.add_argument("kind", type=_kind, help="game kind, e.g. turkey-chase (README's games table lists them)")
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

    orders = add("orders", "submit orders for the current turn as a seat")
    orders.add_argument("game")
    orders.add_argument("seat")
    orders.add_argument("file", nargs="?", default="-", help="order file, or - for standard input")
    orders.add_argument("--turn", type=int, help="refuse the orders if the game is not at this turn")
    orders.set_defaults(func=cmd_orders)

    check = sub.add_parser("check", help="check orders: their syntax against a game kind, or with --game and "
                                         "--seat against a game's position (nothing stored)",
                           description="Check orders line by line. With a game kind, only their syntax: whether "
                                       "they can be played depends on a game's position. With --game and --seat, "
                                       "against the game's position as that seat would play them now; nothing is "
                                       "stored.")
    check.add_argument("kind", nargs="?", help="game kind, e.g. race-on-the-river (with --game: the order file)")
    check.add_argument("file", nargs="?", default="-", help="order file, or - for standard input (the default)")
    check.add_argument("--game", help="check against this game's position (with --seat)")
    check.add_argument("--seat", help="the seat whose orders these are (with --game)")
    check.add_argument("--db", default=os.environ.get("PBEM_DB", "pbem.db"),
                       help="with --game: SQLite file or database URL (default ./pbem.db; env PBEM_DB)")
    check.set_defaults(func=cmd_check)

    resolve = add("resolve", "resolve the current turn now")
    resolve.add_argument("game")
    resolve.set_defaults(func=cmd_resolve)

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

    for name, what, func in [
        ("replay", "replay a game from its seed and compare every state", cmd_replay),
        ("verify", "recompute every draw of a finished game from its revealed seed", cmd_verify),
        ("reveal", "end a game and reveal its committed secret and seed", cmd_reveal),
        ("log", "print a game's audit log: every GM action and automatic decision, with time and actor", cmd_log),
    ]:
        one_game = add(name, what)
        one_game.add_argument("game")
        one_game.set_defaults(func=func)

    players_list = add("players", "list the registered players with games played and reliability")
    players_list.add_argument("--json", action="store_true")
    players_list.set_defaults(func=cmd_players)

    player = add("player", "one registered player: record, reliability, games and addresses")
    player.add_argument("name", help="the player's name (REGISTER <name> by mail chose it)")
    player.add_argument("--json", action="store_true")
    player.set_defaults(func=cmd_player)
    mydata = add("mydata", "everything stored about a mail address (what MYDATA by mail answers it)")
    mydata.add_argument("address", type=_address)
    mydata.add_argument("--json", action="store_true")
    mydata.set_defaults(func=cmd_mydata)

    forget = add("forget", "erase a mail address from every table (as a confirmed FORGET by mail; docs/privacy.md)")
    forget.add_argument("address", type=_address)
    forget.set_defaults(func=cmd_forget)

    league = sub.add_parser("league", help="leagues: create, join, start, standings, replace, drop, end "
                                           "(the LEAGUE mail commands; docs/leagues.md)",
                            description="Leagues, as the LEAGUE mail commands (docs/leagues.md).")
    actions = league.add_subparsers(dest="action", required=True, help="what to do (as LEAGUE <what> by mail)")

    def league_action(name: str, help_text: str) -> argparse.ArgumentParser:
        action = actions.add_parser(name, help=help_text, description=help_text)
        action.add_argument("--db", default=os.environ.get("PBEM_DB", "pbem.db"),
                            help="SQLite file or database URL (default ./pbem.db; env PBEM_DB)")
        action.add_argument("league", help="the league's name")
        action.set_defaults(func=cmd_league)
        return action

    create_league = league_action("create", "create a league of one game kind")
    create_league.add_argument("kind", type=_kind, help="the game kind every table plays")
    create_league.add_argument("options", nargs="*", metavar="NAME=VALUE",
                               help="format=swiss|roundrobin|knockout, rounds=N, table=K, points=win:3,..., "
                                    "and every table's game options")
    create_league.add_argument("--gm", type=_address, help="the league's GM address (a league password is printed)")
    league_action("join", "add a player").add_argument("address", type=_address, help="the player's address")
    league_action("start", "seat round 1 and start its games")
    league_action("standings", "the standings and tables").add_argument("--json", action="store_true",
                                                                       help="one JSON object")
    replace_player = league_action("replace", "hand a player's place (and running seats) to another address")
    replace_player.add_argument("old", type=_address, help="the address that holds the place now")
    replace_player.add_argument("new", type=_address, help="the address that takes it")
    league_action("drop", "seat a player in no further round").add_argument("address", type=_address,
                                                                            help="the player's address")
    league_action("end", "end the league now")

    salt = add("salt", "add a seat's entropy to a forming game's seed")
    salt.add_argument("game")
    salt.add_argument("seat")
    salt.add_argument("text")
    salt.set_defaults(func=cmd_salt)

    deadline = add("deadline", "set the deadline of the current turn: 2026-11-25 18:00 (UTC), with an offset "
                               "(+01:00) or a time zone (2026-11-25 19:00 Europe/Berlin)")
    deadline.add_argument("game")
    deadline.add_argument("when")
    deadline.set_defaults(func=cmd_deadline)

    extend = add("extend", "move the deadline of the current turn later: 2d, 12h, 1d6h, 30m")
    extend.add_argument("game")
    extend.add_argument("duration")
    extend.set_defaults(func=cmd_extend)

    for name, what in (("observe", "an address follows a game's public reports (OBSERVE by mail)"),
                       ("unobserve", "an address stops following a game (UNOBSERVE by mail)")):
        watch = add(name, what)
        watch.add_argument("game")
        watch.add_argument("address", type=_address)
        watch.set_defaults(func=cmd_observe)

    absent = add("absent", "a seat is away from FIRST to LAST day (UTC; ABSENT by mail)")
    absent.add_argument("game")
    absent.add_argument("seat")
    absent.add_argument("first", help="the first day away, YYYY-MM-DD")
    absent.add_argument("last", nargs="?", help="the last day away (default: the first)")
    absent.set_defaults(func=cmd_campaign)
    back = add("back", "a seat's absences end now (BACK by mail)")
    back.add_argument("game")
    back.add_argument("seat")
    back.set_defaults(func=cmd_campaign)
    standby_list = add("standby", "put an address on a kind's standby list, or OFF every list (STANDBY by mail)")
    standby_list.add_argument("address", type=_address)
    standby_list.add_argument("kind", help="a game kind, or off")
    standby_list.set_defaults(func=cmd_campaign)
    accept = add("accept", "a standby takes the seat offered to it (ACCEPT by mail)")
    accept.add_argument("address", type=_address)
    accept.add_argument("game", nargs="?")
    accept.set_defaults(func=cmd_campaign)
    preview = add("preview", "print the reports of a dry run of the current turn, changing nothing (PREVIEW)")
    preview.add_argument("game")
    preview.set_defaults(func=cmd_campaign)
    rollback = add("rollback", "return a game to the start of a turn: prints a code, then --confirm CODE (ROLLBACK)")
    rollback.add_argument("game")
    rollback.add_argument("turn", type=int)
    rollback.add_argument("--confirm", metavar="CODE")
    rollback.set_defaults(func=cmd_campaign)

    prefs = add("prefs", "show or set what mail to an address looks like (its SET commands by mail)")
    prefs.add_argument("address", type=_address)
    prefs.add_argument("--zone", help="show deadlines in this IANA time zone, with UTC beside (UTC: UTC alone)")
    for name, what in (("digest", "SET DIGEST: reports only when orders are owed, covering the turns since"),
                       ("textonly", "SET TEXTONLY: plain-text mail, no HTML part and no picture"),
                       ("press", "SET PRESS: press from other players (off: none; the GM's still arrives)")):
        prefs.add_argument(f"--{name}", choices=("on", "off"), help=what)
    prefs.set_defaults(func=cmd_prefs)

    check = add("upgrade-check", "replay every game and list those this code would resolve differently")
    check.set_defaults(func=cmd_upgrade_check)

    serve = add("serve", "run the game master by mail (embedded mail servers when none is given)")
    serve.add_argument("--imap", default=os.environ.get("PBEM_IMAP"),
                       help="imap://user:pass@host:port/INBOX or imaps://... (env PBEM_IMAP)")
    serve.add_argument("--smtp", default=os.environ.get("PBEM_SMTP"),
                       help="smtp://host:port, smtps://..., ?starttls (env PBEM_SMTP)")
    serve.add_argument("--lmtp", metavar="HOST:PORT|unix:/path", default=os.environ.get("PBEM_LMTP"),
                       help="take the mail the mail server hands over by LMTP there (with --smtp; without --imap "
                            "no mailbox is read; env PBEM_LMTP)")
    serve.add_argument("--address", default=os.environ.get("PBEM_ADDRESS", "gm@pbem.localhost"),
                       help="the game master's address (env PBEM_ADDRESS)")
    serve.add_argument("--imap-port", type=int, default=1143, help="embedded IMAP port (default 1143; 0 = any)")
    serve.add_argument("--smtp-port", type=int, default=1025, help="embedded SMTP port (default 1025; 0 = any)")
    serve.add_argument("--mailboxes", metavar="DIR", default=None,
                       help="folder where the embedded mail servers keep the mailboxes (default: beside the "
                            "database, pbem.db-mailboxes for pbem.db; ./pbem-mailboxes with a database URL)")
    serve.add_argument("--secret-file", default=os.environ.get("PBEM_SECRET_FILE"),
                       help="keep the key that signs reply addresses in this file, created with mode 0600 when "
                            "absent (env PBEM_SECRET_FILE; default: in the database)")
    serve.add_argument("--retention-days", type=float, default=os.environ.get("PBEM_RETENTION_DAYS", "7"),
                       help="keep the text of handled and sent mail this many days (env PBEM_RETENTION_DAYS; "
                            "default 7)")
    serve.add_argument("--smtp-connections", type=int, default=os.environ.get("PBEM_SMTP_CONNECTIONS", "2"),
                       help="SMTP connections to send over at once, 1 to 16 (env PBEM_SMTP_CONNECTIONS; default 2)")
    serve.add_argument("--mail-budget", type=float, default=os.environ.get("PBEM_MAIL_BUDGET", "2"),
                       metavar="SECONDS", help="longest handling one mail may take; a mail that takes longer is "
                                               "set aside (env PBEM_MAIL_BUDGET; default 2)")
    serve.add_argument("--send-rate", default=os.environ.get("PBEM_SEND_RATE"), metavar="N/PERIOD",
                       help="send at most N mails per second, minute, hour or day, e.g. 500/day for an account at a "
                            "big provider; the rest waits in the queue, in order (env PBEM_SEND_RATE; default: no "
                            "limit)")
    serve.add_argument("--dkim-key", default=os.environ.get("PBEM_DKIM_KEY"), metavar="PATH",
                       help="sign every mail sent with this PEM private key (DKIM; pbem dkim-keygen makes one; "
                            "env PBEM_DKIM_KEY)")
    serve.add_argument("--dkim-selector", default=os.environ.get("PBEM_DKIM_SELECTOR"), metavar="NAME",
                       help="the selector the public key is published under (env PBEM_DKIM_SELECTOR)")
    serve.add_argument("--dkim-domain", default=os.environ.get("PBEM_DKIM_DOMAIN"), metavar="DOMAIN",
                       help="the signing domain (default: the domain of --address; env PBEM_DKIM_DOMAIN)")
    serve.add_argument("--trust-authserv", action="append", metavar="ID",
                       default=[name for name in os.environ.get("PBEM_TRUST_AUTHSERV", "").split(",") if name],
                       help="believe the Authentication-Results of the receiving server with this authserv-id: a "
                            "From it marks dmarc=fail is forged (JOIN, STOP, CREATE refused; no answer); may be "
                            "given more than once (env PBEM_TRUST_AUTHSERV, comma-separated)")
    serve.add_argument("--log-level", default=os.environ.get("PBEM_LOG_LEVEL", "INFO"),
                       help="DEBUG, INFO (default: a line per mail and per turn), WARNING or ERROR")
    serve.add_argument("--log-format", default=os.environ.get("PBEM_LOG_FORMAT", "text"), choices=("text", "json"),
                       help="text lines (default) or one JSON object per line")
    serve.add_argument("--web", metavar="HOST:PORT", default=os.environ.get("PBEM_WEB"),
                       help="also serve the web archive there, e.g. 127.0.0.1:8080 (env PBEM_WEB)")
    serve.add_argument("--web-url", default=os.environ.get("PBEM_WEB_URL"),
                       help="the archive's address as players reach it, for the private links in mail "
                            "(default http://HOST:PORT of --web; env PBEM_WEB_URL)")
    _add_web_limits(serve)
    serve.add_argument("--verbose", action="store_true", help="the same as --log-level DEBUG")
    serve.set_defaults(func=cmd_serve)

    keygen = sub.add_parser("dkim-keygen", help="make a DKIM key pair: the private key to a new file, the DNS "
                                                 "record to stdout",
                            description="Write a new RSA private key for pbem serve --dkim-key (mode 0600; an "
                                        "existing file is never overwritten) and print the TXT record to publish.")
    keygen.add_argument("--selector", required=True, help="the selector, e.g. pbem2026")
    keygen.add_argument("--domain", required=True, help="the signing domain, e.g. example.org")
    keygen.add_argument("--out", required=True, metavar="PATH", help="the new private key file")
    keygen.add_argument("--bits", type=int, default=2048, help="the RSA key size (default 2048)")
    keygen.set_defaults(func=cmd_dkim_keygen)

    deliver = add("deliver", "store the mail on standard input for pbem serve (.forward, procmail, Postfix pipe); "
                             "exit 0 stored, 75 try again later")
    deliver.set_defaults(func=cmd_deliver)

    mail = add("mail", "list the mail that could not be handled (failed, set aside, waiting for another try); "
                       "retry ID: handle one again")
    mail.add_argument("action", nargs="?", choices=("retry",), help="retry: queue the mail ID to be handled again")
    mail.add_argument("id", nargs="?", type=int, help="the id of a mail, as listed")
    mail.add_argument("--json", action="store_true", help="the list as JSON")
    mail.set_defaults(func=cmd_mail)

    web = add("web", "serve the read-only web archive alone, against the same database")
    web.add_argument("listen", nargs="?", default="127.0.0.1:8080", metavar="HOST:PORT",
                     help="where to listen (default 127.0.0.1:8080)")
    web.add_argument("--secret-file", default=os.environ.get("PBEM_SECRET_FILE"),
                     help="the key file of pbem serve --secret-file, to check private links (env PBEM_SECRET_FILE)")
    _add_web_limits(web)
    web.add_argument("--verbose", action="store_true")
    web.set_defaults(func=cmd_web)

    status = add("status", "print the service's figures from the database: mail by status, outbox, clock")
    status.add_argument("--json", action="store_true", help="one JSON object with stable keys")
    status.set_defaults(func=cmd_status)

    backup = add("backup", "copy the database to FILE, also while pbem serve runs: one consistent moment, written "
                           "atomically with mode 0600 (SQLite: VACUUM INTO; PostgreSQL: pg_dump --format=custom)")
    backup.add_argument("file", help="the backup file to write (an older backup there is replaced once the new "
                                     "one is complete)")
    backup.set_defaults(func=cmd_backup)

    restore = add("restore", "fill the empty database of --db from a backup of pbem backup (a database that holds "
                             "tables is refused, exit 2); mail received after the backup is not in it")
    restore.add_argument("file", help="the backup file, of pbem backup on the same engine (SQLite or PostgreSQL)")
    restore.set_defaults(func=cmd_restore)

    demo = add("demo", "robots play a game to the end",
               db_help="a database of the demo's own (refused when it holds other games; default: a new one in "
                       "a temporary directory, whatever PBEM_DB says)")
    demo.add_argument("--offline", action="store_true", help="no mail: robots submit through the orders path")
    demo.add_argument("--kind", type=_kind, default="turkey-chase",
                      help="the game the robots play offline (default turkey-chase; by mail it is turkey-chase)")
    demo.add_argument("--seed", type=int, default=1, help="the seed of the demo game (default 1)")
    demo.set_defaults(func=cmd_demo)
    for command in sub.choices.values():
        for action in command._actions:
            if action.help is None:
                action.help = _ARGUMENT_HELP.get(action.dest)
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
