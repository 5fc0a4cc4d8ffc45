"""The ``pbem`` commands of the game record: ``pbem record GAME [--json]`` writes a game's whole record,
``pbem replay --record FILE`` replays a record file with the rules, ``pbem import FILE`` brings a game to
this server from its record file (the chain goes on from its head)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.cli.shared import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, Subcommands, service_of

if TYPE_CHECKING:
    from pbem.service.api import GameService

MAX_RECORD_FILE = 64 * 1024 * 1024
"""The largest record file read (bytes): a bound on the work of one command."""


def add_commands(commands: Subcommands) -> None:
    """Add the record's commands: record and import (``pbem replay --record`` is the players' replay)."""
    record = commands.add("record", "write a game's whole record: options, commitment, salts, every turn's orders "
                                    "and GM actions, the chain (the operator's file: it holds the seed and every order)")
    record.add_argument("game", help="the game whose record to write")
    record.add_argument("--json", action="store_true", help="as JSON, which pbem import and pbem replay read")
    record.set_defaults(func=lambda args: write_record(service_of(args), args.game, as_json=args.json))
    imported = commands.add("import", "bring a game to this server from its record file (pbem record GAME --json); "
                                      "it comes paused, its chain goes on from its head")
    imported.add_argument("file", help="the record file (pbem record GAME --json on the other server)")
    imported.set_defaults(func=lambda args: import_record(service_of(args), args.file))


def write_record(service: GameService, name: str, *, as_json: bool) -> int:
    """Print the game's record (JSON, or a text for people); exit 0."""
    data = service.game_record(name)
    if as_json:
        print(json.dumps(data, indent=1, sort_keys=True))
        return EXIT_OK
    print(f"Game {data['game']} ({data['kind']}), {data['status']}; options: "
          + (", ".join(f"{k}={v}" for k, v in sorted(data["options"].items())) or "none"))
    print(f"Seats: {', '.join(seat['name'] for seat in data['seats'])}")
    print(f"Seed commitment (SHA-256): {data['commitment']}")
    for salt in data["salts"]:
        print(f"Salt: {salt}")
    for turn in data["turns"]:
        print(f"Turn {turn['turn']} ({turn['phase']}, {turn['reason']}, {turn['resolved_at']}):")
        for seat, orders in turn["orders"].items():
            nmr = " (NMR: default orders)" if seat in turn["nmr"] else ""
            print(f"  {seat}{nmr}: {'; '.join(orders) or '(none)'}")
    print("Chain:")
    for entry in data["chain"]:
        fields = json.loads(entry["line"])
        actions = "; ".join(f"{a['action']} by {a['by']}: {a['text']}" for a in fields.get("actions", []))
        print(f"  {entry['seq']:>3} turn {entry['turn']:>3} {entry['kind']:<8} {entry['digest']}"
              + (f"  [{actions}]" if actions else ""))
    print(f"Head: {data['head']}")
    return EXIT_OK


def read_record_file(path: str) -> dict[str, Any]:
    """A record file's JSON. Raises ValueError for a missing, oversized or unreadable file."""
    file = Path(path)
    if not file.is_file() or file.stat().st_size > MAX_RECORD_FILE:
        raise ValueError(f"{path}: no record file there (or over {MAX_RECORD_FILE} bytes)")
    data = json.loads(file.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a record file")
    return data


def replay_record(path: str) -> int:
    """``pbem replay --record FILE``: replay the file with the rules; exit 0 when every state, draw, entry
    and the head match, 1 otherwise (each mismatch printed), 2 for a file that is no record."""
    from pbem.core.errors import InvalidInput
    from pbem.service.record_file import replay_file

    try:
        result = replay_file(read_record_file(path))
    except (ValueError, InvalidInput, KeyError, TypeError) as error:
        print(f"pbem: {error}")
        return EXIT_USAGE
    for mismatch in result.mismatches:
        print(mismatch)
    verdict = "every state, draw and record entry matches" if result.is_identical else \
        f"{len(result.mismatches)} mismatch(es)"
    print(f"Replayed the record of {result.game}: {result.turns} turns, {result.draws_checked} draws: {verdict}.")
    return EXIT_OK if result.is_identical else EXIT_REFUSED


def import_record(service: GameService, path: str) -> int:
    """``pbem import FILE``: exit 0 when the game was brought here, 1 when it does not replay or its name is
    taken, 2 for a file that is no record."""
    from pbem.core.errors import GameError, InvalidInput

    try:
        data = read_record_file(path)
    except ValueError as error:
        print(f"pbem: {error}")
        return EXIT_USAGE
    try:
        row = service.import_record(data)
    except (InvalidInput, GameError) as error:
        print(f"pbem: {error}")
        return EXIT_REFUSED
    state = "finished" if row.status == "finished" else "paused: RESUME it (or pbem resume) when the seats are set"
    print(f"Imported game {row.name} at turn {row.turn}, {state}. Its record goes on from {data['head']}.")
    return EXIT_OK
