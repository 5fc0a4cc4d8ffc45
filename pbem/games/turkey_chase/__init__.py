"""Turkey Chase: four farmers chase the turkeys in a cornfield; each owns two of them.

``rules.TurkeyChase`` is the game object; ``state`` the position, ``orders`` the
order types, ``grammar`` their lark transformer (imported lazily, so the rules
stay pure), ``planning`` the submission checks, ``resolution`` the seven phases
of a turn, ``sampling`` the random robot.
"""
