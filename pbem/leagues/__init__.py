"""Leagues as pure code: who sits at which table each round, what a game's outcome earns each player,
the standings with their tie-breaks, and the ratings. No database, no mail: the service
(:mod:`pbem.service.leagues`) stores leagues and calls these.

- ``results``: the result kinds of one player in one game, and the points each earns
- ``pairing``: the three formats' tables for a round (Swiss, round robin, knockout)
- ``standings``: points, record and tie-breaks, in order
- ``ratings``: openskill ratings (mu and sigma) from the games in order
- ``view``: a league as one reader is shown it (names, its own row marked, addresses for the GM), and as text
"""
