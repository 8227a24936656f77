"""An entry is encoded once when it is sealed (events/envelope.py): its
hash and its stored JSON come from the same members, and are what
canonical_json (encode, decode, encode again) gives, which is what a reader
of the log recomputes."""
from __future__ import annotations

import json

import pytest

from events.envelope import Envelope
from games.contract import Event
from games.hashing import canonical_json, sha256_hex
from tests.support.entries import entry_is_canonical


def sealed(public: dict, private: dict | None = None, prev_hash: str | None = "ab" * 32) -> Envelope:
    event = Event("played", public, private or {}, {"deck": ["r-1", "b-2"], "seed": "x"}, 1_700_000_000_123)
    return Envelope.wrap(event, 7, 1, "c-7", {"type": "play", "cards": ["r-1"]}, "player").chained(prev_hash)


def test_a_sealed_entry_is_stored_and_hashed_as_canonical_json_says():
    entry = sealed({"count": 2, "color": "red", "named": "Zoë \"the\" \\ bold"}, {1: {"hand": ["r-1"]}, 0: {"drew": []}})
    whole = entry.whole()
    assert entry.to_json() == canonical_json(whole)
    content = {key: value for key, value in whole.items() if key != "hash"}
    assert entry.hash == sha256_hex(canonical_json(content)) == entry.digest()
    entry_is_canonical(entry)


def test_what_is_read_back_verifies_and_is_handed_out_as_written():
    entry = sealed({"count": 2}, prev_hash=None)
    read = Envelope.from_json(entry.to_json())
    assert read == entry and read.digest() == entry.hash
    assert read.to_json() == entry.to_json()
    assert json.loads(read.to_json())["hash"] == entry.hash


def test_a_key_that_is_no_string_would_make_one_encoding_wrong_and_the_harness_says_so():
    """Why the conformance harness holds every game's events to JSON as it
    stands: with a number as a key, one encoding sorts 2 before 10, a
    reader sorts "10" before "2"."""
    entry = sealed({"by_seat": {2: "a", 10: "b"}})
    assert entry.to_json() != canonical_json(entry.whole())
    with pytest.raises(AssertionError, match="not JSON as it stands"):
        entry_is_canonical(entry)


def test_an_entry_changed_by_replace_is_stored_as_it_now_stands():
    """The stored JSON belongs to the sealed entry only: a copy changed by
    ``dataclasses.replace`` (a tampering test, an upcast) is encoded anew."""
    import dataclasses

    entry = sealed({"count": 2})
    changed = dataclasses.replace(entry, public={"count": 3})
    assert json.loads(changed.to_json())["public"] == {"count": 3}
    assert changed.to_json() == canonical_json(changed.whole())
