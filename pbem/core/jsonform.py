"""States to JSON and back, guided by the dataclass field types.

A game's state is a frozen dataclass; :func:`to_json` turns it into plain
JSON data and :func:`from_json` rebuilds it from that data and the field
annotations, so a game needs no dump or load code of its own:

- a dataclass becomes a dict of its fields (a field missing from the data
  takes its default, so a field added later still loads older dumps; a field
  declared with :func:`added_field` is left out while it holds its default,
  so states that do not use it dump exactly as they were stored before);
- tuples and lists become lists, frozensets and sets sorted lists, mappings
  dicts, a :class:`~fractions.Fraction` its ``"p/q"`` text, an enum its value;
- a class with ``to_json()`` and a ``from_json(data)`` classmethod (a
  :class:`~pbem.core.bag.Bag`, or a state whose stored form is its own) is
  stored and rebuilt by those.

:func:`from_json` raises :class:`JsonFormError` (a ``ValueError``) naming the
place in the data that does not fit the type. The converters are built once
per type (a state is dumped after every turn and loaded for every look at a game).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any

_ADDED = "pbem.jsonform.added"
_PLAIN = frozenset({str, int, float, bool, type(None)})

Loader = Callable[[Any], Any]


class JsonFormError(ValueError):
    """Data that does not fit the type it is loaded as; ``where`` is the place in the data."""

    def __init__(self, problem: str, where: str = "") -> None:
        super().__init__(f"{where or 'the data'}: {problem}")
        self.problem = problem
        self.where = where

    def inside(self, step: str) -> JsonFormError:
        """Return the same error seen from one level up (``step`` is a field name, ``.key`` or ``[i]``)."""
        if not self.where or self.where[0] in "[.":
            return JsonFormError(self.problem, step + self.where)
        return JsonFormError(self.problem, f"{step}.{self.where}")


def _within(error: Exception, step: str) -> JsonFormError:
    """Return ``error`` (raised while loading the item at ``step``) as a JsonFormError naming the place."""
    if isinstance(error, JsonFormError):
        return error.inside(step)
    return JsonFormError(str(error), step)


def added_field(default: Any) -> Any:
    """Declare a state field added after games were stored: it takes ``default`` when
    missing from the data, and :func:`to_json` leaves it out while it equals
    ``default`` (an immutable value), so a state that does not use it has the JSON
    form it had before the field existed."""
    return dataclasses.field(default=default, metadata={_ADDED: True})


# --- to JSON ----------------------------------------------------------------------


def to_json(value: Any) -> Any:
    """Return ``value`` as JSON-compatible data (see the module docstring)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    return _dumper(kind)(value)


@cache
def _dumper(kind: type) -> Callable[[Any], Any]:
    if callable(getattr(kind, "to_json", None)):
        return lambda value: value.to_json()
    if issubclass(kind, enum.Enum):
        return lambda value: value.value
    if dataclasses.is_dataclass(kind):
        fields = [(f.name, bool(f.metadata.get(_ADDED)), f.default) for f in dataclasses.fields(kind)]

        def dump_dataclass(value: Any) -> dict[str, Any]:
            data = {}
            for name, added, default in fields:
                item = getattr(value, name)
                if not (added and item == default):
                    data[name] = item if type(item) in _PLAIN else to_json(item)
            return data

        return dump_dataclass
    if issubclass(kind, (tuple, list)):
        return lambda value: [item if type(item) in _PLAIN else to_json(item) for item in value]
    if issubclass(kind, (frozenset, set)):
        return lambda value: sorted(to_json(item) for item in value)
    if issubclass(kind, Mapping):
        return lambda value: {key: to_json(item) for key, item in value.items()}
    if kind is Fraction:
        return str
    return lambda value: value


# --- from JSON --------------------------------------------------------------------


def from_json(kind: Any, data: Any) -> Any:
    """Return the value of type ``kind`` that :func:`to_json` stored as ``data``.

    Raises JsonFormError when ``data`` does not fit ``kind``.
    """
    try:
        return _loader(kind)(data)
    except JsonFormError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        raise JsonFormError(f"{_kind_name(kind)}: {error}") from error


