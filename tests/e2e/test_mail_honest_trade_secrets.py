"""A whole game of An Honest Trade by real mail, with windows nobody answers, and every mail
anybody got read for secret colours.

Three players join by mail and play to the end, sending their orders with SIGNON. The first
window on an action gets no answer at all and the GM closes it with PROCESS; a later window gets
one answer and is closed by its own deadline (the window's hours, window_hours, as the game's phase
says, not the game's turn_hours), the
silent seats passed (not NMR, never reminded). An outsider asks HELP and STATUS along the way (STATUS
says when a window closes). At the end every mail each seat, the GM and the outsider received (plain
text and HTML) is read:

- a seat's own secret colour is named only in its own mails ("Your secret colour: ...");
- another seat's secret colour is named only once it is told to everybody: in the report of the
  turn that put that seat out, in later reports, and in the final report;
- no other sentence names a secret colour (a wrong accusation says only what it is not);
- the draws listed in the mails are never the sealed draws of the secret colours and discards.
"""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

from mail_games import eventually
from mail_harness import MailHarness, Person, running_service
from mail_secrets import (
    MAIL_TIMEOUT,
    create_and_join,
    listed_counters,
    readable,
    sealed_counters,
)

from pbem.clock import format_utc
from pbem.core import GameRng
from pbem.games import find_game
from pbem.sandbox.mailclient import ReceivedMail, read_mail

NAME = "trade-1"
SEED = 31
ROBOT_SEED = 243
"""Picked so that the short game has reactions (one of them caught), three of a kind, discards and
eliminations."""
GAME_SECONDS = 120.0
MAX_STEPS = 120
OPTIONS = {"window_hours": "6"}

GAME = find_game("honest-trade")
_C = "(red|white|yellow|green|blue)"
OWN = re.compile(rf"Your secret colour: {_C}\.", re.IGNORECASE)
OWN_REFUSED = re.compile(rf"(?:ACCUSE PAY|DISCARD) {_C}: you may not (?:pay with|discard) your secret colour",
                         re.IGNORECASE)
TOLD = [
    re.compile(rf"seat (\d)'s secret colour was {_C}"),
    re.compile(rf"seat (\d)(?: \(you\))?: out of the game \(secret colour {_C}\)"),
    re.compile(rf"seat (\d) of using the secret colour in the (?:action|reaction) \({_C}\): right"),
]
FINAL_LIST = re.compile(r"The secret colours were: ([^.\n]*)\.")
FINAL_PAIR = re.compile(rf"seat (\d) {_C}")
SAFE = [
    re.compile(r"not the secret colour \(wrong accusations\): [a-z, ]*"),
    re.compile(rf"{_C} is not seat \d's secret colour"),
    re.compile(rf"if {_C} is seat \d's secret colour"),
    re.compile(rf"of using the secret colour in the (?:action|reaction) \({_C}\): wrong"),
]
COLOUR_WORD = re.compile(rf"\b{_C}\b", re.IGNORECASE)
REPORT = re.compile(rf"^\[{NAME}\] Turn (\d+)")


def final_board_secrets(text: str) -> set[tuple[str, str]]:
    """The (seat, colour) pairs of the final board's "secret colour:" lines."""
    pairs: set[tuple[str, str]] = set()
    seat = None
    for line in text.split("\n"):
        header = re.match(r"^seat (\d)\b", line)
        if header:
            seat = header.group(1)
        told = re.match(rf"^\s+secret colour: {_C}$", line)
        if told and seat is not None:
            pairs.add((seat, told.group(1)))
    return pairs


def told_in(mail: ReceivedMail, text: str) -> tuple[set[tuple[str, str]], str]:
    """The (seat, colour) secrets ``text`` tells of anybody, and the text with them taken out."""
    pairs = final_board_secrets(text)
    text = re.sub(rf"^\s+secret colour: {_C}$", "", text, flags=re.MULTILINE)
    for pattern in TOLD:
        pairs |= {(m.group(1), m.group(2).lower()) for m in pattern.finditer(text)}
        text = pattern.sub("", text)
    for listed in FINAL_LIST.findall(text):
        pairs |= {(s, c) for s, c in FINAL_PAIR.findall(listed)}
    text = FINAL_LIST.sub("", text)
    for pattern in SAFE:
        text = pattern.sub("", text)
    return pairs, text


def eliminated_by_turn(service: MailHarness) -> dict[str, int]:
    """Seat -> the turn whose resolution put it out (from the stored history)."""
    out: dict[str, int] = {}
    for record in service.runner.history(NAME):
        for event in record.events:
            if event["kind"] == "eliminated":
                out[event["seat"]] = record.turn
    return out


