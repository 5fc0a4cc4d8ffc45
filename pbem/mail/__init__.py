"""Mail in and out: the parts of pbem that speak RFC 5322.

``parse`` turns raw mail into clean text, ``policy`` decides which mail must
never be answered, ``tokens`` makes and checks per-seat reply addresses,
``compose`` builds outgoing messages. These four are pure (no network);
the modules beside them (intake, outbox, the embedded servers) do the I/O.
"""
