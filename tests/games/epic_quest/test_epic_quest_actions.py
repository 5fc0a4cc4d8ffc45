"""The adventurers' actions of phase 1, each checked against the rule it implements, and the line-by-line
check of a submission."""

from __future__ import annotations

from epic_quest_builders import GAME, orders, quest, resolve, texts

from pbem.core.bag import Bag
from pbem.games.epic_quest.state import Meanie


def _problems(state, seat, text):  # type: ignore[no-untyped-def]
    return [(p.index, p.message) for p in GAME.validate(state, seat, orders(text))]


# --- move ---------------------------------------------------------------------------------------------


def test_move_goes_to_a_card_with_a_common_side_for_one_action() -> None:
    """Actions: move to an adjacent card (cards are adjacent if they have one side in common)."""
    state, events = resolve(quest(), {"1": "WARRIOR MOVE b1"})
    assert state.adventurer("W").card == "b1" and state.adventurer("W").actions == 1
    assert "The Warrior moves from c1 to b1." in texts(events)


def test_a_move_to_a_card_that_is_not_next_door_or_not_there_is_refused() -> None:
    state = quest()
    assert _problems(state, "1", "WARRIOR MOVE a1") == [(0, "a1 is not next to the Warrior's card c1")]
    assert _problems(state, "1", "WARRIOR MOVE b2") == [(0, "there is no card b2 on the map")]
    assert _problems(state, "1", "WARRIOR MOVE q9") == [(0, "there is no card q9 on the map")]


def test_nobody_on_the_magic_meanies_card_can_move() -> None:
    """The Magic Meanie: adventurers on the same card as the Magic Meanie cannot move."""
    state = quest(at={"W": "b1"}, meanie=Meanie(card="b1"))
    assert _problems(state, "1", "WARRIOR MOVE a1") == [
        (0, "the Magic Meanie holds the Warrior on b1: nobody on his card can move")]
    assert _problems(state, "1", "KNIGHT MOVE b1\nKNIGHT MOVE a1") == [
        (1, "the Magic Meanie holds the Knight on b1: nobody on his card can move")]


def test_moves_are_checked_in_the_order_they_run() -> None:
    """Plan [D]: without slots an adventurer's first listed action is slot 1, its second slot 2."""
    assert _problems(quest(), "1", "WARRIOR MOVE b1\nWARRIOR MOVE a1") == []
    assert _problems(quest(), "1", "@2 WARRIOR MOVE b1\n@1 WARRIOR MOVE a1") == [
        (1, "a1 is not next to the Warrior's card c1")]


def test_an_adventurer_has_two_actions_a_round() -> None:
    """Phase 1: each adventurer takes 2 actions; every action costs one (ESCAPE is free)."""
    assert _problems(quest(), "1", "WARRIOR MOVE b1\nWARRIOR MOVE a1\nWARRIOR MOVE a2") == [
        (2, "the Warrior has no action left this round")]
    assert _problems(quest(actions={"W": 1}), "1", "WARRIOR REST\nWARRIOR REST") == [
        (1, "the Warrior has no action left this round")]


# --- heal and trade -----------------------------------------------------------------------------------


def test_heal_discards_a_potion_for_good_and_restores_every_life_cube() -> None:
    """Heal: discard a potion to recover all life cubes; the potion is permanently removed."""
    state = quest(life={"K": {"blue": 1}}, backpack={"K": ["potion", "red"]})
    after, events = resolve(state, {"1": "KNIGHT HEAL"})
    assert after.adventurer("K").life.as_dict() == {"blue": 3, "red": 2, "yellow": 1}
    assert after.adventurer("K").backpack.as_dict() == {"red": 1}
    assert after.bag == state.bag  # not back into the bag
    assert "drinks a potion" in texts(events)


def test_heal_needs_a_potion_and_a_lost_life_cube() -> None:
    assert _problems(quest(life={"K": {"blue": 1}}), "1", "KNIGHT HEAL") == [(0, "the Knight carries no potion")]
    assert _problems(quest(backpack={"K": ["potion"]}), "1", "KNIGHT HEAL") == [
        (0, "the Knight has all six life cubes")]


