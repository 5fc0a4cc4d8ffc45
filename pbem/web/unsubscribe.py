"""The one-click unsubscribe of every mail's ``List-Unsubscribe`` header (RFC 8058):
``/unsubscribe/{token}``. A GET shows a page with a button and changes nothing (mail scanners follow
links); a POST (the mail provider's ``List-Unsubscribe=One-Click``, or the button) stops all mail to
the address the signed token names, without asking again. A forged token gets the archive's 404."""

from __future__ import annotations

import asyncio

from aiohttp import web

from pbem.mail.outbound.tokens import ReplyTokens, TokenError
from pbem.reports import environment
from pbem.service import consent
from pbem.service.api import GameService

SERVICE = web.AppKey("service", GameService)
TOKENS = web.AppKey("tokens", ReplyTokens)


def _address(request: web.Request) -> str:
    """The address the request's token names; raises HTTPNotFound for a token that is not pbem's."""
    try:
        return request.app[TOKENS].verify_stop(request.match_info["token"])
    except TokenError:
        raise web.HTTPNotFound() from None


async def unsubscribe_page(request: web.Request) -> web.Response:
    """GET: the page with the button; nothing changes."""
    return _page(_address(request), done=False)


async def unsubscribe(request: web.Request) -> web.Response:
    """POST: pbem mails the token's address no more (STOP), at once."""
    address = _address(request)
    service = request.app[SERVICE]

    def stop() -> None:
        with service.unit() as unit:
            consent.stop(unit, address)

    await asyncio.to_thread(stop)
    return _page(address, done=True)


def _page(address: str, *, done: bool) -> web.Response:
    text = environment(html=True).get_template("web/unsubscribe.html.j2").render(address=address, done=done)
    return web.Response(text=text, content_type="text/html", charset="utf-8")
