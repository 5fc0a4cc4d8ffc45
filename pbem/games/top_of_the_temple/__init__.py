"""The Top of the Temple (Gateway Island, game 3): a bluffing race up a temple's stairway."""
