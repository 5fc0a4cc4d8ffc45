"""A whole game of Shelloker by real mail, and every mail anybody got, read for secrets.

Three players join by mail and play to the end by replying to their reports; the
first turn is left to the deadline, so the service plays the NMR default (CHECK).
An outsider asks HELP and STATUS along the way. At the end every mail each seat,
the GM and the outsider received (plain text and HTML) is read, and none may hold
a secret it should not:

- a hand is named only in its holder's own mails ("You draw ...", "Your hand: ...")
  until a showdown shows it, and then as "seat N shows ..." to everybody;
- folded hands and the hand of a player who won because the others folded are never
  named, not even after the end;
- no other triple of cube colours appears anywhere, and no mention of the bag names a
  colour (its count only);
- the draws listed in the mails are never the sealed draws of a deal.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from mail_games import eventually
from mail_harness import MailHarness, running_service
from mail_secrets import listed_counters, mailbox, newest_report, readable, sealed_counters, start_by_mail

from pbem.core import GameRng
from pbem.games import find_game
from pbem.games.shelloker.orders import Call, Check, Fold, Raise
from pbem.games.shelloker.rules import legal_actions
from pbem.games.shelloker.state import COLOURS, ShellokerState, listed
from pbem.sandbox.mailclient import ReceivedMail

NAME = "shell-1"
SEED = 22
"""Picked so that the short game has a showdown, folds and a win by folding."""
ROBOT_SEED = 1022
GAME_SECONDS = 90.0
MAIL_TIMEOUT = 10.0
MAX_STEPS = 60

_C = f"(?:{'|'.join(COLOURS)})"
_HAND = rf"{_C}, {_C}, {_C}"
OWN = re.compile(rf"(?:You draw|Your hand:) ({_HAND})")
SHOWN = re.compile(rf"seat (\d+) shows ({_HAND})|^[ \t]*seat (\d+): ({_HAND})[ \t]*$", re.MULTILINE | re.IGNORECASE)
TRIPLE = re.compile(rf"\b{_HAND}\b")
COLOUR_WORD = re.compile(rf"\b{_C}\b", re.IGNORECASE)

GAME = find_game("shelloker")


def robot(state: ShellokerState, seat: str, rng: GameRng) -> Any:
    """A player who never sends CHECK (the command layer still reads a lone CHECK as its command):
    raises or folds before a raise, mostly calls after one."""
    actions = [a for a in legal_actions(state, state.index(seat)) if not isinstance(a, Check)]
    raises = [a for a in actions if isinstance(a, Raise)]
    roll = rng.random()
    if state.raised:
        if roll < 0.55:
            return Call()
        if roll < 0.75 and raises:
            return rng.choice(raises)
        return Fold()
    if raises and roll < 0.7:
        return rng.choice(raises)
    return Fold()


def knowledge(service: MailHarness, first_hands: dict[str, str]) -> dict[str, Any]:
    """What the stored history says: each seat's hands, the showdown hands, the folded hands and the
    hands of wins by folding."""
    hands: dict[str, set[str]] = defaultdict(set)
    by_round: dict[tuple[str, str], str] = {}
    for seat, hand in first_hands.items():
        hands[seat].add(hand)
        by_round[(seat, "Round 1")] = hand
    shown: set[tuple[str, str]] = set()
    hidden: set[tuple[str, str]] = set()
    kinds: set[str] = set()
    for record in service.runner.history(NAME):
        for event in record.events:
            kinds.add(event["kind"])
            if event["kind"] == "draw":
                seat, hand = event["seats"][0], ", ".join(event["data"]["cubes"])
                hands[seat].add(hand)
                by_round[(seat, event["phase"])] = hand
            elif event["kind"] == "showdown":
                shown |= {(seat, ", ".join(cubes)) for seat, cubes in event["data"]["hands"].items()}
            elif event["kind"] in ("fold", "fold-win"):
                hidden.add((event["seat"], by_round[(event["seat"], event["phase"])]))
    return {"hands": hands, "shown": shown, "hidden": hidden - shown, "kinds": kinds}


def assert_no_secret(who: str, seat: str | None, mails: list[ReceivedMail], known: dict[str, Any],
                     sealed: set[int], help_text: str) -> None:
    """No mail of ``who`` (the holder of ``seat``, or None for the GM and the outsider) holds a hand,
    a folded hand, the bag's content or a sealed draw it should not."""
    assert mails, f"{who} got no mail"
    for mail in mails:
        text = readable(mail, help_text)
        where = f"{who}, {mail.subject!r}"
        for hand in OWN.findall(text):
            assert seat is not None, f"{where}: names a hand as the reader's own: {hand}"
            assert hand in known["hands"][seat], f"{where}: 'your' hand {hand} was never seat {seat}'s"
        for match in SHOWN.finditer(text):
            owner, hand = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
            assert (owner, hand) in known["shown"], f"{where}: seat {owner}'s hand {hand} was never shown down"
            assert (owner, hand) not in known["hidden"]
        rest = SHOWN.sub("", OWN.sub("", text))
        assert not TRIPLE.findall(rest), f"{where}: a hand in another form: {TRIPLE.findall(rest)}"
        for line in text.split("\n"):
            if "bag" in line.lower():
                assert not COLOUR_WORD.search(line), f"{where}: the bag named with a colour: {line!r}"
        listed = listed_counters(text)
        assert not listed & sealed, f"{where}: sealed draws listed: {sorted(listed & sealed)}"


