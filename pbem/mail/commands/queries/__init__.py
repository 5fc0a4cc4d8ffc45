"""What anyone asks or sets for their own address by mail (CHECK, STATUS, HELP, REPORT, SALT, VERIFY,
OBSERVE, SET ZONE, SET DIGEST|TEXTONLY|PRESS), one module each (see :mod:`pbem.mail.commands.spec`),
listed in :mod:`pbem.mail.commands.registry`."""
