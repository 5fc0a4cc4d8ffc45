"""The game base class: sensible defaults for the :class:`~pbem.core.protocol.Game`
protocol, and the game's facts declared as data.

A game subclasses :class:`BaseGame`, naming its state and order types
(``class Tiny(BaseGame[TinyState, Add])``), and overrides only what differs
(the model is python-chess's variant hooks). A simple game writes ``setup``,
``phase``, ``validate`` (starting with :meth:`BaseGame.turn_problems`),
``resolve``, ``outcome``, ``view`` and its orders; everything else has a
default here:

- ``seat_names``: ``"1"`` .. ``"N"``, checked against the player counts;
  :meth:`BaseGame.check_seats` checks the seats ``setup`` is given;
- ``options``: the ``declared_options`` class attribute;
  :meth:`BaseGame.check_options` refuses an unknown one (the one place that does);
- ``owed_orders``: the owing seats' orders for ``resolve``, once ``validate`` accepts
  them (an empty entry, NOORDERS, standing for the NMR default);
- ``default_orders`` ``[]``, ``forced_orders`` ``None``, ``order_choices`` ``None``
  (:func:`few_choices` makes a game's list of legal plays into its choices),
  ``submission_summary`` ``""``, ``scores`` all 0, ``hidden_variant`` the
  state itself (a game with ``has_hidden_information`` must override it);
- ``dump``/``load``: the state by its field types (:mod:`pbem.core.jsonform`);
  the state class is ``state_class`` or the first type argument of the base;
- ``help``: the file ``HELP.txt`` beside the game's rules module;
- ``grammar``: ``<package>/grammar.lark`` (which may ``%import common (...)``
  from the shared ``pbem/grammars/common.lark``);
- ``transformer``: the one ``OrdersTransformer`` in ``<package>/grammar.py``
  (or ``transformer_class``, ``"module:Class"``), imported lazily so the rules
  stay free of lark.

The facts (``turn_shape``, ``has_chance``, ``has_hidden_information``,
``is_cooperative``, the player counts, how players may end it by agreement:
:meth:`BaseGame.agreed_end`) are what shared tests branch on;
``quick_options`` are creator options for a short game and ``rules_version``
is raised by a rules change that alters outcomes.

A game package by convention holds ``rules.py`` (the game class), ``state.py``,
``orders.py``, ``grammar.py`` (the transformer), ``grammar.lark``, ``HELP.txt``,
``templates/`` (report.txt.j2 extending ``common/report.txt.j2``, optionally
report.html.j2 and partials, all named ``<kind>/<file>`` in templates) and
``drawing.py`` (its pictures); ``tests/support/tiny`` is the example.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import typing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache, cached_property
from importlib import import_module
from itertools import islice
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from pbem.core.errors import GameError, IllegalOrder
from pbem.core.jsonform import JsonFormError, from_json, to_json
from pbem.core.protocol import MAX_ORDER_CHOICES, OrderProblem, Outcome, Score
from pbem.core.rng import GameRng
from pbem.core.seats import numbered_seats

S = TypeVar("S")
O = TypeVar("O")


class TurnShape(enum.Enum):
    """Who owes orders in a phase: one seat, every seat, or either by phase."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"
    MIXED = "mixed"


class AgreedEnd(enum.Enum):
    """How the players of a game may end it by agreement, as its rule book allows (a declared fact)."""

    DRAW = "draw"
    """DRAW: the seats still playing may agree to end the game as a draw among them."""
    CONCEDE = "concede"
    """CONCEDE: the team of a cooperative game may agree to give up, a defeat for everyone."""
    NONE = "none"
    """Neither: the rule book allows no agreed end (the game says why in ``agreed_end_refusal``)."""


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
    agreed_end: AgreedEnd = AgreedEnd.DRAW


