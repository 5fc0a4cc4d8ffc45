"""The registry of hosted games: kind name -> the class that implements it (and the games of the
rule books that are not hosted, with why).

Explicit on purpose: adding a game is one line here. Modules are imported on
first use, so a CLI call for one game does not load the others.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from pbem.core import Game, UnknownGame
from pbem.core.words import did_you_mean

GAMES: dict[str, str] = {
    "turkey-chase": "pbem.games.turkey_chase.rules:TurkeyChase",
    "toe-sap-fungus": "pbem.games.toe_sap_fungus.rules:ToeSapFungus",
    "fungus": "pbem.games.fungus.rules:Fungus",
    "farm-cheesi": "pbem.games.farm_cheesi.rules:FarmCheesi",
    "race-on-the-river": "pbem.games.race_on_the_river.rules:RaceOnTheRiver",
    "three-pyramids": "pbem.games.three_pyramids.rules:ThreePyramids",
    "harvest-day": "pbem.games.harvest_day.rules:HarvestDay",
    "resource-rich": "pbem.games.resource_rich.rules:ResourceRich",
    "shelloker": "pbem.games.shelloker.rules:Shelloker",
    "top-of-the-temple": "pbem.games.top_of_the_temple.rules:TopOfTheTemple",
    "feaster-island": "pbem.games.feaster_island.rules:FeasterIsland",
    "great-regatta": "pbem.games.great_regatta.rules:GreatRegatta",
    "kentucksea-derby": "pbem.games.kentucksea_derby.rules:KentuckseaDerby",
    "festival-of-statues": "pbem.games.festival_of_statues.rules:FestivalOfStatues",
    "all-in-a-days-work": "pbem.games.days_work.rules:DaysWork",
    "great-battle": "pbem.games.great_battle.rules:GreatBattle",
    "honest-trade": "pbem.games.honest_trade.rules:HonestTrade",
    "golden-egg": "pbem.games.golden_egg.rules:GreatGoldenEgg",
    "meanies-in-our-midst": "pbem.games.meanies.rules:MeaniesInOurMidst",
    "epic-quest": "pbem.games.epic_quest.rules:EpicQuest",
}

NOT_HOSTED: dict[str, str] = {
    "2 Eagle Eye": "a race of quick answers",
    "4 Fishing Day": "a dexterity game",
    "6 The Intruder": "questions and guesses about the pictures on the island cards, within seconds",
    "12 Set in Stone": "reciting from memory stones seen for 5 seconds (a mail can be read again)",
    "14 Split the Catch": "the first to say \"stop\" while the knife moves over the catch",
}
"""The Gateway Island games that are not hosted, and why: speed, dexterity or pictures are the game
(CLARIFICATIONS.md)."""


@cache
def find_game(name: str) -> Game[Any, Any]:
    """Return the game object for a kind name such as ``turkey-chase`` (any case).

    Raises :class:`UnknownGame` naming the kinds there are.
    """
    key = name.strip().lower()
    if key not in GAMES:
        guess = did_you_mean(key, GAMES)
        raise UnknownGame(f"no game kind {name!r}; " + (f"{guess} (HELP GAMES lists the kinds)" if guess else
                                                         f"kinds are: {', '.join(sorted(GAMES))}"))
    module_name, class_name = GAMES[key].split(":")
    game: Game[Any, Any] = getattr(import_module(module_name), class_name)()
    return game
