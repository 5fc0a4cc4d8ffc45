"""Mail going out: notices and reports, composing messages, the outbox queue and its SMTP sender,
DKIM signing, the calendar attachment, per-seat reply addresses (tokens), each address's
preferences, and the mail servers' URLs and send rate."""
