"""The yacht-daily command: serving, the reveal, verifying, the strategy tables."""
