"""FAIRNESS.md stays true to the code, and the core stays standard-library only.

Every hash, seed, key and signature quoted in FAIRNESS.md must be one the vectors file holds
(or an independently known constant), its worked examples must compute as written, and no
module of ``fairness/`` may import anything outside the standard library.
"""

import ast
import hashlib
import hmac
import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

from fairness import DiceStream, canonical_json
from fairness.dice import dice_from_block

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "FAIRNESS.md").read_text(encoding="utf-8")
VECTORS_TEXT = (ROOT / "tests" / "vectors.json").read_text(encoding="utf-8")
KNOWN_CONSTANTS = {"0" * 64}


class TestQuotedValues:
    """What the document quotes is what the code computes."""

    @pytest.mark.parametrize("value", sorted(set(re.findall(r"\b[0-9a-f]{64,128}\b", DOC))))
    def test_every_quoted_hex_value_is_in_the_vectors(self, value):
        assert value in VECTORS_TEXT or value in KNOWN_CONSTANTS

    def test_the_stream_example(self):
        seed = bytes(range(32))
        message = b"yacht-daily/dice/v1|2026-12-01|yacht-bonus|0"
        block = hmac.new(seed, message, hashlib.sha256).digest()
        spaced = " ".join(f"{byte:02x}" for byte in block)
        assert spaced in DOC
        dice = " ".join(map(str, dice_from_block(block)))
        assert f"`{dice}`" in DOC and f"yields {len(dice_from_block(block))} dice" in DOC
        stream = DiceStream(seed, "2026-12-01", "yacht-bonus")
        rolls = ", ".join(f"`[{','.join(map(str, stream.roll(n)))}]`" for n in range(3))
        assert rolls in DOC

    def test_the_hold_example(self):
        stream = DiceStream(
            "040556a82a444e44b4c0e7adbabf3cc6bbef91fd93d5a8fe661ca9a9f11672e9",
            "2026-12-01",
            "yahtzee",
        )
        rolls = ", ".join(f"`[{','.join(map(str, stream.roll(n)))}]`" for n in range(3))
        assert rolls in DOC
        games = json.loads(VECTORS_TEXT)["games"]
        game = next(g for g in games if g["transcript_sha256"] in DOC)
        for entry in game["transcript"][:4]:
            assert canonical_json(entry).decode() in DOC
        joker = next(entry for entry in game["transcript"] if entry.get("bonus") == 100)
        assert canonical_json(joker).decode() in DOC
        totals = game["totals"]
        assert (
            f"upper {totals['upper']}, upper bonus {totals['upper_bonus']}, lower "
            f"{totals['lower']}, extra bonus {totals['extra_bonus']}, total {totals['total']}"
        ) in " ".join(DOC.split())

    def test_the_python_snippet_deals_the_vectors_dice(self):
        snippet = DOC.split("Or in Python, the dice of a date:")[1].split("## ")[0]
        namespace: dict = {}
        exec(textwrap.dedent(snippet), namespace)  # the document's own code, as written
        for vector in json.loads(VECTORS_TEXT)["stream"]:
            dealt = namespace["dice"](vector["seed"], vector["date"], vector["ruleset"], 100)
            assert dealt == vector["dice"]

    def test_the_canonical_json_example(self):
        assert canonical_json({"b": 1, "a": [True, False, None]}).decode() in DOC
        encoded = canonical_json({"name": "Élodie"})
        assert f"the {len(encoded)} bytes `{encoded.decode()}`" in DOC

    def test_message_lengths(self):
        assert len(b"yacht-daily/dice/v1|2026-12-01|yahtzee|12") == 41
        assert "the 41 bytes `yacht-daily/dice/v1|2026-12-01|yahtzee|12`" in DOC
        assert len(b"yacht-daily/chain/v1") == 20 and "(20 ASCII bytes)" in DOC


def _imported_modules(path: Path) -> set[str]:
    """The top-level names of the absolute imports of one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


class TestStandardLibraryOnly:
    """The core imports nothing but the standard library and itself."""

    @pytest.mark.parametrize(
        "module", sorted((ROOT / "fairness").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
    )
    def test_imports(self, module):
        outside = _imported_modules(module) - set(sys.stdlib_module_names) - {"fairness"}
        assert not outside, f"{module.name} imports {outside}"
