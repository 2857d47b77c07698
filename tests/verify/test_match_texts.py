"""The match checks' detail lines are in the catalogue (app/static/data/check-texts.json) in
English and French: every line verify.py writes for the vectors' matches, honest or with any
single change of their result or of a seat's transcript, translates wholly."""

import copy
import json

import pytest

from tests.verify.tampering import changes
from tests.verify.test_check_texts import CLOSE, OPEN, WHOLLY_MARKED, check_texts, translate


@pytest.fixture(scope="module")
def match_details(vectors, standalone):
    """Every detail line verify.py writes for the vectors' matches, honest or changed."""
    details = set()
    entries = vectors["ledger"]["entries"]

    def run(answer, key, with_ledger=False):
        """verify.py's match checks of one answer."""
        result, transcripts = standalone.answer_parts(answer)
        report = standalone.Report()
        if with_ledger:
            standalone.check_match_in_ledger(report, entries, result, transcripts,
                                             standalone.ed25519_verifier())
        else:
            standalone.check_match(report, result, transcripts, key,
                                   standalone.ed25519_verifier())
        details.update(detail for name, _, detail in report.checks
                       if not name.startswith("ledger") and "reveal" not in name
                       and "seed chains" not in name and "seed successions" not in name)

    for case in vectors["match"]["matches"]:
        answer, key = case["answer"], case["public_key"]
        run(answer, key, with_ledger=True)
        run(answer, None)
        state = answer["match"]
        for change in changes(state["result"]):
            changed = copy.deepcopy(answer)
            changed["match"]["result"] = change.apply(state["result"])
            run(changed, key)
            run(changed, key, with_ledger=True)
        for seat, entry in enumerate(state["seats"]):
            for change in list(changes(entry["transcript"]))[::5]:
                changed = copy.deepcopy(answer)
                changed["match"]["seats"][seat]["transcript"] = change.apply(entry["transcript"])
                run(changed, key)
    run({"match": {"seats": []}}, None)
    for case in vectors["match"]["matches"]:
        result = case["answer"]["match"]["result"]
        for shown, seed in ((result["commitment"], result["client_seeds"][-1]),
                            ("0" * 64, "not-mine")):
            report = standalone.Report()
            standalone.check_match(report, *standalone.answer_parts(case["answer"]),
                                   case["public_key"], standalone.ed25519_verifier(), shown,
                                   seed)
            details.update(detail for _, _, detail in report.checks)
    return sorted(details)


def test_every_match_line_is_in_the_catalogue(node, match_details, tmp_path):
    marked = copy.deepcopy(check_texts())
    for text in marked["texts"]:
        text["fr"] = f"{OPEN}{text['fr']}{CLOSE}"
    translated = translate(node, marked, "fr", match_details, tmp_path)
    untranslated = [
        english for english, line in zip(match_details, translated, strict=True)
        if not all(WHOLLY_MARKED.match(part) for part in line.split(f"{CLOSE}; {OPEN}"))
        and not WHOLLY_MARKED.match(line)
    ]
    assert untranslated == [], json.dumps(untranslated[:40], ensure_ascii=False, indent=1)


def test_an_honest_match_reads_in_french(node, vectors, tmp_path):
    case = vectors["match"]["matches"][0]
    honest = [detail for name, _, detail in case["checks"]
              if name in ("commitment", "transcripts", "finished", "ranks", "match signature")]
    french = translate(node, check_texts(), "fr", honest, tmp_path)
    assert french != honest and not any(line in honest for line in french), french
