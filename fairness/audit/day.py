"""A whole day audited: every game of one (date, sheet) on one shared stream, the leaderboard."""

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from hashlib import sha256
from operator import itemgetter

from .. import merkle
from ..dice import DiceStream
from ..ledger import RECEIPT_TYPE, RECEIPT_V2_TYPE, REVEAL_V2_TYPE, epoch_dealing, unsigned
from .checks import (
    NOT_CHECKED,
    Check,
    SignatureCheck,
    aggregate,
    compared,
    field_problems,
    receipt_fields,
    safe_canonical,
    short,
    unchecked_canonical,
)
from .fast_receipt import ReceiptBytes
from .fast_replay import FastReplay, PublishedReplay
from .ledger_checks import ledger_checks, reveal_check, seed_check
from .ledger_view import LedgerView
from .published import PageReader, PublishedTranscript
from .replay import CachedRules, SharedStream, replay_checks


@dataclass(frozen=True)
class DayAudit:
    """A whole-day audit: its checks and the leaderboard recomputed from the replayed games."""

    checks: list
    leaderboard: list

    @property
    def ok(self) -> bool:
        """True when every check holds."""
        return all(check.ok is True for check in self.checks)


Progress = Callable[[int, int], None]


def audit_day(entries: list[dict], date: str, ruleset: str, games: Iterable[dict],
              verify_signature: SignatureCheck | None = None,
              progress: Progress | None = None,
              published_leaderboard: Mapping | None = None,
              fast_paths: bool = True, reader: PageReader | None = None) -> DayAudit:
    """Audit every game of one (date, sheet) on ONE shared dice stream.

    ``games`` is the ``games`` of ``GET /days/<date>/<ruleset>/games``, a list or any iterable
    (its pages one after another; ``progress`` needs a list), each page best read by one
    ``PageReader`` for the day (``read_pages``): its transcripts' published text is then
    neither parsed nor encoded again where it is canonical, and each transcript is replayed as
    soon as it is cut: the day's replay is given to ``read_pages``'s reader, or to ``reader``, the
    one reading a caller's own pages, for the pages it reads from then on. Every game is
    replayed; every finished game's receipt must match it and be signed; the receipts' Merkle
    root and count must be the reveal entry's; the leaderboard is recomputed from the replays
    and, when given, compared with the published one (``GET /leaderboard/<date>/<ruleset>``).

    ``fast_paths`` False audits every game by the plain checks alone: ``replay_checks`` for
    every transcript, the field checks and canonical JSON for every receipt. The fast paths
    (fast_replay.py, fast_receipt.py, published.py) must give exactly the same checks.
    """
    view = LedgerView.read(entries)
    checks = ledger_checks(view, verify_signature)
    checks.append(reveal_check(view, date, ruleset))
    if not checks[-1].ok:
        return DayAudit(checks, [])
    reveal = view.reveals[date]
    checks.append(seed_check(view, reveal))
    epoch = view.epoch_of(reveal["epoch"])
    auditor = _DayAuditor(reveal, ruleset, epoch, verify_signature, fast_paths)
    if isinstance(games, PublishedGames):
        reader = games.reader
    if fast_paths and reader is not None:
        reader.replay = auditor.published_replay
    for done, game in enumerate(games, 1):
        auditor.audit(game)
        if progress is not None and (done % 1000 == 0 or done == len(games)):
            progress(done, len(games))
    checks.extend(auditor.checks())
    leaderboard = auditor.leaderboard()
    if published_leaderboard is not None:
        checks.append(check_leaderboard(published_leaderboard, leaderboard))
    return DayAudit(checks, leaderboard)


class PublishedGames:
    """The games of a day's pages (the texts of ``GET /days/<date>/<ruleset>/games``, one after
    another), read as they are iterated, each page by one ``PageReader``. ``audit_day`` gives
    the reader its replay first: each transcript is then replayed as soon as it is cut."""

    def __init__(self, pages: Iterable[str]):
        """The games of ``pages``, not read yet."""
        self.pages = pages
        self.reader = PageReader()

    def __iter__(self) -> Iterator[dict]:
        """Every game of the pages, in order, one page read at a time."""
        read = self.reader.read
        for page in self.pages:
            yield from read(page)["games"]


