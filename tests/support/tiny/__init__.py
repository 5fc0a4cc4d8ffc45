"""Tiny: the smallest complete game, and the starting point for a new one.

Copy this package to pbem/games/<your_game>/, rename, add one line to
pbem.games.GAMES, and write its tests. Files: rules.py (the game class, a
BaseGame), state.py, orders.py, grammar.py (the lark transformer),
grammar.lark, HELP.txt; a real game adds templates/ (its reports) and drawing.py.
"""