def test_a_trade_moves_one_item_between_adventurers_on_the_same_card() -> None:
    """Trade equipment: on the same card, give or receive an upgrade or potion from a backpack."""
    state = quest(backpack={"W": ["red", "potion"], "C": ["yellow"]})
    after, _ = resolve(state, {"1": "WARRIOR GIVE POTION TO CLERIC\nCLERIC TAKE RED FROM WARRIOR"})
    assert after.adventurer("W").backpack.is_empty
    assert after.adventurer("C").backpack.as_dict() == {"potion": 1, "red": 1, "yellow": 1}
    assert after.adventurer("W").actions == 1 and after.adventurer("C").actions == 1


def test_a_trade_needs_the_item_the_same_card_and_room() -> None:
    state = quest(at={"K": "b1"}, backpack={"W": ["red"], "C": ["blue", "blue", "green", "potion"]})
    assert _problems(state, "1", "WARRIOR GIVE BLUE TO CLERIC") == [(0, "the Warrior carries no blue upgrade")]
    assert _problems(state, "1", "WARRIOR GIVE RED TO KNIGHT") == [
        (0, "the Knight is on b1, not on the Warrior's card c1")]
    assert _problems(state, "1", "WARRIOR GIVE RED TO CLERIC") == [(0, "the Cleric's backpack is full")]
    assert _problems(state, "1", "WARRIOR TAKE POTION FROM WARRIOR") == [
        (0, "an adventurer cannot do that with itself")]
    assert _problems(state, "1", "WARRIOR TAKE RED FROM CLERIC") == [(0, "the Cleric carries no red upgrade")]


def test_a_trade_with_another_players_adventurer_is_checked_when_the_step_runs() -> None:
    """Checking orders: another player's adventurer may move in the same step, so being on the same card is
    checked at resolution; an impossible action is then skipped and not spent (plan [D])."""
    state = quest(2, at={"K": "b1"}, backpack={"W": ["red"]})  # seat 2 plays the Knight
    assert _problems(state, "1", "WARRIOR GIVE RED TO KNIGHT") == []
    after, events = resolve(state, {"1": "WARRIOR GIVE RED TO KNIGHT", "2": ""})
    assert "skipped, not spent: the Knight is on b1, not on the Warrior's card c1" in texts(events)
    assert after.adventurer("W").actions == 2 and after.adventurer("W").backpack.as_dict() == {"red": 1}
    after, _ = resolve(state, {"1": "@2 WARRIOR GIVE RED TO KNIGHT", "2": "@1 KNIGHT MOVE c1"})
    assert after.adventurer("K").backpack.as_dict() == {"red": 1}


# --- support and checks ------------------------------------------------------------------------------


def test_support_adds_the_supporters_cubes_of_the_checks_colour_including_upgrades() -> None:
    """Support: add your cubes to theirs (life cubes and upgrades count in every check)."""
    state = quest(invaders={"c1": 2}, backpack={"K": ["red"]})
    _, events = resolve(state, {"1": "@1 KNIGHT SUPPORT WARRIOR\n@2 WARRIOR MELEE INVADER"}, rolls=[1])
    assert "die 1 + 3 red + 3 from support = 7: a 1 always fails." in texts(events)


def test_support_is_wasted_when_the_supported_adventurer_makes_no_check_later_in_the_step() -> None:
    """Plan [D]: support is wasted if the supported adventurer makes no check later in the same step."""
    state = quest(2, at={"K": "b1"}, invaders={"b1": 1})  # seat 1 plays the Archer, seat 2 the Knight
    after, events = resolve(state, {"1": "@1 ARCHER MOVE b1\n@2 ARCHER SUPPORT KNIGHT", "2": "@3 KNIGHT MOVE a1"})
    assert "The Archer's support is wasted: the Knight made no check after it in this step." in texts(events)
    assert after.adventurer("A").actions == 0


