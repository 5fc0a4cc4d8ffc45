"""The command reference HELP sends, and the other topics of HELP: the game kinds hosted, press, REPORT,
and each game kind's order syntax.

The reference is gathered from the registered commands (:mod:`pbem.mail.commands.registry`): each
command's lines stand where the text marks its place (``{rule}`` for the players' part, ``{GM:rule}`` for
the game masters'), else with the other registered commands at the end of that part
(``{registered}``, ``{GM:registered}``), in the registry's order.
"""

from __future__ import annotations

from functools import cache

from pbem.core import UnknownGame
from pbem.core.words import did_you_mean
from pbem.games import GAMES, NOT_HOSTED, find_game
from pbem.service.agreed_endings import agreed_end_help, agreed_end_word


@cache
def help_text() -> str:
    """Return the command reference sent in reply to HELP without a game kind: the text below with every
    registered command's lines in their places (see the module's description)."""
    from pbem.mail.commands.registry import COMMANDS  # the registry's commands import this module

    text = _HELP
    unplaced: dict[str, list[str]] = {"": [], "GM:": []}
    for command in COMMANDS:
        for part, lines in (("", command.help), ("GM:", command.gm_help)):
            place = "{" + part + command.rule + "}"
            if place in text:
                text = text.replace(place, lines)
            else:
                unplaced[part].append(lines)
    for part, lines_of_part in unplaced.items():
        text = text.replace("{" + part + "registered}", "".join(lines_of_part))
    return text


def report_help() -> str:
    """Return the answer to HELP REPORT: what REPORT sends, to whom, and its bounds."""
    return _REPORT_HELP


_REPORT_HELP = """\
REPORT: a report of your game mailed to you again, made as it was sent: the
same text, pictures and attachments, your own view (your secrets, nobody
else's). A seat's holder gets the seat's report; the GM and observers get the
public report.

  REPORT                 in a reply to a game mail, or after SIGNON <game>
                         <seat> <password>: your newest report
  REPORT <n>             the report that told turn n (0: the opening report);
                         a turn not played yet is refused, naming the turns
                         there are
  REPORT <game> [<n>]    from the address that holds the seat (or the GM's or
                         an observer's address); in a mail whose subject names
                         the game as [game], REPORT alone will do

The report goes to the reader's own address in a mail of its own; the reply
says so. One REPORT is answered per mail: a second one in the same mail is
refused on its line. An older report shows no deadline (its deadline is gone);
replying to it with orders is refused as stale: reply to the newest one.
"""


_HELP = """\
pbem commands: one per line, in any letter case.

Players
{join}\
{signon}\
{check}\
{orders}\
{ready}\
{noorders}\
{press}\
{resign}\
{draw}\
{concede}\
{nodraw}\
{absent}\
{back}\
{standby}\
{accept}\
{decline}\
{status}\
{salt}\
{verify}\
{report}\
{help}\
{view_json}\
{set_zone}\
{set_preference}\
{observe}\
{registered}  SIGNOFF                          end of your orders (or of a GM session)

pbem writes only to addresses that wrote to it. An address a GM seats that
never wrote gets one invitation: a reply to it (or JOIN <game>) accepts, and
DECLINE (or DECLINE <game>) leaves the seat open for another player.

Replying to a mail of your game that asks for orders (a turn report, a
reminder, the reply that checked your orders) signs you on: the text of your
reply is your orders. Start it with CHECK to have them checked and not stored.
A plain reply to a notice goes to the GM as press, to a press mail back to its
author, never as orders.
Among orders, a line starting with SIGNON, SIGNOFF, CHECK, ORDERS, READY,
NOORDERS, RESIGN, DRAW, NODRAW, CONCEDE, PRESS, ENDPRESS, HELP, STATUS, REPORT,
ABSENT, BACK or GM is a command; every other line is an order. A mail none of whose order lines is accepted changes
nothing: your earlier orders stand.

Leagues (docs/leagues.md)
{league}
Game masters
{GM:create}\
{GM:gm}\
{GM:seat}\
{GM:set}\
{GM:start_game}\
{GM:deadline}\
{GM:extend}\
{GM:pause}\
{GM:resume}\
{GM:process}\
{GM:replace}\
{GM:press}\
{GM:end}\
{GM:reveal}\
{GM:secrets}\
{GM:log}\
{GM:preview}\
{GM:rollback}\
{GM:registered}
Lines starting with # between commands are comments.
"""


