"""The Kentucksea Derby (Gateway Island, game 10): sealed bets and bids, a speed column, the service rolls."""
