"""The mail commands: how a mail's body is read into commands, and what each one does for the seat, GM,
league member or player that sent it.

Each command is one module (its grammar fragment, parsed form, HELP lines and handling, see
:mod:`~pbem.mail.commands.spec`), listed by one line in :mod:`~pbem.mail.commands.registry`, in the
package of those who send it: ``seats`` (a seat's session and what stands in it), ``queries`` (what
anyone asks or sets for their address), ``players`` (joining, invitations, names, personal data),
``gm`` (CREATE, the GM's session and what stands in it; ``gm.clock`` the deadline's commands) and
``league``. Beside them the reading: ``script`` (a mail's body to its commands, each where it may
stand), ``grammar`` (the command grammar gathered from the modules), ``values`` (what command lines
share) and ``reference`` (the text HELP sends)."""
