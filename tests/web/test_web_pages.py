"""The web archive over HTTP: what each page shows and what it never shows."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from datetime import date, timedelta
from xml.etree import ElementTree

import pytest
from sqlalchemy import event
from sqlmodel import select
from web_site import TC_SEATS, TP_SEATS, Site

from pbem.clock import format_utc, utcnow
from pbem.service.compaction import compact_finished
from pbem.store.tables import TurnRecordRow
from pbem.web.archive import STEPS_PER_PAGE, Archive


def get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


def test_the_game_list_shows_kind_status_turn_and_seats_but_no_address(site: Site) -> None:
    status, kind, page = get(site.url + "/")
    assert status == 200 and kind.startswith("text/html")
    assert 'href="/game/tc-1"' in page and "Turkey Chase (turkey-chase)" in page and "three-pyramids" in page
    assert "f-1" in page and "forming" in page and "1 (open)" in page
    for address in (*TC_SEATS.values(), *TP_SEATS.values()):
        assert address not in page


def test_a_game_page_steps_through_every_turn_with_public_pictures(site: Site) -> None:
    status, _, page = get(site.url + "/game/tc-1")
    assert status == 200
    for turn in range(4):
        assert f'id="turn-{turn}"' in page and f'src="/game/tc-1/{turn}.svg"' in page
    assert 'id="turn-4"' not in page
    status, kind, svg = get(site.url + "/game/tc-1/3.svg")
    assert status == 200 and kind.startswith("image/svg+xml")
    assert ElementTree.fromstring(svg).tag.endswith("svg")
    assert "<title>Turkey Chase cornfield, after turn 3</title>" in svg


def test_the_public_three_pyramids_page_shows_no_hand(site: Site) -> None:
    _, _, page = get(site.url + "/game/tp-1")
    assert "Your hand" not in page
    _, _, svg = get(site.url + "/game/tp-1/2.svg")
    assert "Your hand" not in svg


def test_a_private_link_opens_the_seats_own_view_and_nobody_elses(site: Site) -> None:
    status, _, page = get(site.link("tp-1", "1"))
    assert status == 200 and "private page of seat 1" in page
    info = site.runner.info("tp-1")
    hand_1 = info.rules.view(info.state, "1")["hand"]["text"]
    assert hand_1 in page  # the seat's own hand, in its reports
    other = info.rules.view(info.state, "2")["hand"]["text"]
    if other != hand_1:
        assert other not in page
    token = site.link("tp-1", "1").rsplit("/", 1)[1]
    status, _, svg = get(f"{site.url}/seat/{token}/4.svg")
    assert status == 200 and "Your hand" in svg
    assert get(site.link("tp-1", "1") + "?page=0")[2] == page  # one page holds the whole short game
    status, _, missing = get(site.link("tp-1", "1") + "?page=1")
    assert status == 404 and hand_1 not in missing and "tp-1" not in missing


def test_a_seat_page_shows_the_shared_board_and_its_own_picture_only_when_it_has_one(site: Site) -> None:
    """Every reader's board is the public one; a seat's own picture is there only in a game with secrets."""
    status, _, page = get(site.link("tp-1", "1"))
    assert status == 200 and 'src="/game/tp-1/4.svg"' in page and 'class="own"' in page
    assert "Your hand" not in get(site.url + "/game/tp-1/4.svg")[2]
    status, _, page = get(site.link("tc-1", "A"))
    token = site.link("tc-1", "A").rsplit("/", 1)[1]
    assert status == 200 and 'src="/game/tc-1/3.svg"' in page and 'class="own"' not in page
    status, _, missing = get(f"{site.url}/seat/{token}/3.svg")
    assert status == 404 and "<svg" not in missing  # Turkey Chase has no secrets: nothing of its own


@pytest.mark.parametrize("how", ["forged", "expired", "revoked", "reply-token", "garbage"])
def test_a_bad_private_link_gets_404_and_no_data(site: Site, how: str) -> None:
    good = site.link("tp-1", "1")
    links = {
        "forged": good[:-3] + ("aaa" if not good.endswith("aaa") else "bbb"),
        "expired": site.link("tp-1", "1", issued=date.today() - timedelta(days=61)),
        "revoked": site.link("tp-1", "1", version=2),
        "reply-token": f"{site.url}/seat/"
                       + site.tokens.address_for("gm@x.org", "tp-1", "1", 1, date.today()).split("+")[1].split("@")[0],
        "garbage": f"{site.url}/seat/../../etc",
    }
    for suffix in ("", "/1.svg"):
        status, _, page = get(links[how] + suffix)
        assert status == 404
        assert "tp-1" not in page and "Your hand" not in page and "private page" not in page and "<svg" not in page


def test_a_number_in_an_address_is_read_only_as_pbem_writes_it(site: Site) -> None:
    assert get(site.url + "/game/tc-1/1.svg")[0] == 200
    for turn in ("%EF%BC%91", "%D9%A1", "01", "00", "+1", "1.0"):  # a full-width 1, an Arabic-Indic 1, ...
        status, _, page = get(f"{site.url}/game/tc-1/{turn}.svg")
        assert status == 404 and "<svg" not in page, turn
    assert get(site.url + "/game/tp-end?page=0")[0] == 200
    for page in ("00", "01", "%EF%BC%90"):
        assert get(f"{site.url}/game/tp-end?page={page}")[0] == 404, page


def test_a_private_link_opens_only_as_it_was_written(site: Site) -> None:
    good = site.link("tp-1", "1")
    assert get(good)[0] == 200 and get(good + "/1.svg")[0] == 200
    base, token = good.rsplit("/", 1)
    game, seat, version, day, mac = token.split(".")
    respelled = {
        "a leading zero in the key version": f"{game}.{seat}.k0{version[1:]}.{day}.{mac}",
        "a leading zero in the day": f"{game}.{seat}.{version}.0{day}.{mac}",
        "a full-width digit": f"{game}.{seat}.k\uff11.{day}.{mac}",
        "upper case": token.upper(),
        "a blank around it": f"%20{token}%20",
    }
    for how, other in respelled.items():
        status, _, page = get(f"{base}/{urllib.parse.quote(other, safe='%')}")
        assert status == 404 and "Your hand" not in page, how


def test_unknown_and_forming_games_are_404(site: Site) -> None:
    assert get(site.url + "/game/nope")[0] == 404
    assert get(site.url + "/game/f-1")[0] == 404
    assert get(site.url + "/game/tc-1/99.svg")[0] == 404


def test_a_finished_game_shows_its_final_result_and_every_step_page_by_page(site: Site) -> None:
    info = site.runner.info("tp-end")
    assert info.outcome is not None
    status, _, page = get(site.url + "/game/tp-end")
    assert status == 200 and "Final result" in page and "finished" in page
    assert info.outcome.reason in page
    steps = len(site.runner.history("tp-end")) + 1
    assert steps > 2 * STEPS_PER_PAGE  # long enough to need three pages
    pages = (steps + STEPS_PER_PAGE - 1) // STEPS_PER_PAGE
    assert page == get(f"{site.url}/game/tp-end?page={pages - 1}")[2]  # the newest page is the default
    seen = []
    for number in range(pages):
        _, _, page = get(f"{site.url}/game/tp-end?page={number}")
        seen += [int(turn) for turn in re.findall(r'<section class="step" id="turn-(\d+)"', page)]
        assert ('id="earlier"' in page) == (number > 0) and ('id="later"' in page) == (number < pages - 1)
    assert seen == list(range(steps))
    assert get(f"{site.url}/game/tp-end/{steps - 1}.svg")[0] == 200
    for bad in (str(pages), "-1", "x", "\u00b2", "1" * 7):
        assert get(f"{site.url}/game/tp-end?page={urllib.parse.quote(bad)}")[0] == 404


def test_a_compacted_finished_game_shows_the_same_pages_and_pictures(site: Site) -> None:
    steps = len(site.runner.history("tp-end")) + 1
    urls = [f"{site.url}/game/tp-end?page={number}" for number in range((steps + STEPS_PER_PAGE - 1) // STEPS_PER_PAGE)]
    urls += [f"{site.url}/game/tp-end/{turn}.svg" for turn in range(steps)]
    urls += [site.link("tp-end", "1")]
    before = [get(url) for url in urls]
    assert all(status == 200 for status, _, _ in before)
    assert compact_finished(site.runner.db, utcnow(), after=timedelta(0)) == 1
    with site.runner.db.session() as session:
        assert session.exec(select(TurnRecordRow).where(  # read back from the archive, nowhere else
            TurnRecordRow.game_id == site.runner.info("tp-end").row.id)).all() == []
    assert [get(url) for url in urls] == before


def test_a_page_and_a_picture_read_a_bounded_number_of_turns(site: Site) -> None:
    archive = Archive(site.runner, site.tokens, clock=utcnow)
    info = archive.info("tp-end")
    loaded: list[int] = []

    def count(record: TurnRecordRow, _context: object) -> None:
        loaded.append(record.turn)

    event.listen(TurnRecordRow, "load", count)
    try:
        window = archive.window(info, None)
        archive.pages(info, None, window, str, str)
        assert 0 < len(loaded) <= STEPS_PER_PAGE and loaded == list(range(window.first, window.last + 1))
        loaded.clear()
        archive.board_svg(archive.step(info, 7))
        assert loaded == [7]
        loaded.clear()
        archive.pages(info, "1", archive.window(info, 0), str, str)
        assert loaded == list(range(1, STEPS_PER_PAGE))  # the opening is drawn from the seed
    finally:
        event.remove(TurnRecordRow, "load", count)


def test_a_paused_game_shows_that_it_is_paused_not_its_deadline(site: Site) -> None:
    deadline = site.runner.info("tc-1").row.deadline
    assert deadline is not None
    shown = format_utc(deadline)
    assert shown in _words(get(site.url + "/game/tc-1")[2])
    site.runner.pause("tc-1")
    status, _, page = get(site.url + "/game/tc-1")
    assert status == 200 and shown not in _words(page)
    assert "none: the game is paused since" in _words(page) and "RESUME sets it again" in _words(page)
    row = re.search(r'<a href="/game/tc-1">.*?</tr>', get(site.url + "/")[2], re.S)
    assert row is not None and shown not in _words(row.group(0))
    assert "none: the game is paused" in _words(row.group(0))


def _words(html: str) -> str:
    """The text of a page as a reader sees it: without its tags (names and dates sit in spans that keep
    them whole)."""
    return re.sub(r"<[^>]+>", "", html)
