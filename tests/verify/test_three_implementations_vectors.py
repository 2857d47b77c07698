"""Three implementations, one set of vectors: the core, verify.py and fairness.js all agree
with tests/vectors.json, check for check, so that they can never drift apart."""

import pytest

from app.ledger.signing import verify_signature
from fairness import DiceStream, audit, canonical_json, ledger, merkle, rules
from fairness.chain import hash_down, previous_seed
from fairness.dice import PER_TURN, SEQUENTIAL, roll_slot
from fairness.game import replay


def hexed(data: bytes) -> dict:
    """A bytes argument for the Node runner."""
    return {"hex": data.hex()}


def test_canonical_json(vectors, standalone, node):
    """Canonical JSON is byte for byte the same in the three."""
    cases = vectors["canonical_json"]
    js = node.values([{"fn": "canonicalJson", "args": [case["value"]]} for case in cases])
    for case, from_js in zip(cases, js, strict=True):
        assert canonical_json(case["value"]).decode() == case["canonical"]
        assert standalone.canonical(case["value"]).decode() == case["canonical"]
        assert from_js == case["canonical"]


@pytest.mark.parametrize("value", ["\ud800", {"\udfff": 1}, ["a\ud83d"]])
def test_a_lone_surrogate_has_no_canonical_json_in_the_three(value, standalone, node):
    """One rule (FAIRNESS.md): a string with a lone surrogate is rejected, not escaped."""
    with pytest.raises(ValueError):
        canonical_json(value)
    with pytest.raises(ValueError):
        standalone.canonical(value)
    [result] = node.run([{"fn": "canonicalJson", "args": [value]}])
    assert "lone surrogates" in result["error"]


def test_dice_stream(vectors, standalone, node):
    """Block messages, HMAC blocks, rejection and dice agree."""
    jobs, expected = [], []
    for case in vectors["stream"]:
        seed = bytes.fromhex(case["seed"])
        stream = DiceStream(seed, case["date"], case["ruleset"])
        count = len(case["dice"])
        assert stream.dice(count) == case["dice"]
        assert [stream.block(k).hex() for k in range(len(case["blocks"]))] == case["blocks"]
        assert [list(stream.roll(n)) for n in range(len(case["rolls"]))] == case["rolls"]
        assert standalone.dice_stream(case["seed"], case["date"], case["ruleset"], count) == \
            case["dice"]
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


def test_seed_chain(vectors, standalone, node):
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
            assert standalone.step_down(bytes.fromhex(seed)).hex() == below
            jobs.append({"fn": "previousSeed", "args": [seed]})
            expected.append({"hex": below})
    assert node.values(jobs) == expected


def test_merkle_trees_and_proofs(vectors, standalone, node):
    """Leaf hashes, roots and every inclusion proof agree (RFC 9162)."""
    jobs, expected = [], []
    for case in vectors["merkle"]:
        data = [bytes.fromhex(leaf) for leaf in case["leaves"]]
        hashes = [merkle.leaf_hash(d) for d in data]
        assert [h.hex() for h in hashes] == case["leaf_hashes"]
        assert merkle.root(hashes).hex() == case["root"]
        assert standalone.merkle_root([standalone.merkle_leaf(d) for d in data]).hex() == \
            case["root"]
        jobs.append({"fn": "merkleRoot", "args": [[{"hex": h} for h in case["leaf_hashes"]]]})
        expected.append({"hex": case["root"]})
        for proof in case["proofs"]:
            leaf = hashes[proof["index"]]
            path = [bytes.fromhex(p) for p in proof["path"]]
            assert audit.computed_root(leaf, proof["index"], proof["size"], path).hex() == \
                case["root"]
            assert standalone.proof_root(leaf, proof["index"], proof["size"], path).hex() == \
                case["root"]
            jobs.append({"fn": "inclusionRoot", "args": [hexed(leaf), proof["index"],
                                                         proof["size"], [hexed(p) for p in path]]})
            expected.append({"hex": case["root"]})
    assert node.values(jobs) == expected


