"""Harvest Day (Gateway Island, game 5): two farmers place workers by sealed reveals."""
