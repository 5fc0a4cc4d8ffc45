"""Tiny: the smallest complete game, and the starting point for a new one.

Copy this package to pbem/games/<your_game>/, rename the game (``name`` in
rules.py, the ``tiny/`` in template names), add one line to pbem.games.GAMES
and write its tests; nothing else in pbem changes. Files: rules.py (the game
class, a BaseGame), state.py (frozen dataclasses), orders.py (orders whose
str() is the order text), grammar.py (the lark transformer), grammar.lark,
HELP.txt, templates/ (report.txt.j2 and a partial) and drawing.py (the
picture). tests/test_new_game.py adds a copy of it as a new game.
"""
