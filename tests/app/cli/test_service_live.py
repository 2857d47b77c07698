"""Against ``yacht-daily serve`` itself (gunicorn workers, embedded redis-server): concurrent
retries, the reveal race, secrecy in logs and the AOF, clean stop and restart."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from playkit import PLAY_DATE, call

from app.ledger import secrets as keys
from app.ledger.signing import verify_signature
from fairness import audit

pytestmark = pytest.mark.own_redis  # live servers on their own Redis

RACERS = 8
ROUNDS = 6


def race(clients_and_calls):
    """Send all the calls at once (one thread each); returns their (status, body) in order."""
    barrier = threading.Barrier(len(clients_and_calls))
    results = [None] * len(clients_and_calls)

    def send(index, client, method, path, body):
        """Wait for everyone, then send."""
        barrier.wait()
        results[index] = call(client, method, path, body)

    threads = [threading.Thread(target=send, args=(i, *item))
               for i, item in enumerate(clients_and_calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_concurrent_requests_with_one_number_apply_once(live_server):
    """The same action number sent by many connections at once: exactly one is applied."""
    player = live_server.client()
    status, body = call(player, "POST", "/games", {"ruleset": "yahtzee", "date": PLAY_DATE})
    assert status == 201
    game_id = body["game"]["id"]

    # The very same request, many times at once (a double click, a retry): one answer for all.
    results = race([(player, "POST", f"/games/{game_id}/roll", {"roll": 0})] * RACERS)
    assert {status for status, _ in results} == {200}
    assert len({str(answer["game"]["dice"]) for _, answer in results}) == 1
    assert call(player, "GET", f"/games/{game_id}")[1]["game"]["next_action"] == 1

    number = 1
    for _ in range(ROUNDS):
        # Different requests with one number: exactly one wins, the others are stale.
        holds = [[bool(i >> bit & 1) for bit in range(5)] for i in range(RACERS)]
        results = race([(player, "POST", f"/games/{game_id}/roll",
                         {"roll": number, "hold": hold}) for hold in holds])
        applied = [answer for status, answer in results if status == 200]
        assert len(applied) == 1, results
        assert all(answer["error"]["code"] == "stale-action"
                   for status, answer in results if status != 200)
        state = call(player, "GET", f"/games/{game_id}")[1]["game"]
        assert state["next_action"] == number + 1
        assert state == applied[0]["game"]
        number += 1
        results = race([(player, "POST", f"/games/{game_id}/score",
                         {"roll": number, "category": category})
                        for category in state["allowed"][:RACERS]])
        assert sum(1 for status, _ in results if status == 200) == 1
        number += 1
        results = race([(player, "POST", f"/games/{game_id}/roll", {"roll": number})] * 3)
        assert {status for status, _ in results} == {200}
        number += 1
    state = call(player, "GET", f"/games/{game_id}")[1]["game"]
    assert state["next_action"] == number == len(state["transcript"])


def test_secrecy_reveal_race_and_restart(make_live_server):
    """Seeds stay out of logs and the AOF until due; the workers' reveal threads, racing for the
    lease, reveal once and readers all see the same ledger; a SIGTERM stops
    the embedded Redis cleanly and a restart finds every game."""
    server = make_live_server(workers=3)
    secrets = keys.load(server.data_dir)
    players = [server.client() for _ in range(3)]
    game_ids = []
    for player in players:
        _, body = call(player, "POST", "/games", {"ruleset": "yacht", "date": PLAY_DATE})
        game_ids.append(body["game"]["id"])
        call(player, "POST", f"/games/{game_ids[-1]}/roll", {"roll": 0})
    hidden = secrets.seed(PLAY_DATE).hex()
    aof = server.data_dir / "appendonly.aof"
    assert aof.exists()
    assert hidden not in server.log()
    assert hidden not in aof.read_text(errors="replace")
    assert hidden not in (server.data_dir / "redis.log").read_text(errors="replace")

    server.set_clock("2026-03-11T13:01:00Z")
    server.wait_for_reveal(PLAY_DATE)
    results = race([(players[i % 3], "GET", "/ledger", None) for i in range(RACERS)])
    assert {status for status, _ in results} == {200}
    entries = results[0][1]["entries"]
    assert [e["date"] for e in entries[1:]] == [f"2026-03-{d:02}" for d in range(1, 11)]
    assert all(answer["entries"] == entries for _, answer in results)
    assert entries[-1]["seed"] == hidden
    assert all(check.ok for check in audit.check_ledger(entries, verify_signature))

    socket_path = server.data_dir / "redis.sock"
    assert socket_path.exists()
    assert server.stop() == 0
    assert not socket_path.exists()
    assert not _redis_server_running(server.data_dir)

    restarted = make_live_server(workdir=server.workdir, now="2026-03-11T13:05:00Z")
    for player, game_id in zip(players, game_ids, strict=True):
        player.base_url = restarted.url
        status, body = call(player, "GET", f"/games/{game_id}")
        assert status == 200 and body["game"]["status"] == "abandoned"
        assert len(body["game"]["transcript"]) == 1
    assert call(players[0], "GET", "/ledger")[1]["entries"] == entries


def _redis_server_running(data_dir: Path) -> bool:
    """True when a redis-server process still serves this data directory's socket."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(str(data_dir / "redis.sock").encode() in part for part in command):
            return True
    return False


def test_commands_share_a_running_servers_redis(make_live_server):
    """`reveal` uses the embedded Redis `serve` runs; a second `serve` on it is refused."""
    server = make_live_server(now="2026-03-01T12:00:00Z", reveal_in_workers=False)
    server.set_clock("2026-03-02T14:00:00Z")  # 2026-03-01 is due; the server leaves it alone
    env = {**os.environ, "YACHT_DAILY_CLOCK_FILE": str(server.clock_file)}
    env.pop("REDIS_URL", None)
    command = [sys.executable, "-c", "from app.cli.main import main; main()"]
    data_dir = ["--data-dir", str(server.data_dir)]
    revealed = subprocess.run([*command, "reveal", *data_dir], env=env, capture_output=True,
                              text=True, timeout=60)
    assert revealed.returncode == 0, revealed.stderr
    assert revealed.stdout.strip() == "Revealed 2026-03-01"
    assert [e.get("date") for e in call(server.client(), "GET", "/ledger")[1]["entries"]] == [
        None, "2026-03-01"]
    second = subprocess.run([*command, "serve", *data_dir, "--bind", "127.0.0.1:1"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert second.returncode == 1 and "already runs" in second.stderr
    assert call(server.client(), "GET", "/rulesets")[0] == 200


def test_the_embedded_redis_dies_with_a_killed_server(make_live_server):
    """Even a SIGKILL'd `serve` leaves no redis-server behind (Linux parent-death signal)."""
    server = make_live_server()
    assert _redis_server_running(server.data_dir)
    server.process.kill()
    server.process.wait()
    deadline = time.monotonic() + 10
    while _redis_server_running(server.data_dir) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _redis_server_running(server.data_dir)
