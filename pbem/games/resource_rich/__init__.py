"""Resource Rich (Gateway Island, game 9): sealed simultaneous drafting of resource cubes."""
