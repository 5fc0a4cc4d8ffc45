"""Fungus (Bobby Doran): grow gems on a hex rhombus, many gems in few groups.

The game class is :class:`pbem.games.fungus.rules.Fungus`.
"""