def test_a_support_of_ones_own_adventurer_that_no_later_check_uses_is_refused() -> None:
    """Without slots the Warrior's first action runs before the Knight's first (W, K, A, C): a support
    written first but running after the check would be lost, so the check says how to order it."""
    state = quest(invaders={"c1": 1})
    message = ("the Warrior makes no check after this support in this step (a step runs by slot @n, then "
               "Warrior, Knight, Archer, Cleric: give the support an earlier slot than the check)")
    assert _problems(state, "1", "KNIGHT SUPPORT WARRIOR\nWARRIOR MELEE INVADER") == [(0, message)]
    assert _problems(state, "1", "KNIGHT SUPPORT WARRIOR\nWARRIOR REST") == [(0, message)]
    assert _problems(state, "1", "@1 KNIGHT SUPPORT WARRIOR\n@2 WARRIOR MELEE INVADER") == []
    assert _problems(state, "1", "WARRIOR SUPPORT KNIGHT\nKNIGHT MELEE INVADER") == []


def test_support_counts_only_while_the_supporter_stands_on_the_same_card() -> None:
    state = quest(invaders={"c1": 1})
    _, events = resolve(state, {"1": "@1 KNIGHT SUPPORT WARRIOR\n@2 KNIGHT MOVE b1\n@3 WARRIOR MELEE INVADER"},
                        rolls=[2])
    assert "die 2 + 3 red = 5: failure." in texts(events)


def test_a_check_passes_without_cubes_on_a_six_and_never_on_a_one() -> None:
    """Checks: die + cubes reach 6; possible with no cubes on a 6; GOLDEN RULE: a 1 always fails."""
    state = quest(invaders={"c1": 1}, backpack={"W": ["red", "red", "red"]})
    _, events = resolve(state, {"1": "WARRIOR MELEE INVADER"}, rolls=[1])
    assert "die 1 + 6 red = 7: a 1 always fails." in texts(events)
    _, events = resolve(quest(), {"1": "WARRIOR RITUAL"}, rolls=[6])  # the Warrior has no yellow cube
    assert "die 6 + 0 yellow = 6: success." in texts(events)


# --- attacks and rewards ---------------------------------------------------------------------------------


def test_a_defeated_invader_returns_to_the_supply_and_the_attacker_draws_a_reward() -> None:
    """Melee: red check, 1 damage; invaders have 1 life; the attacker draws a reward cube from the bag."""
    state = quest(invaders={"c1": 2}, bag=Bag.of(["blue"]))
    after, events = resolve(state, {"1": "WARRIOR MELEE INVADER"}, rolls=[3])
    assert after.invaders_on("c1") == 1 and after.supply == 9
    assert after.adventurer("W").backpack.as_dict() == {"blue": 1} and after.bag.is_empty
    assert "The Warrior draws a blue upgrade from the bag." in texts(events)


def test_a_ranged_attack_hits_an_enemy_on_a_neighbouring_card_only() -> None:
    """Ranged: a green check against an enemy on an adjacent card."""
    state = quest(invaders={"b1": 1, "a1": 1}, meanie=Meanie(card="c2"))
    assert _problems(state, "1", "ARCHER RANGED a1 INVADER") == [(0, "a1 is not next to the Archer's card c1")]
    assert _problems(state, "1", "ARCHER RANGED d1 INVADER") == [(0, "there is no invader on d1")]
    assert _problems(state, "1", "ARCHER RANGED b1 MEANIE") == [(0, "the Magic Meanie is not on b1")]
    assert _problems(state, "1", "ARCHER RANGED c1 INVADER") == [(0, "c1 is not next to the Archer's card c1")]
    after, events = resolve(state, {"1": "ARCHER RANGED b1 INVADER\nARCHER RANGED c2 MEANIE"}, rolls=[3, 3])
    assert after.invaders_on("b1") == 0 and after.meanie.life == 3
    assert "The Archer attacks an invader on b1 (ranged): die 3 + 3 green = 6: success." in texts(events)


def test_melee_needs_the_enemy_on_the_attackers_card() -> None:
    state = quest(invaders={"b1": 1})
    assert _problems(state, "1", "WARRIOR MELEE INVADER") == [(0, "there is no invader on c1")]
    assert _problems(state, "1", "WARRIOR MELEE MEANIE") == [(0, "the Magic Meanie is not on c1")]
    assert _problems(state, "1", "WARRIOR MOVE b1\nWARRIOR MELEE INVADER") == []


