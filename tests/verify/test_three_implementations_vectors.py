"""One set of vectors, and every verifier: the core and fairness.js (its independent second
implementation) agree with tests/vectors.json, check for check, so that they can never drift
apart; verify.py, built from the core, prints the core's very lines, run as a player runs it."""

import pytest

from app.ledger.signing import verify_signature
from fairness import RULESETS, DiceStream, audit, canonical_json, ledger, merkle, rules
from fairness.chain import hash_down, previous_seed
from fairness.dice import PER_TURN, SEQUENTIAL, roll_slot
from fairness.game import replay
from tests.verify.conftest import day_output, exit_status, printed


def hexed(data: bytes) -> dict:
    """A bytes argument for the Node runner."""
    return {"hex": data.hex()}


def test_canonical_json(vectors, node):
    """Canonical JSON is byte for byte the same in the core and fairness.js."""
    cases = vectors["canonical_json"]
    js = node.values([{"fn": "canonicalJson", "args": [case["value"]]} for case in cases])
    for case, from_js in zip(cases, js, strict=True):
        assert canonical_json(case["value"]).decode() == case["canonical"]
        assert from_js == case["canonical"]


@pytest.mark.parametrize("value", ["\ud800", {"\udfff": 1}, ["a\ud83d"]])
def test_a_lone_surrogate_has_no_canonical_json_in_either(value, node):
    """One rule (FAIRNESS.md): a string with a lone surrogate is rejected, not escaped."""
    with pytest.raises(ValueError):
        canonical_json(value)
    [result] = node.run([{"fn": "canonicalJson", "args": [value]}])
    assert "lone surrogates" in result["error"]


def test_dice_stream(vectors, node):
    """Block messages, HMAC blocks, rejection and dice agree."""
    jobs, expected = [], []
    for case in vectors["stream"]:
        seed = bytes.fromhex(case["seed"])
        stream = DiceStream(seed, case["date"], case["ruleset"])
        count = len(case["dice"])
        assert stream.dice(count) == case["dice"]
        assert [stream.block(k).hex() for k in range(len(case["blocks"]))] == case["blocks"]
        assert [list(stream.roll(n)) for n in range(len(case["rolls"]))] == case["rolls"]
        jobs.append({"fn": "diceStream", "args": [case["seed"], case["date"], case["ruleset"],
                                                  count]})
        expected.append(case["dice"])
        for index, (message, block, dice) in enumerate(
            zip(case["messages"], case["blocks"], case["block_dice"], strict=True)
        ):
            jobs += [{"fn": "blockMessage", "args": [case["date"], case["ruleset"], index]},
                     {"fn": "hmacSha256", "args": [hexed(seed), message]},
                     {"fn": "diceFromBlock", "args": [{"hex": block}]}]
            expected += [message, {"hex": block}, dice]
    assert node.values(jobs) == expected


def test_seed_chain(vectors, node):
    """The secret hashes down to the anchor and to every day's seed, one step per day."""
    jobs, expected = [], []
    for case in vectors["chain"]:
        secret, length = bytes.fromhex(case["secret"]), case["length"]
        assert hash_down(secret, length).hex() == case["anchor"]
        jobs.append({"fn": "hashDown", "args": [case["secret"], length]})
        expected.append({"hex": case["anchor"]})
        seeds = {int(day): seed for day, seed in case["seeds"].items()}
        for day, seed in seeds.items():
            below = seeds.get(day - 1, case["anchor"])
            assert hash_down(secret, length - day).hex() == seed
            assert previous_seed(bytes.fromhex(seed)).hex() == below
            jobs.append({"fn": "previousSeed", "args": [seed]})
            expected.append({"hex": below})
    assert node.values(jobs) == expected


