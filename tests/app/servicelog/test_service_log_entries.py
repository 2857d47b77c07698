"""The service log on a real Redis: its entries are exactly the day logs' checkpoint notes, each
once, each day log's in chain order, across passes and racing passes; its checkpoints are C2SP
three-line notes that verify under its vkey; its origin is its identity."""

import stat
import threading
import time

import pytest

from app.servicelog.errors import LogKeyMismatch, OriginMismatch
from app.servicelog.key import LOG_KEY_FILE
from app.servicelog.service import ServiceLog, service_log_origin
from app.servicelog.store import ServiceLogStore
from fairness import merkle
from fairness.note import parse_note, parse_vkey
from fairness.service_log import open_log_checkpoint, parse_log_checkpoint, subproof_roots
from tests.app.logplay import finish_games
from tests.app.playkit import PLAY_DATE
from tests.app.servicelog.servicelog_kit import day_notes, service_log, verify_hex, with_service_log

SHEETS = ("yacht", "yahtzee")


@pytest.fixture
def app(logged_app):
    return with_service_log(logged_app)


def entries_of(log) -> list[str]:
    return log.store.entries(0, log.store.size())


def check_entries(app, log, sheets=SHEETS) -> list[str]:
    """The log's entries are every day checkpoint's note once, each sheet's in chain order."""
    entries = entries_of(log)
    notes = day_notes(app)
    assert all(notes[PLAY_DATE, sheet] for sheet in sheets)
    assert sorted(entries) == sorted(note for chain in notes.values() for note in chain)
    assert len(set(entries)) == len(entries)
    for chain in notes.values():
        assert [entry for entry in entries if entry in chain] == chain
    for entry in entries:
        text, signatures = parse_note(entry)
        assert len(signatures) == 1  # the epoch key's line only, never a witness's
    return entries


def check_checkpoint(log) -> None:
    """The latest checkpoint is a C2SP note of the entries' tree, signed by the log key."""
    head = log.latest()
    checkpoint = open_log_checkpoint(head.note, parse_vkey(log.key.vkey), verify_hex)
    text, _ = parse_note(head.note)
    assert parse_log_checkpoint(text) == checkpoint
    assert text.count("\n") == 3
    entries = entries_of(log)
    assert checkpoint.size == len(entries) == head.size
    assert checkpoint.root == merkle.root([merkle.leaf_hash(e.encode()) for e in entries])
    assert checkpoint.origin == log.origin


def test_entries_are_the_day_checkpoints_once_in_chain_order(app, clock):
    log = service_log(app)
    assert log.run_once() is None  # nothing yet
    finish_games(app, clock, 2, "yacht", seed=1)
    finish_games(app, clock, 1, "yahtzee", seed=2)
    size = log.run_once()
    assert size == len(check_entries(app, log))
    check_checkpoint(log)
    assert log.run_once() is None  # idempotent: nothing new, nothing cut

    finish_games(app, clock, 2, "yahtzee", seed=3)
    finish_games(app, clock, 1, "yacht", seed=4)
    first = entries_of(log)
    new_size = log.run_once()
    assert new_size == size + 6 - 3 == len(check_entries(app, log))
    check_checkpoint(log)
    assert first == entries_of(log)[:size]  # append-only
    assert log.store.is_checkpointed(size) and log.store.is_checkpointed(new_size)
    leaves = [merkle.leaf_hash(e.encode()) for e in entries_of(log)]
    proof, subproof = log.consistency(size, new_size)
    assert proof == log.consistency_proof(size, new_size) == merkle.consistency_path(size, leaves)
    # what a fork file carries: it leads to both roots, the first included
    assert subproof_roots(size, new_size, subproof) == (merkle.root(leaves[:size]),
                                                       merkle.root(leaves))


