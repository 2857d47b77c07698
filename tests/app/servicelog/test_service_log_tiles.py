"""The service log's C2SP tlog-tiles resources and JSON, served from the stored subtrees on a
real Redis: every tile and entry bundle matches the tree ``fairness.merkle`` computes from the
entries (a level-1 tile over more than 256 entries too), partial ones only for checkpointed
sizes, nothing beyond the latest checkpoint; caching headers; proofs that verify."""

import base64
import gzip

import pytest

from fairness import merkle
from fairness.note import parse_note, parse_vkey
from fairness.service_log import open_log_checkpoint
from fairness.tiles import read_entry_bundle
from tests.app.logplay import finish_games
from tests.app.playkit import PLAY_DATE
from tests.app.servicelog.servicelog_kit import service_log, verify_hex, with_service_log

IMMUTABLE = "public, max-age=31536000, immutable"
ENTRIES = [f"synthetic day checkpoint {i}\n\n— x AAAA\n" for i in range(600)]
HASHES = [merkle.leaf_hash(entry.encode()) for entry in ENTRIES]


@pytest.fixture
def app(logged_app):
    return with_service_log(logged_app)


@pytest.fixture
def grown(app):
    """The log with checkpoints at 300 and 600 synthetic entries."""
    log = service_log(app)
    log.append_entries("synthetic|x", ENTRIES[:300])
    assert log.cut() == 300
    log.append_entries("synthetic|x", ENTRIES[300:])
    assert log.cut() == 600
    return app


def get(client, path: str, status: int = 200):
    answer = client.get(path)
    assert answer.status_code == status, (path, answer.status_code, answer.get_data()[:300])
    return answer


def hashes(data: bytes) -> list[bytes]:
    return [data[i:i + 32] for i in range(0, len(data), 32)]


