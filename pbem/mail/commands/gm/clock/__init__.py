"""The GM's commands that move a game's clock: DEADLINE, EXTEND, PAUSE and RESUME, one module each."""
