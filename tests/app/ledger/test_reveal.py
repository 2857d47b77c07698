"""Commit and reveal: the seed stays secret until due, is revealed exactly once, and the signed
ledger, receipts and proofs check out — and stop checking out when a byte changes."""

import json
import random
import threading
from pathlib import Path

import pytest
from playkit import PLAY_DATE, app_on, call, play_to_end, redis_snapshot, start

from app.ledger.signing import verify_signature
from app.services import EXTENSION
from fairness import audit, merkle, replay, verify_seed
from fairness.ledger import day_root, receipt_leaf_hash

REVEAL_AT = "2026-03-11T13:01:00Z"
JUST_BEFORE = "2026-03-11T13:00:59Z"


def secrets_of(app):
    """The app's loaded secrets."""
    return app.extensions[EXTENSION].secrets


def failing(checks) -> list:
    """The checks that fail."""
    return [check for check in checks if check.ok is False]


@pytest.fixture
def day(app, clock):
    """A played day: two finished yacht games, one finished and one abandoned yahtzee game."""
    finished = []
    for seed, ruleset in enumerate(("yacht", "yacht", "yahtzee")):
        player = app.test_client()
        finished.append((player, play_to_end(player, start(player, ruleset, PLAY_DATE),
                                             random.Random(seed))))
    quitter = app.test_client()
    abandoned = start(quitter, "yahtzee", PLAY_DATE)
    _, answer = call(quitter, "POST", f"/games/{abandoned['id']}/roll", {"roll": 0})
    return {"finished": finished, "abandoned": answer["game"], "quitter": quitter}


def test_the_seed_appears_nowhere_before_its_reveal(app, client, clock, reveal, day,
                                                    redis_client, redis_url, caplog):
    """Responses, every Redis key and value, and every log line hold no seed until the reveal."""
    caplog.set_level("DEBUG")
    secrets = secrets_of(app)
    hidden = {secrets.seed(date).hex() for date in (PLAY_DATE, "2026-03-11", "2026-03-12")}
    hidden.add(secrets.current._epoch_secret.hex())
    seen = []
    for path in ("/ledger", f"/challenges?date={PLAY_DATE}", f"/games/{day['abandoned']['id']}",
                 f"/leaderboard/{PLAY_DATE}/yacht", "/rulesets", "/openapi.json",
                 f"/ledger/{PLAY_DATE}", f"/days/{PLAY_DATE}/yacht/games"):
        seen.append(client.get("/api/v1" + path).get_data(as_text=True))
    for player, final in day["finished"]:
        seen.append(player.get(f"/api/v1/games/{final['id']}").get_data(as_text=True))
        seen.append(player.get(f"/api/v1/games/{final['id']}/share").get_data(as_text=True))
    clock.set(JUST_BEFORE)
    seen.append(client.get("/api/v1/ledger").get_data(as_text=True))
    seen.append(json.dumps(redis_snapshot(redis_client)))
    seen.extend(record.getMessage() for record in caplog.records)
    redis_log = Path(redis_url.removeprefix("unix://")).with_name("redis.log")
    if redis_log.exists():
        seen.append(redis_log.read_text(errors="replace"))
    everything = "\n".join(seen)
    assert not [seed for seed in hidden if seed in everything]

    # The same search finds the seed once it is revealed: it can fail.
    clock.set(REVEAL_AT)
    assert reveal() == [f"2026-03-{d:02}" for d in range(1, 11)]
    ledger = client.get("/api/v1/ledger").get_data(as_text=True)
    assert secrets.seed(PLAY_DATE).hex() in ledger
    assert secrets.seed("2026-03-11").hex() not in ledger


