"""The press embargo (X6) through the service layer: while the current phase says press_open=False
(Meanies in our Midst's mission) press between players is refused with a reason naming the phase;
the GM's press goes through, and press opens again with the next phase."""

from __future__ import annotations

import pytest

from pbem.service.api import GameService
from pbem.service.press import PressClosed


def test_press_between_players_is_closed_only_during_the_mission(runner: GameService) -> None:
    runner.create_game("meanies-in-our-midst", "m", seats={s: f"p{s}@example.org" for s in "1234"}, seed=3,
                       options={"turn_hours": "0"})
    info = runner.info("m")
    assert info.phase is not None and info.phase.name == "choose" and info.phase.press_open
    runner.check_press("m")  # the guide choosing: players may talk
    guide = info.phase.seats[0]
    others = [s for s in "1234" if s != guide]
    runner.submit("m", guide, f"CHOOSE {others[0]} {others[1]}")
    runner.resolve("m")
    assert runner.info("m").phase.name == "mission"
    with pytest.raises(PressClosed, match="no press between players during the mission phase of game m"):
        runner.check_press("m")
    runner.check_press("m", from_gm=True)
    runner.resolve("m")  # every member's NMR default
    assert runner.info("m").phase.name == "next-guide"
    runner.check_press("m")