def test_merkle_trees_and_proofs(vectors, node):
    """Leaf hashes, roots and every inclusion proof agree (RFC 9162)."""
    jobs, expected = [], []
    for case in vectors["merkle"]:
        data = [bytes.fromhex(leaf) for leaf in case["leaves"]]
        hashes = [merkle.leaf_hash(d) for d in data]
        assert [h.hex() for h in hashes] == case["leaf_hashes"]
        assert merkle.root(hashes).hex() == case["root"]
        jobs.append({"fn": "merkleRoot", "args": [[{"hex": h} for h in case["leaf_hashes"]]]})
        expected.append({"hex": case["root"]})
        for proof in case["proofs"]:
            leaf = hashes[proof["index"]]
            path = [bytes.fromhex(p) for p in proof["path"]]
            assert audit.computed_root(leaf, proof["index"], proof["size"], path).hex() == \
                case["root"]
            jobs.append({"fn": "inclusionRoot", "args": [hexed(leaf), proof["index"],
                                                         proof["size"], [hexed(p) for p in path]]})
            expected.append({"hex": case["root"]})
    assert node.values(jobs) == expected


def test_scores_and_placements(vectors, node):
    """Every box's points, the extra bonus and the allowed boxes (Joker included) agree."""
    jobs = []
    for case in vectors["scores"]:
        ruleset, box, dice, sheet = case["ruleset"], case["category"], case["dice"], case["sheet"]
        first = case.get("first_roll", False)  # the earlier vectors are never a first roll
        assert rules.score(ruleset, box, dice, sheet, first) == case["points"]
        assert rules.extra_bonus(ruleset, dice, sheet, box) == case["extra_bonus"]
        assert list(rules.placement(ruleset, dice, sheet, first).allowed) == case["allowed"]
        jobs += [{"fn": "score", "args": [ruleset, box, dice, sheet, first]},
                 {"fn": "extraBonus", "args": [ruleset, dice, sheet, box]},
                 {"fn": "allowedBoxes", "args": [ruleset, dice, sheet]}]
    values = iter(node.values(jobs))
    for case in vectors["scores"]:
        assert [next(values) for _ in range(3)] == \
            [case["points"], case["extra_bonus"], case["allowed"]], case


def every_game_vector(vectors) -> list:
    """Every game of the vectors: the games section (all sheets and variants, Joker cases,
    dealt sequentially) and the dealing section's (the same strategies on one seed under both
    dealings, an abandoned per-turn game, and the v2 epoch's days, dealt per turn)."""
    return vectors["games"] + vectors["dealing"]["games"] + vectors["dealing"]["ledger"]["games"]


def test_the_game_vectors_cover_both_dealings(vectors):
    """Both dealings, finished and abandoned games dealt per turn."""
    games = every_game_vector(vectors)
    assert {case["dealing"] for case in games} == {PER_TURN, SEQUENTIAL}
    assert {case["finished"] for case in games if case["dealing"] == PER_TURN} == {True, False}


def test_whole_games_replay_alike(vectors, node):
    """Every vector game replays to its sheet and totals in the core and fairness.js, by its
    dealing, with
    the same check lines (a roll's detail names the dice of the slot its dealing gives it)."""
    games = every_game_vector(vectors)
    jobs = []
    for case in games:
        jobs.append({"fn": "streamRolls", "args": [case["seed"], case["date"], case["ruleset"]]})
        jobs.append({"fn": "transcriptHash", "args": [case["transcript"]]})
    js_values = iter(node.values(jobs))
    replays, lines = [], []
    for case in games:
        stream = DiceStream(case["seed"], case["date"], case["ruleset"], case["dealing"])
        game = replay(case["transcript"], stream)
        assert dict(game.boxes) == case["boxes"]
        assert game.totals().as_dict() == case["totals"]
        assert ledger.transcript_hash(case["transcript"]) == case["transcript_sha256"]
        core = audit.replay_checks(case["transcript"], stream, explain=True)
        assert core.totals.as_dict() == case["totals"]
        core_lines = [(c.name, c.ok, c.detail) for c in core.checks]
        assert [line for line in core_lines if not line[1]] == (
            [] if case["finished"] else [core_lines[-1]])
        rolls = [list(stream.roll(n))
                 for n in range(3 * len(RULESETS[case["ruleset"]].categories))]
        assert next(js_values) == rolls
        assert next(js_values) == case["transcript_sha256"]
        replays.append({"fn": "replay", "args": [case["transcript"], case["ruleset"], rolls,
                                                 case["dealing"]]})
        lines.append(core_lines)
    for case, core_lines, value in zip(games, lines, node.values(replays), strict=True):
        assert [(c["name"], c["ok"], c["detail"]) for c in value["checks"]] == core_lines
        assert value["boxes"] == case["boxes"]


