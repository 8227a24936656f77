"""The store's answers as the application reads them: text.

redis-py answers bytes (str on a client that decodes its answers), and types
some answers as every shape the command may take: a sorted set's range with
its scores or without, a stream's entries with the (None, None) that
XCLAIM answers for an entry deleted meanwhile. These take the shape the call
asked for and decode it, so the code past them holds str.
"""
from __future__ import annotations

from redis.typing import StreamRangeResponse, ZSetRangeResponse


def decoded(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def members(answer: ZSetRangeResponse) -> list[str]:
    """The members of a sorted set's range read without scores (ZRANGE,
    ZREVRANGE without ``withscores``)."""
    found = []
    for member in answer:
        assert isinstance(member, (bytes, str)), "a range read without scores answers its members alone"
        found.append(decoded(member))
    return found


def entries(answer: StreamRangeResponse | None) -> list[tuple[str, dict[str, str]]]:
    """A stream's range (XRANGE, XREVRANGE): each entry's id and fields, in
    the range's order. A range has an id and fields for every entry (only
    XCLAIM's answers hold None), and answers a list outside a pipeline."""
    assert answer is not None, "XRANGE answers a list (empty: no entries), outside a pipeline"
    found = []
    for entry_id, fields in answer:
        assert entry_id is not None and fields is not None, "a range reads whole entries"
        found.append((decoded(entry_id), {decoded(name): decoded(value) for name, value in fields.items()}))
    return found
