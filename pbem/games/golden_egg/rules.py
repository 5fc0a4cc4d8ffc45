"""The Great Golden Egg (Gateway Island, game 13) as a play-by-email game.

Three groups of 8 adventurers climb six cliffs: a (1), b (2), c (1) at the
bottom, d (3) above a and b, e (3) above b and c, f (5, the Golden Egg) on top.
Each round the guide names a target cliff (a higher cliff only with his own
adventurers on both cliffs below it); both followers vote YES or NO, sealed.
Both YES: the guide and then the followers clockwise each ADD an adventurer to
the target or MOVE one of theirs from it to a connected cliff. A split vote:
the NO voter may move one adventurer along a link and the YES voter becomes the
guide. Both NO: the guide may add (by the targeting rules) or move. The game
ends after a round in which a group stands on all six cliffs or has all 8 on
the card, or after ``max_rounds`` rounds; the cliff values score. Players may
file their both-YES (and the guide his both-NO) action in advance; it stays
sealed until used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.core.options import int_option
from pbem.core.seats import START, START_DESCRIPTION, first_player

from .orders import ActionOrder, Add, GoldenEggOrder, Move, Pass, Plan, Target, Vote
from .state import (
    ADVENTURERS,
    BELOW,
    BOTH_NO,
    BOTH_YES,
    CLIFFS,
    LINKS,
    SPLIT,
    STAGE_ACT,
    STAGE_OVER,
    STAGE_TARGET,
    STAGE_VOTE,
    TARGET_ORDER,
    VALUES,
    Action,
    GoldenEggState,
    linked,
    neighbours,
)

TOP_DOWN = ("f", "d", "e", "a", "b", "c")
"""The cliffs as the views list them: from the Golden Egg down, left to right."""

MAX_ROUNDS = "max_rounds"
MAX_ROUNDS_DEFAULT = 40
MAX_ROUNDS_RANGE = (1, 500)


class GreatGoldenEgg(BaseGame[GoldenEggState, GoldenEggOrder]):
    """The Great Golden Egg game object (stateless; every method is pure)."""

    name: ClassVar[str] = "golden-egg"
    title: ClassVar[str] = "The Great Golden Egg"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 3
    turn_shape: ClassVar[TurnShape] = TurnShape.MIXED
    has_hidden_information: ClassVar[bool] = True
    declared_options: ClassVar[Mapping[str, str]] = {
        MAX_ROUNDS: f"the last round, {MAX_ROUNDS_RANGE[0]} to {MAX_ROUNDS_RANGE[1]} (default {MAX_ROUNDS_DEFAULT}); "
                    "then the game is scored as at its natural end",
        START: START_DESCRIPTION + " (the first guide)",
    }
    terminal_words: ClassVar[Mapping[str, str]] = {"CLIFF": "a cliff (a to f)", "ANSWER": "YES or NO"}
    transformer_class: ClassVar[str] = f"{__package__}.grammar:GoldenEggTransformer"
    state_class: ClassVar[type] = GoldenEggState

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> GoldenEggState:
        """Return round 1: every adventurer in its group's supply, the first guide to name a target.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        max_rounds = int_option(checked, MAX_ROUNDS, *MAX_ROUNDS_RANGE, MAX_ROUNDS_DEFAULT)
        guide = first_player(seats, checked.get(START), rng)
        return GoldenEggState(seats=tuple(seats), pieces=tuple((0,) * len(CLIFFS) for _ in seats), guide=guide,
                              max_rounds=max_rounds)

    # --- asking for orders ------------------------------------------------

    def phase(self, state: GoldenEggState) -> Phase:
        """Return the guide's target, the followers' sealed vote, or the next actor's step."""
        if state.stage == STAGE_TARGET:
            return Phase("target", (state.seats[state.guide],), _target_prompt(state))
        if state.stage == STAGE_VOTE:
            return Phase("vote", tuple(state.seats[i] for i in state.followers), _vote_prompt(state))
        return Phase("act", (state.seats[state.actors[0]],), _act_prompt(state))

    def validate(self, state: GoldenEggState, seat: str, orders: Sequence[GoldenEggOrder]) -> list[OrderProblem]:
        """Return the problems of a submission: the guide's TARGET (with at most one IF YES and one IF NO
        action), a follower's VOTE (VOTE YES with at most one both-YES action), or one action in the
        act step. A bad TARGET, VOTE or act refuses the whole submission; a bad action filed in advance
        is refused alone (the rest is stored)."""
        if problems := self.turn_problems(state, seat):
            return problems
        i = state.seats.index(seat)
        if state.stage == STAGE_TARGET:
            return _target_problems(state, i, orders)
        if state.stage == STAGE_VOTE:
            return _vote_problems(state, i, orders)
        return _act_problems(state, i, orders)

    def default_orders(self, state: GoldenEggState, seat: str) -> list[GoldenEggOrder]:
        """Return the NMR play: TARGET the lowest legal cliff (a, c, b, d, e, f); VOTE YES; ADD after a
        both-YES vote; on both NO the guide adds on the lowest legal cliff; the lone NO voter passes."""
        i = state.seats.index(seat)
        if state.stage == STAGE_TARGET:
            return [Target(_lowest_target(state, i))]
        if state.stage == STAGE_VOTE:
            return [Vote(True)]
        if state.mode == BOTH_YES:
            return [Add()]
        if state.mode == BOTH_NO:
            return [Add(_lowest_target(state, i))]
        return [Pass()]

    def forced_orders(self, state: GoldenEggState, seat: str) -> list[GoldenEggOrder] | None:
        """Return ADD for a both-YES actor with no adventurer on the target (his only play), PASS for a
        lone NO voter with no adventurer on the card; else None. Both depend on the board alone."""
        if state.stage != STAGE_ACT:
            return None
        i = state.seats.index(seat)
        if state.mode == BOTH_YES and not state.count(i, state.target):
            return [Add()]
        if state.mode == SPLIT and not any(state.pieces[i]):
            return [Pass()]
        return None

    def order_choices(self, state: GoldenEggState, seat: str) -> list[list[GoldenEggOrder]] | None:
        """Return the guide's legal TARGETs, a follower's VOTE YES and VOTE NO, or the actor's legal
        actions (when few); actions filed in advance are the optional extras left out."""
        i = state.seats.index(seat)
        if state.stage == STAGE_TARGET:
            return few_choices(single_orders(Target(cliff) for cliff in state.legal_targets(i)))
        if state.stage == STAGE_VOTE:
            return [[Vote(True)], [Vote(False)]]
        return few_choices(single_orders(_order_of(action, state.mode) for action in legal_actions(state, i)))

    def submission_summary(self, state: GoldenEggState, seat: str, orders: Sequence[GoldenEggOrder]) -> str:
        """Return what the service will do with the actions filed in advance (to the sender only), or ``""``."""
        target = next((o.cliff for o in orders if isinstance(o, Target)), state.target)
        filed = [(o.yes, o.action) for o in orders if isinstance(o, Plan)]
        filed += [(True, o) for o in orders if isinstance(o, Add | Move)] if state.stage == STAGE_VOTE else []
        if not filed:
            return ""
        plays = "; ".join(f"if both followers vote {'YES' if yes else 'NO'}, {_text(_action_of(action, target))}"
                          for yes, action in sorted(filed, key=lambda item: not item[0]))
        return f"Filed in advance, sealed until used: {plays}. The service plays it for you then, without asking."

    def sample_orders(self, state: GoldenEggState, seat: str, rng: GameRng) -> list[GoldenEggOrder]:
        """Return a random legal submission; targets and YES votes sometimes carry actions filed in
        advance."""
        i = state.seats.index(seat)
        if state.stage == STAGE_TARGET:
            target = rng.choice(state.legal_targets(i))
            aimed = replace(state, target=target)
            orders: list[GoldenEggOrder] = [Target(target)]
            if rng.random() < 0.3:
                orders.append(Plan(True, _order_of(rng.choice(yes_actions(aimed, i)), BOTH_YES)))
            if rng.random() < 0.3:
                orders.append(Plan(False, _order_of(rng.choice(no_actions(aimed, i)), BOTH_NO)))
            return orders
        if state.stage == STAGE_VOTE:
            yes = rng.random() < 0.6
            orders = [Vote(yes)]
            if yes and rng.random() < 0.3:
                orders.append(_order_of(rng.choice(yes_actions(state, i)), BOTH_YES))
            return orders
        return [_order_of(rng.choice(legal_actions(state, i)), state.mode)]

    # --- resolving ------------------------------------------------------

    def resolve(self, state: GoldenEggState, orders: Mapping[str, Sequence[GoldenEggOrder]],
                rng: GameRng) -> Resolution[GoldenEggState]:
        """Carry out the step: the target, the vote (with every action filed in advance that it calls
        for), or one actor's action; end the round once nobody is left to act.

        Raises GameError when the game is over or an owing seat sent no entry, IllegalOrder for a
        submission validate refuses.
        """
        given = self.owed_orders(state, orders)
        label = f"Round {state.round}"
        if state.stage == STAGE_TARGET:
            state, events = _aim(state, given[state.seats[state.guide]], label)
            return Resolution(state, events)
        if state.stage == STAGE_VOTE:
            state, events = _count_votes(state, given, label)
        else:
            i = state.actors[0]
            (order,) = given[state.seats[i]]
            state, event = _carry_out(state, i, _action_of(order, state.target), label, filed=False)
            state, events = replace(state, actors=state.actors[1:]), [event]
        state, more = _advance(state, label)
        return Resolution(state, events + more)

    def outcome(self, state: GoldenEggState) -> Outcome | None:
        """Return the highest score once the game is over (a tie shares the victory)."""
        if not state.is_over:
            return None
        scores = [state.score(i) for i in range(len(state.seats))]
        best = max(scores)
        winners = tuple(s for s, n in zip(state.seats, scores, strict=True) if n == best)
        who = f"Seat {winners[0]} scores" if len(winners) == 1 else f"Seats {', '.join(winners)} share"
        return Outcome(winners, f"{state.end_reason} {who} the most, {best}.")

    def scores(self, state: GoldenEggState) -> dict[str, int]:
        """Return each seat's cliff values so far (the board is public)."""
        return {s: state.score(i) for i, s in enumerate(state.seats)}

    # --- hidden information -------------------------------------------------

    def hidden_variant(self, state: GoldenEggState, keep: str | None, rng: GameRng) -> GoldenEggState:
        """Return ``state`` with every action filed in advance that ``keep`` does not hold redrawn: for a
        seat that could hold one now, none or a random legal one."""
        yes_plans = list(state.yes_plans)
        no_plans = list(state.no_plans)
        for i, seat in enumerate(state.seats):
            if seat == keep:
                continue
            if _may_hold_yes_plan(state, i):
                yes_plans[i] = rng.choice([(), *yes_actions(state, i)])
            if state.stage == STAGE_VOTE and i == state.guide:
                no_plans[i] = rng.choice([(), *no_actions(state, i)])
        return replace(state, yes_plans=tuple(yes_plans), no_plans=tuple(no_plans))

    # --- showing ----------------------------------------------------------

    def view(self, state: GoldenEggState, seat: str | None) -> dict[str, Any]:
        """Return the cliffs with every group's adventurers, the supplies and scores, the guide, the
        target, the votes once counted and who acts, for everyone; a seat's own actions filed in
        advance for that seat only (another seat's never: used ones are told as they happen)."""
        reader = state.seats.index(seat) if seat in state.seats else None
        acting = state.seats[state.actors[0]] if state.stage == STAGE_ACT else None
        players = [
            {"seat": s, "you": i == reader, "guide": i == state.guide, "supply": state.supply(i),
             "on_card": ADVENTURERS - state.supply(i), "score": state.score(i), "to_act": s == acting,
             "cliffs_held": sum(1 for n in state.pieces[i] if n)}
            for i, s in enumerate(state.seats)
        ]
        cliffs = [
            {"cliff": c, "value": VALUES[c], "target": c == state.target,
             "links": list(neighbours(c)), "needs": list(BELOW.get(c, ())),
             "pieces": [{"seat": s, "count": state.count(i, c)} for i, s in enumerate(state.seats)]}
            for c in TOP_DOWN
        ]
        votes = [{"seat": state.seats[i], "vote": v.upper()} for i, v in zip(state.followers, state.votes,
                                                                               strict=False)]
        plans = None
        if reader is not None and not state.is_over:
            yes_plan = state.yes_plans[reader]
            no_plan = state.no_plans[reader]
            if yes_plan or no_plan:
                plans = {"if_yes": _text(yes_plan) if yes_plan else None, "if_no": _text(no_plan) if no_plan else None}
        return {
            "round": state.round,
            "max_rounds": state.max_rounds,
            "over": state.is_over,
            "end_reason": state.end_reason or None,
            "stage": state.stage,
            "guide": state.seats[state.guide],
            "followers": [state.seats[i] for i in state.followers],
            "target": state.target or None,
            "legal_targets": list(state.legal_targets(state.guide)) if state.stage == STAGE_TARGET else None,
            "mode": state.mode or None,
            "votes": votes,
            "to_act": acting,
            "still_to_act": [state.seats[i] for i in state.actors],
            "cliffs": cliffs,
            "links": sorted("-".join(sorted(pair)) for pair in LINKS),
            "players": players,
            "your_plans": plans,
        }


