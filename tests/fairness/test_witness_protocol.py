"""The witness side of C2SP tlog-witness: request and answer bodies read strictly, and every
branch of a witness's decision, on a real log (fairness.merkle) signed with real Ed25519 keys."""

import base64

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairness import merkle
from fairness import witness_protocol as wp
from fairness.checkpoint import cosignature_payload, cosignature_time, cosigned_message
from fairness.note import COSIGNATURE_V1, ED25519, NoteSignature, VerifierKey, format_note
from tests.fairness.service_log_kit import verify

ORIGIN = "example.com/log42"
SPEC_EXAMPLE = (
    "old 20852014\n"
    "PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=\n"
    "jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=\n"
    "5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=\n"
    "/6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=\n"
    "\n"
    "example.com/behind-the-sofa\n"
    "20852163\n"
    "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
    "\n"
    "— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2"
    "q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n"
    "— example.com/behind-the-sofa opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks+49/V62"
    "67UEjw6QUXTS5Rovnzv++qbSzm9Q=\n"
)


def raw_public(private_key: Ed25519PrivateKey) -> bytes:
    """The 32 raw bytes of a key's public half."""
    return private_key.public_key().public_bytes(serialization.Encoding.Raw,
                                                 serialization.PublicFormat.Raw)


class Log:
    """A log of numbered leaves under one Ed25519 key, signing C2SP checkpoints."""

    def __init__(self, origin: str = ORIGIN, leaves: int = 20):
        self.origin = origin
        self.private_key = Ed25519PrivateKey.generate()
        self.key = VerifierKey(origin, ED25519, raw_public(self.private_key))
        self.hashes = [merkle.leaf_hash(f"leaf {i}".encode()) for i in range(leaves)]

    def root(self, size: int) -> bytes:
        return merkle.root(self.hashes[:size])

    def text(self, size: int, extensions: tuple[str, ...] = (), root: bytes | None = None) -> str:
        return wp.StandardCheckpoint(self.origin, size, root or self.root(size), extensions).body()

    def note(self, size: int, *, extensions=(), root=None, signer=None, name=None) -> str:
        text = self.text(size, extensions, root)
        private_key = signer or self.private_key
        key = VerifierKey(name or self.origin, ED25519, raw_public(private_key))
        return format_note(text, [NoteSignature(key.name, key.key_id,
                                                private_key.sign(text.encode()))])

    def proof(self, old: int, size: int) -> list[bytes]:
        return merkle.consistency_path(old, self.hashes[:size])

    def request(self, old: int, size: int, **note) -> wp.AddCheckpoint:
        return wp.AddCheckpoint(old, self.proof(old, size), self.note(size, **note))


@pytest.fixture
def log() -> Log:
    return Log()


def decide(log: Log, request: wp.AddCheckpoint, last=None, keys=None) -> wp.Decision:
    return wp.decide(request, keys if keys is not None else {log.origin: [log.key]}, last, verify)


# The bodies


def test_the_spec_example_request_reads_and_writes_back():
    request = wp.parse_add_checkpoint(SPEC_EXAMPLE.encode())
    assert request.old_size == 20852014
    assert [base64.b64encode(h).decode() for h in request.proof] == SPEC_EXAMPLE.split("\n")[1:5]
    assert request.checkpoint.startswith("example.com/behind-the-sofa\n20852163\n")
    assert wp.format_add_checkpoint(request) == SPEC_EXAMPLE.encode()
    signed = wp.read_signed_checkpoint(request.checkpoint)
    assert (signed.checkpoint.origin, signed.checkpoint.size) == ("example.com/behind-the-sofa",
                                                                  20852163)
    assert len(signed.signatures) == 2


def test_a_request_with_extension_lines_keeps_them_in_the_signed_text(log):
    request = log.request(3, 9, extensions=("ext one", "ext two"))
    read = wp.parse_add_checkpoint(wp.format_add_checkpoint(request))
    assert read == request
    signed = wp.read_signed_checkpoint(read.checkpoint)
    assert signed.checkpoint.extensions == ("ext one", "ext two")
    assert signed.text.endswith("\next one\next two\n")


def test_sixty_three_proof_lines_are_read_and_sixty_four_are_not(log):
    note = log.note(4)
    hashes = [bytes([i]) * 32 for i in range(64)]
    assert len(wp.parse_add_checkpoint(
        wp.format_add_checkpoint(wp.AddCheckpoint(1, hashes[:63], note))).proof) == 63
    body = "old 1\n" + "".join(base64.b64encode(h).decode() + "\n" for h in hashes) + "\n" + note
    with pytest.raises(wp.WitnessProtocolError, match="at most 63"):
        wp.parse_add_checkpoint(body.encode())


