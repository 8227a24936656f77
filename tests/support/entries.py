"""What every entry of a log must be, checked by the conformance harness
(every game's entries) and the envelope's own tests."""
from __future__ import annotations

from games.hashing import canonical_json, sha256_hex


def entry_is_canonical(envelope) -> None:
    """An entry is encoded once (events/envelope.py), which is canonical
    only while its events' data has no key that is not a string: its
    stored JSON must be canonical_json's (which encodes, decodes and
    encodes again), and its hash the hash of that."""
    whole = envelope.whole()
    assert envelope.to_json() == canonical_json(whole), f"{envelope.type}: its data is not JSON as it stands"
    del whole["hash"]
    assert envelope.hash == sha256_hex(canonical_json(whole)) == envelope.digest()
