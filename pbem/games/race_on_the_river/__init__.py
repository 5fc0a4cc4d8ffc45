"""Race on the River (Gateway Island, game 1): a race of fish jockeys won by sealed stamina bids."""
