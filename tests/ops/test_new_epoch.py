"""Rotating the signing key: ``yacht-daily new-epoch`` starts a new seed chain and key from a
future date; the running service takes it on by itself, and every day, old and new, verifies
with the key its epoch published."""

import shutil
import stat

import pytest
from click.testing import CliRunner
from playkit import app_on

from app.cli.main import main
from app.ledger.reveal_runner import RevealRunner
from app.ledger.service import LedgerMismatch
from app.ledger.signing import verify_object, verify_signature
from app.platform.clock import format_timestamp
from app.services import EXTENSION
from fairness import audit
from fairness.ledger import REVEAL_TYPE, is_epoch_entry
from tests.verify.conftest import VerifyPy, printed

API = "/api/v1"
OLD_DAY = "2026-03-10"
NEW_START = "2026-03-13"


@pytest.fixture
def cli(redis_url, redis_client, data_dir, clock, tmp_path):
    """Run a ``yacht-daily`` command on the test's (emptied) Redis, data directory and clock."""
    clock_file = tmp_path / "clock"

    def run(*arguments: str):
        """The command's result (exit code and output)."""
        clock_file.write_text(format_timestamp(clock()))
        return CliRunner().invoke(main, [*arguments, "--data-dir", str(data_dir)], env={
            "REDIS_URL": redis_url, "YACHT_DAILY_CLOCK_FILE": str(clock_file),
            "YACHT_DAILY_DATA_DIR": str(data_dir)})

    return run


def finish_game(client, ruleset: str, date: str) -> dict:
    """Play a whole game (roll three times, take the first open box); its final state."""
    state = client.post(f"{API}/games", json={"ruleset": ruleset, "date": date}).get_json()["game"]
    while state["status"] == "playing":
        if state["rolls_left"] == 0:
            body, action = {"category": state["allowed"][0]}, "score"
        else:
            body, action = {"hold": [False] * 5}, "roll"
        state = client.post(f"{API}/games/{state['id']}/{action}",
                            json={**body, "roll": state["next_action"]}).get_json()["game"]
    return state


def epoch_entries(client) -> list[dict]:
    """The ledger's epoch entries."""
    return [entry for entry in client.get(f"{API}/ledger").get_json()["entries"]
            if is_epoch_entry(entry)]


def test_new_epoch_rotates_the_key_and_old_days_still_verify(client, clock, cli, data_dir,
                                                            reveal):
    """Refused too close to play; otherwise published at once, taken on by the running app
    without a restart, used from its first date, while earlier dates keep epoch 1."""
    old_game = finish_game(client, "yacht", OLD_DAY)
    [first] = epoch_entries(client)

    refused = cli("new-epoch", "--start", "2026-03-11")
    assert refused.exit_code != 0 and "at least 1 day" in refused.output
    published = cli("new-epoch", "--start", NEW_START, "--days", "100")
    assert published.exit_code == 0, published.output
    for name in ("epoch.json", "epoch-secret", "signing-key.pem"):
        assert stat.S_IMODE((data_dir / "epochs" / "2" / name).stat().st_mode) == 0o600

    entries = epoch_entries(client)
    assert [entry["epoch"] for entry in entries] == [1, 2]
    second = entries[1]
    assert second["start"] == NEW_START and second["length"] == 100
    assert second["public_key"] != first["public_key"] and second["anchor"] != first["anchor"]
    challenges = client.get(f"{API}/challenges?date=2026-03-12").get_json()["challenges"]
    assert {(c["epoch"], c["anchor"]) for c in challenges} == {(1, first["anchor"])}

    clock.set(f"{NEW_START}T12:00:00Z")
    challenges = client.get(f"{API}/challenges?date={NEW_START}").get_json()["challenges"]
    assert {(c["epoch"], c["day"], c["anchor"]) for c in challenges} == {
        (2, 1, second["anchor"])}
    new_game = finish_game(client, "yacht", NEW_START)
    assert old_game["receipt"]["epoch"] == 1 and new_game["receipt"]["epoch"] == 2
    assert verify_object(first["public_key"], old_game["receipt"])
    assert verify_object(second["public_key"], new_game["receipt"])
    assert not verify_object(first["public_key"], new_game["receipt"])

    clock.set("2026-03-15T14:00:00Z")
    reveal()
    ledger = client.get(f"{API}/ledger").get_json()["entries"]
    assert all(check.ok for check in audit.check_ledger(ledger, verify_signature))
    reveals = {entry["date"]: entry for entry in ledger if entry["type"] == REVEAL_TYPE}
    assert (reveals["2026-03-12"]["epoch"], reveals["2026-03-12"]["day"]) == (1, 12)
    assert (reveals[NEW_START]["epoch"], reveals[NEW_START]["day"]) == (2, 1)
    assert verify_object(first["public_key"], reveals[OLD_DAY])
    assert verify_object(second["public_key"], reveals[NEW_START])
    for game in (old_game, new_game):
        verdict = client.post(f"{API}/verify", json={"game": game["id"]}).get_json()
        assert verdict["ok"] is True, verdict


def test_new_epoch_refuses_a_gap_or_a_start_not_after_the_current_one(cli):
    """Every date belongs to exactly one epoch: no start before the current epoch's, no gap
    after its last day."""
    assert cli("new-epoch", "--start", "2026-02-01").exit_code != 0
    assert cli("new-epoch", "--start", "2028-01-01").exit_code != 0
    assert cli("new-epoch", "--start", "2026-06-01").exit_code == 0
    assert cli("new-epoch", "--start", "2026-05-01").exit_code != 0


