"""The mail commands: what each one does for the seat, GM, league member or player that sent it."""
