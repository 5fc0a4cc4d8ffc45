"""The players' mail commands that are one module each (see :mod:`pbem.mail.commands.spec`), listed in
:mod:`pbem.mail.commands.registry`."""
