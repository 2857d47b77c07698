"""The push channel on a real Redis: events kept per table, read from any point, blocking for
new ones from another connection (another worker), and the SSE text a browser resumes."""

import threading

import pytest

from app.platform.redis import connect
from app.tables.events import TableChannel, events_key, valid_event_id
from app.tables.sse import END_KIND, format_event, table_events
from app.tables.store import table_key


def test_events_are_read_after_any_id_in_order(redis_client):
    """Every event after a given id comes back, in publishing order, with its data."""
    channel = TableChannel(redis_client)
    ids = [channel.publish("t1", "roll", {"seat": seat}) for seat in range(3)]
    assert [e.data["seat"] for e in channel.read("t1", "0-0")] == [0, 1, 2]
    assert [e.id for e in channel.read("t1", ids[0])] == ids[1:]
    assert channel.read("t1", ids[-1]) == []
    assert channel.last_id("t1") == ids[-1]
    assert channel.last_id("other") == "0-0"
    assert redis_client.ttl(events_key("t1")) > 0


def test_a_blocked_reader_wakes_when_another_connection_publishes(redis_url, redis_client):
    """A reader blocked in one client gets the event another client (worker) publishes."""
    reader = TableChannel(connect(redis_url))
    writer = TableChannel(connect(redis_url))
    got = []
    thread = threading.Thread(target=lambda: got.extend(reader.read("t2", "0-0", block_ms=5000)))
    thread.start()
    published = writer.publish("t2", "score", {"box": "chance"})
    thread.join()
    assert [(e.id, e.kind, e.data) for e in got] == [(published, "score", {"box": "chance"})]


def test_a_quiet_table_gives_no_event_after_the_wait(redis_client):
    """Blocking on a table with nothing new returns nothing once the wait is over."""
    assert TableChannel(redis_client).read("quiet", "0-0", block_ms=50) == []


def test_a_new_connection_starts_with_a_snapshot_then_live_events(redis_client):
    """Without Last-Event-ID the stream opens with the table's snapshot, ids continue from
    the latest event, and ends after the table's end event."""
    channel = TableChannel(redis_client)
    before = channel.publish("t3", "roll", {"n": 1})
    channel.publish("t3", END_KIND, {"n": 2})
    chunks = list(table_events(channel, "t3", None, lambda: {"table": "t3"}, max_seconds=0.3,
                               block_ms=100))
    assert chunks[0].startswith("retry: ")
    assert chunks[1] == format_event(channel.last_id("t3"), "snapshot", {"table": "t3"})
    assert set(chunks[2:]) == {": quiet\n\n"}  # the events before the snapshot are in it
    ended = list(table_events(channel, "t3", None, lambda: {"status": END_KIND}))
    assert len(ended) == 2  # a snapshot of an ended table closes the stream
    resumed = list(table_events(channel, "t3", before, dict, max_seconds=5, block_ms=100))
    assert resumed[1:] == [format_event(channel.last_id("t3"), END_KIND, {"n": 2})]


def test_a_reconnection_resumes_after_its_last_event_id(redis_client):
    """With Last-Event-ID the browser gets exactly the events it missed, no snapshot."""
    channel = TableChannel(redis_client)
    first = channel.publish("t4", "roll", {"n": 1})
    second = channel.publish("t4", "roll", {"n": 2})
    chunks = list(table_events(channel, "t4", first, lambda: {"never": True}, max_seconds=0.3,
                               block_ms=100))
    assert chunks[1] == format_event(second, "roll", {"n": 2})
    assert all("snapshot" not in chunk for chunk in chunks)
    assert chunks[-1] == ": quiet\n\n"


def test_a_malformed_last_event_id_is_treated_as_none():
    """Only ``<digits>-<digits>`` is an id; anything else means start from a snapshot."""
    assert valid_event_id("1700000000000-3")
    for text in (None, "", "0", "abc-1", "1-2-3", "1-2\n"):
        assert not valid_event_id(text)


