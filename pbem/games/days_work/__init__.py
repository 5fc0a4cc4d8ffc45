"""All in a Day's Work (Gateway Island, game 19): worker placement for two, on the card designed in the hosting plan."""
