"""CREATE <kind> <game> [<option>=<value> ...]: a new forming game whose GM is the sender (the reply gives
its GM password), and the GM commands after it, run as the new game's GM."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from pbem.core import InvalidInput, PbemError
from pbem.games import find_game
from pbem.mail.answering.answers import commitment_line
from pbem.mail.commands.gm.session import run_gm_commands
from pbem.mail.commands.spec import LineError, MailCommand, ParsedCommand, SessionKind, keyword_grammar
from pbem.mail.commands.values import name, options
from pbem.service import creation, queries

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation

MAX_GAME_NAME = 20
"""Longest game name CREATE accepts (reply addresses must stay under 64 characters)."""
MAX_CREATIONS_PER_MAIL = 3
MAX_CREATIONS_PER_DAY = 10
"""Games one address may create in one mail, and in 24 hours."""


@dataclass(frozen=True)
class CreateGame(ParsedCommand):
    """CREATE kind game [option=value ...] and the GM commands after it, run as the new game's GM."""

    kind: str
    game: str
    options: Mapping[str, str]
    commands: tuple[ParsedCommand, ...] = ()

    rests_on_from: ClassVar[bool] = True
    opens: ClassVar[SessionKind | None] = "gm"

    def log_word(self) -> str:
        """``CREATE``."""
        return "CREATE"


def build(line: int, children: list[Any]) -> CreateGame:
    """The parsed CREATE line: kind and game in lower case (the game's name not too long), its options."""
    kind, game, *pairs = children
    if len(game) > MAX_GAME_NAME:
        raise LineError(f'the game name "{game}" is too long: at most {MAX_GAME_NAME} characters', game.column)
    return CreateGame(line, name(kind), name(game), options(pairs))


def handle(conv: Conversation, command: CreateGame) -> None:
    """CREATE: a new forming game whose GM is the sender, then the GM commands after it."""
    handled, sender = conv.handled, conv.mail.sender
    if handled.created >= MAX_CREATIONS_PER_MAIL:
        raise PbemError(f"CREATE {command.game}: at most {MAX_CREATIONS_PER_MAIL} games are created per mail")
    since = conv.desk.clock() - timedelta(days=1)
    if queries.games_created_since(conv.unit.session, sender, since) >= MAX_CREATIONS_PER_DAY:
        raise PbemError(f"CREATE {command.game}: at most {MAX_CREATIONS_PER_DAY} games are created per address "
                        "in 24 hours")
    given = dict(command.options)
    conv.unit.actor = f"gm {sender}"
    kind = find_game(command.kind)
    players = _whole_number("players", given.pop("players", str(kind.max_players)), 2**31)
    seed_text = given.pop("seed", None)
    seed = _whole_number("seed", seed_text, 2**63) if seed_text is not None else None
    info, password = creation.create_for_gm(conv.unit, command.kind, command.game, gm_address=sender,
                                            players=players, options=given, seed=seed)
    handled.created += 1
    conv.reply.secret, conv.reply.tag_game = True, command.game
    conv.reply.add(
        f"Created {kind.title} game {info.name} for {players} players; you are its GM.\n"
        f"Your GM password is {password}: start GM mails with GM {info.name} {password}.\n"
        f"Players join with: JOIN {info.name}" + commitment_line(info.row)
    )
    run_gm_commands(conv, info.row, command.commands)


def _whole_number(option: str, text: str, below: int) -> int:
    """``text`` as a whole number from 0 to ``below`` - 1; raises InvalidInput quoting it otherwise."""
    value = text.strip()
    if not value.isascii() or not value.isdigit() or len(value) > 20 or int(value) >= below:
        raise InvalidInput(f"option {option}={text!r}: give a whole number from 0 to {below - 1}")
    return int(value)


COMMAND = MailCommand(
    rule="create",
    parsed_form=CreateGame,
    grammar=keyword_grammar("create", "CREATE KIND GAME option*"),
    build=build,
    help="",
    gm_help="""\
  CREATE <kind> <game> [<option>=<value> ...]  create a game; the reply gives its GM password
""",
    handle=handle,
)
