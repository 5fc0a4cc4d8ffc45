"""What a seat does in its session (a reply to a game mail, or SIGNON): the session itself and each
command that stands in it, one module each (see :mod:`pbem.mail.commands.spec`), listed in
:mod:`pbem.mail.commands.registry`."""
