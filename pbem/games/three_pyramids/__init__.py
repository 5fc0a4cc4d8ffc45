"""The Three Pyramids (Gateway Island, game 17): offers of hidden cubes on three pyramids, majority scoring."""
