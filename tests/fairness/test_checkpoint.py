"""Checkpoints and signed notes read strictly: what the format says is read back to the same
bytes, anything else is a LedgerError naming what is wrong."""

import base64

import pytest

from fairness import checkpoint as tlog
from fairness import note as notes
from fairness.errors import LedgerError

KEY = bytes(range(32))
ORIGIN = tlog.origin(KEY.hex(), "2026-12-02", "yahtzee")
CLOSE = tlog.Checkpoint(ORIGIN, 3, bytes(range(32)), "2026-12-02T13:00:00Z", bytes(32),
                        tlog.Close(4, bytes(32)))


def test_a_checkpoint_reads_back_to_itself():
    body = CLOSE.body()
    assert body.startswith(f"{ORIGIN}\n3\n{base64.b64encode(bytes(range(32))).decode()}\n"
                           "time 2026-12-02T13:00:00Z\nprev AAAA")
    assert tlog.parse_checkpoint(body) == CLOSE
    opened = tlog.Checkpoint(ORIGIN, 0, bytes(32), "2026-12-01T10:00:00Z", bytes(32))
    assert tlog.parse_checkpoint(opened.body()) == opened


@pytest.mark.parametrize("bad", [
    "", "no newline", CLOSE.body().replace("\n3\n", "\n03\n"),
    CLOSE.body().replace("\n3\n", "\n-3\n"), CLOSE.body().replace("yahtzee", "Yahtzee"),
    CLOSE.body().replace("T13:00:00Z", "T24:00:00Z"), CLOSE.body().replace("prev ", "prev  "),
    CLOSE.body().replace("close 4", "close 04"), CLOSE.body() + "extra\n",
    CLOSE.body().replace("=\n", "\n", 1), CLOSE.body().replace("2026-12-02/", "2026-02-30/"),
])
def test_anything_else_is_refused(bad):
    with pytest.raises(LedgerError):
        tlog.parse_checkpoint(bad)


def test_a_note_and_its_signatures():
    signature = notes.NoteSignature("a.example/log", b"\x01\x02\x03\x04", b"s" * 64)
    note = notes.format_note("hello\n\nworld\n", [signature, signature])
    assert note.endswith("\n\u2014 a.example/log " + base64.b64encode(
        b"\x01\x02\x03\x04" + b"s" * 64).decode() + "\n")
    assert notes.parse_note(note) == ("hello\n\nworld\n", [signature, signature])


@pytest.mark.parametrize("bad", [
    "text\n", "text\n\n", "text\n\n\u2014 name AAAAAA==\n", "text\n\n- name AAAAAAAA\n",
    "text\n\n\u2014 na+me AAAAAAAA\n", "te\x01xt\n\n\u2014 name AAAAAAAA\n",
    "text\n\n\u2014 name AAAAAAAA", "text\n\n\u2014 name AAAA\n",
])
def test_bad_notes_are_refused(bad):
    with pytest.raises(LedgerError):
        notes.parse_note(bad)


def test_vkeys_round_trip_and_check_their_key_id():
    key = notes.VerifierKey("witness.example/w1", notes.COSIGNATURE_V1, KEY)
    assert notes.parse_vkey(key.text()) == key
    name, ident, encoded = key.text().split("+", 2)
    with pytest.raises(LedgerError):
        notes.parse_vkey(f"{name}+00000000+{encoded}")
    assert ident == key.key_id.hex()


def test_a_cosignature_payload():
    payload = tlog.cosignature_payload(1_700_000_000, b"x" * 64)
    assert tlog.read_cosignature(payload) == (1_700_000_000, b"x" * 64)
    with pytest.raises(LedgerError):
        tlog.read_cosignature(payload[:-1])
    assert tlog.cosigned_message("a\n", 5) == b"cosignature/v1\ntime 5\na\n"


def test_only_newline_ends_a_signature_line():
    """U+2028 or U+0085 inside a signature line do not split it (as in fairness.js)."""
    with pytest.raises(LedgerError):
        notes.parse_note("text\n\n\u2014 na\u2028me AAAAAAAA\n")