def test_scores_and_placements(vectors, standalone, node):
    """Every box's points, the extra bonus and the allowed boxes (Joker included) agree."""
    jobs = []
    for case in vectors["scores"]:
        ruleset, box, dice, sheet = case["ruleset"], case["category"], case["dice"], case["sheet"]
        first = case.get("first_roll", False)  # the earlier vectors are never a first roll
        assert rules.score(ruleset, box, dice, sheet, first) == case["points"]
        assert rules.extra_bonus(ruleset, dice, sheet, box) == case["extra_bonus"]
        assert list(rules.placement(ruleset, dice, sheet, first).allowed) == case["allowed"]
        assert standalone.points(ruleset, box, dice, sheet, first) == case["points"]
        assert standalone.extra_bonus(standalone.SHEETS[ruleset], dice, sheet, box) == \
            case["extra_bonus"]
        assert standalone.allowed_boxes(standalone.SHEETS[ruleset], dice, sheet) == case["allowed"]
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


def test_whole_games_replay_alike(vectors, standalone, node):
    """Every vector game replays to its sheet and totals in the three, by its dealing, with
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
        report = standalone.Report()
        rolls = standalone.stream_rolls(case["seed"], case["date"], case["ruleset"])
        sheet = standalone.replay(report, case["transcript"], case["ruleset"], rolls, True,
                                  case["dealing"])
        assert report.checks == core_lines
        assert list(standalone.totals(sheet.rules, sheet.boxes, sheet.extra)) == \
            list(case["totals"].values())
        assert next(js_values) == [list(stream.roll(n)) for n in range(len(rolls))]
        assert next(js_values) == case["transcript_sha256"]
        replays.append({"fn": "replay", "args": [case["transcript"], case["ruleset"], rolls,
                                                 case["dealing"]]})
        lines.append(core_lines)
    for case, core_lines, value in zip(games, lines, node.values(replays), strict=True):
        assert [(c["name"], c["ok"], c["detail"]) for c in value["checks"]] == core_lines
        assert value["boxes"] == case["boxes"]


def test_signed_objects(vectors, standalone, node):
    """The signed bytes of every object, and its Ed25519 signature, agree."""
    key = vectors["signing"]["public_key"]
    verify = standalone.ed25519_verifier()
    jobs = []
    for case in vectors["signing"]["objects"]:
        obj, message = case["object"], case["signed_bytes"].encode()
        assert ledger.signed_bytes(obj) == message
        assert standalone.unsigned_bytes(obj) == message
        assert verify_signature(key, message, case["sig"])
        assert verify(key, message, case["sig"])
        assert not verify(key, message + b" ", case["sig"])
        jobs += [{"fn": "signedBytes", "args": [obj]},
                 {"fn": "verifyEd25519", "args": [key, hexed(message), case["sig"]]},
                 {"fn": "verifyEd25519", "args": [key, hexed(message + b" "), case["sig"]]}]
    values = iter(node.values(jobs))
    for case in vectors["signing"]["objects"]:
        assert next(values) == {"hex": case["signed_bytes"].encode().hex()}
        assert next(values) is True
        assert next(values) is False


def test_the_turns_take_their_slots(vectors, standalone):
    """The dealing section's slots: roll r of turn t takes slot 3t + r per turn, the dice of
    that slot, in the core and in verify.py."""
    turns = vectors["dealing"]["turns"]
    assert turns
    for case in turns:
        turn, roll = case["turn"], case["roll"]
        stream = DiceStream(case["seed"], case["date"], case["ruleset"], PER_TURN)
        assert case["slot"] == 3 * turn + roll == roll_slot(PER_TURN, turn, roll, 0)
        assert standalone.roll_slot(PER_TURN, turn, roll, 0) == case["slot"]
        assert list(stream.deal(turn, roll, 0)) == case["dice"]
        rolls = standalone.stream_rolls(case["seed"], case["date"], case["ruleset"])
        assert rolls[case["slot"]] == case["dice"]
        assert standalone.roll_slot(SEQUENTIAL, turn, roll, 7) == 7


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
def test_vector_ledger_and_receipts_verify_alike(vectors, verifiers, epoch):
    """The vectors' ledgers and each receipt, transcript and proof: every check holds, and the
    three implementations print the very same lines."""
    cases = list(vector_game_cases(ledger_sections(vectors)[epoch]))
    assert cases
    js = verifiers.js_games(cases)
    for case, from_js in zip(cases, js, strict=True):
        core = verifiers.core_game(*case)
        assert [line for line in core if line[1] is not True] == []
        assert verifiers.standalone_game(*case) == core
        assert from_js == core


@pytest.mark.parametrize(("fixture", "ruleset"), [
    ("day", "yacht"), ("day", "yacht-bonus"), ("day", "yahtzee"),
    ("two_epoch_day", "yacht"), ("two_epoch_day", "yahtzee"),
    ("per_turn_day", "yacht"), ("per_turn_day", "yacht-bonus"), ("per_turn_day", "yahtzee"),
])
def test_fixture_games_verify_alike(request, verifiers, fixture, ruleset):
    """Games of a core-made day on each sheet, in a first or a second epoch, dealt
    sequentially or per turn: all hold, the same lines in the three."""
    day = request.getfixturevalue(fixture)
    cases = []
    for index in range(3):
        game = day.game(ruleset, index)
        cases.append((day.ledger, game["receipt"], game["transcript"],
                      day.proof(ruleset, game["id"])))
    for case, from_js in zip(cases, verifiers.js_games(cases), strict=True):
        core = verifiers.core_game(*case)
        assert all(line[1] is True for line in core)
        assert verifiers.standalone_game(*case) == core
        assert from_js == core


@pytest.mark.parametrize(("fixture", "ruleset"), [
    ("day", "yacht"), ("day", "yacht-bonus"), ("day", "yahtzee"), ("two_epoch_day", "yahtzee"),
    ("per_turn_day", "yacht"), ("per_turn_day", "yacht-bonus"), ("per_turn_day", "yahtzee"),
])
def test_day_audits_print_the_same_lines(request, two_verifiers, fixture, ruleset):
    """The core's and verify.py's whole-day audits: all hold, the same lines, the same
    leaderboard."""
    day = request.getfixturevalue(fixture)
    games = day.games[ruleset]
    core, core_board = two_verifiers.core_day(day.ledger, day.date, ruleset, games)
    standalone, standalone_board = two_verifiers.standalone_day(day.ledger, day.date, ruleset,
                                                                games)
    assert all(line[1] is True for line in core)
    assert standalone == core
    assert [(row["rank"], row["total"], row["game"], row["player"]) for row in core_board] == \
        standalone_board
    assert len(core_board) == sum(1 for game in games if game["receipt"])


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
def test_vector_days_audit_alike(vectors, two_verifiers, epoch):
    """Every revealed (date, sheet) of the vectors' ledgers, audited whole by the date's
    epoch's dealing: all hold, the same lines and leaderboard in the core and verify.py."""
    section = ledger_sections(vectors)[epoch]
    audited = 0
    for reveal in section["entries"][1:]:
        for ruleset in reveal["roots"]:
            games = ledger_day_games(section, reveal, ruleset)
            core, board = two_verifiers.core_day(section["entries"], reveal["date"], ruleset,
                                                 games)
            standalone, standalone_board = two_verifiers.standalone_day(
                section["entries"], reveal["date"], ruleset, games)
            assert [line for line in core if line[1] is not True] == []
            assert standalone == core
            assert [(row["rank"], row["total"], row["game"], row["player"])
                    for row in board] == standalone_board
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
                                                              two_verifiers):
    """The per-turn day's games replayed under a v1 epoch entry (sequential dealing): the
    ledger holds, the games do not, and the three name the same failing checks."""
    entries = as_sequential_epoch(per_turn_day)
    ruleset = "yahtzee"
    games = per_turn_day.games[ruleset]
    core, _ = two_verifiers.core_day(entries, per_turn_day.date, ruleset, games)
    standalone, _ = two_verifiers.standalone_day(entries, per_turn_day.date, ruleset, games)
    failed = [line[0] for line in core if line[1] is False]
    assert "games replayed" in failed and not any(name.startswith("ledger") for name in failed)
    assert standalone == core
    cases = [(entries, game["receipt"], game["transcript"],
              per_turn_day.proof(ruleset, game["id"])) for game in games[:3]]
    for case, from_js in zip(cases, verifiers.js_games(cases), strict=True):
        core = verifiers.core_game(*case)
        assert any(line[0].startswith("roll ") and line[1] is False for line in core)
        assert verifiers.standalone_game(*case) == core
        assert from_js == core
