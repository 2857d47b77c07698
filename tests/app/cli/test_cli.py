"""The ``yacht-daily`` command through Click's runner: init, reveal, ledger."""

import json
import stat

import pytest

from app.cli.main import main
from app.ledger import secrets as keys
from app.servicelog.key import LOG_KEY_FILE


@pytest.fixture
def cli_env(monkeypatch, tmp_path):
    """Environment for one command: a clock file at the given time; restored afterwards."""
    clock_file = tmp_path / "clock"

    def at(moment: str, **extra) -> None:
        """Set the clock and any extra variables."""
        clock_file.write_text(moment)
        monkeypatch.setenv("YACHT_DAILY_CLOCK_FILE", str(clock_file))
        monkeypatch.setenv("YACHT_DAILY_DATA_DIR", str(tmp_path / "unused"))
        for name, value in extra.items():
            monkeypatch.setenv(name, value)

    monkeypatch.delenv("REDIS_URL", raising=False)
    return at


def test_init_creates_private_secrets_once(runner, cli_env, tmp_path):
    """Files with mode 0600 in a 0700 directory; a second init changes nothing."""
    cli_env("2026-03-10T05:00:00Z")
    data_dir = tmp_path / "fresh"
    result = runner.invoke(main, ["init", "--data-dir", str(data_dir)])
    assert result.exit_code == 0, result.output
    epoch = json.loads((data_dir / "epoch.json").read_text())
    assert epoch["start"] == "2026-03-09"  # still the date at UTC−12
    assert epoch["length"] == keys.DEFAULT_EPOCH_DAYS
    assert epoch["anchor"] in result.output
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    contents = {}
    for name in (*keys.SECRET_FILES, keys.EPOCH_FILE, LOG_KEY_FILE):
        assert stat.S_IMODE((data_dir / name).stat().st_mode) == 0o600
        contents[name] = (data_dir / name).read_bytes()
    assert (data_dir / keys.EPOCH_SECRET_FILE).read_text().strip() not in result.output

    again = runner.invoke(main, ["init", "--data-dir", str(data_dir)])
    assert again.exit_code == 0 and "already initialised" in again.output
    refused = runner.invoke(main, ["init", "--data-dir", str(data_dir), "--start", "2026-01-01"])
    assert refused.exit_code == 1 and "refusing to overwrite" in refused.output
    assert {name: (data_dir / name).read_bytes() for name in contents} == contents


def test_init_with_start_and_length(runner, cli_env, tmp_path):
    """--start and --days set the epoch."""
    cli_env("")
    data_dir = tmp_path / "d"
    result = runner.invoke(main, ["init", "--data-dir", str(data_dir), "--start", "2027-01-01",
                                  "--days", "30"])
    assert result.exit_code == 0, result.output
    epoch = keys.load(data_dir).epoch
    assert (epoch.start, epoch.end) == ("2027-01-01", "2027-01-30")
    bad = runner.invoke(main, ["init", "--data-dir", str(tmp_path / "e"), "--days", "0"])
    assert bad.exit_code == 2


def test_reveal_and_ledger(runner, cli_env, data_dir, redis_url, redis_client):
    """reveal publishes every due date once; ledger prints the signed entries."""
    cli_env("2026-03-03T14:00:00Z", REDIS_URL=redis_url)
    result = runner.invoke(main, ["reveal", "--data-dir", str(data_dir)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "Revealed 2026-03-01, 2026-03-02"
    again = runner.invoke(main, ["reveal", "--data-dir", str(data_dir)])
    assert again.output.strip() == "Nothing to reveal."
    printed = runner.invoke(main, ["ledger", "--data-dir", str(data_dir)])
    entries = [json.loads(line) for line in printed.output.splitlines()]
    assert [e["type"] for e in entries] == ["yacht-daily/epoch/v2"] + ["yacht-daily/reveal/v1"] * 2
    assert entries[0]["anchor"] == keys.load(data_dir).epoch.anchor.hex()


def test_reveal_on_the_embedded_redis(runner, cli_env, data_dir):
    """Without REDIS_URL, a command starts the data directory's embedded Redis for its run."""
    cli_env("2026-03-02T14:00:00Z")
    result = runner.invoke(main, ["reveal", "--data-dir", str(data_dir)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "Revealed 2026-03-01"
    assert (data_dir / "appendonly.aof").exists()
    assert not (data_dir / "redis.sock").exists()
    printed = runner.invoke(main, ["ledger", "--data-dir", str(data_dir)])
    assert len(printed.output.splitlines()) == 2


def test_commands_need_an_initialised_data_dir(runner, cli_env, tmp_path):
    """reveal and ledger explain what is missing."""
    cli_env("")
    result = runner.invoke(main, ["ledger", "--data-dir", str(tmp_path / "none")])
    assert result.exit_code == 1 and "yacht-daily init" in result.output
