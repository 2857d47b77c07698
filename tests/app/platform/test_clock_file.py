"""The test clock file (``YACHT_DAILY_CLOCK_FILE``) is the time or an error, never the real
time in disguise: a reader that finds it empty or half-written (a shell's ``>`` rewriting it)
waits briefly for the whole text; one that cannot read a time in it stops the app's start, and
a request then gets a 503 ``clock-unreadable`` with a clear log line. The tests' own writer
replaces the file whole (a temporary file renamed over it), so a reader never sees it half
written."""

import datetime as dt
import functools
import logging
import threading
import time

import pytest
from playkit import app_on

from app import create_app
from app.platform.clock import ClockFileError, file_time, system_clock
from tests.conftest import write_clock_file

MOMENT = "2026-03-10T12:00:00Z"
THE_MOMENT = dt.datetime(2026, 3, 10, 12, tzinfo=dt.UTC)


def test_a_file_being_rewritten_is_waited_for_not_taken_for_the_real_time(tmp_path):
    """Empty (a shell truncated it and has not written yet): the reader waits for the text."""
    path = tmp_path / "clock"
    path.write_text("")
    writer = threading.Timer(0.1, lambda: path.write_text(MOMENT + "\n"))
    writer.start()
    try:
        assert file_time(path) == THE_MOMENT
    finally:
        writer.join()


@pytest.mark.parametrize("text", ["", "   \n", "2026-03-10T12:0", "2026-03-10", "noon"])
def test_a_file_that_stays_without_a_time_is_an_error(tmp_path, text):
    """Empty, half a time, a date without its time, or not a time at all, for longer than a
    writer takes: ClockFileError naming the file, never the real time."""
    path = tmp_path / "clock"
    path.write_text(text)
    with pytest.raises(ClockFileError, match=str(path)):
        file_time(path)


def test_a_missing_file_is_an_error(tmp_path):
    with pytest.raises(ClockFileError, match="missing"):
        file_time(tmp_path / "nowhere")


def test_a_clock_file_that_cannot_be_read_stops_the_app_at_its_start(tmp_path, monkeypatch,
                                                                    redis_url, data_dir):
    """The clock is chosen once, as the app is made: a named file without a time makes that
    fail (a worker that cannot start stops the server), and a readable one is the app's time."""
    path = tmp_path / "clock"
    path.write_text("")
    monkeypatch.setenv("YACHT_DAILY_CLOCK_FILE", str(path))
    with pytest.raises(ClockFileError):
        system_clock()
    with pytest.raises(ClockFileError):
        create_app({"TESTING": True, "REDIS_URL": redis_url, "DATA_DIR": str(data_dir)})
    write_clock_file(path, MOMENT)
    assert system_clock()() == THE_MOMENT


def test_a_request_while_the_file_cannot_be_read_is_a_503_with_a_clear_log_line(
        tmp_path, redis_client, redis_url, data_dir, strategy_tables_dir, caplog):
    """The day's challenges are never answered on the real time: a 503 while the file is
    broken, the test clock's date once it is whole again."""
    path = tmp_path / "clock"
    write_clock_file(path, MOMENT)
    app = app_on(redis_url, data_dir, functools.partial(file_time, path))
    client = app.test_client()
    assert client.get("/api/v1/challenges").get_json()["date"] == "2026-03-10"
    path.write_text("")
    with caplog.at_level(logging.ERROR):
        response = client.get("/api/v1/challenges")
    assert response.status_code == 503
    assert response.get_json()["error"]["code"] == "clock-unreadable"
    assert int(response.headers["Retry-After"]) > 0
    assert any(str(path) in record.getMessage() and record.exc_info is None
               for record in caplog.records), caplog.text
    write_clock_file(path, MOMENT)
    assert client.get("/api/v1/challenges").get_json()["date"] == "2026-03-10"


def test_the_tests_writer_never_shows_a_reader_a_half_written_file(tmp_path):
    """A reader looking as fast as it can while the writer moves the clock 300 times sees a
    whole time every time."""
    path = tmp_path / "clock"
    write_clock_file(path, MOMENT)
    seen, stop = [], threading.Event()

    def read_all_the_time() -> None:
        """Read the file in a loop, keeping every text seen."""
        while not stop.is_set():
            seen.append(path.read_text())

    reader = threading.Thread(target=read_all_the_time)
    reader.start()
    try:
        start = dt.datetime(2026, 3, 10, 12, tzinfo=dt.UTC)
        for minute in range(300):
            moment = start + dt.timedelta(minutes=minute)
            write_clock_file(path, moment.strftime("%Y-%m-%dT%H:%M:%SZ"))
            time.sleep(0)
    finally:
        stop.set()
        reader.join()
    assert seen and all(len(text) == len(MOMENT) for text in seen), set(seen) - {""}