# --- what a seat may do ----------------------------------------------------------------------


def yes_actions(state: GoldenEggState, i: int) -> list[Action]:
    """Return seat i's plays after a both-YES vote: ADD to the target (with an adventurer in supply),
    MOVE one of his from the target to a connected cliff [R]."""
    actions: list[Action] = [("add", state.target)] if state.supply(i) else []
    if state.count(i, state.target):
        actions += [("move", state.target, dest) for dest in neighbours(state.target)]
    return actions


def _moves(state: GoldenEggState, i: int) -> list[Action]:
    """Every move of one of seat i's adventurers from any cliff to a connected one."""
    return [("move", source, dest) for source in CLIFFS if state.count(i, source) for dest in neighbours(source)]


def no_actions(state: GoldenEggState, i: int) -> list[Action]:
    """Return the guide's plays after a both-NO vote: ADD to a cliff the targeting rules allow him,
    MOVE any of his adventurers to a connected cliff, or PASS [R][D]."""
    adds: list[Action] = [("add", c) for c in state.legal_targets(i)] if state.supply(i) else []
    return [*adds, *_moves(state, i), ("pass",)]


def split_actions(state: GoldenEggState, i: int) -> list[Action]:
    """Return the lone NO voter's plays: MOVE any of his adventurers to a connected cliff, or PASS [R][D]."""
    return [*_moves(state, i), ("pass",)]