def test_signed_objects(vectors, node):
    """The signed bytes of every object, and its Ed25519 signature, agree."""
    key = vectors["signing"]["public_key"]
    jobs = []
    for case in vectors["signing"]["objects"]:
        obj, message = case["object"], case["signed_bytes"].encode()
        assert ledger.signed_bytes(obj) == message
        assert verify_signature(key, message, case["sig"])
        assert not verify_signature(key, message + b" ", case["sig"])
        jobs += [{"fn": "signedBytes", "args": [obj]},
                 {"fn": "verifyEd25519", "args": [key, hexed(message), case["sig"]]},
                 {"fn": "verifyEd25519", "args": [key, hexed(message + b" "), case["sig"]]}]
    values = iter(node.values(jobs))
    for case in vectors["signing"]["objects"]:
        assert next(values) == {"hex": case["signed_bytes"].encode().hex()}
        assert next(values) is True
        assert next(values) is False


def test_the_turns_take_their_slots(vectors):
    """The dealing section's slots: roll r of turn t takes slot 3t + r per turn, the dice of
    that slot."""
    turns = vectors["dealing"]["turns"]
    assert turns
    for case in turns:
        turn, roll = case["turn"], case["roll"]
        stream = DiceStream(case["seed"], case["date"], case["ruleset"], PER_TURN)
        assert case["slot"] == 3 * turn + roll == roll_slot(PER_TURN, turn, roll, 0)
        assert list(stream.deal(turn, roll, 0)) == case["dice"]
        assert list(stream.roll(case["slot"])) == case["dice"]
        assert roll_slot(SEQUENTIAL, turn, roll, 7) == 7


def ledger_sections(vectors) -> dict:
    """The vectors' ledgers, each with its games: a v1 epoch's (dealt sequentially) and the
    dealing section's v2 epoch's (dealt per turn)."""
    return {"v1 epoch": {**vectors["ledger"], "games": vectors["games"]},
            "v2 epoch": vectors["dealing"]["ledger"]}


def vector_game_cases(section):
    """(ledger, receipt, transcript, proof) of every receipt of a ledger section."""
    games = {case["game"]: case for case in section["games"]}
    proofs = {proof["game"]: proof for proof in section["proofs"]}
    for receipt in section["receipts"]:
        proof = proofs[receipt["game"]]
        yield (section["entries"], receipt, games[receipt["game"]]["transcript"],
               {key: proof[key] for key in ("index", "size", "path")})


@pytest.mark.parametrize("epoch", ["v1 epoch", "v2 epoch"])
def test_vector_ledger_and_receipts_verify_alike(vectors, verifiers, verify_py, epoch):
    """The vectors' ledgers and each receipt, transcript and proof: every check holds, the core
    and fairness.js write the very same lines, and verify.py prints them."""
    cases = list(vector_game_cases(ledger_sections(vectors)[epoch]))
    assert cases
    js = verifiers.js_games(cases)
    for case, from_js, from_script in zip(cases, js, verify_py.games(cases), strict=True):
        core = verifiers.core_game(*case)
        assert [line for line in core if line[1] is not True] == []
        assert from_js == core
        assert from_script == (0, printed(core))


