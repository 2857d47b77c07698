"""The match checks' detail lines are in the catalogue (app/static/data/check-texts.json) in
English and French: every line verify.py writes for the vectors' matches, honest or with any
single change of their result or of a seat's transcript, translates wholly. verify.py prints
the core's checks (built from it; test_match_vectors.py holds its lines to them), so the lines
are the core's."""

import copy
import json

import pytest

from app.ledger.signing import verify_signature
from fairness import audit
from tests.verify.tampering import changes
from tests.verify.test_check_texts import CLOSE, OPEN, WHOLLY_MARKED, check_texts, translate


@pytest.fixture(scope="module")
def match_details(vectors):
    """Every detail line verify.py writes for the vectors' matches, honest or changed."""
    details = set()
    entries = vectors["ledger"]["entries"]

    def run(answer, key, with_ledger=False):
        """verify.py's match checks of one answer: the core's."""
        result, transcripts = audit.answer_parts(answer)
        if with_ledger:
            checks = audit.check_match_in_ledger(entries, result, transcripts, verify_signature)
        else:
            checks = audit.check_match(result, transcripts, public_key_hex=key,
                                       verify_signature=verify_signature)
        details.update(check.detail for check in checks
                       if not check.name.startswith("ledger") and "reveal" not in check.name
                       and "seed chains" not in check.name
                       and "seed successions" not in check.name)

    for case in vectors["match"]["matches"]:
        answer, key = case["answer"], case["public_key"]
        run(answer, key, with_ledger=True)
        run(answer, None)
        state = answer["match"]
        for change in changes(state["result"]):
            changed = {**answer, "match": {**state, "result": change.apply(state["result"])}}
            run(changed, key)
            run(changed, key, with_ledger=True)
        for seat, entry in enumerate(state["seats"]):
            for change in list(changes(entry["transcript"]))[::5]:
                seats = list(state["seats"])
                seats[seat] = {**entry, "transcript": change.apply(entry["transcript"])}
                run({**answer, "match": {**state, "seats": seats}}, key)
    run({"match": {"seats": []}}, None)
    for case in vectors["match"]["matches"]:
        result = case["answer"]["match"]["result"]
        for shown, seed in ((result["commitment"], result["client_seeds"][-1]),
                            ("0" * 64, "not-mine")):
            checks = audit.check_match(*audit.answer_parts(case["answer"]),
                                       public_key_hex=case["public_key"],
                                       verify_signature=verify_signature,
                                       shown_commitment=shown, client_seed=seed)
            details.update(check.detail for check in checks)
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
