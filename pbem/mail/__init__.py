"""Mail in and out: the parts of pbem that speak RFC 5322, in floors that follow a mail's way.

A floor imports only the floors below it (tests/mail/test_floor_plan.py keeps it so); from the top:

- ``running``: the daemon that drives the rest, ``pbem serve``, the leader, leases, the watchdog,
  retries and retention.
- ``intake``: mail comes in by IMAP, LMTP or ``pbem deliver`` and is stored; the wake-up nudge.
- ``handling``: one stored mail handled in one unit of work (the handler), bounce reports read.
- ``commands``: the mail command language, one module per command (seats, queries, players, gm,
  league) registered by one line, and the reading of a mail's body into its commands.
- ``answering``: what every command answers with: the conversation, the reply, sign-on, consent,
  the mail policy and rate limits, the shared answer texts.
- ``outbound``: the mail pbem sends: notices and reports, composing, the outbox queue and its SMTP
  sender, DKIM, reply addresses (tokens), each address's preferences, the mail servers' URLs.
- ``reading``: the stored raw mail and the one bounded reading of it (MIME, parameters, charsets,
  authentication results, redaction).
"""
