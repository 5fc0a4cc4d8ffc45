"""The mail commands: what each one does for the seat, GM, league member or player that sent it.

A command that stands at the top of a mail is one module (``league`` and those in ``players/``: its
grammar fragment, parsed form, HELP lines and handling, see :mod:`~pbem.mail.commands.spec`), listed
by one line in :mod:`~pbem.mail.commands.registry`. The session commands and the rest are still
handled in ``seat_commands`` and ``gm_commands`` (their grammar and parsed forms in
:mod:`pbem.commands`), with ``press`` and ``report_again`` beside them."""
