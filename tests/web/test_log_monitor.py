"""Every browser a monitor of the service log (static/js/log-monitor.js), in Chromium on a live
v2 server of its own: a first visit pins the log's key and keeps its checkpoint; a later visit
after the log grew keeps the new one, with no alarm; a log that forks between two visits
(the server's Redis rewritten to another history signed with the same log key, from the
server's data directory) raises the alarm, whose downloaded evidence makes
``verify.py fork FILE`` say PROVEN; the end card of a finished game offers its proof to keep,
which ``verify.py proof`` checks. The fork file is byte for byte the core's ``format_fork``."""

import base64
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.ledger import secrets as keys
from app.ledger.signing import Signer
from app.platform.embedded import socket_url
from app.platform.keys import (
    SERVICE_LOG_CHECKPOINTS,
    SERVICE_LOG_COSIGNATURES,
    SERVICE_LOG_ENTRIES,
    SERVICE_LOG_SIZES,
    SERVICE_LOG_WITNESSED,
    service_log_hashes_key,
)
from app.platform.redis import connect
from app.servicelog.key import LOG_KEY_FILE, LogKey
from app.servicelog.store import ServiceLogStore
from fairness import merkle
from fairness.log_tree import new_subtrees
from fairness.service_log import LogCheckpoint, fork_proof_ranges, format_fork
from tests.web.player import finish_a_game
from tests.web.test_verify import play_through_the_api

from .conftest import SCREENSHOTS

DAY_FORMAT = "2"  # a server of this module's own, its dates in v2: day logs, the service log
ROOT = Path(__file__).resolve().parents[2]
VERIFY_PY = ROOT / "app" / "static" / "verify.py"
PLAY_DATE = "2026-03-10"
WAIT_SECONDS = 90
STORAGE_KEY = "yd-service-log"
FORK_FIELD = "test-fork|yacht"  # the fake day log the rewritten histories are entered under


def wait_for(what: str, condition, seconds: float = WAIT_SECONDS):
    """Poll ``condition`` until it returns something true; that value."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def server_redis(web_server):
    """A client of the live server's own embedded Redis."""
    client = connect(socket_url(web_server.data_dir))
    yield client
    client.close()


def service_log(web_server) -> dict:
    """GET /api/v1/log."""
    return web_server.client().get("/api/v1/log")[2]


def finish_and_enter(web_server, ruleset: str, minute: str) -> dict:
    """A game finished through the API, the clock moved past its minute, and the service log
    grown past it (its day checkpoint entered and a service log checkpoint cut)."""
    before = service_log(web_server)["size"]
    game = play_through_the_api(web_server.client(), ruleset)
    web_server.set_clock(minute)
    wait_for("the service log to grow", lambda: service_log(web_server)["size"] > before)
    wait_for("the service log to settle", lambda: settled(web_server))
    return game


def settled(web_server) -> bool:
    """True when the service log kept its size for a second: a move of the clock past a minute
    has the background loops enter each day log's checkpoint, one pass after another."""
    size = service_log(web_server)["size"]
    time.sleep(1)
    return service_log(web_server)["size"] == size


FORGET_THE_PAUSE = f"""(() => {{
    try {{
        const state = JSON.parse(localStorage.getItem('{STORAGE_KEY}') ?? '{{}}');
        delete state.checkedAt;
        localStorage.setItem('{STORAGE_KEY}', JSON.stringify(state));
    }} catch {{}}
}})()"""


def monitored(new_context, **options):
    """A page whose every visit checks the log: the once-a-minute pause forgotten before each
    page's scripts run (the browser's clock is pinned, so a minute never passes)."""
    page = new_context(**options).new_page()
    page.add_init_script(FORGET_THE_PAUSE)
    return page


def visit(page, path: str = "/rules") -> str:
    """Open ``path``; what the monitor did there."""
    page.goto(path)
    outcome = page.locator("html")
    expect(outcome).to_have_attribute("data-log-monitor", re.compile(r"^[a-z]+$"))
    return outcome.get_attribute("data-log-monitor")


