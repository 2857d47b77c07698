"""Canonical JSON: the one encoding hashed and signed everywhere.

Keys sorted, no whitespace, UTF-8 with non-ASCII characters written as themselves, integers
only: exactly JavaScript's JSON.stringify of the key-sorted value, encoded in UTF-8.
"""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairness import canonical_json, digest, sha256_hex


class TestEncoding:
    """The bytes of a value, written out."""

    @pytest.mark.parametrize(
        ("value", "text"),
        [
            ({"b": 1, "a": [True, False, None]}, '{"a":[true,false,null],"b":1}'),
            ({"z": {"y": 2, "x": 1}, "a": []}, '{"a":[],"z":{"x":1,"y":2}}'),
            ({"name": "Élodie à Zürich"}, '{"name":"Élodie à Zürich"}'),
            ('quote " backslash \\ slash /', '"quote \\" backslash \\\\ slash /"'),
            ("line\nfeed\ttab\x01", '"line\\nfeed\\ttab\\u0001"'),
            ("emoji 🎲", '"emoji 🎲"'),
            (-9007199254740991, "-9007199254740991"),
            ([], "[]"),
            ({}, "{}"),
            ((1, 2), "[1,2]"),
        ],
    )
    def test_bytes(self, value, text):
        assert canonical_json(value) == text.encode("utf-8")

    def test_accents_are_utf8_not_escaped(self):
        assert canonical_json("é") == b'"\xc3\xa9"'

    def test_digest_is_sha256_of_the_bytes(self):
        assert digest({"a": 1}) == sha256_hex(b'{"a":1}')
        assert (
            digest({"a": 1}) == "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"
        )

    @given(
        st.recursive(
            st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(),
            lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
            max_leaves=20,
        )
    )
    def test_round_trips_with_sorted_keys(self, value):
        encoded = canonical_json(value)
        assert json.loads(encoded) == value
        assert canonical_json(json.loads(encoded)) == encoded

        def keys_in_order(pairs):
            keys = [key for key, _ in pairs]
            assert keys == sorted(keys)
            return dict(pairs)

        json.loads(encoded, object_pairs_hook=keys_in_order)


class TestRejected:
    """Values with no canonical form are refused, wherever they hide."""

    @pytest.mark.parametrize(
        "value",
        [1.5, 1.0, float("nan"), {"a": 0.1}, [1, [2, [3.0]]], {1: "int key"}, {"a": {2: "b"}}],
    )
    def test_floats_and_non_string_keys(self, value):
        with pytest.raises(TypeError):
            canonical_json(value)

    @given(
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text() | st.floats(),
            lambda inner: st.lists(inner) | st.tuples(inner, inner)
            | st.dictionaries(st.text(), inner),
            max_leaves=30,
        )
    )
    def test_refused_exactly_when_a_float_hides_inside(self, value):
        """The walk skips the leaves it knows (strings, ints, booleans, None) and still finds
        a float at any depth, in lists, tuples or objects."""

        def holds_float(item) -> bool:
            if isinstance(item, float):
                return True
            if isinstance(item, dict):
                return any(holds_float(inner) for inner in item.values())
            if isinstance(item, list | tuple):
                return any(holds_float(inner) for inner in item)
            return False

        if holds_float(value):
            with pytest.raises(TypeError):
                canonical_json(value)
        else:
            canonical_json(value)

    def test_a_float_subclass_is_a_float(self):
        class Points(float):
            """A float by another name."""

        with pytest.raises(TypeError):
            canonical_json({"a": [1, {"b": Points(2)}]})
