"""Players: the anonymous identity in the cookie, names, transfer codes, the player's record."""
