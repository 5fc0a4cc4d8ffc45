"""HELP names the game kinds hosted and the five Gateway Island games that are not, with why: with no
kind (after the command reference) and as HELP GAMES."""

from __future__ import annotations

from pbem.games import GAMES, NOT_HOSTED, find_game
from pbem.mail.commands.reference import help_for, help_text

NOT_HOSTED_GAMES = ["2 Eagle Eye", "4 Fishing Day", "6 The Intruder", "12 Set in Stone", "14 Split the Catch"]


def test_help_games_lists_every_kind_and_the_games_not_hosted() -> None:
    listed = help_for("GAMES")
    assert listed == help_for("games")
    for kind in GAMES:
        assert f"  {kind} " in listed and find_game(kind).title in listed, kind
    assert list(NOT_HOSTED) == NOT_HOSTED_GAMES
    assert "not hosted, since speed, dexterity or pictures are the game" in listed
    for game, why in NOT_HOSTED.items():
        assert f"  {game}: {why}" in listed
    assert listed.count("\n  ") == len(GAMES) + len(NOT_HOSTED)


def test_help_without_a_kind_is_the_reference_then_the_kinds() -> None:
    assert help_for(None) == help_text() + "\n" + help_for("games")
    assert "HELP GAMES" in help_text()


def test_help_report_tells_what_report_sends_and_the_reference_names_it() -> None:
    told = help_for("REPORT")
    assert told == help_for("report")
    for words in ("REPORT <n>", "REPORT <game> [<n>]", "(0: the opening report)", "One REPORT is answered per mail",
                  "your own view", "refused as stale"):
        assert words in told, words
    assert "REPORT [<n>]" in help_text() and "HELP REPORT" in help_text()