def _malformed(log: Log) -> list[bytes]:
    note = log.note(5)
    good_hash = base64.b64encode(bytes(32)).decode()
    text = log.text(5)
    return [
        b"",
        f"old 01\n\n{note}".encode(),
        f"old -1\n\n{note}".encode(),
        f"old  1\n\n{note}".encode(),
        f"Old 1\n\n{note}".encode(),
        f"old 1\n{note}".encode(),  # no empty line: the note's origin read as a proof line
        f"old 1\n{good_hash}\n".encode(),  # no empty line, no checkpoint
        f"old 1\n{good_hash[:-2]}B=\n\n{note}".encode(),  # non-canonical base64 (padding bits)
        f"old 1\n{base64.b64encode(bytes(31)).decode()}\n\n{note}".encode(),
        f"old 1\n{good_hash} \n\n{note}".encode(),
        f"old {2**63}\n\n{note}".encode(),
        f"old 1\n\n{text}".encode(),  # no signature
        f"old 1\n\n{note.replace(chr(10) + '5' + chr(10), chr(10) + '05' + chr(10))}".encode(),
        f"old 1\n\n{ORIGIN}\n5\n\n— {ORIGIN} AAAAAAAA\n".encode(),  # two lines
        f"old 1\n\n{text}\nextension\n\n— {ORIGIN} AAAAAAAA\n".encode(),  # an empty line
        b"old 1\n\n" + note.encode()[:-3] + b"\xff\n",
        b"old 1\n\n" + note.encode() + b"x" * wp.MAX_REQUEST_BYTES,
    ]


@pytest.mark.parametrize("index", range(17))
def test_a_malformed_request_is_refused_with_a_reason(log, index):
    with pytest.raises(wp.WitnessProtocolError) as raised:
        wp.parse_add_checkpoint(_malformed(log)[index])
    assert str(raised.value)


def test_the_size_body():
    assert wp.format_size(20852014) == b"20852014\n"
    assert wp.format_size(0) == b"0\n"
    assert wp.parse_size(b"20852014\n") == 20852014
    for bad in (b"", b"5", b"05\n", b"5\n\n", b" 5\n", b"-1\n", b"\xff\n"):
        with pytest.raises(wp.WitnessProtocolError):
            wp.parse_size(bad)
    assert wp.SIZE_CONTENT_TYPE == "text/x.tlog.size"


def test_the_cosignature_lines_read_back():
    lines = [NoteSignature("witness.example/w1", b"\x01\x02\x03\x04", bytes(72)),
             NoteSignature("witness.example/w2", b"\x05\x06\x07\x08", bytes(72))]
    text = wp.format_cosignature_lines(lines)
    assert text.count("\n") == 2 and text.startswith("— witness.example/w1 ")
    assert wp.parse_cosignature_lines(text) == lines
    for bad in ("", "\n", "— witness.example/w1 AAAA\n", text[:-1], "text\n\n" + text,
                text.replace("— ", "- ")):
        with pytest.raises(wp.WitnessProtocolError):
            wp.parse_cosignature_lines(bad)
    with pytest.raises(wp.WitnessProtocolError):
        wp.format_cosignature_lines([])


def test_a_cosignature_verifies_against_the_witness_key_only(log):
    witness = Ed25519PrivateKey.generate()
    key = VerifierKey("witness.example/w1", COSIGNATURE_V1, raw_public(witness))
    body = log.text(7, ("ext",))
    line = NoteSignature(key.name, key.key_id, cosignature_payload(
        1_700_000_000, witness.sign(cosigned_message(body, 1_700_000_000))))
    assert cosignature_time(key, body, line, verify) == 1_700_000_000
    assert cosignature_time(key, log.text(7), line, verify) is None
    other = VerifierKey("witness.example/w1", COSIGNATURE_V1, raw_public(log.private_key))
    assert cosignature_time(other, body, line, verify) is None
    truncated = NoteSignature(key.name, key.key_id, line.payload[:-1])
    assert cosignature_time(key, body, truncated, verify) is None


# The decision, branch by branch


def test_the_first_checkpoint_from_size_zero_is_cosigned(log):
    decision = decide(log, log.request(0, 5))
    assert (decision.outcome, decision.status) == (wp.COSIGN, 200)
    assert decision.checkpoint.checkpoint == wp.StandardCheckpoint(ORIGIN, 5, log.root(5))
    assert decision.checkpoint.text == log.text(5)


@pytest.mark.parametrize(("old", "size"), [(5, 9), (1, 20), (8, 16), (7, 7), (0, 0), (0, 1)])
def test_a_consistent_checkpoint_is_cosigned(log, old, size):
    last = (old, log.root(old)) if old else None
    assert decide(log, log.request(old, size), last).outcome == wp.COSIGN


def test_signatures_by_unknown_keys_are_ignored(log):
    request = log.request(0, 5)
    stranger = NoteSignature("witness.example/w9", b"abcd", bytes(72))
    also = NoteSignature(ORIGIN, b"wxyz", bytes(64))  # the log's name, another key ID
    note = request.checkpoint + stranger.line() + also.line()
    assert decide(log, wp.AddCheckpoint(0, [], note)).outcome == wp.COSIGN


