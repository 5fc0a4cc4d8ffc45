"""Load, once, everything the running service reads from the package's files.

``pbem serve`` calls :func:`preload` when it starts: the command grammar and
every registered game's grammar, rules, transformer, drawing and HELP text, every
report, mail and web template (compiled, in the text and the HTML
environment) and the fonts the pictures are drawn with. Afterwards the running
daemon reads no file of the package, so replacing the installed package under
it (``pip install`` of a new version) breaks nothing until it is restarted.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preloaded:
    """What :func:`preload` loaded: counts, for the log."""

    games: int
    templates: int


def preload() -> Preloaded:
    """Load and keep every grammar, template, HELP text and font the service uses (see the module's
    description); return what was loaded. Raises what loading raises (a missing or broken file): the
    daemon then does not start, instead of failing every mail that needs the file."""
    from pbem.mail.commands.script import parse_script
    from pbem.games import GAMES, find_game
    from pbem.orders import parser_for
    from pbem.pictures import drawing_for
    from pbem.raster import preload_fonts
    from pbem.reports import environment

    parse_script("HELP")  # the command grammar
    for kind in GAMES:
        game = find_game(kind)
        parser_for(kind)
        game.help()
        drawing_for(game)
    templates = 0
    for html in (False, True):
        env = environment(html=html)
        for name in env.list_templates():
            env.get_template(name)
            templates += 1
    preload_fonts()
    return Preloaded(len(GAMES), templates)
