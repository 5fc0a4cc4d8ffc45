"""An Honest Trade (Gateway Island, game 18)."""
