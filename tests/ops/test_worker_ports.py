"""One port per worker (``YACHT_DAILY_WORKER_PORTS``, app/cli/worker_ports.py) under
deploy/gunicorn.conf.py, on the real Redis: every worker port is served by a worker of its own,
a killed worker's port is served again by its successor, invalid settings stop gunicorn at once,
and the nginx example in front keeps a player's requests on one worker.

Which worker served a request is read from the access log: each JSON line carries the process
id and the request id the answer echoed (``X-Request-ID``)."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
import uuid

import pytest
from test_behind_nginx import NGINX, TlsClient, running_nginx
from test_deploy_files import DEPLOY, gunicorn_settings

from tests.app.playkit import PLAY_DATE

GUNICORN_CONF = DEPLOY / "gunicorn.conf.py"
LOG_WAIT_SECONDS = 10.0
REQUESTS_TO_SPREAD = 16


def access_pid(server, request_id: str) -> int:
    """The pid of the worker whose access-log line carries ``request_id`` (a worker writes the
    line just after its answer: waited for, up to a bound)."""
    deadline = time.monotonic() + LOG_WAIT_SECONDS
    while True:
        for line in server.log().splitlines():
            if request_id in line and '"gunicorn.access"' in line:
                return json.loads(line)["pid"]
        assert time.monotonic() < deadline, f"no access line for {request_id}:\n{server.log()}"
        time.sleep(0.05)


def served_by(server, port: int, path: str = "/healthz") -> int:
    """GET ``path`` on ``port``; the pid of the worker that answered it."""
    request_id = uuid.uuid4().hex
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     headers={"X-Request-ID": request_id})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200
    return access_pid(server, request_id)


@pytest.mark.parametrize("worker_class", ["sync", "gthread", "gevent"])
def test_each_worker_port_has_its_own_worker_and_a_killed_ones_successor_takes_it(
        deploy_server, redis_url, worker_class):
    """Two workers, two ports, each answered by one worker process of the master, always the
    same; after a SIGKILL the port is answered by the new worker, the other port untouched."""
    server = deploy_server(redis_url, workers=2, worker_ports=True,
                           extra_env={"YACHT_DAILY_WORKER_CLASS": worker_class,
                                      "YACHT_DAILY_THREADS": "2"})
    first, second = server.ports
    owners = [served_by(server, port) for port in server.ports]
    assert len(set(owners)) == 2
    assert set(owners) == set(server.worker_pids())
    assert [served_by(server, port) for port in server.ports] == owners

    os.kill(owners[0], signal.SIGKILL)
    successor = served_by(server, first)  # waits in the port's backlog for the new worker
    assert successor not in owners
    assert successor in server.worker_pids()
    assert served_by(server, second) == owners[1]
    assert served_by(server, first) == successor


def test_the_setting_replaces_the_binds_port_with_one_port_per_worker(data_dir, tmp_path):
    """Three workers from 8100 on the bind's host: three addresses, and the slot hooks."""
    settings = gunicorn_settings(data_dir, tmp_path, WEB_CONCURRENCY="3",
                                 YACHT_DAILY_BIND="0.0.0.0:8000",
                                 YACHT_DAILY_WORKER_PORTS="8100")
    assert settings["bind"] == "['0.0.0.0:8100', '0.0.0.0:8101', '0.0.0.0:8102']"
    assert "WorkerPorts.pre_fork" in settings["pre_fork"]
    assert "WorkerPorts.post_fork" in settings["post_fork"]


