"""The words of the answers the game master mails back: STATUS, VERIFY, the seed commitment."""

from __future__ import annotations

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


def commitment_line(row: GameRow) -> str:
    """The line that commits the game to its dice before any is rolled (empty for a game without one)."""
    promised = commitment_of(row)
    if promised is None:
        return ""
    kept = kept_secret_reason(row)
    when = "The secret is revealed with the final report." if kept is None else f"The secret is never revealed: {kept}."
    return f"\nSeed commitment (SHA-256 of the game name, a newline and the secret): {promised}. {when}"
