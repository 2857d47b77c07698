"""The day's ledger: epochs and keys, signing, days and clock, the reveal and its tree."""