def legal_actions(state: GoldenEggState, i: int) -> list[Action]:
    """Return what the actor of the act step may play under the round's vote."""
    if state.mode == BOTH_YES:
        return yes_actions(state, i)
    if state.mode == BOTH_NO:
        return no_actions(state, i)
    return split_actions(state, i)


def _lowest_target(state: GoldenEggState, i: int) -> str:
    """The first cliff seat i may target in the order a, c, b, d, e, f (by value, then name) [D]."""
    return next(c for c in TARGET_ORDER if c in state.legal_targets(i))


def _may_hold_yes_plan(state: GoldenEggState, i: int) -> bool:
    """True when seat i could hold a sealed both-YES action now: the guide while the followers vote,
    a follower still to act after a both-YES vote (other than the one acting now)."""
    if state.stage == STAGE_VOTE:
        return i == state.guide
    return state.stage == STAGE_ACT and state.mode == BOTH_YES and i in state.actors[1:]


def _action_of(order: GoldenEggOrder, target: str) -> Action:
    """The action an ADD, MOVE or PASS order stands for (a bare ADD adds to the target)."""
    if isinstance(order, Add):
        return ("add", order.cliff or target)
    if isinstance(order, Move):
        return ("move", order.source, order.dest)
    if isinstance(order, Pass):
        return ("pass",)
    raise GameError(f"{order} is not an action")


