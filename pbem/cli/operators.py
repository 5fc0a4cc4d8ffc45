"""The operator's commands on the database: players and their data, mail that could not be
handled, the service's figures, backups, and the upgrade check."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pbem.cli.shared import EXIT_OK, EXIT_REFUSED, Subcommands, UsageError, address, service_of


def cmd_players(args: argparse.Namespace) -> int:
    """``pbem players [--json]``: every registered player, with games played and reliability."""
    found = service_of(args).players()
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
        profile = service_of(args).player(args.name)
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

    with service_of(args).unit(lock=False) as unit:
        data = privacy.data_of(unit, args.address)
    print(json.dumps(data.as_json(), indent=2) if args.json else data.as_text())
    return EXIT_OK


def cmd_forget(args: argparse.Namespace) -> int:
    """``pbem forget ADDRESS``: erase an address as a confirmed FORGET by mail does; say what it left."""
    from pbem.service import privacy

    with service_of(args).unit() as unit:
        done = privacy.forget(unit, args.address)
    print(f"{args.address} is forgotten: it is {done.pseudonym} now ({done.rows} rows changed).")
    for game, seat in done.resigned:
        print(f"  seat {seat} of {game} resigned: tell its GM (it gets NMR defaults until the GM REPLACEs it)")
    for game, seat in done.freed:
        print(f"  seat {seat} of {game} (forming) is open again: tell its GM")
    for name in done.gm_left:
        print(f"  {name} has no GM now")
    return EXIT_OK


def cmd_prefs(args: argparse.Namespace) -> int:
    """``pbem prefs ADDRESS [--zone Z]``: what mail to an address looks like, as its SET commands set it."""
    from pbem.mail.outbound import preferences
    from pbem.zones import read_zone

    service = service_of(args)
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


def cmd_upgrade_check(args: argparse.Namespace) -> int:
    """``pbem upgrade-check``: replay every game; exit 1 when this code would resolve any differently."""
    service = service_of(args)
    different = service.upgrade_check()
    for result in different:
        print(f"{result.game}: {len(result.mismatches)} difference(s)")
        for mismatch in result.mismatches:
            print(f"  {mismatch}")
    print(f"Checked {len(service.games())} games: {len(different)} would resolve differently.")
    return EXIT_OK if not different else EXIT_REFUSED


def cmd_mail(args: argparse.Namespace) -> int:
    """``pbem mail [--json]``: the mail that ended unhandled (failed, set aside) or waits for another try;
    ``pbem mail retry ID``: queue one to be handled again (exit 2 for an unknown id)."""
    from pbem.mail.running.retries import UnknownMail, retry_by_hand, troubled_mail

    db = service_of(args).db
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


def cmd_status(args: argparse.Namespace) -> int:
    """``pbem status [--json]``: the service's figures from the database, for one look (no daemon needed,
    nothing is started)."""
    from pbem.ops.figures import read_figures

    if "://" not in args.db and not Path(args.db).expanduser().is_file():
        raise UsageError(f"--db {args.db}: no database there")
    figures = read_figures(service_of(args).db)
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
    print(f"Backed up {shown_db(args.db)} to {args.file} ({size} bytes, mode 0600).")
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
    print(f"Restored {args.file} into {shown_db(args.db)}: {restored.games} game(s), {restored.mails} stored "
          f"mail(s), {restored.handled} of them handled.")
    if restored.newest_mail is not None:
        print(f"The newest mail in it was received at {restored.newest_mail:%Y-%m-%d %H:%M:%S} UTC: mail received "
              "later is not in it. Put that mail back before pbem serve starts (docs/operators.md, Backups).")
    return EXIT_OK


def shown_db(db: str) -> str:
    """The ``--db`` of a command as it may be printed: a URL's password hidden."""
    from pbem.store.pg_programs import shown_url

    return shown_url(db) if "://" in db else db


def add_commands(commands: Subcommands) -> None:
    """Add the operators' commands: players, player, mydata, forget, prefs, upgrade-check, mail, status, backup, restore."""
    add = commands.add
    players_list = add("players", "list the registered players with games played and reliability")
    players_list.add_argument("--json", action="store_true")
    players_list.set_defaults(func=cmd_players)

    player = add("player", "one registered player: record, reliability, games and addresses")
    player.add_argument("name", help="the player's name (REGISTER <name> by mail chose it)")
    player.add_argument("--json", action="store_true")
    player.set_defaults(func=cmd_player)

    mydata = add("mydata", "everything stored about a mail address (what MYDATA by mail answers it)")
    mydata.add_argument("address", type=address)
    mydata.add_argument("--json", action="store_true")
    mydata.set_defaults(func=cmd_mydata)

    forget = add("forget", "erase a mail address from every table (as a confirmed FORGET by mail; docs/privacy.md)")
    forget.add_argument("address", type=address)
    forget.set_defaults(func=cmd_forget)

    prefs = add("prefs", "show or set what mail to an address looks like (its SET commands by mail)")
    prefs.add_argument("address", type=address)
    prefs.add_argument("--zone", help="show deadlines in this IANA time zone, with UTC beside (UTC: UTC alone)")
    for name, what in (("digest", "SET DIGEST: reports only when orders are owed, covering the turns since"),
                       ("textonly", "SET TEXTONLY: plain-text mail, no HTML part and no picture"),
                       ("press", "SET PRESS: press from other players (off: none; the GM's still arrives)")):
        prefs.add_argument(f"--{name}", choices=("on", "off"), help=what)
    prefs.set_defaults(func=cmd_prefs)

    check = add("upgrade-check", "replay every game and list those this code would resolve differently")
    check.set_defaults(func=cmd_upgrade_check)

    mail = add("mail", "list the mail that could not be handled (failed, set aside, waiting for another try); "
                       "retry ID: handle one again")
    mail.add_argument("action", nargs="?", choices=("retry",), help="retry: queue the mail ID to be handled again")
    mail.add_argument("id", nargs="?", type=int, help="the id of a mail, as listed")
    mail.add_argument("--json", action="store_true", help="the list as JSON")
    mail.set_defaults(func=cmd_mail)

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
