"""Shelloker (Gateway Island, game 8): betting shells on hidden hands of value cubes."""
