"""The daily challenge: a player's game of the day, its actions, its answers and share text."""