def test_reveal_publishes_the_seed_counts_roots_and_proofs(app, client, clock, reveal, day):
    """Once due: every date's reveal in order; counts and roots of finished games; proofs."""
    clock.set(JUST_BEFORE)
    assert PLAY_DATE not in reveal()
    assert call(client, "GET", f"/ledger/{PLAY_DATE}")[0] == 404
    clock.set(REVEAL_AT)
    assert reveal() == [PLAY_DATE]
    status, body = call(client, "GET", "/ledger")
    entries = body["entries"]
    assert [e["type"] for e in entries] == ["yacht-daily/epoch/v2"] + ["yacht-daily/reveal/v1"] * 10
    assert [e["date"] for e in entries[1:]] == [f"2026-03-{d:02}" for d in range(1, 11)]
    assert not failing(audit.check_ledger(entries, verify_signature))
    assert all(check.ok for check in audit.check_ledger(entries, verify_signature))

    secrets = secrets_of(app)
    epoch = entries[0]
    assert epoch["anchor"] == secrets.epoch.anchor.hex()
    assert epoch["public_key"] == secrets.signer.public_key_hex
    _, published = call(client, "GET", f"/ledger/{PLAY_DATE}")
    entry = published["entry"]
    assert entry == entries[-1]
    assert verify_seed(bytes.fromhex(entry["seed"]), 10, bytes.fromhex(epoch["anchor"]))
    assert entry["games"] == {"yacht": 2, "yacht-bonus": 0, "yahtzee": 1}
    receipts = {"yacht": [], "yacht-bonus": [], "yahtzee": []}
    for _, final in day["finished"]:
        receipts[final["ruleset"]].append(final["receipt"])
    assert entry["roots"] == {r: day_root(found).hex() for r, found in receipts.items()}

    for _, final in day["finished"]:
        replay(final["transcript"], secrets.stream(PLAY_DATE, final["ruleset"]))
        status, proof = call(client, "GET", f"/games/{final['id']}/proof")
        assert status == 200 and proof["receipt"] == final["receipt"]
        assert merkle.verify_inclusion(
            receipt_leaf_hash(proof["receipt"]), proof["proof"]["index"], proof["proof"]["size"],
            [bytes.fromhex(h) for h in proof["proof"]["path"]], bytes.fromhex(proof["root"]))
        assert not failing(audit.check_game(entries, final["receipt"], final["transcript"],
                                            proof["proof"], verify_signature))


def test_an_unfinished_game_is_abandoned_and_published(client, clock, reveal, day):
    """No receipt, not ranked, no proof; its transcript is in the day's public audit."""
    clock.set(REVEAL_AT)
    reveal()
    abandoned = day["abandoned"]
    status, body = call(client, "GET", f"/games/{abandoned['id']}")
    assert status == 200 and body["game"]["status"] == "abandoned"
    assert call(client, "GET", f"/games/{abandoned['id']}/proof")[0] == 404
    status, audit_day = call(client, "GET", f"/days/{PLAY_DATE}/yahtzee/games")
    assert status == 200
    by_id = {game["id"]: game for game in audit_day["games"]}
    assert by_id[abandoned["id"]]["status"] == "abandoned"
    assert by_id[abandoned["id"]]["receipt"] is None
    assert by_id[abandoned["id"]]["transcript"] == abandoned["transcript"]
    assert sum(1 for game in audit_day["games"] if game["status"] == "finished") == 1
    _, board = call(client, "GET", f"/leaderboard/{PLAY_DATE}/yahtzee")
    assert board["players"] == 1


def read_day_in_pages(client, ruleset: str, limit: int) -> tuple[list[dict], int]:
    """Every game of PLAY_DATE's ``ruleset``, following ``next`` with ``limit`` games a page:
    (the games, how many pages)."""
    games, query, pages = [], f"?limit={limit}", 0
    while True:
        status, page = call(client, "GET", f"/days/{PLAY_DATE}/{ruleset}/games{query}")
        assert status == 200, page
        assert len(page["games"]) <= limit
        games, pages = games + page["games"], pages + 1
        if page["next"] is None:
            return games, pages
        assert page["next"] == page["games"][-1]["id"]
        query = f"?limit={limit}&after={page['next']}"


