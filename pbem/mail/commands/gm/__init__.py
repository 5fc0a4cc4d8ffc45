"""What a game master does by mail: CREATE, the GM's session and each command that stands in it, one
module each (see :mod:`pbem.mail.commands.spec`), listed in :mod:`pbem.mail.commands.registry`; the
commands that move the clock are in :mod:`~pbem.mail.commands.gm.clock`."""
