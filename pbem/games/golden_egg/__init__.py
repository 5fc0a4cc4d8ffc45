"""The Great Golden Egg (Gateway Island, game 13): three groups of adventurers climb the Sacred Cliffs."""
