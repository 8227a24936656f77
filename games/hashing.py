"""Stable JSON text and its hash: what commitments and the log's hash chain
are computed over, so that anyone holding the JSON recomputes them."""
from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    """``value`` as compact JSON with sorted keys, in the form a reader of
    that JSON gets back: tuples as lists and keys as strings, sorted as
    strings (a round trip first, since ``{2: .., 10: ..}`` sorts otherwise)."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return json.dumps(json.loads(text), separators=(",", ":"), sort_keys=True)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