def test_no_mail_of_a_whole_game_holds_a_secret_it_should_not(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            table = await start_by_mail(service, "shelloker", NAME, 3, SEED, MAIL_TIMEOUT)
            gm, seats, outsider = table.gm, table.seats, table.outsider
            start = service.runner.info(NAME).state
            first_hands = {s: ", ".join(listed(start.hands[start.index(s)])) for s in seats}

            robots = GameRng(ROBOT_SEED)
            for step in range(MAX_STEPS):
                info = service.runner.info(NAME)
                if info.outcome is not None:
                    break
                turn, seat = info.row.turn, info.phase.seats[0]
                report = await newest_report(service, seats[seat], NAME, turn, MAIL_TIMEOUT)
                if step == 0:  # left to the deadline: the service plays the NMR default, CHECK
                    service.clock.advance(hours=49)
                else:
                    await seats[seat].reply(report, f"{robot(info.state, seat, robots)}\n")
                await eventually(lambda before=turn: service.runner.info(NAME).row.turn > before, timeout=MAIL_TIMEOUT)
                if step % 4 == 0:
                    await outsider.send(f"STATUS {NAME}\n")
                    status = await outsider.last(timeout=MAIL_TIMEOUT)
                    assert NAME in status.body
            info = service.runner.info(NAME)
            assert info.outcome is not None, f"the game did not end in {MAX_STEPS} actions"
            opening = service.runner.history(NAME)[0]
            assert opening.orders == {"1": ["CHECK"]} and opening.nmr == ["1"]
            await service.settle(0.5)

            known = knowledge(service, first_hands)
            assert {"showdown", "fold", "fold-win"} <= known["kinds"], known["kinds"]
            assert known["hidden"], "no hand was folded or won by folding"
            sealed = sealed_counters(service, NAME, GAME)
            assert sealed
            help_text = GAME.help()
            people = [(f"seat {s}", s, p) for s, p in seats.items()] + [("the GM", None, gm),
                                                                         ("the outsider", None, outsider)]
            for who, seat, person in people:
                assert_no_secret(who, seat, await mailbox(service, person), known, sealed, help_text)
            finals = await mailbox(service, seats["1"])
            assert any(m.subject == f"[{NAME}] Final report" for m in finals)
            mine = "\n".join(readable(m, help_text) for m in finals)
            assert OWN.search(mine) and SHOWN.search(mine), "the holder's own hands and the showdowns reached him"

            # After the end: the seed stays secret (from it every deal, folded hands too, could be recomputed),
            # and the views left to read, the public report and show --json, hold no hand the rules keep.
            assert service.runner.status(NAME).revealed_secret is None
            await outsider.send(f"VERIFY {NAME}\nSTATUS {NAME}\n")
            answer = (await outsider.last(timeout=MAIL_TIMEOUT)).body
            assert "Shelloker keeps its seed secret even after the end" in answer, answer
            for _who, _seat, person in people:
                for mail in await mailbox(service, person):
                    assert "Seed revealed" not in mail.body + (mail.html or "")
            public = service.runner.report_text(NAME, None) + json.dumps(service.runner.state_json(NAME))
            assert "Seed revealed" not in public
            for _seat, hand in known["hidden"]:
                assert hand not in public and json.dumps(hand.split(", ")) not in public, hand

    asyncio.run(asyncio.wait_for(scenario(), timeout=GAME_SECONDS))
