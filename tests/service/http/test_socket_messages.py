"""The socket's messages as the HTTP layer reads them
(``service/http/api/sockets.py``); the socket itself, on a real server, is
tests/service/realtime/test_socket.py's."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from service.app.errors import Invalid
from service.app.shapes import load
from service.http import schemas
from service.http.api.sockets import _well_formed, encode_frame
from service.realtime.streams import encode_ndjson

# values near and past every bound the command message has, of every JSON type
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([-1, 0, 1, 10**15 - 1, 10**15, 2**53, 2**53 + 1, 1.0, 1.5]),
    st.integers(),
    st.text(max_size=3),
    st.sampled_from(["", "k" * 128, "k" * 129, "command", "chat"]),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.lists(st.integers(), max_size=2),
)
FIELDS = st.sampled_from(["type", "id", "body", "if_match", "idempotency_key", "extra"])


@given(st.dictionaries(FIELDS, VALUES))
def test_a_command_message_the_quick_check_takes_is_one_the_schema_takes_as_it_is(message):
    if not _well_formed(message):
        return  # the schema decides it, and words any refusal
    loaded = load(schemas.SocketCommand, message)  # never refused
    assert loaded == {"if_match": None, "idempotency_key": None, **message}


WELL_FORMED = st.fixed_dictionaries(
    {"type": st.just("command"), "id": st.integers(0, 2**53), "body": st.dictionaries(st.text(), st.integers())},
    optional={
        "if_match": st.one_of(st.none(), st.integers(0, 10**15 - 1)),
        "idempotency_key": st.one_of(st.none(), st.text(min_size=1, max_size=128)),
    },
)


@given(WELL_FORMED)
def test_every_well_formed_command_message_is_taken_without_the_schema(message):
    assert _well_formed(message)
    try:
        load(schemas.SocketCommand, message)
    except Invalid as problem:  # pragma: no cover (the assertion says what)
        raise AssertionError(problem.extra) from None


def test_a_socket_frame_is_the_streams_ndjson_line():
    line = encode_ndjson("chat", "12.1", b'{"text":"hi"}', None)
    assert encode_frame("chat", "12.1", b'{"text":"hi"}', None) == ("chat", line.decode().rstrip("\n"))
    assert encode_frame(None, None, b"", None) is None  # a heartbeat: an empty message
