"""The words of the answers the game master mails back: STATUS, VERIFY, HELP, the seed commitment."""

from __future__ import annotations

from pbem.commands import help_text, report_help
from pbem.core import UnknownGame
from pbem.core.words import did_you_mean
from pbem.games import GAMES, NOT_HOSTED, find_game
from pbem.service.checking import closing_lines
from pbem.service.replay import ReplayResult
from pbem.service.seeds import commitment_of, kept_secret_reason
from pbem.service.status import StatusView
from pbem.store.tables import GameRow, GameStatus
from pbem.zones import mark


def status_text(view: StatusView, *, gm: bool = False) -> str:
    """STATUS of a game: its kind, status and turn, the seed commitment (and the secret once
    revealed), the open seats or the scores, and the result or whom the turn waits for."""
    standing = view.standing if view.status == GameStatus.FINISHED else f"{view.status}, {view.standing}"
    lines = [f"Game {view.name} ({view.title}), {standing}."]
    if view.commitment is not None:
        lines.append(f"Seed commitment (SHA-256 of the game name, a newline and the secret): {view.commitment}.")
        if view.revealed_secret is not None:
            lines.append(f"Seed revealed: {view.revealed_secret} (VERIFY {view.name} checks every draw).")
    if view.status == GameStatus.FORMING:
        lines.append(f"Open seats: {', '.join(view.open_seats or []) or 'none'}.")
        if view.unaccepted:
            lines.append(f"Seats whose holders have not accepted their invitation yet (START waits for them): "
                         f"{', '.join(view.unaccepted)}.")
    else:
        lines.append("Scores: " + ", ".join(f"{s} {v}" for s, v in (view.scores or {}).items()) + ".")
    if view.outcome_headline is not None:
        lines.append(f"Finished. {view.outcome_headline}.")
    elif view.waiting_for is not None:
        lines.append(f"Waiting for orders from: {', '.join(view.waiting_for) or 'nobody (all in)'}.")
        lines += closing_lines(view.deadline, view.window, view.teammates, mark)
    if view.gm_press is not None:
        lines.append("Press between players: the GM gets a copy." if view.gm_press == "copy"
                     else "Press between players: private, the GM gets no copy.")
    if gm:
        lines.append("Absences: " + ("; ".join(view.absences or []) or "none") + ".")
        lines.append("Players' reliability (deadlines met): " + ("; ".join(view.reliability or []) or "no players")
                     + ".")
    return "\n".join(lines)


def verify_text(result: ReplayResult) -> str:
    """VERIFY of a game: the rules versions, every mismatch, and the verdict."""
    lines = [*result.versions, *result.mismatches]
    verdict = ("every state and draw matches" if result.is_identical
               else f"{len(result.mismatches)} mismatch(es)")
    lines.append(f"Verified {result.turns} turns, {result.draws_checked} draws of {result.game}: {verdict}.")
    return "\n".join(lines)


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
    return (text if titled else f"{rules.title} ({rules.name}) orders:\n\n{text}") + page


def games_text() -> str:
    """The game kinds hosted (kind, title, players), and the rule book's games that are not, with why."""
    lines = ["Game kinds hosted (HELP <kind> gives the orders of one; CREATE <kind> <game> starts one):"]
    for kind in GAMES:
        rules = find_game(kind)
        players = (f"{rules.min_players}" if rules.min_players == rules.max_players
                   else f"{rules.min_players}-{rules.max_players}")
        lines.append(f"  {kind:<22} {rules.title}, {players} players")
    lines.append("")
    lines.append("Gateway Island games not hosted, since speed, dexterity or pictures are the game:")
    lines += [f"  {game}: {why}" for game, why in NOT_HOSTED.items()]
    return "\n".join(lines) + "\n"


def commitment_line(row: GameRow) -> str:
    """The line that commits the game to its dice before any is rolled (empty for a game without one)."""
    promised = commitment_of(row)
    if promised is None:
        return ""
    kept = kept_secret_reason(row)
    when = "The secret is revealed with the final report." if kept is None else f"The secret is never revealed: {kept}."
    return f"\nSeed commitment (SHA-256 of the game name, a newline and the secret): {promised}. {when}"
