"""The service layer: every player and GM action, for the command line and the mail side alike.

:class:`~pbem.service.api.GameService` is the front door (one call, one unit
of work); the mail side, which does everything one mail asks in one
transaction, calls the operation modules with its :class:`~pbem.service.unit.Unit`.

- ``api``: GameService, one method per action
- ``unit``: the unit of work (a transaction and the games it loaded)
- ``snapshot``: GameInfo, a game read back through its rules
- ``queries``: the service's reads of the database, prebuilt where hot
- ``owing``: who owes orders, and whether all orders are in (the one place)
- ``due``: deadlines, and whether a turn resolves now
- ``creation``: creating and starting games
- ``submissions``: orders (submit, check, NOORDERS, READY), with the stale-turn check
- ``resolution``: resolving turns, NMR defaults, forced plays
- ``seats``: joining, seating, replacing, resigning
- ``leagues``: leagues of one game kind: members, each round's tables and games, standings (pure parts
  in :mod:`pbem.leagues`)
- ``access``: passwords and lockouts, the key version of a seat's addresses
- ``control``: the GM's SET, DEADLINE, EXTEND, PAUSE, RESUME, END
- ``seeds``: salts, the commitment, the reveal
- ``status``: STATUS and ``pbem show --json``
- ``reporting``: what a turn report is made from
- ``replay``: replay, verify and upgrade-check
- ``deadlines``: the turn clock
- ``options``: the service's options of a game
- ``checking``: the line-by-line check of orders (no database: ``pbem check`` imports only this)
"""