def test_a_server_lacking_a_published_epoch_stops_dealing_within_a_day(client, cli, clock,
                                                                        data_dir, redis_url,
                                                                        tmp_path):
    """A replica whose data directory was not given the new epoch's files: it notices at its
    next daily check (its reveal thread's, long before the new epoch opens) and answers 503
    instead of dealing dice from the wrong chain; readiness is red."""
    stale_dir = tmp_path / "stale"
    shutil.copytree(data_dir, stale_dir)
    stale_app = app_on(redis_url, stale_dir, clock)
    stale = stale_app.test_client()
    assert stale.post(f"{API}/games", json={"ruleset": "yacht", "date": OLD_DAY}).status_code == 201
    assert cli("new-epoch", "--start", NEW_START).exit_code == 0

    clock.advance(days=1)
    with pytest.raises(LedgerMismatch):
        RevealRunner(stale_app.extensions[EXTENSION]).run_once()
    refused = stale.post(f"{API}/games", json={"ruleset": "yacht", "date": "2026-03-11"})
    assert refused.status_code == 503 and refused.headers["Retry-After"].isdigit()
    assert refused.get_json()["error"]["code"] == "misconfigured"
    ready = stale.get("/readyz")
    assert ready.status_code == 503 and ready.get_json()["checks"]["secrets"]["ok"] is False
    assert client.post(f"{API}/games", json={"ruleset": "yacht", "date": "2026-03-11"}
                       ).status_code == 201


def day_games(client, date: str, sheet: str) -> list[dict]:
    """Every published game of a revealed (date, sheet), page after page."""
    games, after = [], None
    while True:
        query = f"?after={after}" if after else ""
        page = client.get(f"{API}/days/{date}/{sheet}/games{query}").get_json()
        games += page["games"]
        after = page.get("next")
        if not after:
            return games


def test_a_new_epoch_adds_the_yatzy_challenge_and_every_past_day_still_verifies(
        client, clock, cli, reveal, tmp_path):
    """The first epoch's entry keeps its three daily sheets; the next one publishes four, Yatzy
    included, which the service offers only on that epoch's dates; both days reveal exactly
    their epoch's sheets and verify in the core's audit and in verify.py."""
    old_game = finish_game(client, "yacht", OLD_DAY)
    refused = client.post(f"{API}/games", json={"ruleset": "yatzy", "date": OLD_DAY})
    assert refused.status_code == 400
    assert refused.get_json()["error"]["code"] == "not-a-daily-sheet"
    assert 'href="/play/yatzy"' not in client.get("/?lang=en").get_data(as_text=True)

    assert cli("new-epoch", "--start", NEW_START, "--days", "100").exit_code == 0
    first, second = epoch_entries(client)
    assert first["rulesets"] == ["yacht", "yacht-bonus", "yahtzee"]
    assert second["rulesets"] == ["yacht", "yacht-bonus", "yahtzee", "yatzy"]

    clock.set(f"{NEW_START}T12:00:00Z")
    challenges = client.get(f"{API}/challenges?date={NEW_START}").get_json()["challenges"]
    assert [c["ruleset"] for c in challenges] == second["rulesets"]
    assert client.post(f"{API}/games", json={"ruleset": "generala", "date": NEW_START}
                       ).status_code == 400
    yatzy_game = finish_game(client, "yatzy", NEW_START)
    assert yatzy_game["receipt"]["epoch"] == 2 and yatzy_game["receipt"]["ruleset"] == "yatzy"
    rules = client.get("/rules?lang=en").get_data(as_text=True)
    assert rules.count('<span class="chip">daily</span>') == 4

    clock.set("2026-03-15T14:00:00Z")
    reveal()
    ledger = client.get(f"{API}/ledger").get_json()["entries"]
    assert all(check.ok for check in audit.check_ledger(ledger, verify_signature))
    reveals = {entry["date"]: entry for entry in ledger if entry["type"] == REVEAL_TYPE}
    assert sorted(reveals[OLD_DAY]["games"]) == sorted(first["rulesets"])
    assert sorted(reveals[NEW_START]["games"]) == sorted(second["rulesets"])
    assert reveals[NEW_START]["games"]["yatzy"] == 1
    for date, sheets in ((OLD_DAY, first["rulesets"]), (NEW_START, second["rulesets"])):
        for sheet in sheets:
            games = day_games(client, date, sheet)
            day = audit.audit_day(ledger, date, sheet, games, verify_signature)
            assert all(check.ok for check in day.checks), (date, sheet)
    verify_py = VerifyPy(tmp_path)  # the downloaded verifier, on each epoch's game
    for game in (old_game, yatzy_game):
        proof = client.get(f"{API}/games/{game['id']}/proof").get_json()["proof"]
        assert verify_py.games([(ledger, game["receipt"], game["transcript"], proof)]) == [
            (0, printed(audit.check_game(ledger, game["receipt"], game["transcript"], proof,
                                         verify_signature)))]
    for game in (old_game, yatzy_game):
        verdict = client.post(f"{API}/verify", json={"game": game["id"]}).get_json()
        assert verdict["ok"] is True, verdict
