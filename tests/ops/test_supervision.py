"""The embedded Redis under ``yacht-daily serve`` is supervised, for real: kill -9 its
redis-server under load and serve starts it again on its append-only file, every acknowledged
action intact; when it cannot start again, serve says so and exits non-zero for its service
manager to restart it.
"""

import os
import re
import signal
import time

from serving import ServeProcess
from test_faults import (
    RECOVERY_TIMEOUT,
    assert_nothing_lost_nothing_doubled,
    games_spanning,
    get,
    run_load,
    wait_for_status,
)

from app import create_app
from app.cli.server import REDIS_GAVE_UP_EXIT
from app.platform.embedded import MAX_RESTARTS, socket_url

NOT_A_COMMAND = b"this line is not a Redis command\r\n"
WARM_ACTIONS = 30
ACTION_ANSWERED = re.compile(r'"message": "POST /api/v1/games/\w+/(?:roll|score) 200"')


def wait_for_actions(server: ServeProcess, count: int) -> None:
    """Wait (bounded) until the access log shows ``count`` acknowledged actions."""
    deadline = time.monotonic() + RECOVERY_TIMEOUT
    while len(ACTION_ANSWERED.findall(server.log())) < count:
        assert time.monotonic() < deadline, f"the players made no progress:\n{server.log()}"
        time.sleep(0.1)


def wait_for_new_redis(server: ServeProcess, old_pid: int) -> int:
    """The pid of the redis-server that replaced ``old_pid`` (bounded wait)."""
    deadline = time.monotonic() + RECOVERY_TIMEOUT
    while time.monotonic() < deadline:
        pid = server.redis_pid()
        if pid not in (None, old_pid):
            return pid
        time.sleep(0.05)
    raise AssertionError(f"no new redis-server:\n{server.log()}")


def test_killed_embedded_redis_is_restarted_with_every_acknowledged_action(
        ops_dir, serve_data_dir, clock_file, play_date):
    """SIGKILL the embedded redis-server while players play: serve restarts it on its AOF, the
    players' retries resume their games, and every acknowledged action is stored once."""
    server = ServeProcess(ops_dir, serve_data_dir, clock_file, "--workers", "2")
    try:
        killed = {}

        def kill_redis():
            """The fault, once games are well under way: the embedded redis-server dies without
            a shutdown."""
            wait_for_actions(server, WARM_ACTIONS)
            killed["pid"] = server.redis_pid()
            os.kill(killed["pid"], signal.SIGKILL)
            killed["new_pid"] = wait_for_new_redis(server, killed["pid"])
            wait_for_status(server.port, "/readyz", 200)

        report, killed_at, recovered_at = run_load(server.port, play_date, kill_redis)

        assert_nothing_lost_nothing_doubled(socket_url(serve_data_dir), report)
        assert games_spanning(report, killed_at, recovered_at), "no game in play across the kill"
        assert server.redis_pid() == killed["new_pid"]
        assert get(server.port, "/healthz")[0] == 200
        assert server.process.poll() is None
        log = server.log()
        assert "starting it again on its append-only file" in log
        assert "The embedded redis-server is back" in log and "Traceback" not in log
    finally:
        server.stop()


def test_serve_exits_non_zero_when_redis_cannot_start_again(ops_dir, serve_data_dir,
                                                            clock_file):
    """With an AOF redis-server refuses to load, the restarts fail: /healthz answers 503 meanwhile
    (nothing works), and serve gives up, stops its workers and exits with its own status."""
    server = ServeProcess(ops_dir, serve_data_dir, clock_file, "--workers", "1")
    try:
        with (serve_data_dir / "appendonly.aof").open("ab") as aof:
            aof.write(NOT_A_COMMAND)
        os.kill(server.redis_pid(), signal.SIGKILL)
        health = []
        deadline = time.monotonic() + RECOVERY_TIMEOUT
        while server.process.poll() is None and time.monotonic() < deadline:
            try:
                status, _, answer = get(server.port, "/healthz")
                health.append((status, answer))
            except OSError:
                health.append((None, None))
            time.sleep(0.05)
        assert server.process.wait(RECOVERY_TIMEOUT) == REDIS_GAVE_UP_EXIT
        unhealthy = [answer for status, answer in health if status == 503]
        assert unhealthy and unhealthy[0]["checks"]["redis"]["ok"] is False
        assert (200, {"status": "ok"}) not in health
        log = server.log()
        assert f"failed to start {MAX_RESTARTS} times within 60 s" in log
        assert server.redis_pid() is None
    finally:
        server.stop()


def test_healthz_fails_only_when_the_processs_own_embedded_redis_is_down(data_dir, clock):
    """The embedded Redis of the app's own data directory gone: /healthz 503 naming Redis. An
    external Redis gone: /healthz stays 200 (a restart would not help; /readyz tells)."""
    embedded = create_app({"TESTING": True, "DATA_DIR": str(data_dir), "CLOCK": clock,
                           "REDIS_URL": socket_url(data_dir)})
    answer = embedded.test_client().get("/healthz")
    assert answer.status_code == 503 and answer.headers["Retry-After"].isdigit()
    assert answer.get_json()["checks"]["redis"] == {"ok": False, "detail": "ConnectionError"}
    external = create_app({"TESTING": True, "DATA_DIR": str(data_dir), "CLOCK": clock,
                           "REDIS_URL": f"unix://{data_dir}/elsewhere.sock"})
    assert external.test_client().get("/healthz").get_json() == {"status": "ok"}
