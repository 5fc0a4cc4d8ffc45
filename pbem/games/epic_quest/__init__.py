"""The Epic Quest (Gateway Island, game 21): a cooperative quest for 1 to 4 players."""
