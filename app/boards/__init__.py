"""A day's boards: points and skill, what the results pages show of them."""
