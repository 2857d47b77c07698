"""The matches a process keeps, by id, with their rebuilt games: a match read again replays only
the actions stored since (another worker's), and an action on the copy a process wrote last
needs no read first (its compare-and-set checks the copy is current)."""

import threading
from collections import OrderedDict

from app.matches.model import Match, rebuild
from app.matches.store import MatchRecord

CACHE_SIZE = 4096  # matches whose rebuilt games a process keeps, by id and version


class MatchCache:
    """The least recently used CACHE_SIZE matches of this process, safe across threads."""

    def __init__(self, size: int = CACHE_SIZE):
        """An empty cache of at most ``size`` matches."""
        self.size = size
        self._lock = threading.Lock()
        self._matches: OrderedDict[str, Match] = OrderedDict()

    def get(self, match_id: str) -> Match | None:
        """The match as this process last wrote or read it, if it keeps it."""
        with self._lock:
            return self._matches.get(match_id)

    def remember(self, match: Match) -> Match:
        """Keep ``match`` (the least recently used dropped past the size); ``match``."""
        with self._lock:
            self._matches[match.id] = match
            self._matches.move_to_end(match.id)
            while len(self._matches) > self.size:
                self._matches.popitem(last=False)
        return match

    def rebuilt(self, record: MatchRecord) -> Match:
        """The Match of ``record``, kept: its games taken from the copy kept when that holds the
        same version or an earlier one (only the seats that acted since replay their new
        actions), else rebuilt from the transcripts."""
        cached = self.get(record.id)
        known = 0 if cached is None else cached.record.version
        if cached is not None and record.log[:known] == cached.record.log:
            games = list(cached.games)
            for seat, entries in enumerate(record.transcripts(len(games), start=known)):
                if entries:
                    games[seat] = games[seat].extended(entries)
            match = Match(record, cached.seats, tuple(games),
                          tuple(record.json_field("client_seeds")))
        else:
            match = rebuild(record)
        return self.remember(match)
