"""What every feature stands on: Redis, compare-and-set, the embedded redis-server, background
loops and leases, the clock, the domain errors. It imports no feature."""
