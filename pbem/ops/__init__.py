"""What an operator sees of the service: database figures, loop health, Prometheus metrics, systemd."""
