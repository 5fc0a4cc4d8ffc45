"""What every mail command answers with: the conversation (the mail, its unit of work and its reply),
the reply itself, signing on as a seat or GM, consent, the mail policy (what is never answered, rate
limits) and the answer texts commands share."""