def test_attacking_twice_costs_one_action_if_the_first_attack_wins() -> None:
    """Plan [D]: an action that has become impossible is skipped and not spent."""
    state = quest(invaders={"c1": 1})
    after, events = resolve(state, {"1": "WARRIOR MELEE INVADER\nWARRIOR MELEE INVADER"}, rolls=[6])
    assert after.adventurer("W").actions == 1
    assert "WARRIOR MELEE INVADER: skipped, not spent: there is no invader on c1." in texts(events)


def test_a_full_backpack_forfeits_the_reward_unless_the_attack_swaps_an_item() -> None:
    """Backpack: at most 4 cubes; with a full one, put a cube back into the bag before drawing, or forfeit
    (plan [D]: forfeit by default, SWAP <item> on the attack line)."""
    full = ["potion", "potion", "green", "green"]
    state = quest(invaders={"c1": 2}, backpack={"W": full}, bag=Bag.of(["red"]))
    after, events = resolve(state, {"1": "WARRIOR MELEE INVADER"}, rolls=[6])
    assert "The Warrior's backpack is full: the reward is forfeited." in texts(events)
    assert after.adventurer("W").backpack.size == 4 and after.bag == state.bag
    after, events = resolve(state, {"1": "WARRIOR MELEE INVADER SWAP GREEN"}, rolls=[6], seed=3)
    assert after.adventurer("W").backpack.size == 4 and after.bag.size == 1
    assert after.adventurer("W").backpack.count("green") + after.adventurer("W").backpack.count("red") == 2
    assert "The Warrior puts a green upgrade back into the bag and draws" in texts(events)


def test_swap_needs_the_item_and_an_invader_as_the_target() -> None:
    state = quest(invaders={"c1": 1}, meanie=Meanie(card="c1"), backpack={"W": ["red"]})
    assert _problems(state, "1", "WARRIOR MELEE INVADER SWAP BLUE") == [(0, "the Warrior carries no blue upgrade")]
    assert _problems(state, "1", "WARRIOR MELEE MEANIE SWAP RED") == [
        (0, "defeating the Magic Meanie brings no reward: SWAP goes with an attack on an invader")]


def test_an_empty_equipment_bag_gives_no_reward() -> None:
    """Plan [D]: the equipment bag may run empty: then there is no reward."""
    after, events = resolve(quest(invaders={"c1": 1}, bag=Bag()), {"1": "WARRIOR MELEE INVADER"}, rolls=[6])
    assert "The equipment bag is empty: the Warrior gets no reward." in texts(events)
    assert after.adventurer("W").backpack.is_empty


# --- the Magic Meanie ------------------------------------------------------------------------------------


def test_a_ritual_hurts_the_magic_meanie_even_on_the_status_card() -> None:
    """Ritual: a yellow check; works wherever he is, even on the status card."""
    after, events = resolve(quest(), {"1": "CLERIC RITUAL"}, rolls=[3])
    assert after.meanie.life == 3 and after.meanie.card is None
    assert "The Cleric performs a ritual against the Magic Meanie: die 3 + 3 yellow = 6: success." in texts(events)


def test_the_defeated_meanie_returns_to_space_2_then_to_space_3_and_gives_no_reward() -> None:
    """The Magic Meanie: at his last disc he is reset with 4 discs, on space 2 the first time, later 3+;
    no reward for defeating him."""
    state = quest(meanie=Meanie(life=1, card="c1"), invaders={"c1": 0})
    after, events = resolve(state, {"1": "WARRIOR MELEE MEANIE"}, rolls=[6])
    assert after.meanie == Meanie(life=4, space=1, card=None, defeats=1)
    assert after.meanie.space_name == "2" and after.adventurer("W").backpack.is_empty
    assert "vanishes: he is back on the status card, on space 2, with 4 discs (defeated 1 time)" in texts(events)
    again, _ = resolve(quest(meanie=Meanie(life=1, space=1, defeats=1)), {"1": "CLERIC RITUAL"}, rolls=[6])
    assert again.meanie == Meanie(life=4, space=2, card=None, defeats=2) and again.meanie.space_name == "3+"


