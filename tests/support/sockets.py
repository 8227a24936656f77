"""A game's socket (``GET /v1/games/{id}/socket``) from a test: a client on
simple-websocket's (the library the server speaks through, on wsproto's
framing), which keeps every message the server sends in order, answers
and stream messages apart, counts the heartbeats (empty messages) and tells
how the connection was closed."""
from __future__ import annotations

import json
from typing import Any, Callable

from simple_websocket import Client, ConnectionClosed

from tests.support.patience import PATIENCE


def socket_url(server_url: str, game_id: str) -> str:
    return server_url.replace("http://", "ws://", 1) + f"/v1/games/{game_id}/socket"


class GameSocket:
    """One connection to a game's socket: ``hello`` first, then ``command``
    and ``say`` (each waits for its answer), while the stream's messages
    gather in ``streamed``."""

    def __init__(self, server_url: str, game_id: str):
        self.ws = Client.connect(socket_url(server_url, game_id))
        self.streamed: list[dict] = []  # the stream's messages, in order
        self.answers: list[dict] = []  # answers and problems not yet taken
        self.closed: tuple[int, str | None] | None = None  # the close's code and reason, once closed
        self.heartbeats = 0  # empty messages
        self._next_id = 0

    def hello(self, token: str | None = None, last_event_id: Any = None, data: str = "view") -> None:
        self.send({"type": "hello", "token": token, "last_event_id": last_event_id, "data": data})

    def send(self, message: Any) -> None:
        self.raw(json.dumps(message))

    def raw(self, frame: str | bytes) -> None:
        self.ws.send(frame)

    def command(self, body: dict, **fields: Any) -> dict:
        """``body`` sent as a command (``fields``: ``if_match``,
        ``idempotency_key``); its answer or problem message."""
        self._next_id += 1
        self.send({"type": "command", "id": self._next_id, "body": body, **fields})
        return self.answer(self._next_id)

    def say(self, text: str) -> dict:
        self._next_id += 1
        self.send({"type": "chat", "id": self._next_id, "text": text})
        return self.answer(self._next_id)

    def answer(self, message_id: int | None) -> dict:
        """The answer (or problem) to the message ``message_id``."""
        answer = self.until(
            lambda: next((a for a in self.answers if a["id"] == message_id), None), f"the answer to message {message_id}"
        )
        self.answers.remove(answer)
        return answer

    def until(self, condition: Callable[[], Any], what: str) -> Any:
        """Reads messages until ``condition()`` holds (or the connection
        closes, which fails unless the condition holds then); ``PATIENCE``
        at most for each message."""
        while not (held := condition()):
            assert self.closed is None, f"the socket closed {self.closed} before {what}"
            self._read(what)
        return held

    def until_closed(self) -> tuple[int, str | None]:
        """Every message up to the close; the close's code and reason."""
        while self.closed is None:
            self._read("the close")
        return self.closed

    def _read(self, what: str) -> None:
        try:
            text = self.ws.receive(timeout=PATIENCE)
        except ConnectionClosed:
            self.closed = (self.ws.close_reason, self.ws.close_message)
            return
        assert text is not None, f"nothing from the socket within {PATIENCE:.0f} s, waiting for {what}"
        if text == "":
            self.heartbeats += 1
            return
        message = json.loads(text)
        (self.answers if message["event"] in ("answer", "problem") else self.streamed).append(message)

    def views(self) -> list[dict]:
        return [m for m in self.streamed if m["event"] == "view"]

    def close(self) -> None:
        try:
            self.ws.close()
        except ConnectionClosed:
            pass
