"""Our gunicorn workers' answers (service/runtime/gunicorn_workers.py): an
answer's head and body go out in one send, byte for byte what gunicorn's own
response sends in two; a stream (chunked) and an answer without a body go as
gunicorn sends them. Real sockets (a socket pair), counting their sends."""
from __future__ import annotations

import socket

import pytest
from gunicorn.config import Config as GunicornConfig
from gunicorn.http.parser import RequestParser
from gunicorn.http.wsgi import Response

from service.runtime.gunicorn_workers import OneSendResponse, http_date


class CountingSocket(socket.socket):
    """A real socket that counts its sendall calls."""

    sends = 0

    def sendall(self, data, *args):
        self.sends += 1
        return super().sendall(data, *args)


def pair() -> tuple[CountingSocket, socket.socket]:
    server, client = socket.socketpair()
    counting = CountingSocket(server.family, server.type, fileno=server.detach())
    return counting, client


def request(method: str = "GET") -> object:
    raw = f"{method} /v1/games/x/view HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()
    return next(iter(RequestParser(GunicornConfig(), iter([raw]), ("127.0.0.1", 5000))))


def answer(response_class, method: str, status: str, headers: list, chunks: list[bytes]) -> tuple[bytes, int]:
    """What ``response_class`` puts on the wire for the answer, with its
    ``Date`` line left out, and how many sends it took."""
    sock, peer = pair()
    try:
        response = response_class(request(method), sock, GunicornConfig())
        response.start_response(status, headers)
        for chunk in chunks:
            response.write(chunk)
        response.close()
        sock.shutdown(socket.SHUT_WR)
        received = b""
        while data := peer.recv(65536):
            received += data
    finally:
        sock.close()
        peer.close()
    lines = [line for line in received.split(b"\r\n") if not line.startswith(b"Date: ")]
    return b"\r\n".join(lines), sock.sends


BODY = b'{"version": 12, "seat": 0, "hand": ["r-1", "b-7"]}'


@pytest.mark.parametrize(
    "method,status,headers,chunks,sends",
    [
        ("GET", "200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(BODY)))], [BODY], (1, 2)),
        ("GET", "200 OK", [("Content-Length", str(len(BODY)))], [BODY[:10], BODY[10:]], (2, 3)),
        ("GET", "200 OK", [("Content-Length", "5")], [BODY], (1, 2)),  # never past Content-Length
        ("GET", "201 CREATED", [("Content-Length", "0")], [b""], (1, 1)),  # the head alone either way
    ],
    ids=["one body", "two parts", "cut to its length", "empty"],
)
def test_an_answer_with_a_length_goes_in_one_send_less_and_says_what_gunicorn_says(method, status, headers, chunks, sends):
    ours, our_sends = answer(OneSendResponse, method, status, headers, chunks)
    theirs, their_sends = answer(Response, method, status, headers, chunks)
    assert ours == theirs
    assert (our_sends, their_sends) == sends


@pytest.mark.parametrize(
    "method,status,headers,chunks",
    [
        ("GET", "200 OK", [("Content-Type", "application/x-ndjson")], [b'{"a": 1}\n', b'{"a": 2}\n']),  # chunked
        ("HEAD", "200 OK", [("Content-Length", str(len(BODY)))], [BODY]),
        ("GET", "304 NOT MODIFIED", [("ETag", '"12"')], [b""]),
    ],
    ids=["a stream", "HEAD", "304"],
)
def test_a_stream_and_an_answer_without_a_body_go_as_gunicorn_sends_them(method, status, headers, chunks):
    ours, our_sends = answer(OneSendResponse, method, status, headers, chunks)
    theirs, their_sends = answer(Response, method, status, headers, chunks)
    assert ours == theirs and our_sends == their_sends


def test_the_date_is_gunicorns_made_once_a_second():
    from gunicorn import util

    assert http_date() == http_date()
    assert http_date(1_700_000_000) == "Tue, 14 Nov 2023 22:13:20 GMT"
    assert http_date()[-4:] == " GMT" and abs(len(http_date()) - len(util.http_date(1_700_000_000))) == 0


def test_a_killed_workers_replacement_boots_after_another_worker_died(redis_server, tmp_path):
    """gunicorn replaces a worker killed with SIGKILL, and the replacement
    of the next one killed boots too: the master's hook for a dead worker
    must not import the project's metrics, which every worker forked after
    it imports anew (a second registration: it failed to boot, and gunicorn
    stopped)."""
    import os
    import signal

    import psutil

    from tests.support.patience import until
    from tests.support.stack import ApiServer

    server = ApiServer(redis_server.url, tmp_path / "metrics")
    try:
        master = psutil.Process(server.process.pid)
        for _ in range(2):
            [first, *_] = workers = sorted(child.pid for child in master.children())
            assert len(workers) == 2
            os.kill(first, signal.SIGKILL)

            def replaced() -> bool:
                assert server.process.poll() is None, "gunicorn stopped"
                now = {child.pid for child in master.children()}
                return len(now) == 2 and first not in now

            until(replaced, "the killed worker replaced")
        until(lambda: server.metric("tabletell_open_streams", kind="stream") == 0 and server.process.poll() is None,
              "the new workers serving")
        assert server.process.poll() is None
    finally:
        server.stop()
