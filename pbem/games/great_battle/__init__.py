"""The Great Battle (Gateway Island, game 15): Minutians against Meanies on a hex island of 61 hexes."""