def test_once_the_meanie_vanishes_his_card_lets_adventurers_move_again() -> None:
    """A move is checked against the step's start: while the Meanie holds the Knight it is refused; once
    he vanished, the next step may move him."""
    state = quest(meanie=Meanie(life=1, card="c1"))
    assert _problems(state, "1", "@1 WARRIOR MELEE MEANIE\n@2 KNIGHT MOVE b1") == [
        (1, "the Magic Meanie holds the Knight on c1: nobody on his card can move")]
    after, _ = resolve(state, {"1": "WARRIOR MELEE MEANIE"}, rolls=[6])
    after, _ = resolve(after, {"1": "KNIGHT MOVE b1"})
    assert after.adventurer("K").card == "b1"


# --- seal ---------------------------------------------------------------------------------------------------


def test_a_portal_check_at_the_main_goal_seals_the_portal() -> None:
    """Close a portal: a result equal to or greater than the main goal seals it."""
    state = quest(at={"A": "e3", "C": "e3"}, portals={"Y": 2})  # goals 10/6
    after, events = resolve(state, {"1": "ARCHER SUPPORT CLERIC\nCLERIC SEAL"}, rolls=[5])
    assert after.is_sealed("Y") and "the portal is sealed!" in texts(events)
    assert GAME.view(after, None)["portals"][2]["goals"] == "sealed"


def test_the_last_space_has_no_secondary_goal() -> None:
    """Note, there is no secondary goal on the last space (9/-)."""
    state = quest(at={"C": "e3"}, portals={"Y": 3})
    after, events = resolve(state, {"1": "CLERIC SEAL"}, rolls=[5])
    assert after.portals[2] == 3 and "die 5 + 3 yellow = 8: failure." in texts(events)
    after, _ = resolve(state, {"1": "CLERIC SEAL"}, rolls=[6])
    assert after.is_sealed("Y")


def test_seal_needs_an_unsealed_portal_under_the_adventurer() -> None:
    assert _problems(quest(), "1", "CLERIC SEAL") == [(0, "the Cleric's card c1 is no portal")]
    state = quest(at={"C": "c3"}, portals={"B": 4})
    assert _problems(state, "1", "CLERIC SEAL") == [(0, "the blue portal is sealed already")]


def test_a_die_of_one_never_seals_or_weakens() -> None:
    """GOLDEN RULE FOR ALL CHECKS: a die of 1 fails."""
    state = quest(at={"A": "e3", "C": "e3", "K": "e3"}, portals={"Y": 3}, backpack={"C": ["yellow"] * 4})
    after, events = resolve(state, {"1": "ARCHER SUPPORT CLERIC\nCLERIC SEAL"}, rolls=[1])
    assert after.portals[2] == 3 and "a 1 always fails" in texts(events)


# --- escape ---------------------------------------------------------------------------------------------------


def test_escape_is_free_and_needs_every_portal_sealed() -> None:
    """End: exiting from the forest costs no action; all three portals must have been sealed."""
    assert _problems(quest(), "1", "WARRIOR ESCAPE") == [(0, "only 0 of the 3 portals are sealed: escape once all are")]
    sealed = {"G": 4, "B": 4, "Y": 4}
    assert _problems(quest(at={"W": "b1"}, portals=sealed), "1", "WARRIOR ESCAPE") == [
        (0, "the Warrior is not on the entrance c1")]
    after, events = resolve(quest(at={"W": "b1"}, portals=sealed), {"1": "KNIGHT ESCAPE\nWARRIOR MOVE c1\nWARRIOR ESCAPE"})
    assert after.adventurer("K").escaped and after.adventurer("W").escaped
    assert "The Knight escapes through the entrance." in texts(events)
    assert _problems(after, "1", "KNIGHT REST") == [(0, "the Knight has escaped")]


def test_a_seat_may_only_order_its_own_adventurers() -> None:
    state = quest(2)
    assert _problems(state, "1", "KNIGHT MOVE b1") == [(0, "the Knight is played by seat 2")]
    assert _problems(state, "2", "POLICY LOSE WARRIOR RED BLUE GREEN") == [
        (0, "POLICY LOSE WARRIOR RED BLUE GREEN: the Warrior is played by seat 1")]
