"""A third party's witness of a server's logs: one pass, its key, its state file."""