def test_the_day_pages_concatenate_to_the_whole_day_in_id_order(app, client, clock, reveal,
                                                                day):
    """Pages of any size, cursor after cursor, give exactly the day's games by id: the default
    page, and one page per game; a cursor that is no game of the day still pages on."""
    for _ in range(3):  # three more yahtzee games, never rolled
        start(app.test_client(), "yahtzee", PLAY_DATE)
    clock.set(REVEAL_AT)
    reveal()
    status, whole = call(client, "GET", f"/days/{PLAY_DATE}/yahtzee/games")
    assert status == 200 and whole["next"] is None and whole["total"] == 5
    ids = [game["id"] for game in whole["games"]]
    assert ids == sorted(ids) and len(set(ids)) == 5
    for limit in (1, 2, 4, 5):
        games, pages = read_day_in_pages(client, "yahtzee", limit)
        assert games == whole["games"]
        assert pages == -(-5 // limit)
    between = ids[1][:-1] + ("0" if ids[1][-1] != "0" else "1")
    status, page = call(client, "GET", f"/days/{PLAY_DATE}/yahtzee/games?after={between}")
    assert [game["id"] for game in page["games"]] == [i for i in ids if i > between]
    status, page = call(client, "GET", f"/days/{PLAY_DATE}/yahtzee/games?after={ids[-1]}")
    assert (page["games"], page["next"], page["total"]) == ([], None, 5)


def test_verify_endpoint(client, clock, reveal, day):
    """POST /verify by id or with a posted receipt and transcript, check by check."""
    _, final = day["finished"][0]
    clock.set(REVEAL_AT)
    reveal()
    status, verdict = call(client, "POST", "/verify", {"game": final["id"]})
    assert status == 200 and verdict["ok"] is True
    assert {check["name"] for check in verdict["checks"]} >= {"inclusion proof", "receipt format"}
    posted = {"receipt": final["receipt"], "transcript": final["transcript"]}
    status, verdict = call(client, "POST", "/verify", posted)
    assert status == 200 and verdict["ok"] is True
    tampered = [dict(entry) for entry in final["transcript"]]
    tampered[0]["dice"] = [(d % 6) + 1 for d in tampered[0]["dice"]]
    status, verdict = call(client, "POST", "/verify", {**posted, "transcript": tampered})
    assert status == 200 and verdict["ok"] is False
    assert [c for c in verdict["checks"] if c["ok"] is False]
    status, answer = call(client, "POST", "/verify", {**posted, "proof": [1, 2]})
    assert (status, answer["error"]["code"]) == (400, "invalid-field")
    status, answer = call(client, "POST", "/verify", {"receipt": "nope"})
    assert (status, answer["error"]["code"]) == (400, "invalid-body")
    status, answer = call(client, "POST", "/verify", {"game": day["abandoned"]["id"]})
    assert (status, answer["error"]["code"]) == (409, "no-receipt")


def test_reveal_happens_exactly_once_under_a_race(redis_url, data_dir, clock, redis_client):
    """Many app instances (as many workers) racing to reveal: one entry per date, in order."""
    apps = [app_on(redis_url, data_dir, clock) for _ in range(8)]
    clock.set(REVEAL_AT)
    barrier = threading.Barrier(len(apps))
    revealed = []

    def race(app):
        """Wait for all, then reveal what is due."""
        barrier.wait()
        revealed.extend(app.extensions[EXTENSION].ledger.reveal_due())

    threads = [threading.Thread(target=race, args=(app,)) for app in apps]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    entries = apps[0].extensions[EXTENSION].ledger.entries()
    dates = [entry["date"] for entry in entries[1:]]
    assert dates == [f"2026-03-{d:02}" for d in range(1, 11)]
    assert sorted(revealed) == dates
    assert not failing(audit.check_ledger(entries, verify_signature))


def flipped(text: str, position: int) -> str:
    """``text`` with the character at ``position`` changed (its lowest bit flipped)."""
    return text[:position] + chr(ord(text[position]) ^ 1) + text[position + 1:]


def test_flipping_any_byte_of_a_ledger_entry_fails_its_check(client, clock, reveal):
    """Every single-character change of every entry makes some ledger check fail."""
    clock.set("2026-03-03T14:00:00Z")
    reveal()
    entries = call(client, "GET", "/ledger")[1]["entries"]
    assert len(entries) == 3 and not failing(audit.check_ledger(entries, verify_signature))
    for index, entry in enumerate(entries):
        text = json.dumps(entry, sort_keys=True, separators=(",", ":"))
        for position in range(len(text)):
            try:
                changed = json.loads(flipped(text, position))
            except ValueError:
                continue  # no longer JSON: nothing left to accept
            forged = [*entries[:index], changed, *entries[index + 1:]]
            assert failing(audit.check_ledger(forged, verify_signature)), (index, position)
