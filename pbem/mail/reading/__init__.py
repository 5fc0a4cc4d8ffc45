"""The stored raw mail (:mod:`~pbem.mail.reading.mailstore`) and the one bounded reading of it: the
MIME reader, its parameters and charsets, the parse into an incoming mail, the authentication
results, and the redaction of passwords. The bottom floor: it imports no other floor."""
