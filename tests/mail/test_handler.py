"""The mail handler's dispatch: every command of the mail language has exactly one handler."""

from __future__ import annotations

from typing import get_args

from pbem.commands import Command, GmCommand, SessionCommand
from pbem.mail.commands import gm_commands, seat_commands
from pbem.mail.handling import handler


def test_every_command_a_mail_can_hold_has_a_handler() -> None:
    assert set(handler._COMMANDS) == set(get_args(Command))
    assert set(seat_commands._SESSION_COMMANDS) == set(get_args(SessionCommand))
    assert set(gm_commands._GM_COMMANDS) == set(get_args(GmCommand))
