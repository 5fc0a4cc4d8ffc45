"""All in a Day's Work orders: ``PLACE <space> [HUT <cell> | SHOP <shop>]``.

The transformer that builds them from the grammar is in grammar.py.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Place:
    """Put a disc on action ``space`` (upper case); a build space names what it builds:
    a hut on ``hut`` (a cell such as ``b1``) or a space of ``shop`` (FISH, MARKET, JEWELS)."""

    space: str
    hut: str | None = None
    shop: str | None = None

    def __str__(self) -> str:
        if self.hut is not None:
            return f"PLACE {self.space} HUT {self.hut}"
        if self.shop is not None:
            return f"PLACE {self.space} SHOP {self.shop}"
        return f"PLACE {self.space}"

    @property
    def building(self) -> str | None:
        """What the order builds, as written (``HUT b1``, ``SHOP FISH``), or None."""
        if self.hut is not None:
            return f"HUT {self.hut}"
        if self.shop is not None:
            return f"SHOP {self.shop}"
        return None
