"""Endings the table agrees on, through the service on a real database: a draw agreed by every seat
still playing within one turn, a proposal that lapses at the turn's end (named by nobody), NODRAW,
a cooperative team's concession, games whose rule book allows no agreed end, and how leagues, ratings
and player records count an agreed end."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlmodel import select

from pbem.core import GameError, GameRng, Outcome, OutcomeKind
from pbem.core.game import AgreedEnd
from pbem.games import GAMES, find_game
from pbem.leagues.ratings import rate
from pbem.leagues.results import ResultKind, places_of
from pbem.leagues.standings import TableResult
from pbem.service import agreed_endings, league_steps, leagues, players
from pbem.service.agreed_endings import CONCEDE, DRAW, LAPSED, AgreedEndRefused
from pbem.core.chain import without_record
from pbem.service.api import GameService
from pbem.service.endings import EndingKind, ending_of
from pbem.store.tables import EndVoteRow, GameRow, GameStatus

TEMPLE = "top-of-the-temple"
SEATS = {"1": "a@example.org", "2": "b@example.org", "3": "c@example.org"}


def _temple(runner: GameService, name: str = "t1") -> str:
    runner.create_game(TEMPLE, name, seats=SEATS, seed=5)
    return name


def _vote(runner: GameService, name: str, seat: str, kind: str = DRAW) -> agreed_endings.Vote:
    with runner.unit() as unit:
        return agreed_endings.vote(unit, name, seat, kind)


def test_a_draw_ends_the_game_once_every_seat_still_playing_agreed_in_the_turn(runner: GameService) -> None:
    name = _temple(runner)
    first = _vote(runner, name, "2")
    assert (first.opened, first.ended, first.turn) == (True, False, 1)
    second = _vote(runner, name, "3")
    assert (second.opened, second.ended) == (False, False)
    assert runner.info(name).outcome is None
    last = _vote(runner, name, "1")
    assert last.ended
    info = runner.info(name)
    assert info.row.status == GameStatus.FINISHED and info.row.deadline is None
    outcome = info.outcome
    assert outcome is not None and outcome.kind is OutcomeKind.DRAW and outcome.agreed_by == ("1", "2", "3")
    assert outcome.headline == "Draw agreed by 1, 2, 3" and "agreed to end the game as a draw" in outcome.reason
    assert ending_of(info.row).to_json() == {"kind": "draw-agreed", "seats": ["1", "2", "3"], "turn": 1}
    assert runner.state_json(name)["ending"] == {"kind": "draw-agreed", "seats": ["1", "2", "3"], "turn": 1}
    assert "Draw agreed by 1, 2, 3" in runner.report_text(name, "1")
    with runner.unit() as unit:
        assert not unit.session.exec(select(EndVoteRow)).all()  # the votes are gone with the proposal
    with pytest.raises(GameError, match="over"):
        _vote(runner, name, "1")


def _report_words(runner: GameService, name: str, seat: str | None) -> list[str]:
    """The report's lines but the dice's commitment and draws and the game record from its head to the end
    of its block (hashes and nonces, which differ from game to game; no vote is in the record)."""
    text = without_record(runner.report_text(name, seat)).replace(name, "GAME")
    return [line for line in text.splitlines() if not line.startswith(("Seed commitment", "Draws", "Salt"))]


def test_a_proposal_not_agreed_by_the_turns_end_lapses_and_the_report_names_nobody(runner: GameService) -> None:
    name = _temple(runner)
    _vote(runner, name, "2")
    _vote(runner, name, "3")
    runner.resolve(name)  # turn 1 ends without seat 1's vote
    record = runner.history(name)[0]
    assert not [e for e in record.events if e["kind"] == LAPSED]  # the rules' events stay what a replay makes
    lapsed = [e for e in record.table_events if e["kind"] == LAPSED]
    assert len(lapsed) == 1 and lapsed[0]["seat"] is None and lapsed[0]["seats"] is None
    assert "A draw was proposed in turn 1" in lapsed[0]["text"] and "lapsed" in lapsed[0]["text"]
    other = _temple(runner, "t2")  # the same game, in which only seat 1 voted
    _vote(runner, other, "1")
    runner.resolve(other)
    for seat in ("1", "2", "3", None):  # every reader's report is the same whoever voted
        words = _report_words(runner, name, seat)
        assert any("A draw was proposed in turn 1" in line for line in words)
        assert words == _report_words(runner, other, seat)
    assert runner.info(name).outcome is None
    assert runner.replay(name).is_identical  # the lapse is the table's, not the rules': a replay still matches
    again = _vote(runner, name, "1")  # a new turn: the old votes are gone, so this opens a new proposal
    assert again.opened and not again.ended and again.turn == 2


def test_nodraw_withdraws_a_vote_so_the_draw_needs_it_again(runner: GameService) -> None:
    name = _temple(runner)
    _vote(runner, name, "1")
    _vote(runner, name, "2")
    with runner.unit() as unit:
        assert agreed_endings.withdraw(unit, name, "2") == DRAW
        assert agreed_endings.withdraw(unit, name, "2") is None
    assert not _vote(runner, name, "3").ended
    assert runner.info(name).outcome is None
    assert _vote(runner, name, "2").ended


def test_a_proposal_all_its_voters_withdrew_still_lapses_in_the_report(runner: GameService) -> None:
    name = _temple(runner)
    _vote(runner, name, "1")
    with runner.unit() as unit:
        agreed_endings.withdraw(unit, name, "1")
    assert _vote(runner, name, "2").opened  # nothing stood: seat 2's vote opens a proposal again
    with runner.unit() as unit:
        agreed_endings.withdraw(unit, name, "2")
    runner.resolve(name)
    assert [e["kind"] for e in runner.history(name)[0].table_events] == [LAPSED]


def test_a_resigned_seat_is_left_out_of_the_draw_and_loses_in_a_league(runner: GameService) -> None:
    name = _temple(runner)
    runner.resign(name, "3")
    with pytest.raises(AgreedEndRefused, match="out of game"):
        _vote(runner, name, "3")
    _vote(runner, name, "1")
    assert _vote(runner, name, "2").ended
    outcome = runner.info(name).outcome
    assert outcome is not None and outcome.agreed_by == ("1", "2")
    places = places_of(outcome, ["1", "2", "3"], {})
    assert [places[s].kind for s in ("1", "2", "3")] == [ResultKind.DRAW, ResultKind.DRAW, ResultKind.LOSS]
    assert [players.share_of(outcome, s) for s in ("1", "2", "3")] == ["draw", "draw", "loss"]  # the record


def test_a_cooperative_team_concedes_together_and_cannot_draw(runner: GameService) -> None:
    runner.create_game("epic-quest", "q1", seats={"1": "a@example.org", "2": "b@example.org"}, seed=2)
    with pytest.raises(AgreedEndRefused, match="cooperative: the team cannot draw"):
        _vote(runner, "q1", "1", DRAW)
    assert _vote(runner, "q1", "1", CONCEDE).opened
    assert _vote(runner, "q1", "2", CONCEDE).ended
    info = runner.info("q1")
    outcome = info.outcome
    assert outcome is not None and outcome.kind is OutcomeKind.LOSS and outcome.agreed_by == ("1", "2")
    assert outcome.headline == "Nobody wins: the team conceded"
    assert ending_of(info.row).kind is EndingKind.CONCEDED
    places = places_of(outcome, ["1", "2"], {})
    assert {p.kind for p in places.values()} == {ResultKind.DEFEAT}


def test_concede_is_refused_in_a_competitive_game(runner: GameService) -> None:
    name = _temple(runner)
    with pytest.raises(AgreedEndRefused, match="only the team of a cooperative game concedes"):
        _vote(runner, name, "1", CONCEDE)


def test_a_game_whose_rule_book_allows_no_agreed_end_refuses_draw_and_says_why(runner: GameService) -> None:
    runner.create_game("toe-sap-fungus", "f1", seats={"1": "a@example.org", "2": "b@example.org"}, seed=1)
    with pytest.raises(AgreedEndRefused, match="allows no agreed end: .*only be one toe-sap hero"):
        _vote(runner, "f1", "1", DRAW)
    with runner.unit() as unit:
        assert not unit.session.exec(select(EndVoteRow)).all()


def test_every_game_declares_how_it_may_end_by_agreement() -> None:
    facts = {kind: find_game(kind).facts() for kind in GAMES}
    for kind, fact in facts.items():
        rules = find_game(kind)
        if fact.agreed_end is AgreedEnd.NONE:
            assert rules.agreed_end_refusal, kind  # a refusal says why
        else:
            assert fact.agreed_end is (AgreedEnd.CONCEDE if fact.is_cooperative else AgreedEnd.DRAW), kind
    assert facts["toe-sap-fungus"].agreed_end is AgreedEnd.NONE
    assert facts["epic-quest"].agreed_end is AgreedEnd.CONCEDE


def test_a_rollback_forgets_the_votes_and_a_new_holder_has_not_voted(runner: GameService) -> None:
    name = _temple(runner)
    _vote(runner, name, "1")
    runner.replace(name, "1", "new@example.org")
    assert _vote(runner, name, "2").opened  # seat 1's vote went with its old holder


def test_an_eliminated_trader_is_out_of_the_game() -> None:
    rules = find_game("honest-trade")
    state = rules.setup(("1", "2", "3"), {}, GameRng(1))
    assert rules.eliminated_seats(state) == ()
    out = replace(state, traders=(replace(state.traders[0], out=True), *state.traders[1:]))
    assert rules.eliminated_seats(out) == ("1",)


def test_a_draw_needs_two_seats_still_playing(runner: GameService) -> None:
    runner.create_game("harvest-day", "h1", seats={"1": "a@example.org", "2": "b@example.org"}, seed=1)
    runner.resign("h1", "2")
    with pytest.raises(AgreedEndRefused, match="only seat still playing"):
        _vote(runner, "h1", "1")


def test_ratings_count_an_agreed_draw_as_a_tie_and_the_seat_that_left_as_beaten() -> None:
    draw = places_of(Outcome.agreed_draw(("1", "2", "3")), ["1", "2", "3"], {})
    tie = rate([1, 2, 3], [TableResult(1, 1, {1: draw["1"], 2: draw["2"], 3: draw["3"]})])
    assert tie[1] == tie[2] == tie[3]
    partial = places_of(Outcome.agreed_draw(("1", "2")), ["1", "2", "3"], {})
    left = rate([1, 2, 3], [TableResult(1, 1, {1: partial["1"], 2: partial["2"], 3: partial["3"]})])
    assert left[1].mu == left[2].mu > left[3].mu


def test_a_league_scores_an_agreed_draw_as_a_draw_for_every_seat(runner: GameService) -> None:
    players = ["p1@example.org", "p2@example.org", "p3@example.org"]
    with runner.unit() as unit:
        leagues.create(unit, "lg", TEMPLE, {"format": "roundrobin", "table": "3"}, gm_address="gm@example.org")
        for address in players:
            leagues.join(unit, "lg", address)
        leagues.start(unit, "lg")
    league_steps.run_steps(runner.unit, "lg")
    with runner.unit(lock=False) as unit:
        table = leagues.tables_of(unit, leagues.league_row(unit, "lg"), 1)[0]
        game = unit.session.get(GameRow, table.game_id).name
    for seat in runner.info(game).seat_names:
        _vote(runner, game, seat)
    league_steps.run_steps(runner.unit, "lg")
    with runner.unit(lock=False) as unit:
        lines = leagues.view(unit, "lg").standings
    assert [(line.draws, line.wins, line.losses, line.points) for line in lines] == [(1, 0, 0, 1.0)] * 3
    assert len({(line.mu, line.sigma) for line in lines}) == 1  # a tie: every rating moved alike


def test_the_ending_says_how_a_game_ended_for_the_record(runner: GameService) -> None:
    name = _temple(runner)
    assert ending_of(runner.info(name).row).kind is EndingKind.RUNNING
    runner.end(name)
    assert ending_of(runner.info(name).row).to_json() == {"kind": "gm-end", "seats": [], "turn": 0}
