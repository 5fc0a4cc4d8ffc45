"""Every address pbem answers is verified first, through real mail: a reply address that pbem did not
sign (an invitation's, a press mail's, an unsubscribe token) is answered only as any stranger's mail is,
within the sender's rate limit, and accepts, stops or relays nothing; a genuine one still works."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

from mail_games import GM_PLAYER, OPENING_ORDERS, open_game, prove_quiet, send_all
from mail_harness import GM_ADDRESS, MailHarness, Person, running_service

from pbem.sandbox.mailclient import ReceivedMail, plain_mail

DAY = (date.today() - date(1970, 1, 1)).days
MADE_UP_INVITATION = f"gm+zz.1.k1.p-invite.{DAY}.aaaaaaaaaaaaaaaa@pbem.test"
"""An invitation's reply address in shape, with no game behind it and no valid signature."""


async def _flood(service: MailHarness, sender: str, to: str, count: int, body: str = "Count me in!\n",
                 *, subject: str = "Re: invited") -> None:
    """``count`` mails from ``sender`` to ``to``, sent one after the other over one connection."""
    await send_all(service, [plain_mail(sender, to, subject, body) for _ in range(count)])


async def _answers_within_limit(service: MailHarness, person: Person) -> list[ReceivedMail]:
    """Read what ``person`` got for a flood: the rate limit's worth of answers and the one notice that the
    pause starts, and prove that nothing more comes."""
    limit = service.daemon.handler.rate_limiter.max_mails
    answers = await person.receive(limit + 1, timeout=60)
    assert "not answered until" in answers[-1].body, answers[-1].body
    await prove_quiet(service, person)
    return answers[:-1]


def test_mail_to_a_made_up_invitation_address_is_answered_only_within_the_rate_limit(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            stranger = service.person("stranger@outside.test")
            await _flood(service, stranger.address, MADE_UP_INVITATION, 30)
            for answer in await _answers_within_limit(service, stranger):
                assert "REFUSED" in answer.body and "does not carry a valid signature" in answer.body, answer.body
                assert "You accepted" not in answer.body
            # The same with a victim's From: the victim gets no more mail than the rate limit allows
            victim = service.person("victim@elsewhere.test")
            await _flood(service, victim.address, MADE_UP_INVITATION, 25)
            await _answers_within_limit(service, victim)

    asyncio.run(scenario())


def test_a_forged_invitation_address_accepts_nothing_and_the_genuine_one_still_accepts(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm = service.person(GM_PLAYER)
            ann = service.person("ann@players.test")
            await gm.send(f"CREATE race-on-the-river r1 players=2\nSEAT 1 {ann.address}\n")
            await gm.last()
            invitation = await ann.last()
            genuine = invitation.reply_to
            assert genuine is not None and ".p-invite." in genuine
            local, _, domain = genuine.rpartition("@")
            forged = f"{local[:-16]}{'a' * 16}@{domain}"
            mallory = service.person("mallory@outside.test")
            await mallory.send("STOP\n", subject="Re: invited", to=genuine)  # a genuine address, not hers
            refused = await mallory.last()
            assert "was not sent to mallory@outside.test" in refused.body and "STOP:" not in refused.body
            await ann.send("STOP\n", subject="Re: invited", to=forged)  # ann's first mail, to a forged address
            answer = await ann.last()
            assert "does not carry a valid signature" in answer.body and "STOP:" not in answer.body
            # As any first mail from an invited address, it accepted the invitation; a forged STOP stopped nothing
            assert "You accepted seat 1 of game r1" in answer.body
            assert "ann@players.test accepted seat 1 of r1" in (await gm.last()).body
            await ann.reply(invitation, "Thanks!\n")  # the genuine address: answered as the seat's own mail
            assert "You accepted the invitation before" in (await ann.last()).body
            await prove_quiet(service, ann, gm, mallory)

    asyncio.run(scenario())


def test_forged_unsubscribe_tokens_and_stop_commands_are_answered_only_within_the_rate_limit(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            victim = service.person("victim@elsewhere.test")
            forged_token = f"{'a' * 8}.{'b' * 16}"
            await _flood(service, victim.address, GM_ADDRESS, 25, "", subject=f"STOP {forged_token}")
            for answer in await _answers_within_limit(service, victim):
                assert "REFUSED" in answer.body and "signature" in answer.body, answer.body
            other = service.person("other@elsewhere.test")
            await _flood(service, other.address, GM_ADDRESS, 25, "STOP\n", subject="stop")
            for answer in await _answers_within_limit(service, other):
                assert "pbem sends other@elsewhere.test no more mail" in answer.body, answer.body

    asyncio.run(scenario())


def test_a_flood_to_a_leaked_reply_address_brings_its_holder_one_notice_an_hour(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, leaked = game.players["A"], game.reports["A"].reply_to
            assert leaked is not None
            senders = [game.players["B"], service.person("mallory@elsewhere.test")]
            for sender in senders:
                await _flood(service, sender.address, leaked, 12, OPENING_ORDERS["A"], subject="Re: [tc-1] Turn 1")
            told = await alice.last()
            assert "tried to act for your seat A of game tc-1" in told.body and "at most once an hour" in told.body
            await prove_quiet(service, alice)
            assert service.runner.current_orders("tc-1", "A") is None
            service.clock.advance(minutes=61)
            await _flood(service, senders[1].address, leaked, 1, OPENING_ORDERS["A"], subject="Re: [tc-1] Turn 1")
            assert "A mail from mallory@elsewhere.test tried to act" in (await alice.last()).body

    asyncio.run(scenario())
