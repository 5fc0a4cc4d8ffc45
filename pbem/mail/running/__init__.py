"""The daemon and what keeps it going: ``pbem serve``, the leader, leases, the watchdog, retries of
failed mail and the retention purge. The top floor: it drives intake, handling and the outbox sender."""
