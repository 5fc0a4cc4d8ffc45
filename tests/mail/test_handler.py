"""The mail handler's dispatch: every command of the mail language is registered once, with a handling
for each place it may stand, and the grammar reads no command that is not registered."""

from __future__ import annotations

from pbem.mail.commands import registry
from pbem.mail.commands.grammar import parser
from pbem.mail.commands.spec import Place


def test_every_command_a_mail_can_hold_has_one_registration_and_a_handling_where_it_stands() -> None:
    forms = [command.parsed_form for command in registry.COMMANDS]
    rules = [command.rule for command in registry.COMMANDS]
    assert len(set(forms)) == len(forms) and len(set(rules)) == len(rules)
    assert all(command.places for command in registry.COMMANDS)
    handlers = {Place.TOP: "handle", Place.SEAT: "in_seat", Place.GM: "in_gm"}
    assert all(callable(getattr(command, handlers[place])) for command in registry.COMMANDS
               for place in command.places)
    commands = {rule.expansion[0].name for rule in parser().rules if rule.origin.name == "command"}
    assert commands == set(rules) | {"signoff", "endpress"}


def test_the_openers_stand_at_the_top_and_the_seat_commands_only_in_a_seat_session() -> None:
    places = {command.rule: command.places for command in registry.COMMANDS}
    assert all(places[rule] == {Place.TOP} for rule in ("signon", "check", "gm", "create", "join", "league"))
    assert all(places[rule] == {Place.SEAT} for rule in ("orders", "ready", "noorders", "resign", "draw", "concede",
                                                         "nodraw", "absent", "back"))
    assert places["press"] == {Place.SEAT, Place.GM}
    assert places["status"] == places["help"] == places["report"] == set(Place)
    assert places["start_game"] == places["rollback"] == {Place.GM}
