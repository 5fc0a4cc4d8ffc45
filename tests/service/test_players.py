"""Players on a real database: names chosen by REGISTER, addresses joined by code, and the record
written as a game goes, checked against a small game worked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_report_digests import downgrade

from pbem.service import players, rewind
from pbem.service.api import GameService
from pbem.service.options import BadOption
from pbem.service.players import BadPlayerName, LookAlikeName, NameTaken, PlayerError, TooUnreliable, WrongLinkCode
from pbem.store import open_database


def _register(runner: GameService, address: str, name: str, code: str | None = None) -> players.Registration:
    with runner.unit() as unit:
        return players.register(unit, address, name, code)


def _record(runner: GameService, address: str) -> players.PlayerRecord:
    with runner.unit(lock=False) as unit:
        return players.record_of_address(unit.session, address)


def _play_worked_game(runner: GameService, name: str = "g") -> tuple[str, str]:
    """Tiny to 6, worked by hand. The drawn mover M and the other seat O:
    turn 1, M sends ADD 2, all in (M met), total 2; turn 2, O silent at the deadline (O missed), NMR
    ADD 1, total 3; turn 3, M silent, the GM resolves early (counts for nobody), total 4; turn 4, O
    sends ADD 1, all in (O met), total 5; turn 5 plays itself (ADD 1, forced: counts for nobody),
    total 6: M wins, O loses. Returns the addresses of M and O."""
    info = runner.create_game("tiny", name, seats={"1": "a@x.org", "2": "b@x.org"}, seed=1,
                              options={"target": "6"})
    mover = info.phase.seats[0] if info.phase else ""
    other = "2" if mover == "1" else "1"
    address = {"1": "a@x.org", "2": "b@x.org"}
    assert runner.submit(name, mover, "ADD 2").is_clean
    runner.resolve(name, reason="all-in")
    runner.resolve(name, reason="deadline")
    runner.resolve(name, reason="gm")
    assert runner.submit(name, other, "ADD 1").is_clean
    runner.resolve(name, reason="all-in")
    assert runner.state_json(name)["winners"] == [mover]
    return address[mover], address[other]


def test_the_record_of_a_game_worked_by_hand(tiny_game: str, runner: GameService) -> None:
    winner, loser = _play_worked_game(runner)
    won = _record(runner, winner)
    assert (won.played, won.finished, won.outcomes, won.met, won.missed) == (1, 1, {"win": 1}, 1, 0)
    assert won.reliability == 1.0 and won.reliability_text() == "100% (1 of the last 1 deadlines met)"
    lost = _record(runner, loser)
    assert (lost.played, lost.finished, lost.outcomes, lost.met, lost.missed) == (1, 1, {"loss": 1}, 1, 1)
    assert lost.reliability == 0.5
    assert _record(runner, "nobody@x.org") == players.PlayerRecord()


def test_reliability_counts_the_last_fifty_deadlines_owed(tiny_game: str, runner: GameService) -> None:
    """60 deadlines: the first 10 missed, the last 50 met: reliability 100%, though 10 were missed."""
    runner.create_game("tiny", "long", seats={"1": "a@x.org", "2": "b@x.org"}, seed=1, options={"target": "99"})
    from datetime import timedelta

    clock = runner.clock
    with runner.unit() as unit:
        row = unit.game("long")
        base = clock()
        for turn in range(1, 61):
            unit.add(players.PlayerEventRow(address="a@x.org", game_id=row.id, seat="1", turn=turn,
                                            kind="missed" if turn <= 10 else "met",
                                            at=base + timedelta(minutes=turn)))
    record = _record(runner, "a@x.org")
    assert (record.met, record.missed, record.recent_met, record.recent_owed) == (50, 10, 50, 50)
    assert record.reliability == 1.0


def test_a_name_is_taken_once_and_a_second_address_joins_it_with_a_code(runner: GameService) -> None:
    assert _register(runner, "a@x.org", "Ann").how == "registered"
    with pytest.raises(NameTaken, match="REGISTER Ann <code>"):
        _register(runner, "c@x.org", "ANN")
    with pytest.raises(BadPlayerName):
        _register(runner, "c@x.org", "a")
    with pytest.raises(BadPlayerName):
        _register(runner, "c@x.org", "ann@x.org")
    again = _register(runner, "a@x.org", "ann")
    assert again.how == "again" and again.link_code is not None and len(again.link_code) == 8
    with pytest.raises(WrongLinkCode):
        _register(runner, "c@x.org", "ann", "00000000" if again.link_code != "00000000" else "11111111")
    joined = _register(runner, "c@x.org", "ann", again.link_code)
    assert (joined.name, joined.how, joined.addresses) == ("Ann", "joined", 2)
    with pytest.raises(WrongLinkCode):  # a code works once
        _register(runner, "d@x.org", "ann", again.link_code)
    _register(runner, "b@x.org", "bob")
    with pytest.raises(PlayerError, match="registered as Ann"):
        _register(runner, "c@x.org", "bob", "12345678")
    renamed = _register(runner, "c@x.org", "Annie")
    assert (renamed.how, renamed.old_name) == ("renamed", "Ann")
    with runner.unit(lock=False) as unit:
        assert players.addresses_of(unit.session, players.find_player(unit.session, "annie")) == ["a@x.org",
                                                                                                   "c@x.org"]
        assert players.display_name(unit.session, "C@x.org") == "Annie"
        assert players.display_name(unit.session, "z@x.org").startswith("player-")


@pytest.mark.parametrize(("taken", "asked"), [("Alice", "AIice"), ("Bob", "B0b"), ("Bill", "Bi11"), ("mary", "rnary"),
                                                ("ALICE", "aIice"), ("Torn", "Tom")])
def test_a_name_that_looks_like_another_players_is_refused_naming_it(runner: GameService, taken: str,
                                                                   asked: str) -> None:
    _register(runner, "a@x.org", taken)
    with pytest.raises(LookAlikeName, match=f"the name {asked} looks too much like {taken}, another player's name"):
        _register(runner, "b@x.org", asked)
    _register(runner, "b@x.org", "Zed")
    with pytest.raises(LookAlikeName, match=f"looks too much like {taken}"):  # nor may a player rename to it
        _register(runner, "b@x.org", asked)


def test_a_player_may_rename_to_a_look_alike_of_their_own_name(runner: GameService) -> None:
    _register(runner, "a@x.org", "Alice")
    _register(runner, "b@x.org", "Ali")  # shares letters, does not look alike
    renamed = _register(runner, "a@x.org", "AIice")
    assert (renamed.how, renamed.old_name) == ("renamed", "Alice")


def test_names_registered_before_the_migration_are_found_by_their_look(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    database = open_database(str(path))
    _register(GameService(database), "a@x.org", "B0b")
    database.close()
    downgrade(path, "0018")
    database = open_database(str(path))  # migrates to the newest schema again
    try:
        with pytest.raises(LookAlikeName, match="looks too much like B0b"):
            _register(GameService(database), "b@x.org", "Bob")
    finally:
        database.close()


def test_a_code_is_void_after_five_wrong_ones(runner: GameService) -> None:
    _register(runner, "a@x.org", "ann")
    code = _register(runner, "a@x.org", "ann").link_code
    assert code is not None
    wrong = "ffffffff" if code != "ffffffff" else "eeeeeeee"
    for _ in range(players.MAX_LINK_FAILURES):
        with runner.unit() as unit:  # as a mail is handled: the count is kept with the refusal
            with pytest.raises(WrongLinkCode):
                players.register(unit, "c@x.org", "ann", wrong)
    with pytest.raises(WrongLinkCode):  # the right code comes too late
        _register(runner, "c@x.org", "ann", code)


def test_a_player_record_spans_its_addresses(tiny_game: str, runner: GameService) -> None:
    winner, loser = _play_worked_game(runner)
    _register(runner, winner, "win")
    code = _register(runner, winner, "win").link_code
    _register(runner, loser, "lose")
    with pytest.raises(PlayerError):
        _register(runner, loser, "win", code)  # one address, one player
    _register(runner, "new@x.org", "win", code)
    profile = runner.player("WIN")
    assert profile.summary.record.outcomes == {"win": 1}
    assert [g.share_text for g in profile.games] == ["won"]
    assert {p.name for p in runner.players()} == {"win", "lose"}


def test_min_reliability_refuses_a_join_and_orders_the_standby(tiny_game: str, runner: GameService) -> None:
    _winner, loser = _play_worked_game(runner)  # the loser met 1 of 2 deadlines: 50%
    runner.create_game("tiny", "strict", players=2, seed=2)
    runner.set_options("strict", {"min_reliability": "0.8"})
    with pytest.raises(TooUnreliable, match="50%"):
        runner.join("strict", loser)
    assert runner.join("strict", "fresh@x.org").seat == "1"  # no deadline owed yet: may join
    with pytest.raises(BadOption, match="0 to 1"):
        runner.set_options("strict", {"min_reliability": "2"})
    with runner.unit(lock=False) as unit:
        assert players.most_reliable_first(unit.session, ["fresh@x.org", loser, _winner]) == [
            _winner, loser, "fresh@x.org"]
        assert players.most_reliable_first(unit.session, [loser, "fresh@x.org"], minimum=0.8) == ["fresh@x.org"]


def test_a_rollback_takes_its_turns_facts_along(tiny_game: str, runner: GameService) -> None:
    info = runner.create_game("tiny", "g", seats={"1": "a@x.org", "2": "b@x.org"}, seed=1, options={"target": "9"})
    mover = info.phase.seats[0] if info.phase else ""
    other = {"1": "b@x.org", "2": "a@x.org"}[mover]
    assert runner.submit("g", mover, "ADD 1").is_clean
    runner.resolve("g", reason="all-in")  # turn 1: the mover met its deadline
    runner.resolve("g", reason="deadline")  # turn 2: the other missed
    assert _record(runner, other).missed == 1
    with runner.unit() as unit:
        code = rewind.request_rollback(unit, "g", 2)
    with runner.unit() as unit:
        rewind.confirm_rollback(unit, "g", 2, code)
    assert (_record(runner, other).met, _record(runner, other).missed) == (0, 0)
    assert _record(runner, {"a@x.org": "b@x.org", "b@x.org": "a@x.org"}[other]).met == 1
    runner.resolve("g", reason="deadline")  # turn 2 again: missed again, once
    assert _record(runner, other).missed == 1


def test_each_seats_share_of_an_outcome() -> None:
    from pbem.core import Outcome

    assert [players.share_of(Outcome(("1",)), seat) for seat in "12"] == ["win", "loss"]
    assert [players.share_of(Outcome(("1", "2")), seat) for seat in "123"] == ["shared", "shared", "loss"]
    assert players.share_of(Outcome.draw(), "1") == "draw"
    assert players.share_of(Outcome.loss(), "1") == "defeat"
