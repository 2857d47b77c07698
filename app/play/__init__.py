"""Playing: games, players and their record, share text, answers' views, the coach."""