def test_racing_passes_enter_each_day_checkpoint_once(app, clock, redis_client):
    finish_games(app, clock, 3, "yacht", seed=5)
    finish_games(app, clock, 2, "yahtzee", seed=6)
    main = service_log(app)
    services = app.extensions["yacht_daily"]

    def another() -> ServiceLog:  # a second process: its own objects on the same Redis
        return ServiceLog(ServiceLogStore(redis_client), services.logs.logs,
                          main.logs_to_read, main.origin, main.data_dir, main.witnesses,
                          every_log=main.every_log)

    racers = [another() for _ in range(4)]
    barrier = threading.Barrier(len(racers))
    failures = []

    def race(log: ServiceLog, with_lease: bool) -> None:
        barrier.wait()
        try:
            if with_lease:
                log.run_once()
            else:  # no lease at all: the compare-and-set alone keeps entries once
                log.append_pending(log.every_log)
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)

    def race_all(leases: list[bool]) -> int:
        """Every racer at once (with its lease or not), then the main pass; the entries."""
        threads = [threading.Thread(target=race, args=pair)
                   for pair in zip(racers, leases, strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        main.run_once()
        check_checkpoint(main)
        return len(check_entries(app, main))

    size = race_all([i % 2 == 0 for i in range(len(racers))])
    finish_games(app, clock, 1, "yacht", seed=7)
    barrier.reset()
    assert race_all([True] * len(racers)) == size + 1


def test_the_log_key_is_kept_apart_and_never_overwritten(app, data_dir, clock):
    log = service_log(app)
    vkey = log.key.vkey
    path = data_dir / LOG_KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert parse_vkey(vkey).name == log.origin == "localhost/log"
    pem = path.read_bytes()
    finish_games(app, clock, 1, "yacht", seed=8)
    log.run_once()
    again = ServiceLog(log.store, log.day_logs, log.logs_to_read, log.origin, data_dir,
                       log.witnesses)
    assert again.key.vkey == vkey and path.read_bytes() == pem


def test_the_recorded_origin_is_the_logs_identity(app, clock, logged_app_factory):
    log = service_log(app)
    finish_games(app, clock, 1, "yacht", seed=9)
    log.run_once()
    assert log.store.identity() == log.key.vkey
    with pytest.raises(OriginMismatch) as refused:
        logged_app_factory(PUBLIC_URL="https://yacht.example/")
    assert "localhost/log" in str(refused.value) and "yacht.example/log" in str(refused.value)
    other = ServiceLog(log.store, log.day_logs, log.logs_to_read, "yacht.example/log",
                       log.data_dir, log.witnesses)
    with pytest.raises(OriginMismatch):
        other.run_once()


def test_a_process_with_another_log_key_refuses_to_sign_the_log(app, clock, tmp_path):
    """Every machine serving one log holds one log-key.pem: a process that made its own key
    (a data directory copied before the key existed) refuses to sign, naming both keys."""
    log = service_log(app)
    finish_games(app, clock, 1, "yacht", seed=10)
    log.run_once()
    other = ServiceLog(log.store, log.day_logs, log.logs_to_read, log.origin, tmp_path,
                       log.witnesses)
    assert other.key.vkey != log.key.vkey
    finish_games(app, clock, 1, "yacht", seed=11)
    with pytest.raises(LogKeyMismatch) as refused:
        other.run_once()
    assert log.key.vkey in str(refused.value) and other.key.vkey in str(refused.value)
    assert log.run_once() is not None  # the log goes on under its own key


def test_the_origin_comes_from_the_public_url_then_the_setting():
    assert service_log_origin("https://yacht.example/", "ignored.example/x") == \
        "yacht.example/log"
    assert service_log_origin("https://yacht.example:8443/daily/", None) == \
        "yacht.example:8443/daily/log"
    assert service_log_origin(None, "logs.example/yacht/") == "logs.example/yacht"
    assert service_log_origin(None, None) == "localhost/log"


def test_the_first_pass_enters_the_day_logs_closed_before_the_log_existed(app, clock):
    finish_games(app, clock, 2, "yacht", seed=12)
    main = service_log(app)

    def process(**every_log) -> ServiceLog:  # reads no recent day log at all
        return ServiceLog(main.store, main.day_logs, lambda: [], main.origin, main.data_dir,
                          main.witnesses, **every_log)

    assert process().run_once() is None
    late = process(every_log=main.every_log, full_scan_seconds=3600)
    size = late.run_once()
    assert size == len(check_entries(app, main, ("yacht",)))
    assert process(every_log=main.every_log).run_once() is None  # entered once
    finish_games(app, clock, 1, "yacht", seed=13)
    assert late.run_once() is None  # its next full scan is an hour away
    assert main.run_once() == size + 1


def test_the_background_thread_enters_and_cuts(app, clock):
    finish_games(app, clock, 1, "yacht", seed=14)
    main = service_log(app)
    thread = ServiceLog(main.store, main.day_logs, main.logs_to_read, main.origin,
                        main.data_dir, main.witnesses, poll_seconds=0.05,
                        every_log=main.every_log)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while main.store.last_checkpoint() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        thread.stop()
    assert main.latest().size == len(check_entries(app, main, ("yacht",)))
