"""``pbem league ...``: the LEAGUE mail commands, run by the operator."""

from __future__ import annotations

import argparse
import json

from pbem.cli.shared import EXIT_OK, Subcommands, add_db_option, address, game_kind, parse_pairs, service_of


def cmd_league(args: argparse.Namespace) -> int:
    """``pbem league create|join|start|standings|replace|drop|end ...``: the LEAGUE mail commands, as the
    operator (no league password asked; the standings show each member's address beside its name). Only
    mail tells the players: a round seated from here reaches them with its games' reports, as ``pbem new``
    does. ``start`` and ``end`` take the steps that follow (creating or ending the round's games, see
    :mod:`pbem.service.league_steps`) to the end, each step a unit of its own, before they print."""
    from pbem.leagues.view import OPERATOR
    from pbem.service import league_steps, leagues

    service = service_of(args)
    with service.unit() as unit:
        if args.action == "create":
            options = parse_pairs(args.options, "option")
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


def add_commands(commands: Subcommands) -> None:
    """Add ``pbem league`` and its actions."""
    add = commands.add
    league = commands.add_plain("league", help="leagues: create, join, start, standings, replace, drop, end "
                                               "(the LEAGUE mail commands; docs/leagues.md)",
                                description="Leagues, as the LEAGUE mail commands (docs/leagues.md).")
    actions = league.add_subparsers(dest="action", required=True, help="what to do (as LEAGUE <what> by mail)")

    def league_action(name: str, help_text: str) -> argparse.ArgumentParser:
        action = actions.add_parser(name, help=help_text, description=help_text)
        add_db_option(action)
        action.add_argument("league", help="the league's name")
        action.set_defaults(func=cmd_league)
        return action

    create_league = league_action("create", "create a league of one game kind")
    create_league.add_argument("kind", type=game_kind, help="the game kind every table plays")
    create_league.add_argument("options", nargs="*", metavar="NAME=VALUE",
                               help="format=swiss|roundrobin|knockout, rounds=N, table=K, points=win:3,..., "
                                    "and every table's game options")
    create_league.add_argument("--gm", type=address, help="the league's GM address (a league password is printed)")
    league_action("join", "add a player").add_argument("address", type=address, help="the player's address")
    league_action("start", "seat round 1 and start its games")
    league_action("standings", "the standings and tables").add_argument("--json", action="store_true",
                                                                       help="one JSON object")
    replace_player = league_action("replace", "hand a player's place (and running seats) to another address")
    replace_player.add_argument("old", type=address, help="the address that holds the place now")
    replace_player.add_argument("new", type=address, help="the address that takes it")
    league_action("drop", "seat a player in no further round").add_argument("address", type=address,
                                                                            help="the player's address")
    league_action("end", "end the league now")
