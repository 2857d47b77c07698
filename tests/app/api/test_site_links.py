"""The absolute links the API hands out (a table's join and watch links, a game's share text)
come from configuration, never from the request's ``Host``: ``PUBLIC_URL`` when set, else the
request's host only when it is one of ``ALLOWED_HOSTS`` (the loopback names by default, so
``make serve`` links to http://127.0.0.1:8000 as before), else the first allowed host an
operator listed, else links relative to the site."""

import random

import pytest
from playkit import PLAY_DATE, app_on, play_to_end, start

from tests.app.tables.tablekit import create_table

API = "/api/v1"
ASKED_HOST = "TEST_ASKED_HOST"


def links_for(app, host: str) -> tuple[str, str, str]:
    """(join link, watch link, the share text's last line) of a new table and a finished game,
    every request arriving with ``Host: host``."""
    app.config[ASKED_HOST] = host
    client = app.test_client()
    table = create_table(client, "yacht", [{"kind": "human"}])
    answer = client.get(f"{API}/tables/{table['id']}").get_json()["table"]
    game = play_to_end(client, start(client, "yacht", PLAY_DATE), random.Random(1))
    share = client.get(f"{API}/games/{game['id']}/share").get_data(as_text=True)
    return answer["join_url"], answer["watch_url"], share.rstrip("\n").rsplit("\n", 1)[-1]


def asking_at_the_configured_host(app):
    """``app``, its requests arriving with the ``Host`` of its ``ASKED_HOST`` setting (the test
    client's own cookies stay on its one address)."""
    inner = app.wsgi_app

    def wsgi(environ, start_response):
        """Set the request's Host header, then serve it."""
        environ["HTTP_HOST"] = app.config[ASKED_HOST]
        return inner(environ, start_response)

    app.wsgi_app = wsgi
    return app


@pytest.fixture
def make_app(redis_client, redis_url, data_dir, clock, strategy_tables_dir):
    """An app with the link settings given (nothing else about links configured)."""
    return lambda **config: asking_at_the_configured_host(app_on(
        redis_url, data_dir, clock, **{"PUBLIC_URL": None, "ALLOWED_HOSTS": None, **config}))


def test_with_nothing_configured_a_foreign_host_never_reaches_a_link(make_app):
    join, watch, shared = links_for(make_app(), "evil.example")
    assert join.startswith("/t/") and watch.startswith("/tables/")
    assert "evil" not in join + watch + shared and "://" not in shared


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8080", "[::1]:8000"])
def test_with_nothing_configured_the_loopback_address_make_serve_binds_is_linked(
        make_app, host):
    join, watch, shared = links_for(make_app(), host)
    assert join.startswith(f"http://{host}/t/") and watch.startswith(f"http://{host}/tables/")
    assert shared == f"http://{host}/"


def test_an_allowed_host_is_linked_as_asked_and_any_other_gets_the_first_allowed(make_app):
    app = make_app(ALLOWED_HOSTS="dice.example.org play.example.org:8443")
    assert links_for(app, "play.example.org:8443")[0].startswith(
        "http://play.example.org:8443/t/")
    assert links_for(app, "DICE.example.org")[2] == "http://dice.example.org/"
    for foreign in ("evil.example", "play.example.org:9999", "127.0.0.1:8000"):
        join, watch, shared = links_for(app, foreign)
        assert join.startswith("http://dice.example.org/t/"), foreign
        assert shared == "http://dice.example.org/"


def test_the_public_url_is_every_links_address(make_app):
    app = make_app(PUBLIC_URL="https://dice.example.org/", ALLOWED_HOSTS="other.example")
    for host in ("evil.example", "other.example", "127.0.0.1:8000"):
        join, _, shared = links_for(app, host)
        assert join.startswith("https://dice.example.org/t/") and shared == (
            "https://dice.example.org/")


def test_the_share_text_with_squares_links_to_the_games_page(make_app):
    """The friend's text links to the game's own page (its preview names the day and the
    points); the plain text keeps the site's address."""
    app = make_app(PUBLIC_URL="https://dice.example.org")
    app.config[ASKED_HOST] = "evil.example"
    client = app.test_client()
    game = play_to_end(client, start(client, "yacht", PLAY_DATE), random.Random(2))
    squares = client.get(f"{API}/games/{game['id']}/share?style=squares").get_data(as_text=True)
    plain = client.get(f"{API}/games/{game['id']}/share").get_data(as_text=True)
    assert squares.rstrip("\n").rsplit("\n", 1)[-1] == (
        f"https://dice.example.org/verify?game={game['id']}")
    assert plain.rstrip("\n").rsplit("\n", 1)[-1] == "https://dice.example.org"
