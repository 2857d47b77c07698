"""The whole-day audit's fast path for receipts: a day's receipt bytes written, not encoded.

A day's receipts differ only in their game, player, total, transcript hash and signature; the
bytes each signs (its canonical JSON without ``sig``) are the day's fixed text around those.
"""

from json.encoder import encode_basestring  # the string escaping of json.dumps(ensure_ascii=False)

_RECEIPT_KEYS = frozenset({"type", "game", "epoch", "date", "ruleset", "player",
                           "transcript_sha256", "total", "sig"})


class ReceiptBytes:
    """The signed bytes of one (date, sheet)'s receipts, for those that are plainly well formed.

    ``of`` returns the bytes only for a dict with exactly the receipt's fields, each of its exact
    JSON type, naming this day, sheet, epoch, game and player, its hashes lowercase hex; for
    anything else it returns None and the caller runs the field checks, which say what is wrong.
    The bytes equal ``canonical_json(unsigned(receipt))``: keys in code-point order, strings
    escaped as ``json.dumps`` escapes them.
    """

    def __init__(self, receipt_type: str, date: str, epoch: int, ruleset: str):
        """Bind the fields every receipt of the day shares."""
        self.receipt_type, self.date, self.epoch, self.ruleset = receipt_type, date, epoch, ruleset
        self._head = f'{{"date":{encode_basestring(date)},"epoch":{epoch},"game":'
        self._ruleset = f',"ruleset":{encode_basestring(ruleset)},"total":'
        self._tail = f'","type":{encode_basestring(receipt_type)}}}'

    def of(self, receipt, game_id: str, player) -> bytes | None:
        """The bytes ``receipt``'s signature covers, or None when it is not plainly this game's
        well-formed receipt."""
        if type(receipt) is not dict or receipt.keys() != _RECEIPT_KEYS:
            return None
        game, owner, total = receipt["game"], receipt["player"], receipt["total"]
        digest, epoch, sig = receipt["transcript_sha256"], receipt["epoch"], receipt["sig"]
        kind, date, ruleset = receipt["type"], receipt["date"], receipt["ruleset"]
        if not (type(game) is str and game == game_id and type(owner) is str and owner == player
                and type(total) is int and type(epoch) is int and epoch == self.epoch
                and type(kind) is str and kind == self.receipt_type
                and type(date) is str and date == self.date
                and type(ruleset) is str and ruleset == self.ruleset
                and _is_lowercase_hex(digest, 64) and _is_lowercase_hex(sig, 128)):
            return None
        return (f'{self._head}{encode_basestring(game)},"player":{encode_basestring(owner)}'
                f'{self._ruleset}{total},"transcript_sha256":"{digest}{self._tail}'
                ).encode()


def _is_lowercase_hex(value, digits: int) -> bool:
    """True when ``value`` is a str of exactly ``digits`` lowercase hex digits (read as bytes
    and written back the same: no uppercase, no whitespace, nothing else)."""
    if type(value) is not str or len(value) != digits:
        return False
    try:
        return bytes.fromhex(value).hex() == value
    except ValueError:
        return False
