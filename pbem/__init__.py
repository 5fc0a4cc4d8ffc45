"""pbem: a play-by-email game master."""

__version__ = "0.1.0"