@cache
def _loader(kind: Any) -> Loader:  # noqa: C901 - one branch per kind of type
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return _optional_loader(kind, args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _sequence_loader(kind, args[0], tuple)
        return _fixed_tuple_loader(kind, args)
    if origin in (frozenset, set, list):
        return _sequence_loader(kind, args[0] if args else Any, origin)
    if origin in (dict, Mapping) or kind is dict:
        return _mapping_loader(kind, args[1] if args else Any)
    if kind is Any:
        return lambda data: data
    if not isinstance(kind, type):
        raise JsonFormError(f"cannot load the type {_kind_name(kind)}")
    rebuild = getattr(kind, "from_json", None)
    if callable(rebuild):
        return rebuild  # type: ignore[no-any-return]
    if dataclasses.is_dataclass(kind):
        return _dataclass_loader(kind)
    if issubclass(kind, enum.Enum):
        return kind
    if kind is Fraction:
        return lambda data: Fraction(str(data))
    if kind is float:
        return _plain_loader(float, (int, float))
    return _plain_loader(kind, (kind,))


def _plain_loader(kind: type, accepted: tuple[type, ...]) -> Loader:
    def load_plain(data: Any) -> Any:
        if type(data) not in accepted:
            raise JsonFormError(f"{data!r} is not of type {kind.__name__}")
        return kind(data) if kind is float else data

    return load_plain


def _optional_loader(kind: Any, args: tuple[Any, ...]) -> Loader:
    others = [a for a in args if a is not type(None)]
    if len(others) != 1:
        raise JsonFormError(f"cannot load the type {_kind_name(kind)}: a union other than X | None")
    inner, allows_none = _loader(others[0]), len(others) < len(args)

    def load_optional(data: Any) -> Any:
        return None if data is None and allows_none else inner(data)

    return load_optional


def _sequence_loader(kind: Any, item_kind: Any, build: Callable[[Any], Any]) -> Loader:
    item = _loader(item_kind)
    plain = item_kind in _PLAIN and item_kind is not float

    def load_sequence(data: Any) -> Any:
        _expect(list, data, kind)
        if plain and all(type(value) is item_kind for value in data):
            return build(data)
        return build(_each(item, data))

    return load_sequence


def _each(item: Loader, data: list[Any]) -> list[Any]:
    loaded = []
    for index, value in enumerate(data):
        try:
            loaded.append(item(value))
        except (TypeError, ValueError, KeyError) as error:
            raise _within(error, f"[{index}]") from None
    return loaded


def _fixed_tuple_loader(kind: Any, args: tuple[Any, ...]) -> Loader:
    items = [_loader(a) for a in args]

    def load_fixed_tuple(data: Any) -> tuple[Any, ...]:
        _expect(list, data, kind)
        if len(data) != len(items):
            raise JsonFormError(f"{len(data)} items for {_kind_name(kind)}")
        loaded = []
        for index, (item, value) in enumerate(zip(items, data, strict=True)):
            try:
                loaded.append(item(value))
            except (TypeError, ValueError, KeyError) as error:
                raise _within(error, f"[{index}]") from None
        return tuple(loaded)

    return load_fixed_tuple


def _mapping_loader(kind: Any, value_kind: Any) -> Loader:
    item = _loader(value_kind)

    def load_mapping(data: Any) -> dict[str, Any]:
        _expect(dict, data, kind)
        loaded = {}
        for key, value in data.items():
            try:
                loaded[key] = item(value)
            except (TypeError, ValueError, KeyError) as error:
                raise _within(error, f".{key}") from None
        return loaded

    return load_mapping


def _dataclass_loader(kind: type) -> Loader:
    hints = typing.get_type_hints(kind)
    fields = {f.name: _loader(hints[f.name]) for f in dataclasses.fields(kind) if f.init}

    def load_dataclass(data: Any) -> Any:
        _expect(dict, data, kind)
        values = {}
        for name, value in data.items():
            load = fields.get(name)
            if load is None:
                raise JsonFormError(f"{kind.__name__} has no field {name!r}")
            try:
                values[name] = load(value)
            except (TypeError, ValueError, KeyError) as error:
                raise _within(error, name) from None
        return kind(**values)

    return load_dataclass


def _expect(json_type: type, data: Any, kind: Any) -> None:
    if not isinstance(data, json_type):
        raise JsonFormError(f"expected a JSON {json_type.__name__} for {_kind_name(kind)}, not {type(data).__name__}")


def _kind_name(kind: Any) -> str:
    return kind.__name__ if isinstance(kind, type) else str(kind).replace("typing.", "")
