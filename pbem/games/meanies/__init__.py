"""Meanies in our Midst (Gateway Island, game 20): secret factions, missions and contributions nobody ever sees."""