def test_an_actions_events_and_its_turn_are_written_by_one_script(redis_client):
    """``publish_turn`` times a new turn once (the first writer's deadline stays), writes the
    seconds left into the events that ask for it, and times nothing for no turn."""
    channel = TableChannel(redis_client)
    redis_client.hset(table_key("t5"), mapping={"status": "playing", "turn": "0:1",
                                                "deadline": "1000.0"})
    first = channel.publish_turn("t5", "1:1", 1045.0, 1000.0,
                                 [("actions", {"to": 2}, True), (END_KIND, {"ranks": [1]}, False)])
    again = channel.publish_turn("t5", "1:1", 1050.0, 1010.5, [("actions", {"to": 3}, True)])
    none = channel.publish_turn("t5", None, 0.0, 1011.0, [("actions", {"to": 4}, True)])
    assert (first.deadline, first.timed) == (1045.0, True)
    assert (again.deadline, again.timed) == (1045.0, False)
    assert (none.deadline, none.timed) == (None, False)
    assert redis_client.hmget(table_key("t5"), "turn", "deadline") == ["1:1", "1045.0"]
    events = channel.read("t5", "0-0")
    assert [e.id for e in events] == first.ids + again.ids + none.ids
    assert [(e.kind, e.data) for e in events] == [
        ("actions", {"to": 2, "seconds_left": 45.0}), (END_KIND, {"ranks": [1]}),
        ("actions", {"to": 3, "seconds_left": 34.5}), ("actions", {"to": 4, "seconds_left": None})]
    assert redis_client.ttl(events_key("t5")) > 0


def test_an_action_already_published_is_not_published_again(redis_client):
    """Two runners that both played the same clock move (the second one's moves were repeats of
    the first's) publish its events once: events that bring the table to a version already
    published are dropped, a later version and events of no action are written."""
    channel = TableChannel(redis_client)
    redis_client.hset(table_key("t7"), mapping={"status": "playing", "turn": "1:1",
                                                "deadline": "1000.0"})
    first = channel.publish_turn("t7", "0:2", 1045.0, 1000.0,
                                 [("actions", {"from": 4, "to": 6}, True)], version=6)
    again = channel.publish_turn("t7", "0:2", 1045.0, 1001.0,
                                 [("actions", {"from": 4, "to": 6}, True)], version=6)
    older = channel.publish_turn("t7", "0:2", 1045.0, 1001.0,
                                 [("actions", {"from": 4, "to": 5}, True)], version=5)
    later = channel.publish_turn("t7", "1:2", 1090.0, 1046.0,
                                 [("actions", {"from": 6, "to": 8}, True)], version=8)
    unversioned = channel.publish_turn("t7", "1:2", 1090.0, 1047.0, [(END_KIND, {}, False)])
    assert (len(first.ids), again.ids, older.ids, len(later.ids), len(unversioned.ids)) == (
        1, [], [], 1, 1)
    assert again.deadline == 1045.0  # the turn is still timed by a dropped publish
    events = channel.read("t7", "0-0")
    assert [e.data.get("to") for e in events] == [6, 8, None]


def test_more_blocked_readers_than_a_default_pool_leave_requests_their_connections(redis_url):
    """Readers waiting in XREAD have a pool of their own: 120 of them at once (redis-py's
    default pool stops at 100) and the requests' client still has connections to publish."""
    if redis_url.startswith("redis+cluster"):
        pytest.skip("a cluster client's pools are per node and unbounded")
    client = connect(redis_url)
    channel = TableChannel(client)
    readers = 120
    got = []
    threads = [threading.Thread(target=lambda: got.extend(channel.read("t6", "0-0",
                                                                       block_ms=10_000)))
               for _ in range(readers)]
    for thread in threads:
        thread.start()
    for _ in range(200):
        if client.info("clients")["blocked_clients"] >= readers:
            break
        threading.Event().wait(0.05)
    channel.publish("t6", "roll", {"n": 1})
    for thread in threads:
        thread.join()
    assert len(got) == readers