def test_tiles_and_bundles_are_the_merkle_tree(grown):
    client = grown.test_client()
    full = [get(client, f"/log/tile/0/00{n}") for n in (0, 1)]
    for n, answer in enumerate(full):
        assert answer.headers["Content-Type"] == "application/octet-stream"
        assert answer.headers["Cache-Control"] == IMMUTABLE
        assert hashes(answer.get_data()) == HASHES[256 * n:256 * (n + 1)]
    partial = get(client, "/log/tile/0/002.p/88")
    assert hashes(partial.get_data()) == HASHES[512:600]
    assert partial.headers["Cache-Control"] == IMMUTABLE
    level_one = get(client, "/log/tile/1/000.p/2")  # a level-1 tile over 512 entries
    assert hashes(level_one.get_data()) == [merkle.root(HASHES[:256]),
                                            merkle.root(HASHES[256:512])]
    assert hashes(get(client, "/log/tile/0/001.p/44").get_data()) == HASHES[256:300]
    assert hashes(get(client, "/log/tile/1/000.p/1").get_data()) == [merkle.root(HASHES[:256])]

    bundle = get(client, "/log/tile/entries/001")
    assert bundle.headers["Content-Type"] == "application/octet-stream"
    assert bundle.headers["Cache-Control"] == IMMUTABLE
    assert read_entry_bundle(bundle.get_data(), 256) == [e.encode() for e in ENTRIES[256:512]]
    assert read_entry_bundle(get(client, "/log/tile/entries/002.p/88").get_data()) == \
        [e.encode() for e in ENTRIES[512:]]
    assert "Content-Encoding" not in bundle.headers
    zipped = client.get("/log/tile/entries/001", headers={"Accept-Encoding": "gzip, identity"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.get_data()) == bundle.get_data()
    assert read_entry_bundle(get(client, "/log/tile/entries/001.p/44").get_data()) == \
        [e.encode() for e in ENTRIES[256:300]]


def test_nothing_beyond_the_checkpoints_and_malformed_paths_refused(grown):
    client = grown.test_client()
    for path in ("/log/tile/0/002", "/log/tile/0/003.p/1", "/log/tile/0/002.p/89",
                 "/log/tile/0/002.p/87",  # a size never checkpointed
                 "/log/tile/1/000", "/log/tile/1/000.p/3", "/log/tile/2/000.p/1",
                 "/log/tile/entries/002", "/log/tile/entries/002.p/87", "/log/tile/0/x001/000"):
        assert get(client, path, 404).status_code == 404
    for path in ("/log/tile/0/1", "/log/tile/0/001.p/0", "/log/tile/0/001.p/256",
                 "/log/tile/64/000", "/log/tile/0/x000/001", "/log/tile/00/001",
                 "/log/tile/entries/001.p/007"):
        assert get(client, path, 400).status_code == 400
    log = service_log(grown)
    log.append_entries("synthetic|x", ["one more\n"])  # entered, not yet checkpointed
    get(client, "/log/tile/0/002.p/89", 404)
    get(client, "/log/tile/entries/002.p/89", 404)


def test_the_checkpoint_and_the_json_beside_it(grown):
    client = grown.test_client()
    log = service_log(grown)
    answer = get(client, "/log/checkpoint")
    assert answer.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert answer.headers["Cache-Control"] == "public, max-age=5"
    note = answer.get_data(as_text=True)
    checkpoint = open_log_checkpoint(note, parse_vkey(log.key.vkey), verify_hex)
    assert (checkpoint.size, checkpoint.root) == (600, merkle.root(HASHES))

    identity = get(client, "/api/v1/log").get_json()
    assert identity == {"origin": "localhost/log", "vkey": log.key.vkey, "size": 600,
                        "checkpoint": note, "witnesses": []}

    proof = get(client, "/api/v1/log/consistency?old=300&size=600").get_json()
    assert proof["old"] == 300 and proof["size"] == 600
    assert [base64.b64decode(h) for h in proof["proof"]] == \
        merkle.consistency_path(300, HASHES)
    assert get(client, "/api/v1/log/consistency?old=0&size=600").get_json()["proof"] == []
    get(client, "/api/v1/log/consistency?old=301&size=600", 404)
    get(client, "/api/v1/log/consistency?old=300&size=599", 404)
    get(client, "/api/v1/log/consistency?old=600&size=300", 400)
    get(client, "/api/v1/log/consistency?old=x&size=600", 400)
    get(client, "/api/v1/log/consistency?size=600", 400)


def test_before_any_checkpoint(app):
    client = app.test_client()
    get(client, "/log/checkpoint", 404)
    get(client, "/log/tile/0/000.p/1", 404)
    identity = get(client, "/api/v1/log").get_json()
    assert identity["size"] == 0 and identity["checkpoint"] is None


def test_a_day_checkpoints_entry_and_its_inclusion_proof(app, clock):
    finish_games(app, clock, 2, "yacht", seed=11)
    log = service_log(app)
    log.run_once()
    client = app.test_client()
    note = get(client, "/log/checkpoint").get_data(as_text=True)
    checkpoint = open_log_checkpoint(note, parse_vkey(log.key.vkey), verify_hex)
    stored = log.day_logs.checkpoints(PLAY_DATE, "yacht")
    assert len(stored) == 2
    for position, day_checkpoint in enumerate(stored):
        found = get(client, f"/api/v1/log/entries/{PLAY_DATE}/yacht/{position}").get_json()
        assert found["entry"] == day_checkpoint.note and found["size"] == checkpoint.size
        assert parse_note(found["entry"])[0] == day_checkpoint.body
        assert merkle.verify_inclusion(
            merkle.leaf_hash(found["entry"].encode()), found["index"], checkpoint.size,
            [base64.b64decode(h) for h in found["proof"]], checkpoint.root)
    get(client, f"/api/v1/log/entries/{PLAY_DATE}/yacht/2", 404)
    get(client, f"/api/v1/log/entries/{PLAY_DATE}/yacht/x", 400)
    get(client, f"/api/v1/log/entries/{PLAY_DATE}/yacht/0?size={checkpoint.size + 1}", 404)
    get(client, f"/api/v1/log/entries/{PLAY_DATE}/yacht/0?size=abc", 400)
