"""Feaster Island (Gateway Island, game 11): roll, draw dishes, place them and take a column; majorities score."""
