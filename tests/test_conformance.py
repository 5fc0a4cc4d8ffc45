"""The shared conformance test: every registered game, every player count it supports.

Random legal play (with some missed turns) must reach an end; every sampled
submission validates; states round-trip through dump/load; views are JSON
and the public view is what a stranger sees; a replay from the seed with the
recorded order text reproduces every state; and one game per kind runs
through the real runner and database, with reports rendered for every seat.

The rule of hidden information (X3, see ``Game.hidden_variant`` and
tests/support/hidden_invariance.py): on the states of random play, redrawing
every secret a seat does not hold changes neither the public view, nor the
phase, nor which seats get a forced play, nor that seat's own view and NMR
default. A game that declares hidden information must really redraw something.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hidden_invariance import check_hidden_variants

from pbem.core import Game, GameRng, OutcomeKind
from pbem.core.protocol import MAX_ORDER_CHOICES
from pbem.core.game import TurnShape
from pbem.games import GAMES, find_game
from pbem.mail.commands.script import opening_words, reserved_words
from pbem.orders import parser_for
from pbem.service.api import GameService

MAX_STEPS = 5_000
SEEDS = (11, 12)
HIDDEN_SAMPLES = 80
"""States checked per game and player count by the hidden-information test (evenly spread)."""
REDRAWINGS = 4
"""Hidden variants drawn per state and kept seat."""


def player_counts(game: Game[Any, Any]) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


def cases() -> list[tuple[str, int, int]]:
    return [(kind, players, seed) for kind in sorted(GAMES) for players in player_counts(find_game(kind))
            for seed in SEEDS]


def play(game: Game[Any, Any], players: int, seed: int) -> tuple[Any, list[dict[str, list[str]]], list[Any]]:
    """Play one random game to the end; return the final state, the order texts, and every state."""
    seats = game.seat_names(players)
    rng = GameRng(seed)
    robots = GameRng(seed + 1000)
    state = game.setup(seats, {}, rng)
    history: list[dict[str, list[str]]] = []
    states = [state]
    widest = 0
    for _ in range(MAX_STEPS):
        if game.outcome(state) is not None:
            break
        phase = game.phase(state)
        assert phase.seats and set(phase.seats) <= set(seats)
        if game.facts().turn_shape is TurnShape.SEQUENTIAL:
            assert len(phase.seats) == 1, f"{game.name} declares sequential turns but {phase.seats} owe orders"
        widest = max(widest, len(phase.seats))
        orders: dict[str, list[Any]] = {}
        for seat in phase.seats:
            forced = game.forced_orders(state, seat)
            if forced is not None:
                orders[seat] = list(forced)
            elif robots.random() < 0.05:
                orders[seat] = list(game.default_orders(state, seat))
            else:
                orders[seat] = list(game.sample_orders(state, seat, robots))
                assert game.validate(state, seat, orders[seat]) == [], (seat, [str(o) for o in orders[seat]])
        history.append({seat: [str(o) for o in seat_orders] for seat, seat_orders in orders.items()})
        state = game.resolve(state, orders, rng).state
        assert game.load(json.loads(json.dumps(game.dump(state)))) == state
        states.append(state)
    else:
        pytest.fail(f"{game.name} with {players} players did not end in {MAX_STEPS} steps")
    if game.facts().turn_shape is TurnShape.SIMULTANEOUS and players > 1:
        assert widest > 1, f"{game.name} declares simultaneous turns but never asked two seats at once"
    return state, history, states


@cache
def played(kind: str, players: int, seed: int) -> tuple[Any, list[dict[str, list[str]]], list[Any]]:
    """:func:`play` once per kind, player count and seed in a test session (states are immutable)."""
    return play(find_game(kind), players, seed)


@pytest.mark.parametrize(("kind", "players", "seed"), cases())
def test_random_legal_play_reaches_a_valid_end_and_replays(kind: str, players: int, seed: int) -> None:
    game = find_game(kind)
    final, history, states = played(kind, players, seed)
    outcome = game.outcome(final)
    assert outcome is not None
    assert set(outcome.winners) <= set(game.seat_names(players))
    assert (outcome.kind in (OutcomeKind.DRAW, OutcomeKind.LOSS)) == (not outcome.winners)
    if not game.facts().is_cooperative:
        assert outcome.kind is not OutcomeKind.LOSS, f"{kind}: only a cooperative game ends with everybody losing"
    seats = game.seat_names(players)
    for state in states[:: max(1, len(states) // 20)]:
        public = game.view(state, None)
        json.dumps(public)
        for seat in seats:
            json.dumps(game.view(state, seat))
    # Replay from the seed with the recorded text only.
    parser = parser_for(kind)
    rng = GameRng(seed)
    state = game.setup(seats, {}, rng)
    for step, orders in enumerate(history, start=1):
        parsed = {seat: parser.parse("\n".join(texts)).orders for seat, texts in orders.items()}
        state = game.resolve(state, parsed, rng).state
        assert state == states[step], f"{kind}: replay differs at step {step}"


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_game_of_each_kind_runs_through_the_runner_and_replays(kind: str, runner: GameService) -> None:
    game = find_game(kind)
    seats = game.seat_names(game.max_players)
    runner.create_game(kind, "g1", seats={s: f"p{s.lower()}@example.org" for s in seats}, seed=5,
                       options={"turn_hours": "0"})
    robots = GameRng(99)
    for _ in range(MAX_STEPS):
        info = runner.info("g1")
        if info.outcome is not None:
            break
        assert info.phase is not None
        for seat in info.phase.seats:
            if runner.current_orders("g1", seat) is None:
                text = "\n".join(str(o) for o in game.sample_orders(info.state, seat, robots))
                result = runner.submit("g1", seat, text)
                assert not result.general and result.is_clean, result.render()
        runner.resolve("g1")
    assert runner.info("g1").row.status == "finished"
    assert runner.replay("g1").is_identical
    data = runner.state_json("g1")
    assert data["status"] == "finished" and set(data["winners"]) <= set(seats)
    assert data["outcome"] == runner.info("g1").outcome.kind.value
    for seat in [None, *seats]:
        text = runner.report_text("g1", seat)
        assert "The game is over" in text


@pytest.mark.parametrize(("kind", "players", "seed"), cases())
def test_the_gm_may_end_a_game_at_any_step_and_its_rules_rank_the_seats(kind: str, players: int, seed: int) -> None:
    game = find_game(kind)
    _, _, states = played(kind, players, seed)
    seats = set(game.seat_names(players))
    for state in states[:: max(1, len(states) // 20)]:
        standing = game.standing_outcome(state)
        assert set(standing.winners) <= seats and standing.reason, (kind, standing)
        assert (standing.kind in (OutcomeKind.DRAW, OutcomeKind.LOSS)) == (not standing.winners)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_declared_facts_match_the_game(kind: str) -> None:
    game = find_game(kind)
    facts = game.facts()  # type: ignore[attr-defined]
    assert (facts.min_players, facts.max_players) == (game.min_players, game.max_players)
    assert isinstance(facts.turn_shape, TurnShape)


def order_words(game: Game[Any, Any]) -> set[str]:
    """The literal words of the game's grammar, in upper case."""
    path = Path(game.grammar)
    words = {word.upper() for word in re.findall(r'"([A-Za-z]+)"i?', path.read_text(encoding="utf-8"))}
    assert words, f"no order words found in {path}"
    return words


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_no_order_word_is_a_command_word_but_those_the_game_declares(kind: str) -> None:
    """An order word may be a command word only when the game declares it in
    ``command_words_as_orders`` (its rule book's word, e.g. Shelloker's CHECK); every declared word
    is a command word the grammar really uses, and no undeclared one slips through."""
    game = find_game(kind)
    words = order_words(game)
    declared = frozenset(getattr(game, "command_words_as_orders", frozenset()))
    clashing = reserved_words() | opening_words()  # commands among orders, and commands that open a reply
    assert declared <= reserved_words(), f"{kind} declares {sorted(declared - reserved_words())}, which are no command words"
    assert declared <= words, f"{kind} declares {sorted(declared - words)}, which its grammar does not use"
    assert words & clashing == declared


