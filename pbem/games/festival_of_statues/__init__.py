"""The Festival of Statues (Gateway Island, game 16): four statues in a row or a square, on the die's row or column."""
