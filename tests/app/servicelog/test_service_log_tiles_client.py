"""The independent tlog-tiles client (``tests/verify/tlog_tiles_client.py``, written from the
C2SP text alone) reads the service log's live tiles, entry bundles and checkpoint: the
checkpoint verifies under the log key, the root it computes from the tiles is the checkpoint's,
and the inclusion of a real day checkpoint (and of entries past 256) verifies against it."""

import pytest

from tests.app.logplay import finish_games
from tests.app.playkit import PLAY_DATE
from tests.app.servicelog.servicelog_kit import service_log, verify_raw, with_service_log
from tests.verify.tlog_tiles_client import TilesClient


@pytest.fixture
def app(logged_app):
    return with_service_log(logged_app)


def test_the_independent_client_verifies_an_inclusion_from_live_tiles(app, clock):
    finish_games(app, clock, 2, "yacht", seed=21)
    log = service_log(app)
    log.run_once()
    log.append_entries("synthetic|x", [f"synthetic {i}\n\n— x AAAA\n" for i in range(520)])
    log.run_once()
    http = app.test_client()
    fetched = []

    def fetch(path: str) -> bytes:
        fetched.append(path)
        answer = http.get(f"/log/{path}")
        if answer.status_code == 404:
            raise LookupError(path)
        assert answer.status_code == 200, (path, answer.status_code)
        return answer.get_data()

    client = TilesClient(fetch)
    checkpoint = client.checkpoint(log.key.public_key, verify_raw)
    assert checkpoint.origin == log.origin and checkpoint.size > 520
    assert client.root(checkpoint.size) == checkpoint.root
    assert any(path.startswith("tile/1/") for path in fetched)

    found = log.entry(PLAY_DATE, "yacht", 1)
    day_note = log.day_logs.checkpoints(PLAY_DATE, "yacht")[1].note
    assert found["entry"] == day_note
    assert client.verify_inclusion(found["index"], day_note.encode(), checkpoint.size,
                                   checkpoint.root)
    assert not client.verify_inclusion(found["index"], day_note.encode() + b" ",
                                       checkpoint.size, checkpoint.root)
    last_bundle = (checkpoint.size - 1) // 256
    entries = client.entries(last_bundle, checkpoint.size)
    index = last_bundle * 256 + len(entries) - 1
    assert client.verify_inclusion(index, entries[-1], checkpoint.size, checkpoint.root)
