"""The game base class: sensible defaults for the :class:`~pbem.core.protocol.Game`
protocol, and the game's facts declared as data.

A game subclasses :class:`BaseGame` and overrides only what differs (the model
is python-chess's variant hooks). A simple game writes ``setup``, ``phase``,
``validate``, ``resolve``, ``outcome``, ``view`` and its orders; everything
else has a default here:

- ``seat_names``: ``"1"`` .. ``"N"``, checked against the player counts;
- ``options``: the ``declared_options`` ClassVar; :meth:`BaseGame.check_options`
  refuses an unknown one (the one place that does);
- ``default_orders`` ``[]``, ``forced_orders`` ``None``,
  ``submission_summary`` ``""``, ``scores`` all 0;
- ``dump``/``load`` for states that are flat dataclasses (override otherwise);
- ``help``: the file ``HELP.txt`` beside the game's rules module;
- ``grammar``: ``<package>/grammar.lark`` (which may ``%import common (...)``
  from the shared ``pbem/grammars/common.lark``);
- ``transformer``: the class named by ``transformer_class``
  (``"module:Class"``, imported lazily so the rules stay free of lark).

A game package by convention holds ``rules.py`` (the game class), ``state.py``,
``orders.py``, ``grammar.py`` (the transformer), ``grammar.lark``, ``HELP.txt``,
``templates/`` (report.txt.j2 extending ``common/report.txt.j2``, optionally
report.html.j2 and partials, all named ``<kind>/<file>`` in templates) and
``drawing.py`` (its pictures).
"""

from __future__ import annotations

import dataclasses
import enum
import sys
from collections.abc import Mapping, Sequence
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from pbem.core.errors import GameError, IllegalOrder
from pbem.core.protocol import OrderProblem, Outcome, Score
from pbem.core.rng import GameRng

S = TypeVar("S")
O = TypeVar("O")


