"""The one-click unsubscribe of every mail's List-Unsubscribe header (RFC 8058), over real HTTP: a GET
only shows a button, a POST stops all mail to the address its signed token names, and a forged token is
a plain 404."""

from __future__ import annotations

import urllib.error
import urllib.request

from web_site import TC_SEATS, Site

from pbem.service import consent


def _request(url: str, *, post: bool) -> tuple[int, str]:
    data = b"List-Unsubscribe=One-Click" if post else None
    request = urllib.request.Request(url, data=data, method="POST" if post else "GET",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"} if post else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _may_mail(site: Site, address: str) -> bool:
    with site.runner.unit() as unit:
        return consent.may_mail(unit.session, address)


def test_a_get_of_the_unsubscribe_link_shows_a_button_and_stops_nothing(site: Site) -> None:
    alice = TC_SEATS["A"]
    status, page = _request(f"{site.url}/unsubscribe/{site.tokens.stop_token(alice)}", post=False)
    assert status == 200 and '<form method="post">' in page and alice in page
    assert _may_mail(site, alice)


def test_a_one_click_post_stops_all_mail_to_the_tokens_address(site: Site) -> None:
    bob = TC_SEATS["B"]
    status, page = _request(f"{site.url}/unsubscribe/{site.tokens.stop_token(bob)}", post=True)
    assert status == 200 and "Unsubscribed" in page and bob in page
    assert not _may_mail(site, bob)
    assert _may_mail(site, TC_SEATS["C"])
    entries = [entry.text for entry in site.runner.log("tc-1")]
    assert any("sent STOP" in text and bob in text for text in entries)


def test_a_forged_unsubscribe_token_is_not_found_and_stops_nobody(site: Site) -> None:
    carol = TC_SEATS["C"]
    token = site.tokens.stop_token(carol)
    forged = token[:-16] + ("a" * 16 if not token.endswith("a" * 16) else "b" * 16)
    for post in (False, True):
        status, page = _request(f"{site.url}/unsubscribe/{forged}", post=post)
        assert status == 404 and "Not found" in page and carol not in page
    assert _may_mail(site, carol)