def test_an_unknown_origin_is_404(log):
    other = Log("example.com/other")
    decision = decide(log, other.request(0, 5))
    assert (decision.outcome, decision.status) == (wp.UNKNOWN_ORIGIN, 404)
    assert not decision.is_evidence
    # known by name, but not with an Ed25519 note key
    cosigner = VerifierKey(ORIGIN, COSIGNATURE_V1, log.key.public_key)
    assert decide(log, log.request(0, 5), keys={ORIGIN: [cosigner]}).status == 404


def test_no_valid_signature_by_a_trusted_key_is_403(log):
    by_stranger = log.request(0, 5, signer=Ed25519PrivateKey.generate())
    decision = decide(log, by_stranger)
    assert (decision.outcome, decision.status) == (wp.FORBIDDEN, 403)
    text = log.text(5)
    forged = format_note(text, [NoteSignature(ORIGIN, log.key.key_id, bytes(64))])
    assert decide(log, wp.AddCheckpoint(0, [], forged)).status == 403
    short = format_note(text, [NoteSignature(ORIGIN, log.key.key_id, bytes(10))])
    assert decide(log, wp.AddCheckpoint(0, [], short)).status == 403
    # 403 comes before the size checks: a stale or too large old size is not even looked at
    assert decide(log, wp.AddCheckpoint(9, [], forged), (5, log.root(5))).status == 403


def test_a_failing_signature_by_one_trusted_key_fails_the_note(log):
    second = Ed25519PrivateKey.generate()
    second_key = VerifierKey(ORIGIN, ED25519, raw_public(second))
    good = log.note(5)
    bad = NoteSignature(ORIGIN, second_key.key_id, bytes(64))
    keys = {ORIGIN: [log.key, second_key]}
    assert decide(log, wp.AddCheckpoint(0, [], good + bad.line()), keys=keys).status == 403
    assert decide(log, wp.AddCheckpoint(0, [], log.note(5, signer=second)),
                  keys=keys).status == 200  # either trusted key alone is enough


def test_an_old_size_above_the_checkpoint_is_400(log):
    decision = decide(log, wp.AddCheckpoint(6, [], log.note(5)), (6, log.root(6)))
    assert (decision.outcome, decision.status) == (wp.OLD_SIZE_TOO_LARGE, 400)


def test_a_request_built_wrong_in_code_is_400(log):
    assert decide(log, wp.AddCheckpoint(0, [], log.text(5))).status == 400
    assert decide(log, wp.AddCheckpoint(-1, [], log.note(5))).status == 400
    assert decide(log, wp.AddCheckpoint(1, [b"short"], log.note(5))).status == 400


@pytest.mark.parametrize(("old", "last_size", "known"), [(0, 5, 5), (3, None, 0), (4, 5, 5),
                                                         (6, 5, 5)])
def test_an_old_size_other_than_the_last_cosigned_is_409_with_that_size(log, old, last_size,
                                                                        known):
    last = (last_size, log.root(last_size)) if last_size is not None else None
    decision = decide(log, log.request(old, 9), last)
    assert (decision.outcome, decision.status, decision.known_size) == (wp.STALE_OLD_SIZE, 409,
                                                                        known)
    assert not decision.is_evidence


def test_the_same_size_with_another_root_is_409_and_evidence(log):
    other_root = merkle.root([merkle.leaf_hash(b"x")] * 5)
    decision = decide(log, wp.AddCheckpoint(5, [], log.note(5, root=other_root)),
                      (5, log.root(5)))
    assert (decision.outcome, decision.status) == (wp.FORK, 409)
    assert decision.is_evidence and decision.known_size is None


def test_a_proof_that_does_not_verify_is_422_and_evidence(log):
    proof = log.proof(5, 9)
    broken = [proof[0][:-1] + bytes([proof[0][-1] ^ 1]), *proof[1:]]
    decision = decide(log, wp.AddCheckpoint(5, broken, log.note(9)), (5, log.root(5)))
    assert (decision.outcome, decision.status) == (wp.BAD_PROOF, 422)
    assert decision.is_evidence
    # a root the proof does not lead to (the log signed a history not extending size 5)
    other = Log()
    other.private_key, other.key = log.private_key, log.key
    other.hashes = [merkle.leaf_hash(b"other")] + log.hashes[1:]
    assert decide(log, other.request(5, 9), (5, log.root(5))).status == 422
    # too few hashes, a proof from size 0, a proof between equal trees
    assert decide(log, wp.AddCheckpoint(5, proof[:-1], log.note(9)),
                  (5, log.root(5))).status == 422
    assert decide(log, wp.AddCheckpoint(0, [bytes(32)], log.note(9))).status == 422
    assert decide(log, wp.AddCheckpoint(5, [bytes(32)], log.note(5)),
                  (5, log.root(5))).status == 422


def test_an_empty_tree_must_have_the_empty_root(log):
    assert decide(log, wp.AddCheckpoint(0, [], log.note(0, root=bytes(32)))).status == 422
    assert decide(log, wp.AddCheckpoint(0, [], log.note(0))).status == 200