class TurnShape(enum.Enum):
    """Who owes orders in a phase: one seat, every seat, or either by phase."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"
    MIXED = "mixed"


@dataclasses.dataclass(frozen=True)
class GameFacts:
    """What kind of game this is, as data (OpenSpiel's GameType is the model).

    Shared tests branch on these facts, never on kind names.
    """

    turn_shape: TurnShape
    has_chance: bool
    has_hidden_information: bool
    min_players: int
    max_players: int
    is_cooperative: bool = False


class BaseGame(Generic[S, O]):
    """Defaults for every member of the game protocol but the rules themselves."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    turn_shape: ClassVar[TurnShape] = TurnShape.SEQUENTIAL
    has_chance: ClassVar[bool] = False
    has_hidden_information: ClassVar[bool] = False
    is_cooperative: ClassVar[bool] = False
    declared_options: ClassVar[Mapping[str, str]] = {}
    terminal_words: ClassVar[Mapping[str, str]] = {}
    transformer_class: ClassVar[str] = ""
    state_class: ClassVar[type | None] = None
    command_words_as_orders: ClassVar[frozenset[str]] = frozenset()
    """Command words (pbem.commands.RESERVED_WORDS) the game's rule book also uses as order words,
    declared one by one (Shelloker's ``CHECK``). No other order may start with a command word; the
    command layer reads a mail whose only line is such a word as that order."""

    @classmethod
    def facts(cls) -> GameFacts:
        """Return the game's declared facts."""
        return GameFacts(cls.turn_shape, cls.has_chance, cls.has_hidden_information,
                         cls.min_players, cls.max_players, cls.is_cooperative)

    @classmethod
    def package_dir(cls) -> Path:
        """Return the folder of the module that defines the game class."""
        return Path(sys.modules[cls.__module__].__file__ or ".").parent

    @cached_property
    def grammar(self) -> str:  # type: ignore[override]
        """Return the path of the game's grammar: ``grammar.lark`` in its package."""
        return str(self.package_dir() / "grammar.lark")

    def transformer(self) -> Any:
        """Return a new transformer of ``transformer_class`` (``"module:Class"``)."""
        if not self.transformer_class:
            raise NotImplementedError(f"{self.name}: set transformer_class or override transformer()")
        module_name, class_name = self.transformer_class.split(":")
        return getattr(import_module(module_name), class_name)()

    def seat_names(self, players: int) -> tuple[str, ...]:
        """Return seats ``"1"`` .. ``"N"``; raises GameError for a bad player count."""
        if not self.min_players <= players <= self.max_players:
            raise GameError(f"{self.title} is for {self.min_players} to {self.max_players} players, not {players}")
        return tuple(str(number) for number in range(1, players + 1))

    def options(self) -> Mapping[str, str]:
        """Return the creator options this game accepts (``declared_options``)."""
        return self.declared_options

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """Return the options with lower-case names; raises GameError naming an unknown one."""
        known = self.options()
        checked: dict[str, str] = {}
        for key, value in options.items():
            name = key.strip().lower()
            if name not in known:
                raise GameError(f"unknown option {key!r} for {self.name}; options are: {', '.join(sorted(known))}")
            checked[name] = value
        return checked

    def default_orders(self, state: S, seat: str) -> list[O]:
        """Return the NMR orders: none."""
        return []

    def forced_orders(self, state: S, seat: str) -> list[O] | None:
        """Return None: by default a player always has a choice."""
        return None

    def submission_summary(self, state: S, seat: str, orders: Sequence[O]) -> str:
        """Return ``""``: by default nothing is said about a submission as a whole."""
        return ""

    def hidden_variant(self, state: S, keep: str | None, rng: GameRng) -> S:
        """Return ``state`` itself for a game without secrets; a game that declares
        ``has_hidden_information`` must override it (see the protocol's rule)."""
        if self.has_hidden_information:
            raise NotImplementedError(f"{self.name} has hidden information: override hidden_variant()")
        return state

    def scores(self, state: S) -> dict[str, Score]:
        """Return 0 for each seat of ``state.seats``."""
        return {seat: 0 for seat in getattr(state, "seats", ())}

    def sample_orders(self, state: S, seat: str, rng: GameRng) -> list[O]:
        """Return the NMR orders (override for robots and property tests)."""
        return self.default_orders(state, seat)

    def outcome(self, state: S) -> Outcome | None:
        """Return None: override to end the game."""
        return None

    def dump(self, state: S) -> dict[str, Any]:
        """Return a dataclass state as JSON-compatible data (tuples become lists)."""
        if not dataclasses.is_dataclass(state):
            raise NotImplementedError(f"{self.name}: override dump() for a non-dataclass state")
        return {f.name: _to_json(getattr(state, f.name)) for f in dataclasses.fields(state)}

    def load(self, data: Mapping[str, Any]) -> S:
        """Rebuild a ``state_class`` state from :meth:`dump` output (lists become tuples)."""
        if self.state_class is None:
            raise NotImplementedError(f"{self.name}: set state_class or override load()")
        state: S = self.state_class(**{k: _from_json(v) for k, v in data.items()})
        return state

    def help(self) -> str:
        """Return the text of ``HELP.txt`` in the game's package."""
        return (self.package_dir() / "HELP.txt").read_text(encoding="utf-8").strip()

    def is_owing(self, state: S, seat: str) -> bool:
        """True when the game is not over and ``seat`` owes orders now."""
        return self.outcome(state) is None and seat in self.phase(state).seats  # type: ignore[attr-defined]

    def turn_problems(self, state: S, seat: str) -> list[OrderProblem]:
        """Return the guard problems every validate shares: the game is over, or it
        is not ``seat``'s turn; ``[]`` when ``seat`` may submit orders now."""
        if self.outcome(state) is not None:
            return [OrderProblem(None, "the game is over")]
        if seat not in self.phase(state).seats:  # type: ignore[attr-defined]
            return [OrderProblem(None, f"seat {seat} owes no orders now")]
        return []

    def owed_orders(self, state: S, orders: Mapping[str, Sequence[O]]) -> dict[str, list[O]]:
        """Return the orders of every seat that owes orders now, each checked by ``validate``: the
        guard every resolve shares. An empty entry (a seat that held with NOORDERS) stands for the
        seat's NMR default. Raises GameError when the game is over or an owing seat has no entry,
        IllegalOrder naming the seat and the first problem of a refused submission."""
        if self.outcome(state) is not None:
            raise GameError("the game is over")
        checked: dict[str, list[O]] = {}
        for seat in self.phase(state).seats:  # type: ignore[attr-defined]
            if seat not in orders:
                raise GameError(f"no orders for seat {seat}, who owes them")
            given = list(orders[seat]) or list(self.default_orders(state, seat))  # type: ignore[attr-defined]
            problems = self.validate(state, seat, given)  # type: ignore[attr-defined]
            if problems:
                raise IllegalOrder(f"seat {seat}: {problems[0].message}")
            checked[seat] = given
        return checked


def _to_json(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _to_json(item) for key, item in value.items()}
    if isinstance(value, enum.Enum):
        return value.value
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(item) for item in value)
    return value