def assert_no_secret(who: str, seat: str | None, mails: list[ReceivedMail], secrets: dict[str, str],
                     out_at: dict[str, int], sealed: set[int], help_text: str) -> None:
    """No mail of ``who`` (the holder of ``seat``, or None for the GM and the outsider) names a secret
    colour before it is told to everybody, or a sealed draw."""
    assert mails, f"{who} got no mail"
    for mail in mails:
        text = readable(mail, help_text)
        where = f"{who}, {mail.subject!r}"
        for colour in OWN.findall(text) + OWN_REFUSED.findall(text):
            assert seat is not None and colour.lower() == secrets[seat], f"{where}: names {colour} as the reader's own"
        rest = OWN_REFUSED.sub("", OWN.sub("", text))
        told, rest = told_in(mail, rest)
        report = REPORT.match(mail.subject)
        final = mail.subject == f"[{NAME}] Final report"
        for owner, colour in told:
            assert secrets[owner] == colour, f"{where}: tells seat {owner}'s secret as {colour}"
            public = final or (owner in out_at and report is not None and out_at[owner] <= int(report.group(1)))
            assert owner == seat or public, f"{where}: tells seat {owner}'s secret before it is public"
        for line in rest.split("\n"):
            if "secret" in line.lower():
                assert not COLOUR_WORD.search(line), f"{where}: a secret and a colour in one line: {line!r}"
        listed = listed_counters(text)
        assert not listed & sealed, f"{where}: sealed draws listed: {sorted(listed & sealed)}"


async def mail_orders(person: Person, seat: str, password: str, text: str) -> None:
    """Send ``text`` as the seat's orders with SIGNON."""
    await person.send(f"SIGNON {NAME} {seat} {password}\n{text}\nSIGNOFF\n")


async def wait_for_final(service: MailHarness, person: Person) -> None:
    """Wait until ``person`` got the final report."""
    async def has_final() -> bool:
        mails = [read_mail(m.raw) for m in await service.servers.inbox(person.address)]
        return any(m.subject == f"[{NAME}] Final report" for m in mails)

    loop = asyncio.get_running_loop()
    deadline = loop.time() + MAIL_TIMEOUT
    while not await has_final():
        assert loop.time() < deadline, f"{person.address} got no final report"
        await asyncio.sleep(0.1)


