"""A table's event stream given a ``Last-Event-ID`` no stream of ours could have sent (malformed,
or a part beyond what a Redis stream id holds) resumes from the start, a snapshot, and logs
nothing: never a traceback, never a stream cut short."""

import logging

import pytest
from playkit import app_on

from app.tables.events import valid_event_id
from tests.app.tables.tablekit import create_table

FOREIGN_IDS = [
    "99999999999999999999-0",
    "0-99999999999999999999",
    "18446744073709551616-0",
    "1-2-3",
    "abc",
    "-1-0",
    " 1-0",
]


@pytest.fixture
def app(redis_client, redis_url, data_dir, clock, strategy_tables_dir):
    """The app, with event streams a fifth of a second long."""
    return app_on(redis_url, data_dir, clock, PUBLIC_URL="https://yacht.example/",
                  TABLE_STREAM_SECONDS=0.2)


@pytest.mark.parametrize("last_event_id", FOREIGN_IDS)
def test_a_foreign_last_event_id_resumes_from_a_snapshot_without_a_traceback(
        app, caplog, last_event_id):
    client = app.test_client()
    table = create_table(client, "yacht", [{"kind": "human"}])
    with caplog.at_level(logging.WARNING):
        response = client.get(f"/api/v1/tables/{table['id']}/events",
                              headers={"Last-Event-ID": last_event_id})
        text = response.get_data(as_text=True)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert "event: snapshot" in text and f'"id":"{table["id"]}"' in text
    assert [record for record in caplog.records if record.levelno >= logging.WARNING] == []


def test_the_largest_ids_a_redis_stream_holds_are_still_ids():
    """Each part of an id is an unsigned 64-bit number: its largest value is an id, one more
    is not."""
    largest = str(2**64 - 1)
    assert valid_event_id(f"{largest}-{largest}")
    assert not valid_event_id(f"{2**64}-0") and not valid_event_id(f"0-{2**64}")
