"""Turkey Chase: four farmers chase the turkeys in a cornfield; each owns two of them.

``rules.TurkeyChase`` is the game object; ``state`` the position, ``orders`` the
order types and their transformer, ``planning`` the submission checks,
``resolution`` the seven phases of a turn, ``sampling`` the random robot.
"""