def _order_of(action: Action, mode: str) -> ActionOrder:
    """The order text of an action: a bare ADD for the target after a both-YES vote."""
    if action[0] == "add":
        return Add() if mode == BOTH_YES else Add(action[1])
    if action[0] == "move":
        return Move(action[1], action[2])
    return Pass()


def _put(plans: tuple[Action, ...], i: int, action: Action) -> tuple[Action, ...]:
    """``plans`` with seat i's entry replaced by ``action``."""
    return tuple(action if j == i else plan for j, plan in enumerate(plans))


def _text(action: Action) -> str:
    return str(_order_of(action, BOTH_NO))


def _action_problem(state: GoldenEggState, i: int, mode: str, order: GoldenEggOrder) -> str | None:
    """Why seat i may not play ``order`` under ``mode`` (both YES, split, both NO); None when he may."""
    if not isinstance(order, Add | Move | Pass):
        return f"{order}: send ADD, MOVE or PASS here"
    action = _action_of(order, state.target)
    if action in {BOTH_YES: yes_actions, BOTH_NO: no_actions, SPLIT: split_actions}[mode](state, i):
        return None
    if isinstance(order, Pass):
        return f"{order}: after a both-YES vote everybody must ADD to {state.target} or MOVE from it"
    if isinstance(order, Add):
        if not state.supply(i):
            return f"{order}: all {ADVENTURERS} of your adventurers are on the cliffs"
        if mode == SPLIT:
            return f"{order}: after a split vote the NO voter may only MOVE or PASS"
        if mode == BOTH_YES:
            return f"{order}: after a both-YES vote you add to the target, {state.target} (send ADD)"
        legal = ", ".join(state.legal_targets(i))
        return f"{order}: the targeting rules do not allow {action[1]} for you (you may add to {legal})"
    source, dest = action[1], action[2]
    if source == dest or not linked(source, dest):
        return f"{order}: {source} and {dest} are not connected (links: {', '.join(neighbours(source))})"
    if not state.count(i, source):
        return f"{order}: you have no adventurer on {source}"
    return f"{order}: after a both-YES vote you may move only from the target, {state.target}"


