"""Mail coming in: the IMAP intake, the LMTP server, ``pbem deliver`` from a mail server's pipe, the
ports they listen on, and the nudge that wakes the daemon. Each stores the raw mail before it
acknowledges it (:mod:`pbem.mail.reading.mailstore`)."""
