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
place in the data that does not fit the type.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any


_ADDED = "pbem.jsonform.added"


class JsonFormError(ValueError):
    """Data that does not fit the type it is loaded as."""


def added_field(default: Any) -> Any:
    """Declare a state field added after games were stored: it takes ``default`` when
    missing from the data, and :func:`to_json` leaves it out while it equals
    ``default`` (an immutable value), so a state that does not use it has the JSON
    form it had before the field existed."""
    return dataclasses.field(default=default, metadata={_ADDED: True})


def to_json(value: Any) -> Any:
    """Return ``value`` as JSON-compatible data (see the module docstring)."""
    to = getattr(value, "to_json", None)
    if to is not None and not isinstance(value, type):
        return to()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not (f.metadata.get(_ADDED) and getattr(value, f.name) == f.default)}
    if isinstance(value, (tuple, list)):
        return [to_json(item) for item in value]
    if isinstance(value, (frozenset, set)):
        return sorted(to_json(item) for item in value)
    if isinstance(value, Mapping):
        return {key: to_json(item) for key, item in value.items()}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    return value


def from_json(kind: Any, data: Any) -> Any:
    """Return the value of type ``kind`` that :func:`to_json` stored as ``data``.

    Raises JsonFormError when ``data`` does not fit ``kind``.
    """
    try:
        return _load(kind, data, "")
    except JsonFormError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        raise JsonFormError(f"{_kind_name(kind)}: {error}") from error


def _load(kind: Any, data: Any, where: str) -> Any:
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        return _load(next(a for a in args if a is not type(None)), data, where)
    if origin is tuple:
        _expect(list, data, kind, where)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_load(args[0], item, f"{where}[{i}]") for i, item in enumerate(data))
        if len(args) != len(data):
            raise JsonFormError(f"{where or 'the data'}: {len(data)} items for {_kind_name(kind)}")
        return tuple(_load(a, item, f"{where}[{i}]") for i, (a, item) in enumerate(zip(args, data, strict=True)))
    if origin in (frozenset, set, list):
        _expect(list, data, kind, where)
        items = [_load(args[0] if args else Any, item, f"{where}[{i}]") for i, item in enumerate(data)]
        return origin(items)
    if origin in (dict, Mapping) or kind is dict:
        _expect(dict, data, kind, where)
        value_kind = args[1] if args else Any
        return {key: _load(value_kind, item, f"{where}.{key}") for key, item in data.items()}
    if kind is Any:
        return data
    if isinstance(kind, type):
        return _load_class(kind, data, where)
    raise JsonFormError(f"{where or 'the data'}: cannot load the type {_kind_name(kind)}")


def _load_class(kind: type, data: Any, where: str) -> Any:
    rebuild = getattr(kind, "from_json", None)
    if rebuild is not None:
        return rebuild(data)
    if dataclasses.is_dataclass(kind):
        _expect(dict, data, kind, where)
        hints = _field_types(kind)
        unknown = sorted(set(data) - set(hints))
        if unknown:
            raise JsonFormError(f"{where or 'the data'}: {kind.__name__} has no field {unknown[0]!r}")
        return kind(**{name: _load(hints[name], item, f"{where}.{name}".lstrip(".")) for name, item in data.items()})
    if issubclass(kind, enum.Enum):
        return kind(data)
    if kind is Fraction:
        return Fraction(str(data))
    if kind is float and isinstance(data, int) and not isinstance(data, bool):
        return float(data)
    if not isinstance(data, kind) or (kind is int and isinstance(data, bool)):
        raise JsonFormError(f"{where or 'the data'}: {data!r} is not of type {kind.__name__}")
    return data


@cache
def _field_types(kind: type) -> dict[str, Any]:
    """Return the resolved annotation of every init field of a dataclass (cached per class)."""
    hints = typing.get_type_hints(kind)
    return {f.name: hints[f.name] for f in dataclasses.fields(kind) if f.init}


def _expect(json_type: type, data: Any, kind: Any, where: str) -> None:
    if not isinstance(data, json_type):
        raise JsonFormError(f"{where or 'the data'}: expected a JSON {json_type.__name__} for "
                            f"{_kind_name(kind)}, not {type(data).__name__}")


def _kind_name(kind: Any) -> str:
    return kind.__name__ if isinstance(kind, type) else str(kind).replace("typing.", "")