def _target_problems(state: GoldenEggState, i: int, orders: Sequence[GoldenEggOrder]) -> list[OrderProblem]:
    targets = [o for o in orders if isinstance(o, Target)]
    if len(targets) != 1:
        return [OrderProblem(None, "the guide sends exactly one TARGET, e.g. TARGET b (and at most one IF YES and "
                                   "one IF NO action)")]
    cliff = targets[0].cliff
    if cliff not in state.legal_targets(i):
        needs = " and ".join(BELOW[cliff])
        return [OrderProblem(None, f"{targets[0]}: you may target {cliff} only with an adventurer of yours on both "
                                   f"{needs} (you may target {', '.join(state.legal_targets(i))}); nothing is stored")]
    aimed = replace(state, target=cliff)
    problems = []
    seen: set[bool] = set()
    for index, order in enumerate(orders):
        if isinstance(order, Target):
            continue
        if not isinstance(order, Plan):
            problems.append(OrderProblem(index, f"{order}: the guide acts later; to file an action now write "
                                                f"IF YES {order} or IF NO {order}"))
        elif order.yes in seen:
            problems.append(OrderProblem(index, f"{order}: only one IF {'YES' if order.yes else 'NO'} action"))
        else:
            problem = _action_problem(aimed, i, BOTH_YES if order.yes else BOTH_NO, order.action)
            if problem is None:
                seen.add(order.yes)
            else:
                problems.append(OrderProblem(index, f"IF {'YES' if order.yes else 'NO'} {problem}"))
    return problems


def _vote_problems(state: GoldenEggState, i: int, orders: Sequence[GoldenEggOrder]) -> list[OrderProblem]:
    votes = [o for o in orders if isinstance(o, Vote)]
    if len(votes) != 1:
        return [OrderProblem(None, "a follower sends exactly one vote: VOTE YES or VOTE NO")]
    problems = []
    actions = 0
    for index, order in enumerate(orders):
        if isinstance(order, Vote):
            continue
        if isinstance(order, Target | Plan):
            problems.append(OrderProblem(index, f"{order}: only the guide targets and files IF actions"))
        elif not votes[0].yes:
            problems.append(OrderProblem(index, f"{order}: an action filed with the vote goes with VOTE YES only "
                                                "(it is your play should both followers vote YES)"))
        elif actions:
            problems.append(OrderProblem(index, f"{order}: only one action may go with the vote"))
        elif (problem := _action_problem(state, i, BOTH_YES, order)) is not None:
            problems.append(OrderProblem(index, problem))
        else:
            actions += 1
    return problems


def _act_problems(state: GoldenEggState, i: int, orders: Sequence[GoldenEggOrder]) -> list[OrderProblem]:
    if len(orders) != 1:
        return [OrderProblem(None, "send exactly one action: ADD, ADD <cliff>, MOVE <from>-<to> or PASS")]
    problem = _action_problem(state, i, state.mode, orders[0])
    return [] if problem is None else [OrderProblem(None, problem)]


# --- the steps of a round -------------------------------------------------------------------------


