"""Yacht Daily's strategy engine: optimal play, reviews and references (numpy allowed here)."""
