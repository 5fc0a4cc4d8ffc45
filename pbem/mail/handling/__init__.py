"""One stored mail handled in one unit of work: the policy, consent and rate limits applied, the
script run through the mail commands, the reply queued (:mod:`~pbem.mail.handling.handler`); and
the bounce reports that come back (:mod:`~pbem.mail.handling.bounces`)."""