@pytest.mark.parametrize(("fixture", "ruleset"), [
    ("day", "yacht"), ("day", "yacht-bonus"), ("day", "yahtzee"),
    ("two_epoch_day", "yacht"), ("two_epoch_day", "yahtzee"),
    ("per_turn_day", "yacht"), ("per_turn_day", "yacht-bonus"), ("per_turn_day", "yahtzee"),
])
def test_fixture_games_verify_alike(request, verifiers, verify_py, fixture, ruleset):
    """Games of a core-made day on each sheet, in a first or a second epoch, dealt
    sequentially or per turn: all hold, the same lines in the core, fairness.js and
    verify.py."""
    day = request.getfixturevalue(fixture)
    cases = []
    for index in range(3):
        game = day.game(ruleset, index)
        cases.append((day.ledger, game["receipt"], game["transcript"],
                      day.proof(ruleset, game["id"])))
    for case, from_js, from_script in zip(cases, verifiers.js_games(cases),
                                          verify_py.games(cases), strict=True):
        core = verifiers.core_game(*case)
        assert all(line[1] is True for line in core)
        assert from_js == core
        assert from_script == (0, printed(core))


@pytest.mark.parametrize(("fixture", "ruleset"), [
    ("day", "yacht"), ("day", "yacht-bonus"), ("day", "yahtzee"), ("two_epoch_day", "yahtzee"),
    ("per_turn_day", "yacht"), ("per_turn_day", "yacht-bonus"), ("per_turn_day", "yahtzee"),
])
def test_day_audits_print_the_same_lines(request, core, verify_py, fixture, ruleset):
    """``verify.py day`` on a server publishing a core-made day: all holds, and it prints the
    core's whole-day audit and recomputed leaderboard, line for line."""
    day = request.getfixturevalue(fixture)
    games = day.games[ruleset]
    checks, board = core.core_day(day.ledger, day.date, ruleset, games)
    assert all(line[1] is True for line in checks)
    assert len(board) == sum(1 for game in games if game["receipt"])
    assert verify_py.day(day.ledger, day.date, ruleset, games) == \
        day_output(day.ledger, day.date, ruleset, games)


def ledger_day_games(section, reveal: dict, ruleset: str) -> list:
    """The games of one revealed (date, sheet) of a ledger section, as a day's page lists them
    (the v1 section's games include games of other seeds on the same dates)."""
    receipts = {receipt["game"]: receipt for receipt in section["receipts"]}
    return [{"id": game["game"], "player": game["player"], "name": None,
             "status": "finished" if game["finished"] else "abandoned",
             "transcript": game["transcript"], "receipt": receipts.get(game["game"])}
            for game in section["games"]
            if (game["seed"], game["date"], game["ruleset"]) ==
            (reveal["seed"], reveal["date"], ruleset)]


@pytest.mark.parametrize("epoch", ["v1 epoch", "v2 epoch"])
def test_vector_days_audit_alike(vectors, core, verify_py, epoch):
    """Every revealed (date, sheet) of the vectors' ledgers, audited whole by the date's
    epoch's dealing: all hold, and verify.py prints the core's lines and leaderboard."""
    section = ledger_sections(vectors)[epoch]
    audited = 0
    for reveal in section["entries"][1:]:
        for ruleset in reveal["roots"]:
            games = ledger_day_games(section, reveal, ruleset)
            checks, _ = core.core_day(section["entries"], reveal["date"], ruleset, games)
            assert [line for line in checks if line[1] is not True] == []
            assert verify_py.day(section["entries"], reveal["date"], ruleset, games) == \
                day_output(section["entries"], reveal["date"], ruleset, games)
            audited += 1
    assert audited == 6


def as_sequential_epoch(day) -> list:
    """The per-turn day's ledger with its epoch entry published again as v1 (no dealing, so
    sequential), re-signed and the links redone: what a server claiming another dealing after
    play would publish."""
    entries = [dict(entry) for entry in day.ledger]
    epoch = {k: v for k, v in entries[0].items() if k not in ("dealing", "sig")}
    entries[0] = day.sign({**epoch, "type": ledger.EPOCH_TYPE})
    for position in range(1, len(entries)):
        entries[position] = day.sign({**entries[position],
                                      "prev": ledger.entry_hash(entries[position - 1])})
    return entries


