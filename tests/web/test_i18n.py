"""French and Hungarian are complete and in step with the sources; pages speak the reader's
language; the language choice sticks; every response carries the security headers."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "app" / "translations"
CATALOG = TRANSLATIONS / "fr" / "LC_MESSAGES"
TRANSLATED = ("fr", "hu")
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")

PAGES = [
    "/",
    "/play/yacht",
    "/play/yahtzee",
    "/rules",
    "/rules/yacht-bonus",
    "/rules/yahtzee",
    "/fairness",
    "/verify",
    "/ledger",
    "/history",
    "/results/2026-03-10/yahtzee",
]
# Words of the English interface that must not leak onto a French page.
ENGLISH_ONLY = [
    "Score sheet", "Copy result", "Upper section", "Lower section", "Roll the", "Leaderboard",
    "Daily challenge", "Skip to content", "Rules of", "How to play", "Verify a game",
    "Public ledger", "Your games", "rolls left", "not rolled yet", "Game over",
]
FRENCH_ONLY = ["Feuille de score", "Copier le résultat", "Partie haute", "Défi du jour"]
HUNGARIAN_ONLY = ["Pontozólap", "Eredmény másolása", "Felső szekció", "Napi kihívás"]


def source_messages() -> dict:
    """Every translatable message the templates and the web code use, by msgid."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found = {}
    for _, _, message, _, _ in extract_from_dir(ROOT, method_map, options_map):
        found[message[0] if isinstance(message, tuple) else message] = message
    return found


def read_catalog(lang: str = "fr"):
    """The .po catalog of ``lang``."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po)


def french_catalog():
    """The French .po catalog."""
    return read_catalog("fr")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_covers_exactly_the_messages_of_the_sources(lang):
    catalog = read_catalog(lang)
    in_catalog = {message.id[0] if isinstance(message.id, tuple) else message.id
                  for message in catalog if message.id}
    in_sources = set(source_messages())
    assert in_sources - in_catalog == set(), "untranslated: run `make translations`"
    assert in_catalog - in_sources == set(), "obsolete: run `make translations`"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang):
    for message in read_catalog(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"empty translation for {ids[0]!r}"
        assert not message.fuzzy, f"fuzzy translation for {ids[0]!r}"
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for string in strings:
            assert set(PLACEHOLDER.findall(string)) == wanted, (ids[0], string)


def as_key(value):
    """A message id or string, plural forms as a tuple."""
    return tuple(value) if isinstance(value, list | tuple) else value


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_matches_the_po_file(lang):
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo").open("rb") as mo:
        compiled = {as_key(m.id): as_key(m.string) for m in read_mo(mo) if m.id}
    written = {as_key(m.id): as_key(m.string) for m in read_catalog(lang) if m.id}
    assert compiled == written, "stale messages.mo: run `make translations`"


@pytest.mark.parametrize("path", PAGES)
def test_a_french_page_has_no_english_interface_text(client, path):
    response = client.get(path, query_string={"lang": "fr"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert '<html lang="fr">' in html
    leaks = [words for words in ENGLISH_ONLY if words in html]
    assert leaks == []


@pytest.mark.parametrize("path", PAGES)
def test_a_hungarian_page_has_no_english_interface_text(client, path):
    response = client.get(path, query_string={"lang": "hu"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert '<html lang="hu">' in html
    assert [words for words in ENGLISH_ONLY if words in html] == []


@pytest.mark.parametrize("path", PAGES)
def test_an_english_page_has_no_french_or_hungarian_interface_text(client, path):
    html = client.get(path, query_string={"lang": "en"}).get_data(as_text=True)
    assert '<html lang="en">' in html
    assert [words for words in FRENCH_ONLY + HUNGARIAN_ONLY if words in html] == []


def test_the_play_page_speaks_french_through_and_through(client):
    html = client.get("/play/yahtzee", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).get_data(
        as_text=True)
    for words in ["Feuille de score", "Partie haute", "Brelan", "Carré", "Petite suite",
                  "Grande suite", "Chance", "Copier le résultat", "Lancer"]:
        assert words in html


def test_the_play_page_speaks_hungarian_through_and_through(client):
    html = client.get("/play/yahtzee", headers={"Accept-Language": "hu-HU,hu;q=0.9"}).get_data(
        as_text=True)
    assert '<html lang="hu">' in html
    for words in ["Pontozólap", "Felső szekció", "Három egyforma", "Négy egyforma", "Kis sor",
                  "Nagy sor", "Esély", "Eredmény másolása", "Dobás", "Hatosok"]:
        assert words in html


def test_hungarian_sticks_once_chosen(client):
    chosen = client.get("/rules?lang=hu", headers={"Accept-Language": "fr"})
    assert "yd_lang=hu" in chosen.headers["Set-Cookie"]
    later = client.get("/ledger", headers={"Accept-Language": "fr"})
    assert '<html lang="hu">' in later.get_data(as_text=True)


def test_the_language_follows_accept_language_then_sticks_once_chosen(client):
    assert '<html lang="fr">' in client.get("/", headers={"Accept-Language": "fr"}).get_data(
        as_text=True)
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "en"}).get_data(
        as_text=True)
    chosen = client.get("/rules?lang=fr", headers={"Accept-Language": "en"})
    assert "yd_lang=fr" in chosen.headers["Set-Cookie"]
    later = client.get("/ledger", headers={"Accept-Language": "en"})
    assert '<html lang="fr">' in later.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/", "/play/yacht", "/verify", "/api/v1/rulesets"])
def test_every_response_carries_the_security_headers(client, path):
    headers = client.get(path).headers
    policy = headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert directives["frame-ancestors"] == "'none'"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_the_pages_hold_no_inline_script(client):
    for path in PAGES:
        html = client.get(path).get_data(as_text=True)
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert 'type="module" src="/static/' in tag or 'type="application/json"' in tag, tag
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", html), path


def test_the_standalone_verifier_is_served_to_download(client):
    response = client.get("/verify.py")
    assert response.status_code == 200
    assert response.mimetype == "application/zip"
    assert response.headers["Content-Disposition"] == "attachment; filename=verify.py"
    assert response.get_data() == (ROOT / "app" / "static" / "verify.py").read_bytes()