def _aim(state: GoldenEggState, orders: Sequence[GoldenEggOrder], label: str) -> tuple[GoldenEggState, list[Event]]:
    """[R] Phase 1: the guide names the target; his actions filed in advance are kept sealed."""
    guide = state.seats[state.guide]
    (cliff,) = (o.cliff for o in orders if isinstance(o, Target))
    plans = {o.yes: _action_of(o.action, cliff) for o in orders if isinstance(o, Plan)}
    state = replace(state, target=cliff, stage=STAGE_VOTE, yes_plans=_put(state.yes_plans, state.guide,
                                                                            plans.get(True, ())),
                    no_plans=_put(state.no_plans, state.guide, plans.get(False, ())))
    followers = " and ".join(f"seat {state.seats[i]}" for i in state.followers)
    events = [Event("target", f"Seat {guide}, the guide, targets cliff {cliff} (worth {VALUES[cliff]}); "
                              f"{followers} vote.", label, seat=guide, data={"cliff": cliff})]
    if plans:
        filed = "; ".join(f"if both vote {'YES' if yes else 'NO'}: {_text(action)}" for yes, action in
                          sorted(plans.items(), reverse=True))
        events.append(Event("filed", f"Your actions filed in advance (sealed until used): {filed}.", label,
                            seat=guide, seats=(guide,)))
    return state, events


def _count_votes(state: GoldenEggState, given: Mapping[str, Sequence[GoldenEggOrder]],
                 label: str) -> tuple[GoldenEggState, list[Event]]:
    """[R] Phase 2 revealed: both votes at once; who acts follows from them."""
    votes: list[str] = []
    yes_plans = list(state.yes_plans)
    events = []
    for i in state.followers:
        seat = state.seats[i]
        vote = next(o for o in given[seat] if isinstance(o, Vote))
        votes.append("yes" if vote.yes else "no")
        action = next((o for o in given[seat] if not isinstance(o, Vote)), None)
        if action is not None:
            yes_plans[i] = _action_of(action, state.target)
            events.append(Event("filed", f"Your action filed with your vote (sealed until used): {action}.", label,
                                seat=seat, seats=(seat,)))
    f1, f2 = (state.seats[i] for i in state.followers)
    said = f"Seat {f1} votes {votes[0].upper()} and seat {f2} votes {votes[1].upper()}"
    g = state.guide
    if votes == ["yes", "yes"]:
        mode, actors = BOTH_YES, (g, *state.followers)
        then = f"both follow: seat {state.seats[g]} and then seats {f1} and {f2} each add to {state.target} or move " \
               "from it."
        plans = tuple(yes_plans)
    elif votes == ["no", "no"]:
        mode, actors = BOTH_NO, (g,)
        then = f"neither follows: seat {state.seats[g]}, the guide, may add or move."
        plans = ((),) * len(state.seats)
    else:
        no_voter = state.followers[votes.index("no")]
        yes_voter = state.followers[votes.index("yes")]
        mode, actors = SPLIT, (no_voter,)
        then = f"the vote splits: seat {state.seats[no_voter]} may move an adventurer; seat " \
               f"{state.seats[yes_voter]} takes the disc and guides the next round."
        plans = ((),) * len(state.seats)
    events.insert(0, Event("votes", f"{said}: {then}", label, data={"votes": dict(zip((f1, f2), votes, strict=True)),
                                                                      "mode": mode}))
    no_plans = state.no_plans if mode == BOTH_NO else ((),) * len(state.seats)
    return replace(state, stage=STAGE_ACT, mode=mode, votes=tuple(votes), actors=actors, yes_plans=plans,
                   no_plans=no_plans), events


def _filed_plan(state: GoldenEggState, i: int) -> Action:
    """The action seat i filed in advance for the round's vote, or ``()``."""
    if state.mode == BOTH_YES:
        return state.yes_plans[i]
    if state.mode == BOTH_NO:
        return state.no_plans[i]
    return ()


def _advance(state: GoldenEggState, label: str) -> tuple[GoldenEggState, list[Event]]:
    """Carry out the actions filed in advance of the actors next in line; end the round when nobody is
    left to act."""
    events = []
    while state.actors:
        i = state.actors[0]
        plan = _filed_plan(state, i)
        if not plan:
            return state, events
        if plan not in legal_actions(state, i):
            raise GameError(f"seat {state.seats[i]}'s action filed in advance, {_text(plan)}, is no longer legal")
        state, event = _carry_out(state, i, plan, label, filed=True)
        events.append(event)
        state = replace(state, actors=state.actors[1:], yes_plans=_put(state.yes_plans, i, ()),
                        no_plans=_put(state.no_plans, i, ()))
    state, more = _end_round(state, label)
    return state, events + more


