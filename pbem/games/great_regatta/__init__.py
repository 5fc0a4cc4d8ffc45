"""The Great Regatta (Gateway Island, game 7): push your luck round a wrapping track of 18 spaces."""
