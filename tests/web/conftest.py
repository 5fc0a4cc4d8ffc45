"""Fixtures of the web archive tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from web_site import Site, serve_site

from pbem.store import Database


@pytest.fixture
def site(db: Database) -> Iterator[Site]:
    """A web archive serving: tc-1 (turkey chase, 3 turns), tp-1 (three pyramids, 4 turns), f-1 (forming),
    tp-end (finished)."""
    yield from serve_site(db)