GAME_PAGE = "docs/games/{kind}.md"
"""Where a game's HELP text is a page of the documentation (written by tools/game_docs.py), named at the
end of HELP <kind>."""

GAMES_WORD = "games"
"""``HELP GAMES``: the list of game kinds, not a kind."""
PRESS_WORD = "press"
"""``HELP PRESS``: how press works and who reads it, not a kind."""
PRESS_HELP = """\
Press: messages between players, relayed by the game master.

After SIGNON (or in a reply to a game mail, starting with PRESS), write
  PRESS <seat> [<seat> ...]    or    PRESS ALL
and your message on the lines after it, up to ENDPRESS or SIGNOFF. Each mail
is signed with your seat, never your address; a plain reply to a press mail
goes back to its author as press (never as orders).

Who reads it: the players you name, and the game's GM when the game has
gm_press=copy (the default; the GM chooses with SET gm_press=copy or none).
Every press mail, and the answer to yours, says which holds in its game, and so
does STATUS <game>. The GM's own press (signed GM) always goes through.

SET PRESS OFF: no press from other players reaches you (the GM's still does).
Some phases close press between players (Meanies in our Midst's silent
mission): press sent then is refused, naming the phase.
"""
REPORT_WORD = "report"
"""``HELP REPORT``: how REPORT sends a report again, not a kind."""


def help_for(kind: str | None) -> str:
    """HELP: the command reference with the list of game kinds, with ``games`` that list alone, with
    ``report`` how REPORT works, or with ``kind`` that game kind's order syntax."""
    if not kind:
        return help_text() + "\n" + games_text()
    if kind.strip().lower() == GAMES_WORD:
        return games_text()
    if kind.strip().lower() == PRESS_WORD:
        return PRESS_HELP
    if kind.strip().lower() == REPORT_WORD:
        return report_help()
    try:
        rules = find_game(kind)
    except UnknownGame:
        guess = did_you_mean(kind, [GAMES_WORD.upper(), PRESS_WORD.upper(), REPORT_WORD.upper(), *GAMES])
        if guess:
            raise UnknownGame(f"HELP {kind}: no such help topic; {guess} (HELP alone lists the topics)") from None
        raise UnknownGame(f"HELP {kind}: no such help topic. The topics: HELP (the commands), HELP GAMES, HELP PRESS, "
                          f"HELP REPORT, and HELP <kind> for each game kind ({', '.join(GAMES)})") from None
    text = rules.help().strip("\n")
    titled = text.lower().startswith(rules.title.lower())
    page = f"\n\nThis help is also a page of pbem's documentation: {GAME_PAGE.format(kind=rules.name)}\n"
    ending = f"\n\n{agreed_end_help(rules)}"
    return (text if titled else f"{rules.title} ({rules.name}) orders:\n\n{text}") + ending + page


def games_text() -> str:
    """The game kinds hosted (kind, title, players), and the rule book's games that are not, with why."""
    lines = ["Game kinds hosted (HELP <kind> gives the orders of one; CREATE <kind> <game> starts one), and",
             "how the players may end one by agreement (DRAW, CONCEDE for a cooperative team, or none):"]
    for kind in GAMES:
        rules = find_game(kind)
        players = (f"{rules.min_players}" if rules.min_players == rules.max_players
                   else f"{rules.min_players}-{rules.max_players}")
        lines.append(f"  {kind:<22} {rules.title}, {players} players; agreed end: {agreed_end_word(rules)}")
    lines.append("")
    lines.append("Gateway Island games not hosted, since speed, dexterity or pictures are the game:")
    lines += [f"  {game}: {why}" for game, why in NOT_HOSTED.items()]
    return "\n".join(lines) + "\n"
