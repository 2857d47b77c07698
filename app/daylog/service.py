"""The service side of the day's log (FAIRNESS.md, "The day's log (format v2)"): ``LogService``,
joining its parts.

- **Format** (``days``). A date is v2 (logged) or v1, fixed by the marker its first game sets;
  ``DAY_FORMAT`` (``YACHT_DAILY_DAY_FORMAT``) chooses what new dates start in, ``2`` by default.
- **Finishing** (``finishing``). A v2 game's finishing round trip appends its leaf — the
  unsigned v2 receipt — and ranks it, in one script; the receipt is that leaf signed.
- **Checkpoints and the close** (``checkpoints``). A checkpoint at the end of each UTC minute in
  which games finished, from the last checkpoint's right edge and the new leaves only
  (``fairness.log_tree``); at the date's close, the close checkpoint with the root of every
  game's final transcript. The store keeps each log to one chain and one close, last.
- **Reading** (``reading``, the proofs from ``log_tree``): published checkpoints, consistency
  and inclusion proofs, the listing witnesses poll.
- **Witnesses** (``witnesses``, ``cosignatures``) post cosignatures of checkpoints the log cut;
  those made by a configured witness key (``YACHT_DAILY_WITNESSES``, ``<data
  dir>/witnesses.txt``), timed between the checkpoint's time and a little after this server's
  clock, are kept (a witness's latest per checkpoint) and served as extra signature lines of
  the checkpoint's note.

Its refusals are ``app.daylog.errors``' ``LogError``s.
"""

from app.daylog import cosignatures
from app.daylog.checkpoints import Checkpoints, LogNotClosed, floor_minute
from app.daylog.days import V1, V2
from app.daylog.finishing import Finishing
from app.daylog.reading import Reading
from app.daylog.witnesses import load_witnesses

__all__ = ["V1", "V2", "LogNotClosed", "LogService", "floor_minute", "load_witnesses"]


class LogService(Finishing, Checkpoints, Reading):
    """Finishing into the day's log, cutting checkpoints, closing, reading the logs, and
    keeping witnesses' cosignatures."""

    def add_cosignature(self, date: str, ruleset: str, body, signature) -> None:
        """Keep a witness's cosignature of a checkpoint this log cut (see the module
        docstring), plausibly timed and not older than the one it replaces
        (``app.daylog.cosignatures``); a 4xx ``LogError`` when it is not one, nothing kept."""
        self.require_log(date, ruleset)
        cosignatures.accept(self.logs, self.witnesses, self.clock, date, ruleset, body,
                            signature)
