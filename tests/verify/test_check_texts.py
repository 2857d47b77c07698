"""One catalogue of the checks' detail lines (app/static/data/check-texts.json), in English,
French and Hungarian, kept in sync with what the verifiers write: every detail line verify.py
writes for an honest game and for every single forged change of it is a catalogue text (or parts
of them). verify.py prints the core's checks (built from it, held to them line for line by
test_tamper.py and test_three_implementations_vectors.py), so the lines are the core's."""

import copy
import json
import re
import subprocess

import pytest

from tests.verify.conftest import ROOT
from tests.verify.tampering import changes

RUNNER = ROOT / "tests" / "verify" / "run_check_texts.mjs"
CATALOGUE = ROOT / "app" / "static" / "data" / "check-texts.json"
PLACEHOLDER = re.compile(r"\{\*?\w+\}")
OPEN, CLOSE = "\u2045", "\u2046"
WHOLLY_MARKED = re.compile(rf"^{OPEN}.*{CLOSE}$", re.S)


def check_texts() -> dict:
    """The catalogue, as the Verify page fetches it."""
    return json.loads(CATALOGUE.read_text(encoding="utf-8"))


def translate(node, catalogue: dict, lang: str, details: list[str], tmp_path) -> list[str]:
    """The page's own translator (check-texts.js, in Node) applied to ``details``."""
    job = tmp_path / "check-texts-job.json"
    job.write_text(json.dumps({"catalogue": catalogue, "lang": lang, "details": details}))
    done = subprocess.run([node.node, str(RUNNER), str(job)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


TRANSLATED = ("fr", "hu")


def test_every_text_has_every_language_with_the_same_values():
    texts = check_texts()["texts"]
    ids = [text["id"] for text in texts]
    assert len(ids) == len(set(ids))
    for text in texts:
        for lang in TRANSLATED:
            assert text["en"] and text[lang], (text["id"], lang)
            assert sorted(PLACEHOLDER.findall(text["en"])) == sorted(
                PLACEHOLDER.findall(text[lang])), (text["id"], lang)


@pytest.fixture(scope="module")
def written_details(day, per_turn_day, core):
    """Every detail line verify.py writes for one game of a day dealt sequentially (a v1
    epoch) and of one dealt per turn (a v2 epoch), honest or changed."""
    details = set()
    for revealed in (day, per_turn_day):
        details.update(game_details(revealed, core))
    return sorted(details)


def game_details(day, core) -> set:
    """Every detail line verify.py writes for one game of ``day``, honest or changed."""
    game = next(g for g in day.games["yahtzee"] if g["receipt"])
    published = {"ledger": day.ledger, "receipt": game["receipt"],
                 "transcript": game["transcript"], "proof": day.proof("yahtzee", game["id"])}
    details = set()

    def run(objects):
        """verify.py's checks of one set of published objects: the core's."""
        details.update(detail for _, _, detail in core.core_game(**objects))

    run(published)
    for key, value in published.items():
        for change in changes(value):
            changed = copy.copy(published)
            changed[key] = change.apply(value)
            run(changed)
    return details


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_line_verify_py_writes_is_in_the_catalogue(node, written_details, tmp_path, lang):
    marked = copy.deepcopy(check_texts())
    for text in marked["texts"]:
        text[lang] = f"{OPEN}{text[lang]}{CLOSE}"
    translated = translate(node, marked, lang, written_details, tmp_path)
    untranslated = [
        english for english, line in zip(written_details, translated, strict=True)
        if not all(WHOLLY_MARKED.match(part) for part in line.split(f"{CLOSE}; {OPEN}"))
        and not WHOLLY_MARKED.match(line)
    ]
    assert untranslated == []


def test_an_honest_game_reads_in_french(node, written_details, tmp_path):
    honest = [line for line in written_details if line.startswith(("stream dice", "recomputed"))]
    french = translate(node, check_texts(), "fr", honest, tmp_path)
    assert all(line.startswith(("les dés", "recalculé")) for line in french), french[:3]
    assert translate(node, check_texts(), "en", honest, tmp_path) == honest


def test_an_honest_game_reads_in_hungarian(node, written_details, tmp_path):
    honest = [line for line in written_details if line.startswith(("stream dice", "recomputed"))]
    hungarian = translate(node, check_texts(), "hu", honest, tmp_path)
    assert all(line.startswith(("a folyam", "újraszámolva")) for line in hungarian), hungarian[:3]