def test_an_undeclared_command_word_among_the_orders_fails(tiny_game: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a grammar using CHECK without declaring it, or declaring a word it
    does not use, is refused."""
    game = find_game(tiny_game)
    grammar = tmp_path / "grammar.lark"
    grammar.write_text(Path(game.grammar).read_text(encoding="utf-8") + '\ncheck: "CHECK"i\n', encoding="utf-8")
    monkeypatch.setattr(game, "grammar", str(grammar))
    with pytest.raises(AssertionError):
        test_no_order_word_is_a_command_word_but_those_the_game_declares(tiny_game)
    monkeypatch.setattr(type(game), "command_words_as_orders", frozenset({"CHECK"}))
    test_no_order_word_is_a_command_word_but_those_the_game_declares(tiny_game)
    monkeypatch.setattr(type(game), "command_words_as_orders", frozenset({"CHECK", "STATUS"}))
    with pytest.raises(AssertionError, match="its grammar does not use"):
        test_no_order_word_is_a_command_word_but_those_the_game_declares(tiny_game)


@pytest.mark.parametrize(("kind", "players"), [(kind, players) for kind in sorted(GAMES)
                                                for players in player_counts(find_game(kind))])
def test_what_the_service_does_by_itself_never_depends_on_a_secret(kind: str, players: int) -> None:
    game = find_game(kind)
    _, _, states = played(kind, players, SEEDS[0])
    sampled = states[:: max(1, len(states) // HIDDEN_SAMPLES)] + [states[-1]]
    seats = game.seat_names(players)
    if not game.facts().has_hidden_information:
        rng = GameRng(7)
        assert all(game.hidden_variant(state, keep, rng) == state for state in sampled for keep in (*seats, None)), (
            f"{kind} declares no hidden information, yet hidden_variant changed the state")
        return
    redrawn = sum(check_hidden_variants(game, state, seats, seed=step, variants=REDRAWINGS)
                  for step, state in enumerate(sampled))
    assert redrawn > 0, f"{kind} declares hidden information, but hidden_variant never redrew a secret"


OFFERING_CHOICES = {
    "all-in-a-days-work", "farm-cheesi", "feaster-island", "festival-of-statues", "fungus", "golden-egg", "harvest-day",
    "honest-trade", "kentucksea-derby", "meanies-in-our-midst", "race-on-the-river", "resource-rich", "shelloker",
    "three-pyramids", "toe-sap-fungus", "great-regatta",
}
"""The kinds whose reports offer a seat its few choices as replies already written, seen in random play."""


def test_the_games_that_list_a_seats_few_choices_are_those_expected() -> None:
    offering = {kind for kind in GAMES for players in player_counts(find_game(kind)) for seed in SEEDS
                if _choices_seen(kind, players, seed)}
    assert offering == OFFERING_CHOICES


@pytest.mark.parametrize(("kind", "players", "seed"), cases())
def test_a_seats_listed_choices_are_few_distinct_legal_submissions_that_parse_back(
        kind: str, players: int, seed: int) -> None:
    _choices_seen(kind, players, seed)


@cache
def _choices_seen(kind: str, players: int, seed: int) -> int:
    """Check every seat's listed choices on (up to 150) states of a random game: 1 to MAX_ORDER_CHOICES
    distinct submissions, each valid and written as order text that parses back to itself. Return how
    many states listed choices."""
    game = find_game(kind)
    parser = parser_for(kind)
    _, _, states = played(kind, players, seed)
    seen = 0
    for state in states[:: max(1, len(states) // 150)]:
        if game.outcome(state) is not None:
            continue
        for seat in game.phase(state).seats:
            choices = game.order_choices(state, seat)
            if choices is None or game.forced_orders(state, seat) is not None:
                continue
            seen += 1
            texts = ["\n".join(str(order) for order in choice) for choice in choices]
            assert 1 <= len(choices) <= MAX_ORDER_CHOICES and len(set(texts)) == len(texts), texts
            for choice, text in zip(choices, texts, strict=True):
                assert game.validate(state, seat, list(choice)) == [], (seat, text)
                parsed = parser.parse(text)
                assert not parsed.has_problems and "\n".join(str(o) for o in parsed.orders) == text, text
    return seen