@pytest.mark.parametrize(("env", "message"), [
    ({"YACHT_DAILY_WORKER_PORTS": "eight"}, "'eight' is not a port number"),
    ({"YACHT_DAILY_WORKER_PORTS": "65535"}, "ports 65535…65536 for 2 workers"),
    ({"YACHT_DAILY_WORKER_PORTS": "0"}, "ports 0…1 for 2 workers"),
    ({"YACHT_DAILY_WORKER_PORTS": "8100", "YACHT_DAILY_BIND": "unix:/tmp/yd.sock"},
     "needs one TCP bind address"),
    ({"YACHT_DAILY_WORKER_PORTS": "8100", "YACHT_DAILY_BIND": "127.0.0.1:1,127.0.0.1:2"},
     "needs one TCP bind address"),
    ({"YACHT_DAILY_WORKER_PORTS": "8100", "YACHT_DAILY_WORKER_CLASS": "eventlet"},
     "worker class 'eventlet' is not supported"),
])
def test_an_invalid_setting_stops_gunicorn_at_start_with_its_reason(tmp_path, data_dir, env,
                                                                    message):
    """gunicorn exits before listening, saying what is wrong in one line."""
    result = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF)], cwd=tmp_path,
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "YACHT_DAILY_DATA_DIR": str(data_dir), "WEB_CONCURRENCY": "2",
             "REDIS_URL": f"unix://{tmp_path}/absent.sock", **env})
    assert result.returncode == 1
    assert result.stderr.strip().startswith("Error: ") and message in result.stderr
    assert "Traceback" not in result.stderr and "Listening" not in result.stderr + result.stdout


@pytest.fixture
def nginx_in_front_of_worker_ports(deploy_server, redis_url, redis_client):
    """The nginx example with one upstream server per worker port of a 2-worker gunicorn on the
    emptied session Redis: (the https URL, the gunicorn)."""
    if NGINX is None:
        pytest.skip("nginx is not installed here")
    server = deploy_server(redis_url, workers=2, worker_ports=True)
    with running_nginx(server.ports) as (url, _):
        yield url, server


def through_nginx(server, client: TlsClient, method: str, path: str, body=None,
                  headers=None) -> tuple[int, dict | str, int]:
    """One request through nginx: (status, answer, the pid of the worker that served it, by
    the request id nginx gave it and the app echoed)."""
    status, answer_headers, answer = client.request(method, path, body, headers=headers)
    return status, answer, access_pid(server, answer_headers["X-Request-ID"])


def test_nginx_keeps_a_player_on_one_worker_and_spreads_the_others(
        nginx_in_front_of_worker_ports):
    """A player's requests, once it has its cookie, all reach one worker; so do those of a
    cookie signed again (same payload, other timestamp and signature); different players and
    requests without a cookie reach both workers."""
    url, server = nginx_in_front_of_worker_ports
    player = TlsClient(url)
    status, answer, _ = through_nginx(server, player, "POST", "/api/v1/games",
                                      {"ruleset": "yacht", "date": PLAY_DATE})
    assert status == 201, answer
    game = answer["game"]
    cookie = next(c.value for c in player.cookies if c.name == "yd_player")
    assert cookie.lstrip(".").count(".") == 2  # payload.timestamp.signature: nginx keys on 1st
    workers = set()
    for number in range(6):  # rolls, then a score, then rolls
        kind = "score" if number == 3 else "roll"
        body = {"roll": game["next_action"], "token": game["token"],
                **({"category": game["allowed"][0]} if kind == "score" else {})}
        status, answer, pid = through_nginx(server, player, "POST",
                                            f"/api/v1/games/{game['id']}/{kind}", body)
        assert status == 200, answer
        game = answer["game"]
        workers.add(pid)
    resigned = cookie.rsplit(".", 2)[0] + ".AAAAAA.resigned"
    workers.add(through_nginx(server, TlsClient(url), "GET", "/healthz",
                              headers={"Cookie": f"yd_player={resigned}"})[2])
    assert len(workers) == 1

    by_player = {through_nginx(server, TlsClient(url), "GET", "/healthz",
                               headers={"Cookie": f"yd_player=player{n}.AAAAAA.sig"})[2]
                 for n in range(REQUESTS_TO_SPREAD)}
    without_cookie = {through_nginx(server, TlsClient(url), "GET", "/healthz")[2]
                      for _ in range(REQUESTS_TO_SPREAD)}
    assert by_player == without_cookie == set(server.worker_pids())
