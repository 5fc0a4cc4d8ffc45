"""The commands that run pbem: the game master by mail (``serve``), the web archive alone, ``deliver``
from a mail server's pipe, DKIM keys, and the robots' demo."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.cli.shared import EXIT_FAILED, EXIT_OK, Subcommands, UsageError, game_kind, service_of
from pbem.launch import run_deliver

if TYPE_CHECKING:
    from pbem.mail.outbound.dkim_signing import DkimSigner
    from pbem.web.server import WebLimits


def cmd_serve(args: argparse.Namespace) -> int:
    """``pbem serve [--imap URL] [--lmtp HOST:PORT|unix:/path] [--smtp URL] [--address A]``: the game master by
    mail."""
    import asyncio
    from datetime import timedelta
    from pathlib import Path

    from pbem.mail.intake.listening import CannotListen
    from pbem.mail.outbound.config import BadMailUrl, SendRate
    from pbem.mail.running.daemon import DaemonFailed
    from pbem.mail.running.serve import configure_logging, serve

    try:
        configure_logging("DEBUG" if args.verbose else args.log_level, args.log_format)
    except ValueError as error:
        raise UsageError(str(error)) from error
    if not 0 < args.retention_days <= 3650:
        raise UsageError(f"--retention-days {args.retention_days:g}: give a number of days from 0 to 3650")
    if not 0 <= args.compact_after_days <= 3650:
        raise UsageError(f"--compact-after-days {args.compact_after_days:g}: give a number of days from 0 to 3650")
    if not 1 <= args.smtp_connections <= 16:
        raise UsageError(f"--smtp-connections {args.smtp_connections}: give a number from 1 to 16")
    if not 0 < args.mail_budget <= 600:
        raise UsageError(f"--mail-budget {args.mail_budget:g}: give a number of seconds above 0, up to 600")
    dkim = dkim_signer(args)
    try:
        asyncio.run(
            serve(db_path=args.db, imap=args.imap, smtp=args.smtp, address=args.address.lower(),
                  imap_port=args.imap_port, smtp_port=args.smtp_port, out=sys.stdout,
                  secret_file=Path(args.secret_file) if args.secret_file else None,
                  retention=timedelta(days=args.retention_days),
                  compact_after=timedelta(days=args.compact_after_days), web=args.web, web_url=args.web_url,
                  web_limits=web_limits(args),
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


def add_web_limits(command: argparse.ArgumentParser) -> None:
    """The web server's caps: ``--web-connections`` and ``--web-idle``."""
    command.add_argument("--web-connections", type=int, default=os.environ.get("PBEM_WEB_CONNECTIONS"), metavar="N",
                         help="web connections served at once, 1 to 10000; at the cap a new one replaces the one "
                              "idle longest (env PBEM_WEB_CONNECTIONS; default 200)")
    command.add_argument("--web-idle", type=float, default=os.environ.get("PBEM_WEB_IDLE"), metavar="SECONDS",
                         help="close a web connection idle this long (env PBEM_WEB_IDLE; default 30)")


def web_limits(args: argparse.Namespace) -> WebLimits:
    """The web server's caps from ``--web-connections`` and ``--web-idle`` (the defaults where not given).
    Raises UsageError for one out of range."""
    from pbem.web.server import BadWebLimits, WebLimits

    given = {"connections": args.web_connections, "idle_seconds": args.web_idle}
    try:
        return WebLimits(**{name: value for name, value in given.items() if value is not None})
    except BadWebLimits as error:
        raise UsageError(str(error)) from error


def dkim_signer(args: argparse.Namespace) -> DkimSigner | None:
    """The DKIM signer of ``pbem serve --dkim-key`` (None without it); a key, selector or domain it cannot
    sign with is a usage error."""
    if not args.dkim_key:
        if args.dkim_selector or args.dkim_domain:
            raise UsageError("--dkim-selector and --dkim-domain go with --dkim-key")
        return None
    from pbem.mail.outbound.dkim_signing import DkimKeyError, DkimSigner

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
    from pbem.mail.outbound.dkim_signing import DkimKeyError, check_name, dns_record, new_key_pair, write_private_key

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
    return run_deliver(args.db)


def cmd_web(args: argparse.Namespace) -> int:
    """``pbem web [HOST:PORT]``: the read-only web archive alone, against the same database."""
    import asyncio

    from pbem.mail.intake.listening import CannotListen
    from pbem.mail.running.serve import configure_logging, serve_web

    configure_logging("DEBUG" if args.verbose else "INFO")
    try:
        asyncio.run(serve_web(db_path=args.db, listen=args.listen, out=sys.stdout,
                              secret_file=Path(args.secret_file) if args.secret_file else None,
                              limits=web_limits(args)))
    except (ValueError, CannotListen) as error:
        raise UsageError(str(error)) from error
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    """``pbem demo [--offline] [--db PATH]``: robots play a game to the end, by mail or through the orders
    path, in a database of the demo's own: a new one in a temporary directory (printed), or the one of
    ``--db`` when it holds no game the demo did not create (else a UsageError: exit 2)."""
    from pbem.sandbox.demo import others_games, run_mail_demo, run_offline_demo

    if args.db is None:
        folder = tempfile.mkdtemp(prefix="pbem-demo-")
        print(f"pbem demo: working in {folder}", flush=True)
        args.db = str(Path(folder) / "demo.db")
    service = service_of(args)
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


def add_commands(commands: Subcommands) -> None:
    """Add the serving commands: serve, dkim-keygen, deliver, web, demo."""
    add = commands.add
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
    serve.add_argument("--compact-after-days", type=float, default=os.environ.get("PBEM_COMPACT_AFTER_DAYS", "30"),
                       help="this many days after a game's last turn once it is finished, keep its turns' states "
                            "and events compressed, a tenth of their size; nothing is lost (env "
                            "PBEM_COMPACT_AFTER_DAYS; default 30)")
    serve.add_argument("--smtp-connections", type=int, default=os.environ.get("PBEM_SMTP_CONNECTIONS", "4"),
                       help="SMTP connections to send over at once, 1 to 16 (env PBEM_SMTP_CONNECTIONS; default 4)")
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
    add_web_limits(serve)
    serve.add_argument("--verbose", action="store_true", help="the same as --log-level DEBUG")
    serve.set_defaults(func=cmd_serve)

    keygen = commands.add_plain("dkim-keygen", help="make a DKIM key pair: the private key to a new file, the DNS "
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

    web = add("web", "serve the read-only web archive alone, against the same database")
    web.add_argument("listen", nargs="?", default="127.0.0.1:8080", metavar="HOST:PORT",
                     help="where to listen (default 127.0.0.1:8080)")
    web.add_argument("--secret-file", default=os.environ.get("PBEM_SECRET_FILE"),
                     help="the key file of pbem serve --secret-file, to check private links (env PBEM_SECRET_FILE)")
    add_web_limits(web)
    web.add_argument("--verbose", action="store_true")
    web.set_defaults(func=cmd_web)

    demo = add("demo", "robots play a game to the end",
               db_help="a database of the demo's own (refused when it holds other games; default: a new one in "
                       "a temporary directory, whatever PBEM_DB says)")
    demo.add_argument("--offline", action="store_true", help="no mail: robots submit through the orders path")
    demo.add_argument("--kind", type=game_kind, default="turkey-chase",
                      help="the game the robots play offline (default turkey-chase; by mail it is turkey-chase)")
    demo.add_argument("--seed", type=int, default=1, help="the seed of the demo game (default 1)")
    demo.set_defaults(func=cmd_demo)
