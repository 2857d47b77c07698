"""A sheet of 9,000 finished games (and abandoned ones) revealed through the service, then
served: the day's pages, inclusion proofs and /verify.

The games are written straight into Redis in the store's own format (bench/stored_day.py);
the reveal and every read go through the service's own code. The Lua script that once stored a
day's receipts with one ``unpack`` failed above about 8,000 games.
"""

import json

import pytest
from playkit import PLAY_DATE, call

from app.ledger.service import RevealFailed
from app.platform.keys import game_key, tree_progress_key
from app.services import EXTENSION
from bench.stored_day import store_day
from fairness import merkle
from fairness.ledger import receipt_leaf_hash

REVEAL_AT = "2026-03-11T13:01:00Z"
RULESET = "yacht"
# Above the ~8,000 games where a single-``unpack`` script would fail, and nine chunks.
FINISHED = 9_000
ABANDONED = 300


def test_a_nine_thousand_game_sheet_is_revealed_and_served(app, client, clock, reveal):
    """The reveal's count and root are the reference's (fairness.merkle over every receipt);
    pages follow id order; proofs at chunk edges are the reference's paths and lead to the
    root; /verify holds by id and by posted receipt; the leaderboard has every finished game."""
    games = store_day(app.extensions[EXTENSION], PLAY_DATE, RULESET, FINISHED, ABANDONED)
    receipts = sorted((game.receipt for game in games if game.receipt),
                      key=lambda receipt: receipt["game"])
    clock.set(REVEAL_AT)
    assert PLAY_DATE in reveal()

    leaves = [receipt_leaf_hash(receipt) for receipt in receipts]  # FAIRNESS.md's leaf order
    status, published = call(client, "GET", f"/ledger/{PLAY_DATE}")
    entry = published["entry"]
    assert status == 200 and entry["games"][RULESET] == FINISHED
    assert entry["roots"][RULESET] == merkle.root(leaves).hex()

    ordered = sorted(game.id for game in games)
    status, page = call(client, "GET", f"/days/{PLAY_DATE}/{RULESET}/games?limit=1000")
    assert status == 200 and page["total"] == FINISHED + ABANDONED
    assert [game["id"] for game in page["games"]] == ordered[:1000]
    assert page["next"] == ordered[999]
    status, later = call(client, "GET",
                         f"/days/{PLAY_DATE}/{RULESET}/games?limit=3&after={ordered[6_999]}")
    assert [game["id"] for game in later["games"]] == ordered[7_000:7_003]
    status, last = call(client, "GET",
                        f"/days/{PLAY_DATE}/{RULESET}/games?after={ordered[-2]}")
    assert [game["id"] for game in last["games"]] == ordered[-1:] and last["next"] is None
    assert sum(game["status"] == "abandoned" for game in page["games"]) > 0

    root = bytes.fromhex(entry["roots"][RULESET])
    for index in (0, 1023, 1024, 2047, 8 * 1024, FINISHED - 1):
        game_id = receipts[index]["game"]
        status, proof = call(client, "GET", f"/games/{game_id}/proof")
        assert status == 200 and proof["receipt"] == receipts[index]
        assert proof["proof"] == {"index": index, "size": FINISHED, "path": [
            node.hex() for node in merkle.inclusion_path(index, leaves)]}
        assert merkle.verify_inclusion(leaves[index], index, FINISHED,
                                       [bytes.fromhex(node) for node in proof["proof"]["path"]],
                                       root)

    chosen = next(game for game in games if game.receipt and game.id == receipts[5_678]["game"])
    status, verdict = call(client, "POST", "/verify", {"game": chosen.id})
    assert status == 200 and verdict["ok"] is True, verdict
    status, verdict = call(client, "POST", "/verify",
                           {"receipt": chosen.receipt, "transcript": chosen.transcript})
    assert status == 200 and verdict["ok"] is True, verdict

    status, board = call(client, "GET", f"/leaderboard/{PLAY_DATE}/{RULESET}")
    assert status == 200 and board["players"] == FINISHED
    assert board["top"][0]["total"] == max(receipt["total"] for receipt in receipts)


def test_a_reveal_cut_short_resumes_after_its_last_full_chunk(app, client, clock, reveal,
                                                              redis_client):
    """A reveal that fails on the 2,501st leaf (a damaged receipt) has stored two full
    chunks and how far it got; once repaired, the next pass goes on from there and publishes
    the reference root."""
    games = store_day(app.extensions[EXTENSION], PLAY_DATE, RULESET, 3000, 10)
    receipts = sorted((game.receipt for game in games if game.receipt),
                      key=lambda receipt: receipt["game"])
    damaged = game_key(receipts[2500]["game"])
    stored = redis_client.hget(damaged, "receipt")
    redis_client.hset(damaged, "receipt", "{" + stored)
    clock.set(REVEAL_AT)
    with pytest.raises(RevealFailed):
        reveal()
    progress = json.loads(redis_client.get(tree_progress_key(PLAY_DATE, RULESET)))
    assert progress["size"] == 2048 and progress["after"] == receipts[2047]["game"]

    redis_client.hset(damaged, "receipt", stored)
    assert reveal() == [PLAY_DATE]
    entry = call(client, "GET", f"/ledger/{PLAY_DATE}")[1]["entry"]
    assert entry["games"][RULESET] == 3000
    assert entry["roots"][RULESET] == merkle.root(
        [receipt_leaf_hash(receipt) for receipt in receipts]).hex()
    assert redis_client.exists(tree_progress_key(PLAY_DATE, RULESET)) == 0