def read_pages(pages: Iterable[str]) -> PublishedGames:
    """The games of a day's pages (the texts of ``GET /days/<date>/<ruleset>/games``, one after
    another), each read by one ``PageReader``: what ``audit_day`` audits fastest."""
    return PublishedGames(pages)


def check_leaderboard(published: Mapping, leaderboard: Sequence[Mapping]) -> Check:
    """The published leaderboard (players, top, distribution) against the replays' ranking.

    Equal totals share a rank (1 + the number of better totals); who comes first among them is
    the server's choice, so the top is compared as ranks, totals and (player, total) pairs.
    """
    totals = sorted((row["total"] for row in leaderboard), reverse=True)
    failures = []
    if published.get("players") != len(totals):
        failures.append(f"players {published.get('players')!r} ≠ {len(totals)} finished games")
    unclaimed = Counter((row["player"], row["total"]) for row in leaderboard)
    top = published.get("top") or []
    for place, row in enumerate(top, 1):
        total = row.get("total") if isinstance(row, dict) else None
        if place > len(totals) or total != totals[place - 1]:
            best = totals[place - 1] if place <= len(totals) else "nothing"
            failures.append(f"#{place}: total {total!r} ≠ the replays' #{place} {best}")
            continue
        rank = 1 + sum(1 for other in totals if other > total)
        if row.get("rank") != rank:  # a row with a matching total is an object
            failures.append(f"#{place}: rank {row.get('rank')!r} ≠ {rank} for a total of {total}")
        if unclaimed[(row.get("player"), total)] <= 0:
            failures.append(f"#{place}: {row.get('player')!r} has no replayed game totalling "
                            f"{total}")
        unclaimed[(row.get("player"), total)] -= 1
    bands = published.get("distribution") or []
    for band in bands:
        low, high = (band.get("from"), band.get("to")) if isinstance(band, dict) else (0, -1)
        if type(low) is not int or type(high) is not int or low > high:
            failures.append(f"score band {band!r} is not a from..to range")
            continue
        count = sum(1 for total in totals if low <= total <= high)
        if band.get("count") != count:
            failures.append(f"{low}–{high}: {band.get('count')!r} ≠ {count} replayed totals")
    return aggregate("leaderboard", failures,
                     f"published players {len(totals)}, top {len(top)} and {len(bands)} score "
                     "bands = the ranking of the replayed games")


# Receipt signatures are checked a batch at a time, apart from the replays: alternating one
# Ed25519 verification with one replay costs both more (each evicts the other from the caches).
# Long runs pay: 4096 at a time cut a 10,000-game audit by 15 % against 256 (docs/performance.md)
SIGNATURE_BATCH = 4096

_DAY_CHECKS = ("games replayed", "games complete", "receipts", "transcript hashes", "totals",
               "receipt signatures")


def _no_fast_path(transcript) -> None:
    """The fast path that never applies: the plain checks judge the transcript."""
    return None


