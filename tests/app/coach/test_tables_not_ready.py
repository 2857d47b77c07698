"""Every route that needs a strategy table answers ``503 tables-not-ready`` with Retry-After
while that table is being computed: a match's hint and review, a table's match's review, a
daily game's review; the routes that can do without it (a table's actions, whose bots wait, a
daily game's share text, without its skill figure) answer as usual. Never a 500.

The tables are made "being computed" by standing in for the app's table source (what a fresh
server has while it builds them); Redis and everything else are real."""

import random

import pytest
from matchkit import create, play_to_end
from playkit import PLAY_DATE, app_on, call, start
from playkit import play_to_end as play_daily_to_end

from app.services import EXTENSION
from strategy import ValueTablesNotReady
from tests.app.tables.tablekit import create_table, play_turn
from tests.app.tables.tablekit import start as start_table


class ComputingTables:
    """A table source whose every table is still being computed."""

    rulesets = ()

    def get(self, ruleset: str):
        """Never ready."""
        raise ValueTablesNotReady(f"the {ruleset} strategy table is being computed")

    def __call__(self, ruleset: str):
        """The matches' form of ``get``."""
        return self.get(ruleset)

    def ready(self, ruleset: str) -> bool:
        """Never ready."""
        return False


@pytest.fixture
def app(redis_client, redis_url, data_dir, clock, strategy_tables_dir):
    """The app, its strategy tables being computed for the whole test."""
    app = app_on(redis_url, data_dir, clock, PUBLIC_URL="https://yacht.example/")
    found = app.extensions[EXTENSION]
    found.matches.tables = ComputingTables()
    found.coach.tables = ComputingTables()
    return app


def assert_computing(status: int, body: dict, headers) -> None:
    """The 503 a client waits on: its code, and a Retry-After in whole seconds."""
    assert (status, body["error"]["code"]) == (503, "tables-not-ready"), body
    assert int(headers["Retry-After"]) > 0


def get(client, path: str):
    """GET ``path`` of the API: (status, JSON body, headers)."""
    response = client.get(f"/api/v1{path}")
    return response.status_code, response.get_json(), response.headers


def test_a_matchs_hint_and_review_wait_for_the_tables_with_a_503(app):
    client = app.test_client()
    match = create(client, "yacht")
    status, rolled = call(client, "POST", f"/matches/{match['id']}/roll",
                          {"hold": None, "roll": 0, "client_seed": "seed"})
    assert status == 200, rolled
    assert_computing(*get(client, f"/matches/{match['id']}/hint"))
    ended = play_to_end(client, rolled["match"], random.Random(4))
    assert ended["status"] != "playing"
    assert_computing(*get(client, f"/matches/{match['id']}/review"))
    assert_computing(*get(client, f"/matches/{match['id']}/review?seat=0"))


def test_a_tables_actions_go_on_and_its_matchs_review_waits_with_a_503(app):
    client = app.test_client()
    with_bot = create_table(client, "yacht", [{"kind": "bot", "level": "easy"}], clock=0)
    with_bot = play_turn(client, start_table(client, with_bot["id"]), random.Random(5))
    assert with_bot["match"]["turn"] == 1  # the bot's turn waits for its table
    assert get(client, f"/tables/{with_bot['id']}")[0] == 200
    table = create_table(client, "yacht", [{"kind": "human", "here": True, "name": "Zoe",
                                            "client_seed": "seed-zoe"}], clock=0)
    table = start_table(client, table["id"])
    rng = random.Random(7)
    while table["match"]["status"] == "playing":
        table = play_turn(client, table, rng)
    assert_computing(*get(client, f"/matches/{table['match']['id']}/review?seat=1"))


def test_a_daily_games_review_waits_with_a_503_and_its_share_text_does_without(app):
    client = app.test_client()
    game = play_daily_to_end(client, start(client, "yacht", PLAY_DATE), random.Random(6))
    assert_computing(*get(client, f"/games/{game['id']}/review"))
    response = client.get(f"/api/v1/games/{game['id']}/share")
    assert response.status_code == 200 and str(game["totals"]["total"]) in response.text