def test_no_mail_of_a_whole_game_tells_a_secret_colour_before_it_is_public(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            opened = await create_and_join(service, "honest-trade", NAME, 3,
                                           f"seed={SEED} " + " ".join(f"{k}={v}" for k, v in OPTIONS.items()))
            gm, gm_password, seats = opened.gm, opened.gm_password, opened.seats
            outsider = service.person("nosy@outside.test")
            await outsider.send("HELP honest-trade\n")
            await outsider.last(timeout=MAIL_TIMEOUT)
            await gm.send(f"GM {NAME} {gm_password}\nSTART\n")
            await eventually(lambda: service.runner.info(NAME).phase is not None)

            robots = GameRng(ROBOT_SEED)
            closed_by = {"process": 0, "deadline": 0}
            for step in range(MAX_STEPS):
                info = service.runner.info(NAME)
                if info.outcome is not None:
                    break
                assert info.phase is not None
                turn, state, phase = info.row.turn, info.state, info.phase
                choosing = [s for s in phase.seats if GAME.forced_orders(state, s) is None]
                if phase.name == "window" and not closed_by["process"]:
                    closed_by["process"] += 1  # nobody answers: the GM closes the window
                    await gm.send(f"GM {NAME} {gm_password}\nPROCESS\n")
                elif phase.name in ("window", "reactor-window") and len(choosing) > 1 and not closed_by["deadline"]:
                    closed_by["deadline"] += 1  # one answer, the others silent: the deadline closes it
                    person, password = seats[choosing[0]]
                    await mail_orders(person, choosing[0], password, "PASS")
                    await eventually(lambda s=choosing[0]: service.runner.current_orders(NAME, s) is not None,
                                     timeout=MAIL_TIMEOUT)
                    # the window's own length, from the game's phase, when shorter than the game's turn
                    assert phase.is_window and phase.deadline_hours is not None
                    assert phase.deadline_hours < info.row.turn_hours, (phase.deadline_hours, info.row.turn_hours)
                    opened_at = service.runner.history(NAME)[-1].resolved_at
                    closes = opened_at + timedelta(hours=phase.deadline_hours)
                    assert info.row.deadline == closes, (info.row.deadline, closes)
                    await outsider.send(f"STATUS {NAME}\n")
                    status = (await outsider.last(timeout=MAIL_TIMEOUT)).body
                    assert f"Deadline: {format_utc(closes)}." in status, status
                    assert "This is an answer window: it closes at its deadline" in status, status
                    service.clock.now = closes - timedelta(minutes=1)
                    await service.settle(0.5)
                    assert service.runner.info(NAME).row.turn == turn, "the window closed before its deadline"
                    service.clock.now = closes
                else:
                    for seat in choosing:
                        person, password = seats[seat]
                        orders = GAME.sample_orders(state, seat, robots)
                        await mail_orders(person, seat, password, "\n".join(str(o) for o in orders))
                await eventually(lambda before=turn: service.runner.info(NAME).row.turn > before,
                                 timeout=MAIL_TIMEOUT)
                if step % 6 == 0:
                    await outsider.send(f"STATUS {NAME}\n")
                    status = await outsider.last(timeout=MAIL_TIMEOUT)
                    assert NAME in status.body
            info = service.runner.info(NAME)
            assert info.outcome is not None, f"the game did not end in {MAX_STEPS} steps"
            assert closed_by == {"process": 1, "deadline": 1}, closed_by
            history = service.runner.history(NAME)
            silent = [r for r in history if r.phase == "window" and r.reason == "gm"]
            assert silent and all(orders == ["PASS"] for orders in silent[0].orders.values())
            assert any(r.reason == "deadline" and r.phase in ("window", "reactor-window") for r in history)
            kinds = {event["kind"] for record in history for event in record.events}
            assert {"accusation", "react", "void", "three", "discard", "eliminated"} <= kinds, kinds
            closed = next(r for r in history if r.reason == "deadline")
            assert closed.passed and not closed.nmr, (closed.passed, closed.nmr)
            assert not any(seat.absent_since for seat in service.runner.info(NAME).seats)

            for person, _ in seats.values():
                await wait_for_final(service, person)
            await service.settle(0.5)
            secrets = dict(zip(GAME.seat_names(3), info.state.secrets, strict=True))
            out_at = eliminated_by_turn(service)
            assert len(out_at) >= 2
            sealed = sealed_counters(service, NAME, GAME)
            assert sealed
            help_text = GAME.help()
            people: list[tuple[str, str | None, Any]] = [(f"seat {s}", s, p) for s, (p, _) in seats.items()]
            people += [("the GM", None, gm), ("the outsider", None, outsider)]
            for who, seat, person in people:
                mails = [read_mail(m.raw) for m in await service.servers.inbox(person.address)]
                assert_no_secret(who, seat, mails, secrets, out_at, sealed, help_text)
            everything = []
            for seat, (person, _) in seats.items():
                mine = "\n".join(readable(read_mail(m.raw), help_text)
                                 for m in await service.servers.inbox(person.address))
                assert f"Your secret colour: {secrets[seat]}." in mine, f"seat {seat} was never told its colour"
                everything.append(mine)
            told = "\n".join(everything)
            assert f"No answer, passed: {', '.join(closed.passed)}." in told
            assert "This is an answer window: it closes at its deadline" in told  # the reports and check replies
            subjects = [read_mail(m.raw).subject for p in (*[p for p, _ in seats.values()], gm)
                        for m in await service.servers.inbox(p.address)]
            assert not [s for s in subjects if "Reminder" in s], "a window was reminded"

    asyncio.run(asyncio.wait_for(scenario(), timeout=GAME_SECONDS))


def test_the_check_of_the_mails_can_fail() -> None:
    """The reader of the mails finds a secret told too early, in another's mail, or in a sentence it
    does not know; and lets the reader's own secret, a told one and a wrong accusation pass."""
    secrets = {"1": "red", "2": "blue", "3": "red"}

    def mail(subject: str, body: str) -> ReceivedMail:
        return ReceivedMail(subject, "gm@pbem.test", None, "<m@x>", None, None, None, body, None, b"")

    def check(seat: str | None, subject: str, body: str) -> None:
        assert_no_secret("reader", seat, [mail(subject, body)], secrets, {"2": 4}, set(), "HELP")

    check("1", f"[{NAME}] Turn 3", "Your secret colour: red.\nwrong, blue is not seat 3's secret colour.")
    check(None, f"[{NAME}] Turn 4", "Seat 2 is out of the game (rightly accused); seat 2's secret colour was blue.")
    check(None, f"[{NAME}] Final report", "The game is over. The secret colours were: seat 1 red, seat 2 blue.")
    for seat, subject, body in [
        ("3", f"[{NAME}] Turn 3", "Your secret colour: red.\nseat 2: out of the game (secret colour blue)"),
        ("3", f"[{NAME}] Turn 5", "Your secret colour: blue."),
        (None, f"[{NAME}] Turn 5", "Your secret colour: blue."),
        ("1", f"[{NAME}] Turn 5", "seat 3's secret is red"),
        ("1", f"[{NAME}] Turn 5", "seat 2's secret colour was white"),
    ]:
        try:
            check(seat, subject, body)
        except AssertionError:
            continue
        raise AssertionError(f"the check let through {body!r} to seat {seat}")