class _DayAuditor:
    """Accumulates one (date, sheet)'s game audits."""

    def __init__(self, reveal: Mapping, ruleset: str, epoch: Mapping | None,
                 verify_signature: SignatureCheck | None, fast_paths: bool = True):
        """Prepare the shared stream and the cached rules (and the fast paths, when used)."""
        self.reveal = reveal
        self.ruleset = ruleset
        self.epoch = epoch
        self.verify_signature = verify_signature
        self.stream = SharedStream(DiceStream(reveal["seed"], reveal["date"], ruleset,
                                              epoch_dealing(epoch)))
        self.rules = CachedRules(ruleset)
        self.fast = FastReplay(self.stream, self.rules)
        self.published_replay = PublishedReplay(self.stream, self.rules)
        self.published_sheet_of = self.published_replay.sheet
        self.failures: dict[str, list[str]] = {name: [] for name in _DAY_CHECKS}
        self.leaves: list[tuple] = []  # (game id, or leaf index on a v2 day; leaf hash)
        self.results: list[tuple] = []  # (-total, game id, player, name) of each receipt
        self.seen: set = set()
        self.v2 = reveal["type"] == REVEAL_V2_TYPE
        self.receipt_type = RECEIPT_V2_TYPE if self.v2 else RECEIPT_TYPE
        # the fast path knows v1 receipts' bytes; v2 ones take the field checks
        self.receipt_bytes = None if self.v2 else ReceiptBytes(
            RECEIPT_TYPE, reveal["date"], reveal["epoch"], ruleset).of
        self.sheet_of, self.total_of = self.fast.sheet, self.rules.total
        if not fast_paths:  # every game and receipt by the plain checks
            self.sheet_of = self.published_sheet_of = _no_fast_path
            self.receipt_bytes = None
        self.size = len(self.rules.ruleset.categories)
        self.games = 0
        self.signatures = 0
        self.unverified: list[tuple] = []  # (game id, signed bytes, sig) not checked yet

    def audit(self, game) -> None:
        """Audit one published game."""
        self.games += 1
        if not isinstance(game, Mapping) or not isinstance(game.get("id"), str):
            self.failures["games replayed"].append(f"game #{self.games}: no id")
            return
        game_id = game["id"]
        if game_id in self.seen:
            self.failures["games replayed"].append(f"game {game_id}: listed twice")
            return
        self.seen.add(game_id)
        transcript = game.get("transcript")
        if type(transcript) is PublishedTranscript:
            sheet = self.published_sheet_of(transcript)
            if sheet is None:
                transcript = transcript.parsed()
        else:
            sheet = self.sheet_of(transcript)
        if sheet is None:  # something differs: the detailed replay names it
            replayed = replay_checks(transcript, self.stream, scorer=self.rules)
            failed = [c for c in replayed.checks if c.name != "game complete"]
            if failed:
                self.failures["games replayed"].append(
                    f"game {game_id}: {failed[0].name}: {failed[0].detail}")
            boxes, encoded = replayed.boxes, safe_canonical(transcript)
            total = replayed.totals.total
        else:
            boxes, extra, encoded = sheet
            total = self.total_of(boxes, extra)
        finished = game.get("status") == "finished"
        if finished != (len(boxes) == self.size):
            self.failures["games complete"].append(
                f"game {game_id}: status {game.get('status')!r} but "
                f"{len(boxes)} of {self.size} boxes filled")
        receipt = game.get("receipt")
        if receipt is None:
            if finished:
                self.failures["receipts"].append(f"game {game_id}: finished without a receipt")
            return
        player = game.get("player")
        message = None if self.receipt_bytes is None else self.receipt_bytes(receipt, game_id,
                                                                             player)
        if message is None:  # not plainly this game's receipt: the field checks say why
            message = self._checked_receipt_bytes(receipt, game_id, player)
            if message is None:
                return
        digest = None if encoded is None else sha256(encoded).hexdigest()
        if digest != receipt["transcript_sha256"]:
            self.failures["transcript hashes"].append(
                f"game {game_id}: SHA-256 of the transcript {digest} ≠ receipt "
                f"transcript_sha256 {receipt['transcript_sha256']}")
        if total != receipt["total"]:
            self.failures["totals"].append(
                f"game {game_id}: recomputed {total} ≠ receipt total {receipt['total']}")
        if self.verify_signature is not None:
            self.unverified.append((game_id, message, receipt["sig"]))
            if len(self.unverified) >= SIGNATURE_BATCH:
                self.verify_signatures()
        # v1 trees are ordered by game id, v2 logs by leaf index (the order games finished)
        self.leaves.append((receipt["index"] if self.v2 else game_id, merkle.leaf_hash(message)))
        self.results.append((-total, game_id, player, game.get("name")))

    def _checked_receipt_bytes(self, receipt, game_id: str, player) -> bytes | None:
        """The signed bytes of a receipt the fast path did not write, once the field checks
        hold; None (the failure kept) when they do not."""
        problems = field_problems(receipt, receipt_fields(receipt), "receipt")
        expected = {"type": self.receipt_type, "game": game_id,
                    "epoch": self.reveal["epoch"], "date": self.reveal["date"],
                    "ruleset": self.ruleset, "player": player}
        if not problems:
            problems = [f"{key} {receipt[key]!r} ≠ {value!r}"
                        for key, value in expected.items() if receipt[key] != value]
        if problems:
            self.failures["receipts"].append(f"game {game_id}: {'; '.join(problems)}")
            return None
        return unchecked_canonical(unsigned(receipt)).encode("utf-8")

    def verify_signatures(self) -> None:
        """Check the receipt signatures waiting in ``unverified``, in one go."""
        key, verify, failures = self.epoch["public_key"], self.verify_signature, \
            self.failures["receipt signatures"]
        for game_id, message, signature in self.unverified:
            if not verify(key, message, signature):
                failures.append(f"game {game_id}: sig {short(signature)} is not a valid "
                                f"Ed25519 signature by epoch {self.reveal['epoch']}'s key "
                                f"{short(key)}")
        self.signatures += len(self.unverified)
        self.unverified.clear()

    def checks(self) -> list[Check]:
        """The day's checks, aggregated over its games."""
        if self.unverified:
            self.verify_signatures()
        games, receipts = self.games, len(self.leaves)
        ordered = sorted(self.leaves, key=itemgetter(0))
        indexes = [order for order, _ in ordered]
        if self.v2 and indexes != list(range(receipts)):
            self.failures["receipts"].append(f"leaf indexes {indexes[:10]} are not "
                                             f"0..{receipts - 1}, each once")
        successes = {
            "games replayed": f"{games} games: every roll equals the shared stream with its "
                              "holds, every box follows the rules",
            "games complete": f"{receipts} finished with every box filled, "
                              f"{games - receipts} unfinished",
            "receipts": f"{receipts} receipts, each naming its game, player, date, sheet, epoch",
            "transcript hashes": f"{receipts} transcripts hash to their receipt's "
                                 "transcript_sha256",
            "totals": f"{receipts} recomputed totals = their receipt's total",
        }
        checks = [aggregate(name, self.failures[name], successes[name])
                  for name in successes]
        if self.verify_signature is None:
            checks.append(Check("receipt signatures", None, NOT_CHECKED))
        else:
            checks.append(aggregate("receipt signatures", self.failures["receipt signatures"],
                                    f"{self.signatures} valid Ed25519 signatures by epoch "
                                    f"{self.reveal['epoch']}'s key"))
        published = self.reveal["games"].get(self.ruleset)
        checks.append(Check("game count", receipts == published,
                            f"{receipts} receipts {'=' if receipts == published else '≠'} "
                            f"reveal games[{self.ruleset}] {published}"))
        leaves = [leaf for _, leaf in ordered]
        root = merkle.root(leaves).hex()
        checks.append(Check("merkle root", root == self.reveal["roots"][self.ruleset],
                            f"root of the {receipts} receipts by "
                            f"{'index' if self.receipt_type == RECEIPT_V2_TYPE else 'game id'} "
                            f"{compared(root, self.reveal['roots'][self.ruleset])} "
                            f"reveal roots[{self.ruleset}]"))
        return checks

    def leaderboard(self) -> list[dict]:
        """The finished games ranked by total (ties share a rank, then by game id)."""
        board, rank, last = [], 0, None
        for position, (negated, game_id, player, name) in enumerate(sorted(self.results), 1):
            if negated != last:
                rank, last = position, negated
            board.append({"rank": rank, "player": player, "name": name, "game": game_id,
                          "total": -negated})
        return board
