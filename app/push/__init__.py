"""The live push channel of tables: events kept in Redis, streamed to browsers as SSE."""