def _carry_out(state: GoldenEggState, i: int, action: Action, label: str, *,
               filed: bool) -> tuple[GoldenEggState, Event]:
    """Apply one ADD, MOVE or PASS of seat i."""
    seat = state.seats[i]
    note = " (filed in advance)" if filed else ""
    data: dict[str, Any] = {"action": _text(action), "filed": filed}
    if action[0] == "pass":
        return state, Event("pass", f"Seat {seat} passes{note}.", label, seat=seat, data=data)
    row = list(state.pieces[i])
    if action[0] == "add":
        row[CLIFFS.index(action[1])] += 1
        left = f"{ADVENTURERS - sum(row)} left to place" + ("; filed in advance" if filed else "")
        text = f"Seat {seat} adds an adventurer to {action[1]} ({left})."
    else:
        row[CLIFFS.index(action[1])] -= 1
        row[CLIFFS.index(action[2])] += 1
        text = f"Seat {seat} moves an adventurer from {action[1]} to {action[2]}{note}."
    pieces = tuple(tuple(row) if j == i else p for j, p in enumerate(state.pieces))
    return replace(state, pieces=pieces), Event(action[0], text, label, seat=seat, data=data)


def _end_round(state: GoldenEggState, label: str) -> tuple[GoldenEggState, list[Event]]:
    """[R] End of the round: the game ends when a group stands on all six cliffs or has all its
    adventurers on the card, or [D] after the last round; else the next round begins (a split vote
    gave the disc to its YES voter)."""
    everywhere = [s for i, s in enumerate(state.seats) if all(state.pieces[i])]
    placed = [s for i, s in enumerate(state.seats) if not state.supply(i)]
    reasons = [f"seat {s} has an adventurer on all six cliffs" for s in everywhere]
    reasons += [f"seat {s} has all {ADVENTURERS} adventurers on the cliffs" for s in placed]
    if not reasons and state.round >= state.max_rounds:
        reasons.append(f"round {state.round} was the last (max_rounds={state.max_rounds})")
    if reasons:
        why = "The game ends: " + "; ".join(reasons) + "."
        scores = ", ".join(f"seat {s} {state.score(i)}" for i, s in enumerate(state.seats))
        return replace(state, stage=STAGE_OVER, actors=(), end_reason=why), [
            Event("end", f"{why} Scores: {scores}.", label)]
    guide = state.guide
    if state.mode == SPLIT:
        guide = state.followers[state.votes.index("yes")]
    state = replace(state, stage=STAGE_TARGET, round=state.round + 1, guide=guide, target="", mode="", votes=(),
                    actors=(), yes_plans=((),) * len(state.seats), no_plans=((),) * len(state.seats))
    return state, [Event("round", f"Round {state.round} begins; seat {state.seats[guide]} is the guide.", label)]


# --- prompts ------------------------------------------------------------------------------------


def _target_prompt(state: GoldenEggState) -> str:
    legal = ", ".join(state.legal_targets(state.guide))
    return (f"Round {state.round}, you are the guide: TARGET a cliff ({legal}). You may add IF YES <action> and "
            "IF NO <action>, used (and told) only if both followers vote that way.")


def _vote_prompt(state: GoldenEggState) -> str:
    return (f"Round {state.round}: seat {state.seats[state.guide]} targets {state.target}. VOTE YES or VOTE NO "
            "(sealed; both votes are shown together). With VOTE YES you may add your action should both vote YES.")


def _act_prompt(state: GoldenEggState) -> str:
    i = state.actors[0]
    if state.mode == BOTH_YES:
        moves = [f"MOVE {state.target}-{dest}" for dest in neighbours(state.target)] if state.count(i, state.target) \
            else []
        return f"Both followers voted YES: ADD (to {state.target})" + (f" or {', '.join(moves)}" if moves else "") + "."
    if state.mode == BOTH_NO:
        legal = ", ".join(state.legal_targets(i))
        return f"Both followers voted NO: you may ADD <cliff> ({legal}), MOVE <from>-<to> one of yours, or PASS."
    return "You voted NO alone: you may MOVE <from>-<to> one of your adventurers to a connected cliff, or PASS."
