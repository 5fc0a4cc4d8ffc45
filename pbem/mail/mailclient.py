"""The former home of the small mail client; it is :mod:`pbem.sandbox.mailclient` now.

Only the old names remain here, for the test modules of the game side that
still import them; new code imports :mod:`pbem.sandbox.mailclient`.
"""

from pbem.sandbox.mailclient import MailboxReader, ReceivedMail, plain_mail, read_mail, send_mail

__all__ = ["MailboxReader", "ReceivedMail", "plain_mail", "read_mail", "send_mail"]
