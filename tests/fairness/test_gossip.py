"""The checkpoint fingerprint and the share text's gossip line (FAIRNESS.md, "Gossip:
fingerprints in share texts"): the documented vector, every body change seen, strict parsing."""

import base64
import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairness import gossip
from fairness.errors import LedgerError

VECTORS = json.loads((Path(__file__).resolve().parents[1] / "vectors.json").read_text())
BODY = VECTORS["tlog"]["checkpoint"]["body"]
FINGERPRINT = "2 VFOJ-F4DH-7QFX-BYV3-F7XI"


def test_the_documented_vector():
    """The vectors' first yahtzee checkpoint of 2026-12-02 has FAIRNESS.md's fingerprint, and
    that is base32 of its SHA-256 computed here from the definition."""
    code = base64.b32encode(hashlib.sha256(BODY.encode()).digest()).decode()[:20]
    assert gossip.fingerprint(BODY) == FINGERPRINT == "2 " + "-".join(
        code[i:i + 4] for i in range(0, 20, 4))
    line = gossip.gossip_line(BODY)
    assert line.text() == "log 2026-12-02/yahtzee 2 VFOJ-F4DH-7QFX-BYV3-F7XI"
    assert line.size == 2
    vector = VECTORS["tlog"]["gossip"]
    assert vector == {"body_sha256": hashlib.sha256(BODY.encode()).hexdigest(),
                      "base32": base64.b32encode(hashlib.sha256(BODY.encode()).digest()).decode(),
                      "fingerprint": FINGERPRINT, "line": line.text()}


def test_the_line_is_found_in_a_pasted_share_text():
    """Anywhere in the text, in any language's share text, with spaces or line breaks
    around it."""
    text = ("Yacht Daily 2026-12-02 - Yahtzee - 245 points\n13 cases : 11 marquées\n"
            "  log 2026-12-02/yahtzee 2 VFOJ-F4DH-7QFX-BYV3-F7XI\nhttps://example.org/\n")
    assert gossip.find_gossip_line(text) == gossip.gossip_line(BODY)


@pytest.mark.parametrize("text", [
    "", "log 2026-12-02/yahtzee 2 VFOJ-F4DH-7QFX-BYV3",
    "log 2026-12-02/yahtzee 02 VFOJ-F4DH-7QFX-BYV3-F7XI",
    "log 2026-12-02/Yahtzee 2 VFOJ-F4DH-7QFX-BYV3-F7XI",
    "log 2026-12-02/yahtzee 2 vfoj-f4dh-7qfx-byv3-f7xi",
    "log 2026-12-02/yahtzee 2 VFOJ-F4DH-7QFX-BYV3-F7X1",
    "xlog 2026-12-02/yahtzee 2 VFOJ-F4DH-7QFX-BYV3-F7XI",
    "log 2026-12-02/yahtzee 2 VFOJ-F4DH-7QFX-BYV3-F7XIA",
])
def test_anything_else_is_no_gossip_line(text):
    """A shortened, padded, lowercased or glued fingerprint is not one."""
    with pytest.raises(LedgerError):
        gossip.find_gossip_line(text)


def test_only_a_checkpoint_body_has_a_fingerprint():
    """A note (body and signatures) or a changed line is refused, not fingerprinted."""
    with pytest.raises(LedgerError):
        gossip.fingerprint(VECTORS["tlog"]["checkpoint"]["note"])
    with pytest.raises(LedgerError):
        gossip.fingerprint(BODY.replace("\n2\n", "\n02\n"))


@given(st.integers(min_value=0, max_value=2**53 - 1), st.binary(min_size=32, max_size=32))
def test_another_size_or_root_is_another_fingerprint(size, root):
    """A checkpoint of another size or root (a fork) has another fingerprint."""
    lines = BODY.split("\n")
    other = "\n".join([lines[0], str(size), base64.b64encode(root).decode(), *lines[3:]])
    if other != BODY:
        assert gossip.fingerprint(other) != FINGERPRINT
        assert gossip.matches(gossip.find_gossip_line(gossip.gossip_line(BODY).text()),
                              [other]) is False
