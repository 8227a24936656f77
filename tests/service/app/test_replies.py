"""The store's answers as text (``service.app.replies``), read from a real
server by the service's own kind of client (answers in bytes) and by one
that decodes its answers (str)."""
import pytest
import redis

from service.app import replies


@pytest.fixture(params=["bytes", "str"])
def client(request, redis_server, redis_client):
    if request.param == "bytes":
        yield redis_client
        return
    decoding = redis.Redis.from_url(redis_server.url, decode_responses=True)
    yield decoding
    decoding.close()


def test_a_sorted_sets_members_read_without_scores_are_text_in_the_ranges_order(client):
    client.zadd("players", {"b": 2, "a": 1, "é": 3})
    assert replies.members(client.zrange("players", 0, -1)) == ["a", "b", "é"]
    assert replies.members(client.zrevrange("players", 0, 1)) == ["é", "b"]
    assert replies.members(client.zrange("nobody", 0, -1)) == []


def test_a_streams_entries_are_their_ids_and_fields_as_text_in_the_ranges_order(client):
    first = replies.decoded(client.xadd("feed", {"e": '{"n": 1}'}))
    second = replies.decoded(client.xadd("feed", {"e": '{"n": "é"}'}))
    assert replies.entries(client.xrange("feed")) == [(first, {"e": '{"n": 1}'}), (second, {"e": '{"n": "é"}'})]
    assert replies.entries(client.xrevrange("feed", count=1)) == [(second, {"e": '{"n": "é"}'})]
    assert replies.entries(client.xrange("nothing")) == []
