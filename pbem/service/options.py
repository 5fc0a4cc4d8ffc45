"""The service's own options of a game (how it is run, not its rules), checked in one place.

Every value arrives as text from a stranger's mail or the command line, so
each option has a documented range and a value outside it, or one that is not
a finite number, is refused with a message naming the option and the range.
Creation (``CREATE``, ``pbem new``) and ``SET`` both go through
:func:`parse_service_options`, so no game row can hold a value the clock
cannot compute with (``reminder_hours=inf`` once stopped every deadline).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core import Game, InvalidInput


class BadOption(InvalidInput):
    """An option value outside its documented range, or not of its type; the message quotes it."""


@dataclass(frozen=True)
class NumberOption:
    """A service option holding a finite number from ``low`` to ``high``; ``column`` is the game row's field."""

    column: str
    default: float
    low: float
    high: float
    description: str

    def parse(self, name: str, text: str) -> float:
        """Return ``text`` as a number in range; raise :class:`BadOption` quoting it otherwise."""
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or not self.low <= value <= self.high:
            raise BadOption(f"option {name}={text!r}: give a number from {self.low:g} to {self.high:g}")
        return value


@dataclass(frozen=True)
class ChoiceOption:
    """A service option holding one of a few words; ``column`` is the game row's field."""

    column: str
    default: str
    choices: tuple[str, ...]
    description: str

    def parse(self, name: str, text: str) -> str:
        """Return ``text`` lower-cased when it is one of the choices; raise :class:`BadOption` otherwise."""
        value = text.strip().lower()
        if value not in self.choices:
            raise BadOption(f"option {name}={text!r}: give {' or '.join(self.choices)}")
        return value


ServiceOption = NumberOption | ChoiceOption

SERVICE_OPTIONS: Mapping[str, ServiceOption] = {
    "turn_hours": NumberOption("turn_hours", 48.0, 0, 8760,
                               "hours allowed per turn, 0 to 8760 (default 48); 0 = no deadline"),
    "resolve": ChoiceOption("resolve_when", "early", ("early", "deadline"),
                            "early (as soon as all orders are in, default) or deadline (only at the deadline)"),
    "delay_minutes": NumberOption("early_delay_minutes", 0.0, 0, 10080,
                                  "with resolve=early, wait this long after the last orders, 0 to 10080 (default 0)"),
    "reminder_hours": NumberOption("reminder_hours", 12.0, 0, 720,
                                   "remind seats without orders this long before the deadline, 0 to 720 (default 12)"),
    "grace_hours": NumberOption("grace_hours", 24.0, 0, 720,
                                "tell the GM about a seat still absent this long after the deadline, 0 to 720 "
                                "(default 24)"),
    "reports": ChoiceOption("reports", "each", ("each", "digest"),
                            "each (every seat and the GM get a report after every step) or digest (a seat that "
                            "owes nothing is told later, in one mail); the default is the game's"),
    "digest_hours": NumberOption("digest_hours", 24.0, 1, 720,
                                 "with reports=digest, the longest news wait before a seat is mailed anyway, "
                                 "1 to 720 (default 24)"),
    "absence_days": NumberOption("absence_days", 14.0, 0, 365,
                                 "most days of deadline extensions per player for announced absences (ABSENT), "
                                 "0 to 365 (default 14); 0 = none"),
    "replace_after": NumberOption("replace_after", 2.0, 0, 100,
                                  "offer a seat to the standby list after this many missed deadlines in a row, "
                                  "0 to 100 (default 2); 0 = only on RESIGN"),
    "replace": ChoiceOption("replace_mode", "confirm", ("confirm", "auto"),
                            "confirm (a standby's ACCEPT waits for the GM's REPLACE, default) or auto (handed over "
                            "at once)"),
    "min_reliability": NumberOption("min_reliability", 0.0, 0, 1,
                                    "JOIN and standby offers only for players who met at least this share of "
                                    "their last 50 deadlines, 0 to 1 (default 0: anyone); a player with no "
                                    "deadline owed yet may join"),
    "gm_press": ChoiceOption("gm_press", "copy", ("copy", "none"),
                             "copy (the GM gets a copy of press between players, default) or none (press "
                             "between players is private); every press mail says which"),
    "observers": ChoiceOption("observers", "yes", ("yes", "no"),
                              "yes (anyone may OBSERVE the game's public reports, default) or no (the GM forbids it)"),
}


def describe_service_options() -> Mapping[str, str]:
    """Return each service option's description, by name (for HELP and README)."""
    return {name: option.description for name, option in SERVICE_OPTIONS.items()}


def parse_service_options(options: Mapping[str, str]) -> dict[str, float | str]:
    """Return the game row fields set by ``options`` (service option names to text values).

    Raises :class:`BadOption` for an unknown name or a value outside its range,
    naming the option and the range.
    """
    fields: dict[str, float | str] = {}
    for name, text in options.items():
        key = name.strip().lower()
        option = SERVICE_OPTIONS.get(key)
        if option is None:
            raise BadOption(f"{name}: the service options are {', '.join(SERVICE_OPTIONS)}")
        fields[option.column] = option.parse(key, str(text))
    return fields


def service_defaults(rules: Game[Any, Any]) -> dict[str, float | str]:
    """Return the game row fields of every service option at its default for a game of ``rules``: the
    game's own ``default_reports`` (each, unless it declares digest) for ``reports``."""
    defaults = {option.column: option.default for option in SERVICE_OPTIONS.values()}
    defaults["reports"] = SERVICE_OPTIONS["reports"].parse("reports", getattr(rules, "default_reports", "each"))
    return defaults