class BaseGame(Generic[S, O]):
    """Defaults for every member of the game protocol but the rules themselves, and
    the game's facts as class attributes (see the module docstring)."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    turn_shape: ClassVar[TurnShape] = TurnShape.SEQUENTIAL
    has_chance: ClassVar[bool] = False
    has_hidden_information: ClassVar[bool] = False
    is_cooperative: ClassVar[bool] = False
    declared_options: ClassVar[Mapping[str, str]] = {}
    quick_options: ClassVar[Mapping[str, str]] = {}
    rules_version: ClassVar[int] = 1
    terminal_words: ClassVar[Mapping[str, str]] = {}
    transformer_class: ClassVar[str] = ""
    state_class: ClassVar[type | None] = None
    default_reports: ClassVar[str] = "each"
    """How the service mails this game's reports unless its creator says otherwise (the ``reports``
    service option): ``"each"``, a report to everybody after every step, or ``"digest"`` for a game of
    many small steps, where a seat that owes nothing is told later, in one mail."""
    reveals_seed: ClassVar[bool] = True
    """Whether the service reveals the game's seed once it is over (so players can recompute every
    draw). False for a game whose secrets outlive it: from the seed anyone could recompute its sealed
    draws and learn what the rules never tell (Meanies in our Midst: who gave which cubes)."""
    reveals_orders: ClassVar[bool | None] = None
    """Whether every seat's orders of a step are told to everyone once the step resolves: its report then
    shows them with the nonces that check their receipts in the game record (docs/fair-play.md). None: as
    ``has_hidden_information`` says. A game without hidden information tells them; one with it shows each
    seat only its own, since its orders may name what the rules keep secret (a hand, a passed cube)."""
    secrets_withheld: ClassVar[str] = ""
    """What of the game's secrets nobody is ever shown, the GM included, and why (a sentence); when set,
    the GM's SECRETS (every seat's view) is refused with it."""
    agreed_end_refusal: ClassVar[str] = ""
    """Why the game's rule book allows no end by agreement (a sentence quoting it): when set, the game
    declares :attr:`AgreedEnd.NONE` and DRAW and CONCEDE are refused with it. Empty: a competitive game
    allows an agreed draw (DRAW), a cooperative one a concession (CONCEDE)."""
    command_words_as_orders: ClassVar[frozenset[str]] = frozenset()
    """Command words (pbem.mail.commands.script.reserved_words) the game's rule book also uses as order words,
    declared one by one (Shelloker's ``CHECK``). No other order may start with a command word; the
    command layer reads a mail whose only line is such a word as that order."""

    @classmethod
    def facts(cls) -> GameFacts:
        """Return the game's declared facts."""
        return GameFacts(cls.turn_shape, cls.has_chance, cls.has_hidden_information,
                         cls.min_players, cls.max_players, cls.is_cooperative, cls.agreed_end())

    @classmethod
    def agreed_end(cls) -> AgreedEnd:
        """Return how the players may end the game by agreement: none when the game declares an
        ``agreed_end_refusal``, else a concession for a cooperative game and a draw for any other."""
        if cls.agreed_end_refusal:
            return AgreedEnd.NONE
        return AgreedEnd.CONCEDE if cls.is_cooperative else AgreedEnd.DRAW

    @classmethod
    def package_dir(cls) -> Path:
        """Return the folder of the module that defines the game class."""
        return Path(sys.modules[cls.__module__].__file__ or ".").parent

    @cached_property
    def grammar(self) -> str:  # type: ignore[override]
        """Return the path of the game's grammar: ``grammar.lark`` in its package."""
        return str(self.package_dir() / "grammar.lark")

    def transformer(self) -> Any:
        """Return a new transformer for the game's orders: the class named by
        ``transformer_class`` (``"module:Class"``), else the one
        :class:`~pbem.core.transformer.OrdersTransformer` subclass defined in the
        package's ``grammar`` module (imported only now: it needs lark)."""
        if self.transformer_class:
            module_name, class_name = self.transformer_class.split(":")
            return getattr(import_module(module_name), class_name)()
        from pbem.core.transformer import OrdersTransformer  # lazily: lark only where orders are parsed

        module = import_module(f"{self.__module__.rpartition('.')[0]}.grammar")
        found = [value for value in vars(module).values() if isinstance(value, type)
                 and issubclass(value, OrdersTransformer) and value.__module__ == module.__name__]
        if len(found) != 1:
            raise NotImplementedError(f"{self.name}: {module.__name__} defines {len(found)} OrdersTransformer "
                                      "classes, not one: set transformer_class")
        return found[0]()

    def seat_names(self, players: int) -> tuple[str, ...]:
        """Return seats ``"1"`` .. ``"N"``; raises GameError for a bad player count."""
        return numbered_seats(self.title, players, self.min_players, self.max_players)

    def check_seats(self, seats: Sequence[str]) -> tuple[str, ...]:
        """Return ``seats`` as a tuple; raises GameError unless they are the game's
        seats for that many players (:meth:`seat_names`), in that order."""
        expected = self.seat_names(len(seats))
        if tuple(seats) != expected:
            raise GameError(f"{self.title} seats for {len(seats)} players are {', '.join(expected)}, "
                            f"not {', '.join(seats) or 'none'}")
        return expected

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

    def order_choices(self, state: S, seat: str) -> Sequence[Sequence[O]] | None:
        """Return None: by default a game does not list its seats' choices."""
        return None

    def submission_summary(self, state: S, seat: str, orders: Sequence[O]) -> str:
        """Return ``""``: by default nothing is said about a submission as a whole."""
        return ""

    def is_wait(self, state: S, seat: str, orders: Sequence[O]) -> bool:
        """Return True for no orders at all: by default only an empty submission waits."""
        return not orders

    def all_waited_warning(self, state: S) -> str | None:
        """Return None: by default a step in which everyone waited costs nothing special."""
        return None

    def hidden_variant(self, state: S, keep: str | None, rng: GameRng) -> S:
        """Return ``state`` itself for a game without secrets; a game that declares
        ``has_hidden_information`` must override it (see the protocol's rule)."""
        if self.has_hidden_information:
            raise NotImplementedError(f"{self.name} has hidden information: override hidden_variant()")
        return state

    def eliminated_seats(self, state: S) -> tuple[str, ...]:
        """Return the seats the rules put out of the game by ``state``: none (a game whose rules eliminate
        players overrides it). An agreed draw is among the others."""
        return ()

    def scores(self, state: S) -> dict[str, Score]:
        """Return 0 for each seat of ``state.seats``."""
        return {seat: 0 for seat in getattr(state, "seats", ())}

    def sample_orders(self, state: S, seat: str, rng: GameRng) -> list[O]:
        """Return the NMR orders (override for robots and property tests)."""
        return self.default_orders(state, seat)

    def outcome(self, state: S) -> Outcome | None:
        """Return None: override to end the game."""
        return None

    def standing_outcome(self, state: S) -> Outcome:
        """Return the outcome at ``state`` by the scores: the highest score wins, a tie shares the win.
        A game whose rule book breaks ties (or ranks by something else) overrides it with its own ranking."""
        scores = self.scores(state)
        if not scores:
            return Outcome.draw("No seat has a score.")
        best = max(scores.values())
        winners = tuple(seat for seat, score in scores.items() if score == best)
        if len(winners) == 1:
            return Outcome(winners, f"Seat {winners[0]} has the highest score, {best}.")
        return Outcome(winners, f"Seats {', '.join(winners)} share the highest score, {best}.")

    def dump(self, state: S) -> dict[str, Any]:
        """Return the state as JSON-compatible data (:func:`pbem.core.jsonform.to_json`)."""
        data: dict[str, Any] = to_json(state)
        return data

    def load(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state from :meth:`dump` output, guided by the field types of the
        state class (:func:`pbem.core.jsonform.from_json`); raises GameError for data
        that is not such a state."""
        try:
            state: S = from_json(self.state_type(), data)
        except JsonFormError as error:
            raise GameError(f"not a {self.title} state: {error}") from error
        return state

    @classmethod
    def state_type(cls) -> type:
        """Return the class of the game's states: ``state_class``, else the first type
        argument of the game's base (``class Tiny(BaseGame[TinyState, Add])``)."""
        return cls.state_class or _state_type_of(cls)

    def help(self) -> str:
        """Return the text of ``HELP.txt`` in the game's package (read once, then kept)."""
        return _help_text(self.package_dir() / "HELP.txt")

    def is_owing(self, state: S, seat: str) -> bool:
        """True when the game is not over and ``seat`` owes orders now."""
        return self.outcome(state) is None and seat in self.phase(state).seats  # type: ignore[attr-defined]

    def turn_problems(self, state: S, seat: str) -> list[OrderProblem]:
        """Return the guard problems every validate shares: the game is over, or it
        is not ``seat``'s turn; ``[]`` when ``seat`` may submit orders now."""
        if self.outcome(state) is not None:
            return [OrderProblem(None, "the game is over")]
        owing = self.phase(state).seats  # type: ignore[attr-defined]
        if seat not in owing:
            waiting = f"seat {owing[0]}" if len(owing) == 1 else f"seats {', '.join(owing)}"
            return [OrderProblem(None, f"it is not your turn: waiting for {waiting}" if owing else "no seat owes orders now")]
        return []

    def owed_orders(self, state: S, orders: Mapping[str, Sequence[O]]) -> dict[str, list[O]]:
        """Return the orders of every seat that owes orders now, each checked by ``validate``: the
        guard every resolve shares. An empty entry (the seat held with NOORDERS) stands for the
        seat's NMR default. Raises GameError when the game is over or an owing seat has no entry,
        IllegalOrder naming the seat and every problem of a refused submission."""
        if self.outcome(state) is not None:
            raise GameError("the game is over")
        checked: dict[str, list[O]] = {}
        for seat in self.phase(state).seats:  # type: ignore[attr-defined]
            if seat not in orders:
                raise GameError(f"no orders for seat {seat}, who owes them")
            given = list(orders[seat]) or list(self.default_orders(state, seat))
            problems: list[OrderProblem] = self.validate(state, seat, given)  # type: ignore[attr-defined]
            if problems:
                raise IllegalOrder(f"seat {seat}: " + "; ".join(problem.message for problem in problems))
            checked[seat] = given
        return checked


def few_choices(submissions: Iterable[Sequence[O]]) -> list[list[O]] | None:
    """Return ``submissions`` (each a complete submission) as a list when there are 1 to
    :data:`~pbem.core.protocol.MAX_ORDER_CHOICES` of them, else None; reads at most one more than
    that bound from ``submissions``, so a lazy enumeration of many plays stops early."""
    taken = [list(submission) for submission in islice(submissions, MAX_ORDER_CHOICES + 1)]
    return taken if 1 <= len(taken) <= MAX_ORDER_CHOICES else None


def single_orders(orders: Iterable[O]) -> Iterator[list[O]]:
    """Return each order as a submission of its own (for :func:`few_choices`)."""
    return ([order] for order in orders)


@cache
def _state_type_of(game_class: type[BaseGame[Any, Any]]) -> type:
    for klass in game_class.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            args = typing.get_args(base)
            if typing.get_origin(base) is BaseGame and args and isinstance(args[0], type):
                return args[0]
    raise NotImplementedError(f"{game_class.name}: name the state class, e.g. BaseGame[MyState, MyOrder]")


@cache
def _help_text(path: Path) -> str:
    """The text of a game's ``HELP.txt``, read once (a running service reads no package file twice)."""
    return path.read_text(encoding="utf-8").strip()
