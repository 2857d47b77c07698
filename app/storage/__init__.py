"""Where the game's truth lives: the Redis store and the embedded redis-server."""
