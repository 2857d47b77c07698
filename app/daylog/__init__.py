"""The day's log: finishing games into it, checkpoints, the close, cosignatures, its endpoints."""
