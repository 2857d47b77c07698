"""The nginx example (deploy/nginx/yacht-daily.conf, run by the real nginx with TLS) in front of
a live ``yacht-daily serve`` set as docs/operations.md says (``PROXY_HOPS=1``, no public URL):
what a client forges does not reach the app, what nginx sets does, and nginx serves repeats of a
revealed day's page from its cache. Skipped where nginx is not installed."""

import contextlib
import random
import re
import shutil
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from processes import free_port, short_temp_dir
from test_deploy_files import DEPLOY, self_signed_certificate
from test_observability import metric_value

from tests.app.playkit import PLAY_DATE, call, play_to_end, start
from tests.conftest import JsonClient

AFTER_REVEAL = "2026-03-11T14:00:00Z"
OPEN_DATE = "2026-03-11"  # today somewhere at AFTER_REVEAL
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
START_TIMEOUT = 15.0


class TlsClient(JsonClient):
    """One player talking to nginx over https (its throwaway certificate not checked)."""

    def __init__(self, base_url: str):
        """Bind to nginx; no cookie yet."""
        super().__init__(base_url)
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        self._opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=context),
            urllib.request.HTTPCookieProcessor(self.cookies))


def site_config(directory: Path, upstream_ports: int | list[int], https_port: int,
                http_port: int) -> str:
    """The example site with its upstream (the servers on ``upstream_ports`` of loopback, one
    or one per worker), listening ports, certificate and cache made local."""
    cert_path, key_path = self_signed_certificate(directory)
    site = (DEPLOY / "nginx" / "yacht-daily.conf").read_text()
    ports = [upstream_ports] if isinstance(upstream_ports, int) else upstream_ports
    servers = "".join(f"\n    server 127.0.0.1:{port} max_fails=3 fail_timeout=10s;"
                      for port in ports)
    site = re.sub(r"(\n\s*server app\d:\d+[^\n]*)+", servers, site, count=1)
    site = re.sub(r"\n\s*listen \[::\]:[^\n]*", "", site)
    site = site.replace("listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
    site = site.replace("/etc/nginx/tls/fullchain.pem", str(cert_path))
    site = site.replace("/etc/nginx/tls/privkey.pem", str(key_path))
    return site.replace("/var/cache/nginx/yacht-daily", str(directory / "cache"))


@pytest.fixture(scope="module")
def nginx_in_front(make_live_server):
    """nginx with the example site in front of a fresh live server, a finished game played
    through it on PLAY_DATE and the clock then past PLAY_DATE's reveal: (https URL, server,
    the player, the game's state)."""
    if NGINX is None:
        pytest.skip("nginx is not installed here")
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv("YACHT_DAILY_PROXY_HOPS", "1")
        environment.delenv("YACHT_DAILY_PUBLIC_URL", raising=False)
        environment.setenv("YACHT_DAILY_RATE_LIMIT_CREATE", "4/minute")
        server = make_live_server()
    with running_nginx(server.port) as (url, _):
        player = TlsClient(url)
        state = play_to_end(player, start(player, "yacht", PLAY_DATE), random.Random(2))
        server.set_clock(AFTER_REVEAL)
        server.wait_for_reveal(PLAY_DATE)
        yield url, server, player, state


@contextlib.contextmanager
def running_nginx(upstream_ports: int | list[int]):
    """nginx with the example site in a directory of its own, in front of ``upstream_ports``
    (one gunicorn port, or one per worker), until the block ends: (its https URL, its https
    port)."""
    if NGINX is None:
        pytest.skip("nginx is not installed here")
    ops_dir = short_temp_dir("yd-nginx-")
    ops_dir.chmod(0o755)  # nginx's workers run as an unprivileged user
    https_port, http_port = free_port(), free_port()
    (ops_dir / "site.conf").write_text(site_config(ops_dir, upstream_ports, https_port,
                                                   http_port))
    (ops_dir / "nginx.conf").write_text(
        f"pid {ops_dir}/nginx.pid;\nerror_log {ops_dir}/error.log;\ndaemon off;\n"
        f"events {{}}\nhttp {{ access_log {ops_dir}/access.log; include {ops_dir}/site.conf; }}\n")
    process = subprocess.Popen([NGINX, "-p", str(ops_dir), "-e", str(ops_dir / "error.log"),
                                "-c", str(ops_dir / "nginx.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"https://127.0.0.1:{https_port}"
    try:
        wait_until_answering(TlsClient(url), process, ops_dir)
        yield url, https_port
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(ops_dir, ignore_errors=True)


def wait_until_answering(client: TlsClient, process: subprocess.Popen, directory: Path):
    """Wait until nginx relays /healthz over https, or fail with its error log."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            if client.get("/healthz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    error_log = directory / "error.log"
    pytest.fail(f"nginx did not start: {error_log.read_text() if error_log.exists() else ''}")


def upstream_count(server, route: str) -> float:
    """How many GETs of ``route`` the app itself has answered with 200."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=30) as response:
        text = response.read().decode()
    return metric_value(text, "yacht_daily_http_requests_total", method="GET", route=route,
                        status=200)


def test_through_nginx_only_what_nginx_sets_reaches_the_app(nginx_in_front):
    """A forged X-Forwarded-Host is not the share link's host, which is the one the player
    asked nginx for, port included (no PUBLIC_URL here); the scheme nginx reports makes the
    link https and the cookie Secure, and a forged X-Forwarded-For does not choose the address
    rate limits count: the fifth creation from one client is refused however it varies the
    header."""
    url, _, player, state = nginx_in_front
    assert all(cookie.secure for cookie in player.cookies if cookie.name == "yd_player")
    assert any(cookie.name == "yd_player" for cookie in player.cookies)
    forged = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Port": "4444",
              "Forwarded": "host=evil.example;proto=http"}
    status, _, text = player.get(f"/api/v1/games/{state['id']}/share", headers=forged)
    assert status == 200
    assert f"{url}/" in text and "evil" not in text and "4444" not in text

    for number, ruleset in enumerate(("yacht-bonus", "yahtzee", "yacht")):  # with the first: 4
        other = TlsClient(url)
        status, answer = call(other, "POST", "/games", {"ruleset": ruleset, "date": OPEN_DATE},
                              headers={"X-Forwarded-For": f"198.51.100.{number}"})
        assert status == 201, answer
    status, answer = call(TlsClient(url), "POST", "/games",
                          {"ruleset": "yacht", "date": OPEN_DATE},
                          headers={"X-Forwarded-For": "203.0.113.99"})
    assert (status, answer["error"]["code"]) == (429, "too-many-requests")


def test_nginx_serves_repeats_of_a_revealed_day_page_from_its_cache(nginx_in_front):
    """The first download of a revealed day's page reaches the app; the next ones do not."""
    url, server, _, _ = nginx_in_front
    route = "/api/v1/days/<date>/<ruleset>/games"
    page = f"/api/v1/days/{PLAY_DATE}/yacht/games"
    before = upstream_count(server, route)
    answers = [TlsClient(url).get(page) for _ in range(4)]
    assert all(status == 200 for status, _, _ in answers)
    assert len({repr(body) for _, _, body in answers}) == 1 and answers[0][2]["total"] == 1
    assert "immutable" in answers[0][1]["Cache-Control"]
    assert upstream_count(server, route) == before + 1
