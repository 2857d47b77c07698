"""Matches: practice and games against the computer on their own seeds, with their routes and
pages."""
