"""Friend groups: players who see each other's daily results on one board, day by day."""