def visit_served(page, path: str = "/rules") -> tuple[str, dict]:
    """Open ``path``; what the monitor did there and the log's state the server gave it."""
    with page.expect_response(lambda answer: answer.url.endswith("/api/v1/log")) as served:
        outcome = visit(page, path)
    return outcome, served.value.json()


def kept(page) -> dict:
    """What the monitor keeps in localStorage."""
    return json.loads(page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')"))


@pytest.fixture(scope="module")
def first_game(web_server):
    """A Yahtzee game of PLAY_DATE entered in the service log."""
    return finish_and_enter(web_server, "yahtzee", "2026-03-10T12:01:00Z")


def test_a_first_visit_pins_the_key_and_a_later_one_keeps_the_grown_log(
        new_context, web_server, first_game):
    """First visit: pinned, the key and the checkpoint kept. After the log grew: extended, the
    new checkpoint kept, no alarm; the same log again: unchanged."""
    page = monitored(new_context)
    outcome, served = visit_served(page)
    assert outcome == "pinned"
    assert served["vkey"] == service_log(web_server)["vkey"]
    stored = kept(page)["logs"][served["origin"]]
    assert stored["vkey"] == served["vkey"] and stored["note"] == served["checkpoint"]
    finish_and_enter(web_server, "yacht", "2026-03-10T12:02:00Z")
    outcome, grown = visit_served(page)
    assert outcome == "extended" and grown["size"] > served["size"]
    assert kept(page)["logs"][served["origin"]]["note"] == grown["checkpoint"]
    expect(page.locator("#log-alarm")).to_be_hidden()
    assert visit(page) == "unchanged"
    expect(page.locator("#log-alarm")).to_be_hidden()


def test_the_monitor_fetches_at_most_once_a_minute(new_context, web_server, first_game):
    """A second page within the minute does not ask the server again."""
    page = new_context().new_page()
    assert visit(page) == "pinned"
    asked = []
    page.on("request", lambda request: asked.append(request.url)
            if "/api/v1/log" in request.url else None)
    page.goto("/rules")
    expect(page.locator("html")).to_have_attribute("data-log-monitor", "skipped")
    assert asked == []


def test_the_end_card_offers_a_proof_that_verify_py_checks(
        new_context, web_server, tmp_path):
    """A game finished on the page: once the service log covers its day checkpoint, the end
    card offers its proof; verify.py proof holds on it, the dice replayed with the date's
    seed (only the witnesses, none configured, are not checked). On a phone, in French."""
    page = new_context(locale="fr-FR", viewport={"width": 390, "height": 844}).new_page()
    final = finish_a_game(page, "yacht-bonus")
    before = service_log(web_server)["size"]
    web_server.set_clock("2026-03-10T12:03:00Z")
    wait_for("the service log to grow", lambda: service_log(web_server)["size"] > before)
    page.reload()
    link = page.locator("[data-proof-link]")
    expect(link).to_be_visible(timeout=60_000)
    expect(link).to_have_text("Télécharger la preuve de la partie")
    link.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "end-card-proof-phone-fr.png"))
    with page.expect_download() as download:
        link.click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name.endswith(".tlog-proof") and final["id"][:8] in path.name
    seed = keys.load(web_server.data_dir).seed(PLAY_DATE).hex()
    done = subprocess.run([sys.executable, str(VERIFY_PY), "proof", str(path), "--log-key",
                           service_log(web_server)["vkey"], "--seed", seed],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 3, done.stdout + done.stderr
    lines = done.stdout.splitlines()[:-1]
    assert [line for line in lines if not line.startswith("✓")] == [
        "- cosignatures: NOT checked: no --witness key given"], done.stdout
    assert any(line.startswith("✓ total: recomputed") for line in lines)


# ------------------------------------------------------------------ a fork


def log_key(web_server) -> LogKey:
    """The server's log key, from its data directory."""
    signer = Signer.from_pem((web_server.data_dir / LOG_KEY_FILE).read_bytes())
    return LogKey(service_log(web_server)["origin"], signer)


def rewrite(client, key: LogKey, entries: list[str], sizes: list[int]) -> list[str]:
    """Replace the service log's entries, subtrees and checkpoints by a history of
    ``entries`` with a checkpoint at each of ``sizes`` (signed by the log key); the notes. The
    day logs' cursors stay, so the server's pass has nothing to append."""
    levels = [service_log_hashes_key(level) for level in range(64)]
    client.delete(SERVICE_LOG_ENTRIES, SERVICE_LOG_CHECKPOINTS, SERVICE_LOG_SIZES,
                  SERVICE_LOG_COSIGNATURES, SERVICE_LOG_WITNESSED, *levels)
    store = ServiceLogStore(client)
    hashes = [merkle.leaf_hash(entry.encode()) for entry in entries]
    (cursor,) = store.cursors([FORK_FIELD])
    store.append(0, FORK_FIELD, cursor, entries, new_subtrees(0, [], hashes))
    notes = []
    for position, size in enumerate(sizes):
        notes.append(key.sign(LogCheckpoint(key.origin, size, merkle.root(hashes[:size]))))
        store.append_checkpoint(position, size, notes[-1])
    return notes


@pytest.fixture
def saved_log(server_redis):
    """The service log's keys as they were, put back after the test."""
    names = [name for name in server_redis.scan_iter(match="{slog}:*")]
    dumps = {name: server_redis.dump(name) for name in names}
    yield
    server_redis.delete(*[name for name in server_redis.scan_iter(match="{slog}:*")])
    for name, value in dumps.items():
        server_redis.restore(name, 0, value, replace=True)


@pytest.mark.parametrize(("locale", "viewport", "shot"), [
    ("fr-FR", {"width": 390, "height": 844}, "log-alarm-phone-fr.png"),  # docs/screenshots/
    ("en-GB", {"width": 1366, "height": 768}, "log-alarm-desktop-en.png"),
])
def test_a_log_that_forks_between_two_visits_raises_a_proven_alarm(
        new_context, web_server, server_redis, saved_log, first_game, tmp_path,
        locale, viewport, shot):
    """Visit one sees a history of 3 entries; visit two a history of 5 whose first 3 are other
    entries, with a checkpoint of 3 too (so the server answers the consistency proof, which
    cannot hold): the alarm says proven, and its evidence is format_fork's bytes, PROVEN by
    verify.py."""
    key = log_key(web_server)
    (old_note,) = rewrite(server_redis, key, [f"history A, entry {i}\n" for i in range(3)], [3])
    page = monitored(new_context, locale=locale, viewport=viewport)
    assert visit(page) == "pinned"
    other = [f"history B, entry {i}\n" for i in range(5)]
    _, new_note = rewrite(server_redis, key, other, [3, 5])
    assert visit(page) == "alarm"
    region = page.locator("#log-alarm")
    expect(region).to_be_visible()
    expect(region).to_have_attribute("role", "alert")
    expect(region).to_have_attribute("data-log-alarm", "proven")
    words = "deux historiques différents" if locale == "fr-FR" else "two different histories"
    expect(region).to_contain_text(words)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / shot))
    with page.expect_download() as download:
        region.locator("[data-log-evidence]").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    hashes = [merkle.leaf_hash(entry.encode()) for entry in other]
    subproof = [merkle.root(hashes[start:end]) for start, end in fork_proof_ranges(3, 5)]
    assert path.read_text(encoding="utf-8") == format_fork(old_note, new_note, subproof)
    done = subprocess.run([sys.executable, str(VERIFY_PY), "fork", str(path), "--log-key",
                           key.vkey], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("PROVEN: ")
    # the alarm stays on every page, without asking the server again
    page.goto("/")
    expect(page.locator("#log-alarm")).to_be_visible()


def test_one_size_with_two_roots_is_proven_and_another_key_is_an_alarm(
        new_context, web_server, server_redis, saved_log, first_game):
    """The same size over another history: proven with no proof at all. A new key: an alarm
    that cannot be proven (could-not-be-checked wording)."""
    key = log_key(web_server)
    rewrite(server_redis, key, [f"history A, entry {i}\n" for i in range(4)], [4])
    page = monitored(new_context)
    assert visit(page) == "pinned"
    rewrite(server_redis, key, [f"history C, entry {i}\n" for i in range(4)], [4])
    assert visit(page) == "alarm"
    expect(page.locator("#log-alarm")).to_have_attribute("data-log-alarm", "proven")
    page = monitored(new_context)
    assert visit(page) == "pinned"
    page.evaluate(f"""() => {{
        const state = JSON.parse(localStorage.getItem('{STORAGE_KEY}'));
        for (const kept of Object.values(state.logs)) kept.vkey = kept.vkey.replace(/\\+/, 'x+');
        localStorage.setItem('{STORAGE_KEY}', JSON.stringify(state));
    }}""")
    assert visit(page) == "alarm"
    expect(page.locator("#log-alarm")).to_have_attribute("data-log-alarm", "key")
    expect(page.locator("#log-alarm")).to_contain_text("could not be checked")


JUDGE = """async ([src, vkey, cases]) => {
        const monitor = await import(src);
        const key = await monitor.parseLogVkey(vkey);
        const bytes = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
        const out = [];
        for (const c of cases) {
            const proof = c.proof.map(bytes);
            out.push({proven: (await monitor.misbehaviour(c.old, c.new, proof, key)).proven,
                      file: monitor.formatFork(c.old, c.new, proof)});
        }
        return out;
    }"""  # log-monitor.js judging and writing each fork case


def test_the_browser_judges_and_writes_a_fork_as_the_core_does(page):
    """log-monitor.js's misbehaviour and formatFork on notes made by the core: the same verdicts
    and byte for byte the same file as fairness.service_log."""
    from fairness.service_log import misbehaviour
    from tests.fairness.service_log_kit import LOG_KEY, signed
    from tests.fairness.service_log_kit import verify as note_verify

    def note(tag: str, count: int) -> tuple[str, list[bytes]]:
        hashes = [merkle.leaf_hash(f"{tag} {i}\n".encode()) for i in range(count)]
        return signed(LogCheckpoint("yacht.example/log", count, merkle.root(hashes))), hashes

    cases = []
    for (tag_a, m), (tag_b, n) in [(("a", 3), ("b", 7)), (("a", 4), ("b", 7)),
                                   (("a", 6), ("a", 9)), (("a", 5), ("b", 5)),
                                   (("a", 5), ("a", 5))]:
        old, _ = note(tag_a, m)
        new, hashes = note(tag_b, n)
        proof = ([merkle.root(hashes[start:end]) for start, end in fork_proof_ranges(m, n)]
                 if m < n else [])
        verdict = misbehaviour(old, new, proof, LOG_KEY, note_verify)
        cases.append({"old": old, "new": new, "proof": [h.hex() for h in proof],
                      "proven": verdict.proven, "file": format_fork(old, new, proof)})
    tampered = cases[0]["new"].replace("\n7\n", "\n8\n")
    cases.append({"old": cases[0]["old"], "new": tampered, "proof": cases[0]["proof"],
                  "proven": False, "file": format_fork(cases[0]["old"], tampered, [
                      bytes.fromhex(h) for h in cases[0]["proof"]])})
    vectors = json.loads((Path(__file__).resolve().parents[1] / "vectors.json").read_text(
        encoding="utf-8"))["service_log"]
    forked = json.loads(vectors["fork"])
    first, last = vectors["checkpoints"]
    honest = [base64.b64decode(h).hex() for h in vectors["consistency"]["proof"]]
    vector_cases = [
        {"old": forked["old"], "new": forked["new"], "proof": [
            base64.b64decode(h).hex() for h in forked["proof"]], "proven": True,
         "file": vectors["fork"]},
        {"old": first["note"], "new": last["note"], "proof": honest, "proven": False,
         "file": format_fork(first["note"], last["note"], [bytes.fromhex(h) for h in honest])},
    ]
    page.goto("/rules")
    src = page.locator("script[src$='js/log-monitor.js']").get_attribute("src")
    vector_results = page.evaluate(JUDGE, [src, vectors["vkey"], vector_cases])
    assert vector_results == [{"proven": c["proven"], "file": c["file"]} for c in vector_cases]
    results = page.evaluate(JUDGE, [src, LOG_KEY.text(), cases])
    assert [r["proven"] for r in results] == [c["proven"] for c in cases] \
        == [True, True, False, True, False, False]
    assert [r["file"] for r in results] == [c["file"] for c in cases]
