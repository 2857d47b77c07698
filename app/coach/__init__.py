"""The coach: value tables, reviews, the skill board's figures, the day's references, and its
pages."""