def test_a_day_dealt_per_turn_fails_as_a_sequential_day_alike(per_turn_day, verifiers,
                                                              verify_py):
    """The per-turn day's games replayed under a v1 epoch entry (sequential dealing): the
    ledger holds, the games do not, the core and fairness.js name the same failing checks and
    verify.py prints the core's lines."""
    entries = as_sequential_epoch(per_turn_day)
    ruleset = "yahtzee"
    games = per_turn_day.games[ruleset]
    core, _ = verifiers.core_day(entries, per_turn_day.date, ruleset, games)
    failed = [line[0] for line in core if line[1] is False]
    assert "games replayed" in failed and not any(name.startswith("ledger") for name in failed)
    assert verify_py.day(entries, per_turn_day.date, ruleset, games) == \
        day_output(entries, per_turn_day.date, ruleset, games)
    cases = [(entries, game["receipt"], game["transcript"],
              per_turn_day.proof(ruleset, game["id"])) for game in games[:3]]
    for case, from_js, from_script in zip(cases, verifiers.js_games(cases),
                                          verify_py.games(cases), strict=True):
        core = verifiers.core_game(*case)
        assert any(line[0].startswith("roll ") and line[1] is False for line in core)
        assert from_js == core
        assert from_script == (exit_status(core), printed(core))


def test_duplicate_matches_verify_alike_on_seat_zeros_stream(vectors, verify_py, node):
    """The duplicate match vectors: the core, fairness.js and verify.py make the vectors' very
    checks, all holding; fairness.js reads seat 0's stream for every seat (its seat streams and
    slot rule), so each seat's turn starts with the same dice; and the dealing's tampered cases
    fail the same checks in the three."""
    cases = [case for case in vectors["match"]["matches"]
             if case["answer"]["match"]["result"].get("dealing") == "duplicate"]
    assert {case["answer"]["match"]["result"]["kind"] for case in cases} == {"computer", "table"}
    jobs = [{"fn": "verifyMatch", "args": [case["answer"], case["public_key"]]} for case in cases]
    jobs += [{"fn": "streamSeat", "args": ["duplicate", seat]} for seat in range(3)]
    jobs += [{"fn": "slotRule", "args": ["duplicate"]},
             {"fn": "streamSeat", "args": ["per-turn", 2]}]
    values = node.values(jobs)
    scripts = verify_py.run_all([verify_py.match(case["answer"], case["public_key"])
                                 for case in cases])
    for case, from_js, script in zip(cases, values, scripts, strict=False):
        result, transcripts = audit.answer_parts(case["answer"])
        core = [[c.name, c.ok, c.detail] for c in audit.check_match(
            result, transcripts, public_key_hex=case["public_key"],
            verify_signature=verify_signature)]
        assert core == case["checks"] == [[c["name"], c["ok"], c["detail"]] for c in from_js]
        assert all(ok is True for _, ok, _ in core)
        assert script == (exit_status(core), printed([tuple(c) for c in core]))
    assert values[len(cases):] == [0, 0, 0, PER_TURN, 2]
    tampered = [case for case in vectors["match"]["tampered"]
                if vectors["match"]["matches"][case["match"]] in cases]
    assert {case["what"] for case in tampered} == {"dealing changed to per-turn",
                                                   "seat 1 played on its own stream"}
    for case in tampered:
        answer = vectors["match"]["matches"][case["match"]]["answer"]
        changed = {"match": {**answer["match"], "result": dict(answer["match"]["result"]),
                             "seats": [dict(seat) for seat in answer["match"]["seats"]]}}
        parent = changed
        for step in case["path"][:-1]:
            parent = parent[step]
        parent[case["path"][-1]] = case["value"]
        result, transcripts = audit.answer_parts(changed)
        key = cases[0]["public_key"]
        core = [c.name for c in audit.check_match(result, transcripts, public_key_hex=key,
                                                  verify_signature=verify_signature)
                if c.ok is False]
        js = [c["name"] for c in node.call("verifyMatch", changed, key) if c["ok"] is False]
        assert core == js == case["failing"], case["what"]
        assert any(name.startswith("seat 1 roll ") for name in core)
