"""tests/vectors.json: up to date with the code, and right by independent recomputation.

The file is rebuilt in memory by scripts/make_vectors.py and must equal the committed bytes;
then each section is recomputed here from the protocol's definitions (HMAC, RFC 9162,
Ed25519 through ``cryptography``) rather than trusted because the core wrote it.
"""

import base64
import hashlib
import hmac
import importlib.util
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fairness_testkit import mth, path, reference_dice, subproof

from fairness import RULESETS, DiceStream, audit, canonical_json, extra_bonus, replay, score
from fairness.rules import JOKER_LOWER, JOKER_UPPER, JOKER_UPPER_ZERO

PUBLIC_SHEETS = ("yatzy", "generala", "yahtzee-triple")

ROOT = Path(__file__).resolve().parents[2]
VECTORS_FILE = ROOT / "tests" / "vectors.json"


def load_script():
    """scripts/make_vectors.py as a module."""
    spec = importlib.util.spec_from_file_location(
        "make_vectors", ROOT / "scripts" / "make_vectors.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def vectors() -> dict:
    """The committed vectors."""
    return json.loads(VECTORS_FILE.read_text(encoding="utf-8"))


def verify_signature(public_key: str, message: bytes, sig: str) -> bool:
    """True when ``sig`` is a valid Ed25519 signature of ``message`` by ``public_key``."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(
            bytes.fromhex(sig), message
        )
    except Exception:
        return False
    return True


class TestUpToDate:
    """The committed file is exactly what the script writes now, and the script is stable."""

    def test_committed_file_equals_a_fresh_build(self):
        script = load_script()
        assert script.render(script.build_vectors()) == VECTORS_FILE.read_text(encoding="utf-8")

    def test_check_mode_reports_up_to_date(self, capsys):
        assert load_script().main(["--check"]) == 0

    def test_sections_have_the_documented_shape(self, vectors):
        expected = {
            "canonical_json": {"value", "canonical"},
            "stream": {"seed", "date", "ruleset", "blocks", "dice", "rolls"},
            "chain": {"secret", "start", "length", "anchor", "seeds"},
            "merkle": {"leaves", "root", "proofs"},
            "scores": {
                "ruleset",
                "category",
                "dice",
                "sheet",
                "points",
                "extra_bonus",
                "allowed",
                "restriction",
            },
            "games": {
                "seed",
                "date",
                "ruleset",
                "dealing",
                "transcript",
                "boxes",
                "totals",
                "transcript_sha256",
            },
        }
        for section, fields in expected.items():
            for vector in vectors[section]:
                assert fields <= set(vector), (section, fields - set(vector))
        assert {"private_key_seed", "public_key", "objects"} <= set(vectors["signing"])
        assert {"entries", "receipts", "proofs"} <= set(vectors["ledger"])
        assert set(vectors["dealing"]) == {"turns", "games", "ledger"}
        assert {"entries", "receipts", "proofs", "games"} <= set(vectors["dealing"]["ledger"])
        for game in vectors["dealing"]["games"] + vectors["dealing"]["ledger"]["games"]:
            assert expected["games"] <= set(game), expected["games"] - set(game)
        assert [len(tree["leaves"]) for tree in vectors["merkle"]] == [0, 1, 2, 3, 5, 7, 8, 13]


class TestRecomputed:
    """Every section recomputed from the definitions."""

    def test_canonical_json(self, vectors):
        for vector in vectors["canonical_json"]:
            assert canonical_json(vector["value"]).decode("utf-8") == vector["canonical"]

    def test_streams(self, vectors):
        for vector in vectors["stream"]:
            seed = bytes.fromhex(vector["seed"])
            for k, block in enumerate(vector["blocks"]):
                message = f"yacht-daily/dice/v1|{vector['date']}|{vector['ruleset']}|{k}"
                assert hmac.new(seed, message.encode(), hashlib.sha256).hexdigest() == block
            dice = reference_dice(seed, vector["date"], vector["ruleset"], 100)
            assert vector["dice"] == dice
            assert vector["rolls"] == [dice[5 * n : 5 * n + 5] for n in range(8)]
        assert any(vector["rejected_bytes"] for vector in vectors["stream"])

    def test_chains(self, vectors):
        for vector in vectors["chain"]:
            seed = bytes.fromhex(vector["secret"])
            seeds = {}
            for day in range(vector["length"], 0, -1):
                seeds[str(day)] = seed.hex()
                seed = hmac.new(seed, b"yacht-daily/chain/v1", hashlib.sha256).digest()
            assert seed.hex() == vector["anchor"]
            assert vector["seeds"] == dict(sorted(seeds.items(), key=lambda item: int(item[0])))

    def test_merkle_trees(self, vectors):
        for vector in vectors["merkle"]:
            data = [bytes.fromhex(leaf) for leaf in vector["leaves"]]
            assert mth(data).hex() == vector["root"]
            for proof in vector["proofs"]:
                expected = [h.hex() for h in path(proof["index"], data)]
                assert proof["path"] == expected and proof["size"] == len(data)

    def test_merkle_trees_of_ct_leaves_have_ct_heads(self, vectors):
        heads = {
            8: "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
            0: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        }
        roots = {len(vector["leaves"]): vector["root"] for vector in vectors["merkle"]}
        assert {size: roots[size] for size in heads} == heads

    def test_signatures(self, vectors):
        signing = vectors["signing"]
        key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(signing["private_key_seed"]))
        public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
        assert public == signing["public_key"]
        assert public == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
        for item in signing["objects"]:
            unsigned = {k: v for k, v in item["object"].items() if k != "sig"}
            assert item["signed_bytes"].encode("utf-8") == canonical_json(unsigned)
            assert item["sig"] == item["object"]["sig"]
            assert verify_signature(public, item["signed_bytes"].encode("utf-8"), item["sig"])

    def test_games_replay(self, vectors):
        for vector in vectors["games"]:
            assert vector["dealing"] == "sequential"  # the games made before per-turn dealing
            stream = DiceStream(vector["seed"], vector["date"], vector["ruleset"],
                                vector["dealing"])
            game = replay(vector["transcript"], stream)
            assert dict(game.boxes) == vector["boxes"]
            assert game.finished == vector["finished"]
            assert game.totals().as_dict() == vector["totals"]
            transcript_bytes = canonical_json(vector["transcript"])
            assert hashlib.sha256(transcript_bytes).hexdigest() == vector["transcript_sha256"]

    def test_games_cover_every_sheet_and_the_bonus_rules(self, vectors):
        games = vectors["games"]
        assert {game["ruleset"] for game in games} == set(RULESETS)
        seen = {feature for game in games for feature in game["features"]}
        assert {
            JOKER_UPPER,
            JOKER_LOWER,
            JOKER_UPPER_ZERO,
            "extra-bonus",
            "upper-bonus",
            "joker-with-zero-box",
            "early-stop",
        } <= seen
        assert any(not game["finished"] for game in games)

    def test_scores_cover_every_box_and_every_joker_case(self, vectors):
        covered = {(s["ruleset"], s["category"]) for s in vectors["scores"]}
        assert covered == {(r.id, box) for r in RULESETS.values() for box in r.category_ids}
        restrictions = {(s["ruleset"], s["restriction"]) for s in vectors["scores"]}
        for ruleset_id in ("yahtzee", "yahtzee-no-bonus"):
            for code in (JOKER_UPPER, JOKER_LOWER, JOKER_UPPER_ZERO):
                assert (ruleset_id, code) in restrictions
        assert any(s["extra_bonus"] == 100 for s in vectors["scores"])

    def test_public_sheets_cover_the_first_roll_bonus_and_the_triple_rules(self, vectors):
        public = [s for s in vectors["scores"] if s["ruleset"] in PUBLIC_SHEETS]
        assert all(isinstance(s["first_roll"], bool) for s in public)
        assert not any("first_roll" in s for s in vectors["scores"] if s not in public)
        servida = {(s["category"], s["points"]) for s in public
                   if s["ruleset"] == "generala" and s["first_roll"]}
        assert {("escalera", 25), ("full", 35), ("poker", 45), ("generala", 100),
                ("doble-generala", 100)} <= servida
        triple = {(s["restriction"], s["extra_bonus"]) for s in public
                  if s["ruleset"] == "yahtzee-triple"}
        assert {(JOKER_UPPER, 100), (JOKER_LOWER, 100), (JOKER_UPPER_ZERO, 0)} <= triple
        for case in public:
            first = case["first_roll"]
            assert score(case["ruleset"], case["category"], case["dice"], case["sheet"],
                         first) == case["points"]
            assert extra_bonus(case["ruleset"], case["dice"], case["sheet"],
                               case["category"]) == case["extra_bonus"]
        features = {f for g in vectors["games"] if g["ruleset"] in PUBLIC_SHEETS
                    for f in g["features"]}
        assert {"first-roll-bonus", "doble-generala", "extra-bonus", "joker-upper"} <= features


class TestLedger:
    """The ledger section: links, signatures, roots and proofs, by hand and by fairness.audit."""

    def test_links_and_signatures_by_hand(self, vectors):
        entries = vectors["ledger"]["entries"]
        public_key = entries[0]["public_key"]
        assert entries[0]["prev"] == "0" * 64
        for before, entry in zip(entries, entries[1:], strict=False):
            assert entry["prev"] == hashlib.sha256(canonical_json(before)).hexdigest()
        for signed in entries + vectors["ledger"]["receipts"]:
            unsigned = {k: v for k, v in signed.items() if k != "sig"}
            assert verify_signature(public_key, canonical_json(unsigned), signed["sig"])

    def test_roots_and_proofs_by_hand(self, vectors):
        receipts = {r["game"]: r for r in vectors["ledger"]["receipts"]}
        reveals = {e["date"]: e for e in vectors["ledger"]["entries"][1:]}
        for reveal in reveals.values():
            for ruleset_id, root in reveal["roots"].items():
                day = sorted(
                    (
                        r
                        for r in receipts.values()
                        if (r["date"], r["ruleset"]) == (reveal["date"], ruleset_id)
                    ),
                    key=lambda r: r["game"],
                )
                leaves = [canonical_json({k: v for k, v in r.items() if k != "sig"}) for r in day]
                assert mth(leaves).hex() == root
                assert reveal["games"][ruleset_id] == len(day)
        for proof in vectors["ledger"]["proofs"]:
            receipt = receipts[proof["game"]]
            day = sorted(
                (
                    r
                    for r in receipts.values()
                    if (r["date"], r["ruleset"]) == (receipt["date"], receipt["ruleset"])
                ),
                key=lambda r: r["game"],
            )
            leaves = [canonical_json({k: v for k, v in r.items() if k != "sig"}) for r in day]
            assert [h.hex() for h in path(proof["index"], leaves)] == proof["path"]
            assert day[proof["index"]]["game"] == proof["game"]

    def test_the_audit_module_accepts_every_day_and_game(self, vectors):
        entries = vectors["ledger"]["entries"]
        receipts = {r["game"]: r for r in vectors["ledger"]["receipts"]}
        assert all(check.ok for check in audit.check_ledger(entries, verify_signature))
        for reveal in entries[1:]:
            for ruleset_id in reveal["roots"]:
                games = [
                    {
                        "id": g["game"],
                        "player": g["player"],
                        "name": None,
                        "status": "finished" if g["finished"] else "abandoned",
                        "transcript": g["transcript"],
                        "receipt": receipts.get(g["game"]),
                    }
                    for g in vectors["games"]
                    if (g["seed"], g["date"], g["ruleset"])
                    == (reveal["seed"], reveal["date"], ruleset_id)
                ]
                day = audit.audit_day(entries, reveal["date"], ruleset_id, games, verify_signature)
                assert day.ok, [check for check in day.checks if not check.ok]
        for proof in vectors["ledger"]["proofs"]:
            game = next(g for g in vectors["games"] if g["game"] == proof["game"])
            shape = {key: proof[key] for key in ("index", "size", "path")}
            checks = audit.check_game(
                entries, receipts[proof["game"]], game["transcript"], shape, verify_signature
            )
            assert all(check.ok for check in checks), [c for c in checks if not c.ok]


def slot_by_hand(dealing: str, turn: int, roll_in_turn: int, rolls_taken: int) -> int:
    """FAIRNESS.md, "Dealing": per turn, roll r of turn t takes slot 3t + r; sequentially, roll
    n of the whole game takes slot n."""
    return 3 * turn + roll_in_turn if dealing == "per-turn" else rolls_taken


def replay_by_hand(vector: dict) -> list[int]:
    """Check every roll of a game vector against the dice of the slot its dealing gives it,
    straight from HMAC (held positions keep their die); returns the slot of each turn's first
    roll."""
    seed = bytes.fromhex(vector["seed"])
    slots = 3 * len(RULESETS[vector["ruleset"]].categories)  # either dealing stays below
    dice = reference_dice(seed, vector["date"], vector["ruleset"], 5 * slots)
    turn = in_turn = taken = 0
    current, first_slots = None, []
    for entry in vector["transcript"]:
        if entry["action"] == "score":
            turn, in_turn, current = turn + 1, 0, None
            continue
        slot = slot_by_hand(vector["dealing"], turn, in_turn, taken)
        if in_turn == 0:
            first_slots.append(slot)
        drawn = dice[5 * slot:5 * slot + 5]
        current = [current[p] if entry["hold"][p] else drawn[p] for p in range(5)]
        assert entry["dice"] == current, (vector["game"], turn, in_turn)
        in_turn, taken = in_turn + 1, taken + 1
    return first_slots


class TestDealing:
    """The dealing section recomputed from HMAC and the slot rule, not from the core."""

    @pytest.fixture(scope="class")
    @classmethod
    def dealing(cls, vectors):
        """The section."""
        return vectors["dealing"]

    def test_each_turns_roll_takes_slot_3t_plus_r(self, dealing):
        assert {(case["turn"], case["roll"]) for case in dealing["turns"]} == {
            (turn, roll) for turn in range(3) for roll in range(3)}
        for case in dealing["turns"]:
            assert case["slot"] == 3 * case["turn"] + case["roll"]
            dice = reference_dice(bytes.fromhex(case["seed"]), case["date"], case["ruleset"],
                                  5 * case["slot"] + 5)
            assert case["dice"] == dice[5 * case["slot"]:]
            stream = DiceStream(case["seed"], case["date"], case["ruleset"], "per-turn")
            assert list(stream.deal(case["turn"], case["roll"], 0)) == case["dice"]

    def test_games_take_their_slots_by_hand(self, dealing):
        games = dealing["games"] + dealing["ledger"]["games"]
        assert {game["dealing"] for game in dealing["games"]} == {"per-turn", "sequential"}
        assert {game["dealing"] for game in dealing["ledger"]["games"]} == {"per-turn"}
        for vector in games:
            first_slots = replay_by_hand(vector)
            if vector["dealing"] == "per-turn":
                assert first_slots == [3 * turn for turn in range(len(first_slots))]
            stream = DiceStream(vector["seed"], vector["date"], vector["ruleset"],
                                vector["dealing"])
            game = replay(vector["transcript"], stream)
            assert dict(game.boxes) == vector["boxes"]
            assert game.finished == vector["finished"]
            assert game.totals().as_dict() == vector["totals"]
            assert hashlib.sha256(canonical_json(vector["transcript"])).hexdigest() == \
                vector["transcript_sha256"]
        assert any(not vector["finished"] and vector["dealing"] == "per-turn"
                   for vector in dealing["games"])

    def test_per_turn_every_strategy_starts_each_turn_with_the_same_dice(self, dealing):
        """One seed, one sheet: per turn, every strategy's turn t starts with slot 3t's dice;
        sequentially, scoring after one roll reaches turn 1 with slot 1's."""
        for ruleset in {vector["ruleset"] for vector in dealing["games"]}:
            starts = {}
            for vector in dealing["games"]:
                if vector["ruleset"] == ruleset and vector["finished"]:
                    starts[(vector["dealing"], vector["strategy"])] = replay_by_hand(vector)
            per_turn = [slots for (dealt, _), slots in starts.items() if dealt == "per-turn"]
            assert len(per_turn) > 1 and all(slots == per_turn[0] for slots in per_turn)
            assert starts[("sequential", "one-roll")][1] == 1
            assert starts[("sequential", "hold-all")][1] == 3

    def test_the_v2_epoch_ledger_by_hand(self, dealing):
        section = dealing["ledger"]
        entries = section["entries"]
        epoch = entries[0]
        assert epoch["type"] == "yacht-daily/epoch/v2" and epoch["dealing"] == "per-turn"
        assert set(epoch) == {"type", "seq", "prev", "epoch", "start", "length", "anchor",
                              "public_key", "rulesets", "dealing", "published_at", "sig"}
        assert entries[0]["prev"] == "0" * 64
        for before, entry in zip(entries, entries[1:], strict=False):
            assert entry["prev"] == hashlib.sha256(canonical_json(before)).hexdigest()
        for signed in entries + section["receipts"]:
            unsigned = {k: v for k, v in signed.items() if k != "sig"}
            assert verify_signature(epoch["public_key"], canonical_json(unsigned), signed["sig"])
        receipts = {r["game"]: r for r in section["receipts"]}
        for proof in section["proofs"]:
            receipt = receipts[proof["game"]]
            day = sorted((r for r in receipts.values()
                          if (r["date"], r["ruleset"]) == (receipt["date"], receipt["ruleset"])),
                         key=lambda r: r["game"])
            leaves = [canonical_json({k: v for k, v in r.items() if k != "sig"}) for r in day]
            assert mth(leaves).hex() == proof["root"]
            assert [h.hex() for h in path(proof["index"], leaves)] == proof["path"]
            reveal = next(e for e in entries[1:] if e["date"] == receipt["date"])
            assert reveal["roots"][receipt["ruleset"]] == proof["root"]
        for proof in section["proofs"]:
            game = next(g for g in section["games"] if g["game"] == proof["game"])
            shape = {key: proof[key] for key in ("index", "size", "path")}
            checks = audit.check_game(entries, receipts[proof["game"]], game["transcript"],
                                      shape, verify_signature)
            assert all(check.ok for check in checks), [c for c in checks if not c.ok]


class TestTransparencyLog:
    """The tlog section recomputed from RFC 9162 and the C2SP texts, not from the core."""

    @pytest.fixture(scope="class")
    @classmethod
    def tlog(cls, vectors):
        """The section."""
        return vectors["tlog"]

    def test_consistency_proofs_are_the_rfc_subproofs(self, tlog):
        script = load_script()
        for vector in tlog["consistency"]:
            data = script.merkle_leaf_data(vector["leaves"])[:vector["second"]]
            assert vector["first_root"] == mth(data[:vector["first"]]).hex()
            assert vector["second_root"] == mth(data).hex()
            assert vector["path"] == [h.hex() for h in subproof(vector["first"], data, True)]

    def test_the_checkpoint_note_and_its_key_id(self, tlog):
        cp = tlog["checkpoint"]
        name, key = cp["key_name"], bytes.fromhex(tlog["day"]["entries"][0]["public_key"])
        assert cp["key_id"] == hashlib.sha256(name.encode() + b"\n\x01" + key).hexdigest()[:8]
        assert cp["note"].startswith(cp["body"] + "\n\u2014 " + name + " ")
        line = cp["note"][len(cp["body"]) + 1:].split("\n")[0]
        raw = base64.b64decode(line.split(" ")[2])
        assert raw[:4].hex() == cp["key_id"]
        Ed25519PublicKey.from_public_bytes(key).verify(raw[4:], cp["body"].encode())
        lines = cp["body"].split("\n")
        assert lines[0] == name and lines[3].startswith("time ") and lines[-1] == ""

    def test_the_witness_cosignature(self, tlog):
        witness, body = tlog["witness"], tlog["checkpoint"]["body"]
        key = bytes.fromhex(witness["public_key"])
        ident = hashlib.sha256(witness["name"].encode() + b"\n\x04" + key).hexdigest()[:8]
        assert witness["key_id"] == ident
        assert witness["vkey"] == (f"{witness['name']}+{ident}+"
                                   + base64.b64encode(b"\x04" + key).decode())
        message = f"cosignature/v1\ntime {witness['timestamp']}\n{body}"
        assert witness["cosigned_message"] == message
        line = next(x for x in tlog["checkpoint"]["note"].split("\n")
                    if x.startswith("\u2014 " + witness["name"] + " "))
        raw = base64.b64decode(line.split(" ")[2])
        assert raw[:4].hex() == ident
        assert int.from_bytes(raw[4:12], "big") == witness["timestamp"]
        Ed25519PublicKey.from_public_bytes(key).verify(raw[12:], message.encode())

    def test_each_close_commits_to_its_final_transcripts(self, tlog):
        day = tlog["day"]
        for ruleset, games in day["games"].items():
            leaves = {g["id"]: json.dumps({
                "finished": g["status"] == "finished", "game": g["id"], "player": g["player"],
                "transcript_sha256": hashlib.sha256(json.dumps(
                    g["transcript"], sort_keys=True, separators=(",", ":")).encode()).hexdigest(),
                "type": "yacht-daily/final/v1"}, sort_keys=True, separators=(",", ":")).encode()
                for g in games}
            root = mth([leaves[k] for k in sorted(leaves)])
            close = day["logs"][ruleset]["checkpoints"][-1]["note"].split("\n")[5]
            assert close == f"close {len(games)} {base64.b64encode(root).decode()}"
            reveal = day["entries"][-1]
            body = day["logs"][ruleset]["checkpoints"][-1]["note"].split("\n\n")[0] + "\n"
            assert reveal["logs"][ruleset] == hashlib.sha256(body.encode()).hexdigest()


class TestServiceLog:
    """The service_log section recomputed from RFC 9162 and the C2SP texts (tlog-checkpoint,
    signed-note, tlog-cosignature, tlog-tiles, tlog-proof), not from the core."""

    @pytest.fixture(scope="class")
    @classmethod
    def log(cls, vectors):
        """The section."""
        return vectors["service_log"]

    @staticmethod
    def data(log) -> list[bytes]:
        """The entries' bytes."""
        return [entry.encode("utf-8") for entry in log["entries"]]

    def test_the_key_its_id_and_vkey(self, log):
        key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(log["private_key_seed"]))
        public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        assert log["public_key"] == public.hex()
        ident = hashlib.sha256(log["origin"].encode() + b"\n\x01" + public).hexdigest()[:8]
        assert log["key_id"] == ident
        assert log["vkey"] == f"{log['origin']}+{ident}+" + base64.b64encode(
            b"\x01" + public).decode()

    def test_the_entries_are_the_day_checkpoints_with_their_log_line_only(self, log, vectors):
        notes = [c["note"] for logs in vectors["tlog"]["day"]["logs"].values()
                 for c in logs["checkpoints"]]
        for entry in log["entries"]:
            text, signatures = entry.split("\n\n")
            assert signatures.count("\n") == 1 and signatures.startswith("\u2014 " + text.split(
                "\n")[0] + " ")
            assert any(note.startswith(entry) for note in notes)
        assert len(log["entries"]) == len(notes)
        times = [entry.split("\n")[3] for entry in log["entries"]]
        assert times == sorted(times)
        assert log["leaf_hashes"] == [hashlib.sha256(b"\x00" + e).hexdigest()
                                      for e in self.data(log)]

    def test_checkpoints_are_three_lines_signed_by_the_log_key_and_cosigned(self, log, vectors):
        public = bytes.fromhex(log["public_key"])
        data = self.data(log)
        for cp in log["checkpoints"]:
            root = base64.b64encode(mth(data[:cp["size"]])).decode()
            assert cp["body"] == f"{log['origin']}\n{cp['size']}\n{root}\n"
            lines = cp["note"][len(cp["body"]) + 1:].splitlines()
            assert cp["note"].startswith(cp["body"] + "\n") and lines[0].startswith(
                f"\u2014 {log['origin']} ")
            raw = base64.b64decode(lines[0].split(" ")[2])
            assert raw[:4].hex() == log["key_id"]
            Ed25519PublicKey.from_public_bytes(public).verify(raw[4:], cp["body"].encode())
        witness = vectors["tlog"]["witness"]
        last = log["checkpoints"][-1]
        line = next(x for x in last["note"].splitlines()
                    if x.startswith(f"\u2014 {witness['name']} "))
        raw = base64.b64decode(line.split(" ")[2])
        stamp = int.from_bytes(raw[4:12], "big")
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(witness["public_key"])).verify(
            raw[12:], f"cosignature/v1\ntime {stamp}\n{last['body']}".encode())

    def test_the_consistency_proof_tiles_and_paths(self, log):
        data = self.data(log)
        proof = log["consistency"]
        assert [base64.b64decode(h) for h in proof["proof"]] == subproof(
            proof["old"], data[:proof["size"]], True)
        size = len(data)
        assert log["tiles"][f"tile/0/000.p/{size}"] == "".join(log["leaf_hashes"])
        bundle = b"".join(len(e).to_bytes(2, "big") + e for e in data)
        assert log["tiles"][f"tile/entries/000.p/{size}"] == bundle.hex()
        for index, text in log["tile_paths"].items():
            digits = f"{int(index):03d}"
            digits = "0" * (-len(digits) % 3) + digits
            parts = [digits[i:i + 3] for i in range(0, len(digits), 3)]
            assert text == "tile/0/" + "/".join(["x" + p for p in parts[:-1]] + parts[-1:])

    def test_the_tlog_proof_of_an_entry(self, log):
        data = self.data(log)
        header, index, *rest = log["tlog_proof"]["text"].split("\n")
        blank = rest.index("")
        assert header == "c2sp.org/tlog-proof@v1"
        assert index == f"index {log['tlog_proof']['entry']}"
        assert [base64.b64decode(h) for h in rest[:blank]] == path(log["tlog_proof"]["entry"],
                                                                  data)
        assert "\n".join(rest[blank + 1:]) == log["checkpoints"][-1]["note"]

    def test_the_fork_file_proves_two_histories(self, log):
        fork = json.loads(log["fork"])
        assert log["fork"] == json.dumps(fork, sort_keys=True, separators=(",", ":"),
                                         ensure_ascii=False) + "\n"
        assert fork["type"] == "yacht-daily/service-log-fork/v1"
        assert fork["new"] == log["checkpoints"][-1]["note"]
        old_size, old_root = fork["old"].split("\n")[1:3]
        data = self.data(log)
        hashes = [base64.b64decode(h) for h in fork["proof"]]
        assert hashes == subproof(int(old_size), data, True)  # the larger tree's own subtrees
        assert base64.b64decode(old_root) != mth(data[:int(old_size)])  # another history
