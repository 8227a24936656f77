"""A game over one WebSocket: ``GET /v1/games/{id}/socket``, a seat's (or a
spectator's) connection that carries the game's stream one way and the
seat's commands and table talk the other (docs/api.md, "The socket").

Why a second transport: over HTTP a move is a request (its parsing, Flask's
dispatch and hooks, the answer's head) wrapped round the command, some 290 us
of server CPU here before the command itself; on an open socket a command
is one frame in and one out, as boardgame.io's and Lichess's sites play.

What it shares with the rest, so a reader has one path to follow:

- out, exactly the messages of the game's stream: ``Realtime.stream`` makes
  them (the one code that decides what a reader sees), each the NDJSON line
  in one text frame (``encode_frame``); its heartbeat is an empty message, as
  the NDJSON stream's is an empty line (a page's WebSocket sees no pings, and
  a client must see the heartbeat to tell a quiet game from a dead link);
- in, a command goes to ``Commands.execute`` as ``POST .../commands`` sends
  it (the seat found again from its token for each, as for each request; the
  rate limits count it as the request it stands for), a chat message to the
  chat as ``POST .../chat`` says it; refusals are the same problems, mapped
  by the same error handlers (``problem_body``), sent as a ``problem``
  message. A connection refused as a whole (no hello in time, a malformed
  one, a wrong token, past the stream caps) gets its problem, then a close
  with code 4000 + the problem's status (4401 for a wrong token).

The transport is simple-websocket's server (wsproto's framing), given the
connection gunicorn's worker accepted (``gunicorn.socket``) once the upgrade
request has been answered by the app (``Upgraded``: its hooks, the access
log and the request metrics count the opening, as a stream's). Three
greenlets share the connection: simple-websocket's reader (frames in), the
request's own (each message in turn, answered before the next) and the
pusher (the stream's messages out). Every write goes through ``_Writes``:
whole (``sendall``: a plain ``send``, simple-websocket's, may send part of a
frame to a client that reads slowly), one at a time (the three share the
socket) and within ``WRITE_TIMEOUT_SECONDS`` (a client that stops reading
is dropped, as a stream's is).
"""
from __future__ import annotations

import base64
import binascii
import contextvars
import json
import logging
import socket
import threading
import time
from contextlib import nullcontext
from typing import Any

from flask import Blueprint, Response, current_app, g, request
from simple_websocket import ConnectionClosed, Server

from service.app.ids import token_hash
from service.app.errors import Invalid, invalid_fields
from service.http import schemas
from service.http.api.chat import say_as
from service.http.api.common import json_object
from service.http.api.streams import resumable
from service.http.current import services
from service.http.problems import Problem
from service.realtime.streams import WRITE_TIMEOUT_SECONDS, encode_ndjson
from service.wiring import Services

try:  # gevent is the API's worker class; elsewhere writes are not timed
    import gevent
    from gevent import monkey
except ImportError:  # pragma: no cover
    gevent = None
    monkey = None

log = logging.getLogger("tabletell.sockets")

bp = Blueprint("sockets", __name__)

# a message past this closes the connection (1009, simple-websocket's
# refusal, before the message is held whole); one past MAX_BODY_BYTES but
# within this is answered 413 body_too_large, and the connection goes on
MESSAGE_HARD_CAP = 1024 * 1024
# after its close frame, how long the server waits for the client's before
# it closes the connection (a close with unread input resets it)
CLOSE_LINGER_SECONDS = 1.0
# the WebSocket close codes (docs/api.md, "The socket")
NORMAL = 1000  # the game is over: its `finished` was sent, and the client has since been quiet
GOING_AWAY = 1001  # the stream ended without it (the server stops, the store went): resume
REFUSED = 4000  # + the status of the problem that refused the connection (4401: a wrong token)


def problem_body(error: Exception) -> dict[str, Any]:
    """The problem+json body the HTTP layer answers ``error`` with (its
    error handlers, ``service.http.app``: one mapping for requests and
    socket messages), with the connection's ``request_id`` and, where the
    answer would carry ``Retry-After``, its seconds as ``retry_after``."""
    response = current_app.handle_user_exception(error)
    body = json.loads(response.get_data())
    body["request_id"] = g.request_id
    retry_after = response.headers.get("Retry-After", "")
    if retry_after.isdigit():
        body["retry_after"] = int(retry_after)
    return body


def encode_frame(kind: str | None, version: int | str | None, data: bytes, retry: int | None) -> tuple[str, str] | None:
    """A stream message (``Realtime.stream``'s ``encode``) as the socket
    sends it: its kind, and the NDJSON line less its newline, for one text
    frame. A heartbeat (``kind`` None) is None: an empty message."""
    if kind is None:
        return None
    return kind, encode_ndjson(kind, version, data, retry)[:-1].decode()


def message(kind: str, message_id: int | None, data: Any) -> str:
    """An answer to a client's message, shaped as a stream's:
    ``{"event": "answer" | "problem", "id": <the message's>, "data": ...}``."""
    return json.dumps({"event": kind, "id": message_id, "data": data}, separators=(",", ":"))


def _write_deadline():
    """A bound on one write to the client: WRITE_TIMEOUT_SECONDS, raised as
    TimeoutError (an OSError, which every writer takes for a client gone)."""
    if gevent is not None and monkey.is_module_patched("socket"):
        return gevent.Timeout(WRITE_TIMEOUT_SECONDS, TimeoutError("the client took no write for a while"))
    return nullcontext()  # threads (WEB_WORKER_CLASS=gthread): untimed


class _Writes:
    """The connection's socket as simple-websocket writes to it: each write
    whole, one at a time, within WRITE_TIMEOUT_SECONDS; past that the
    connection is shut down, which ends its reader and every writer. The
    rest (``recv``, ``close``...) is the socket's own."""

    def __init__(self, sock: socket.socket):
        self._sock = sock
        self._lock = threading.Lock()

    def send(self, data: bytes) -> int:
        with self._lock:
            sent = self._at_once(data)
            if sent < len(data):  # the client's buffer is full: wait, within the deadline
                try:
                    with _write_deadline():
                        self._sock.sendall(memoryview(data)[sent:])
                except TimeoutError:
                    try:
                        self._sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    raise
        return len(data)

    def _at_once(self, data: bytes) -> int:
        """What the kernel takes of ``data`` now, without waiting (under
        gevent, from its socket's own non-blocking one, as
        ``service.realtime.client`` watches it): almost always all of it, and
        then the write costs no timer."""
        raw = getattr(self._sock, "_sock", None)
        if raw is None:
            return 0
        try:
            return raw.send(data)
        except (BlockingIOError, InterruptedError):
            return 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class GameSocket(Server):
    """simple-websocket's server side of one connection, writing through
    ``_Writes``. No compression is offered back (permessage-deflate): a
    message is a view of a kilobyte or two, and deflating each costs more
    server CPU than the bytes it saves, as with the streams, which are not
    compressed either."""

    def __init__(self, environ: dict):
        environ = {name: value for name, value in environ.items() if name != "HTTP_SEC_WEBSOCKET_EXTENSIONS"}
        super().__init__(environ, max_message_size=MESSAGE_HARD_CAP)

    def handshake(self) -> None:  # simple-websocket's, on the guarded socket (it sends the 101)
        self.sock = _Writes(self.sock)
        super().handshake()

    def close(self, reason: int | None = None, message: str | None = None) -> None:
        """simple-websocket's close, which also wakes a ``receive`` waiting
        (it would wait for the client's close frame, which may never come)."""
        try:
            super().close(reason, message)
        finally:
            self.event.set()


class Session:
    """One connection's life: the hello, then the stream pushed out while
    the client's messages are answered one at a time, in order."""

    ws: GameSocket  # the connection, once ``run`` has answered the upgrade

    def __init__(self, svc: Services, game_id: str, address: str | None):
        self.svc = svc
        self.game_id = game_id
        self.address = address
        self.limits = current_app.extensions.get("tabletell.ratelimits")  # None: RATE_LIMITS=off
        self.max_bytes = current_app.config["MAX_CONTENT_LENGTH"]
        self.token: str | None = None  # the hello's: a seat's token or a player key; None, a spectator
        # after the game's `finished` the connection stays open while the
        # client still talks (a command sent again after a drop as the game
        # ended, table talk after the end): the pusher closes it once the
        # client has been quiet for a heartbeat's interval (``_linger``)
        self._state = threading.Lock()
        self._answering = False
        self._heard_at = 0.0  # time.monotonic() when the last message was answered
        self._closing = False
        self._served = threading.Event()  # the client's side is over: the pusher stops lingering

    # -- the connection ------------------------------------------------------

    def run(self, environ: dict) -> None:
        self.ws = GameSocket(environ)  # the 101
        try:
            try:
                seat, mode, after, waiter = self._hello()
            except ConnectionClosed:
                return
            except Exception as error:  # the connection refused: its problem, then the close
                body = problem_body(error)
                self._send(message("problem", None, body))
                self._close(REFUSED + body["status"], body["code"])
                return
            pusher = threading.Thread(
                target=contextvars.copy_context().run, args=(self._push, waiter, seat, mode, after), daemon=True
            )
            pusher.start()
            try:
                self._serve()
            finally:
                waiter.watch.client_gone()  # the stream ends, if it has not
                self._served.set()
                pusher.join()
                waiter.close()  # the stream's own close did it, unless it was left mid-way
        finally:
            self._close(GOING_AWAY, "going away")
            self.ws.thread.join(CLOSE_LINGER_SECONDS)  # the client's close frame, before gunicorn closes the socket

    def _hello(self):
        """The first message: who is there, what they read, from where; then
        the waiter that holds the stream's place under the caps."""
        seconds = self.svc.config.first_request_seconds
        text = self.ws.receive(timeout=seconds)
        if text is None:
            raise Problem(408, "request_timeout", f"No hello within {seconds:g} s of connecting: send it first.")
        hello = schemas.load(schemas.SocketHello, self._parse(text), "message")
        self.token = hello["token"]
        if self.limits is not None and self.token is not None:
            self.limits.count(None, self.token)  # the upgrade counted the address; the hello, the token
        seat = self._seat(required=False)
        after = hello["last_event_id"]
        waiter = self.svc.realtime.open(
            "socket", self.game_id, token_hash(self.token) if seat is not None else None, self.address, None
        )
        try:
            # read once subscribed: the stream's first turn trusts this read
            # (an append since is announced), so the opening reads the log
            # once (the upgrade's check read none where the game is followed)
            resumable(self.svc.realtime, self.game_id, seat, after)
        except Exception:
            waiter.close()
            raise
        return seat, hello["data"], after, waiter

    def _push(self, waiter, seat: int | None, mode: str, after: tuple[int, int] | None) -> None:
        """The pusher: the game's stream, frame by frame, then the close
        (after ``finished``, once the client is quiet: ``_linger``)."""
        ending = (GOING_AWAY, "going away")  # ended without `finished`: the client resumes
        finished = False
        try:
            for frame in self.svc.realtime.stream(waiter, self.game_id, seat, mode, after, encode_frame):
                if frame is None:
                    self.ws.send("")  # the heartbeat
                    continue
                kind, text = frame
                self.ws.send(text)
                finished = kind == "finished"  # the last: the stream then ends, its lease released
            if finished:
                return self._linger()
        except (ConnectionClosed, OSError):
            return  # the client is gone
        except Exception as error:  # the game went meanwhile (a deleted abandoned game), or a bug
            body = problem_body(error)
            ending = (REFUSED + body["status"], body["code"])
            self._send(message("problem", None, body))
        self._close(*ending)

    def _linger(self) -> None:
        """After ``finished``: the client's messages still answered (the
        game's are refused: it is over), the connection closed (1000) once
        the client has sent nothing for a heartbeat's interval."""
        quiet = self.svc.realtime.heartbeat_seconds
        since = time.monotonic()
        while True:
            with self._state:
                left = max(since, self._heard_at) + quiet - time.monotonic()
                if left <= 0 and not self._answering and not self.ws.input_buffer:
                    self._closing = True
                    break
            if self._served.wait(left if left > 0 else quiet):
                return  # the client closed it first
        self._close(NORMAL, "finished")

    def _serve(self) -> None:
        """Each message in turn, answered before the next is read, until
        the connection closes."""
        while True:
            try:
                text = self.ws.receive()
            except ConnectionClosed:
                return
            with self._state:
                if self._closing:
                    return
                self._answering = True
            try:
                self._send(self._answer(text))
            finally:
                with self._state:
                    self._answering = False
                    self._heard_at = time.monotonic()

    def _send(self, text: str) -> None:
        try:
            self.ws.send(text)
        except (ConnectionClosed, OSError):
            pass  # the client is gone: its reader ends the session

    def _close(self, code: int, reason: str) -> None:
        try:
            self.ws.close(code, reason)
        except (ConnectionClosed, OSError):
            pass  # closed already

    # -- the client's messages --------------------------------------------------

    def _answer(self, text: str | bytes) -> str:
        """A message's answer: ``answer`` with what the request it stands for
        would answer, or ``problem`` with the problem it would."""
        message_id = None
        try:
            sent = self._parse(text)
            given = sent.get("id")
            if isinstance(given, int) and not isinstance(given, bool) and schemas.MESSAGE_ID.min <= given <= schemas.MESSAGE_ID.max:
                message_id = given  # echoed even when the rest is refused
            kind = sent.get("type")
            if kind == "command":
                return message("answer", message_id, self._command(sent))
            if kind == "chat":
                return message("answer", message_id, self._chat(sent))
            raise invalid_fields({"type": ["Must be one of: command, chat."]}, "message")
        except Exception as error:
            return message("problem", message_id, problem_body(error))

    def _parse(self, text: str | bytes) -> dict[str, Any]:
        """A message as one JSON object (as a request's body is read)."""
        if not isinstance(text, str):
            raise Invalid("invalid_json", "Send each message as a text frame of JSON (this one is binary).")
        if len(text) > self.max_bytes:
            raise Problem(413, "body_too_large", f"A message is larger than {self.max_bytes} bytes.")
        return json_object(text, "message")

    def _command(self, sent: dict[str, Any]) -> dict[str, Any]:
        command = sent if _well_formed(sent) else schemas.load(schemas.SocketCommand, sent, "message")
        self._count()
        seat = self._seat(required=True)
        outcome = self.svc.commands.execute(
            self.game_id, seat, command["body"], command.get("if_match"), command.get("idempotency_key")
        )
        return {"version": outcome.version, "events": outcome.events}

    def _chat(self, sent: dict[str, Any]) -> dict[str, Any]:
        said = schemas.load(schemas.SocketChat, sent, "message")
        self._count()
        return say_as(self.svc, self.game_id, self._seat(required=False), said["text"], self.address)

    def _seat(self, required: bool) -> int | None:
        """The hello's token's seat, found again for each message as for each
        request (a deleted player's token stops working at once)."""
        header = f"Bearer {self.token}" if self.token is not None else None
        return self.svc.seats.seat(self.game_id, header, required)

    def _count(self) -> None:
        if self.limits is not None:
            self.limits.count(self.address or "unknown", self.token)


COMMAND_FIELDS = frozenset(schemas.SocketCommand().fields)


def _well_formed(sent: dict[str, Any]) -> bool:
    """Whether a command message is one ``schemas.SocketCommand`` takes as it
    is, told without loading it: the schema is left for the messages it
    refuses (it words the refusal) and the rare ones this does not know, so
    that a command costs one schema load, its body's (issue 51's aim; the
    socket's own load cost more than the rest of the message's way in).
    Never true of a message the schema would refuse."""
    message_id, if_match, key = sent.get("id"), sent.get("if_match"), sent.get("idempotency_key")
    return (
        sent.keys() <= COMMAND_FIELDS
        and sent.get("type") == "command"
        and type(message_id) is int
        and schemas.MESSAGE_ID.min <= message_id <= schemas.MESSAGE_ID.max
        and type(sent.get("body")) is dict
        and (if_match is None or (type(if_match) is int and schemas.IF_MATCH.min <= if_match <= schemas.IF_MATCH.max))
        and (key is None or (type(key) is str and schemas.KEY_LENGTH.min <= len(key) <= schemas.KEY_LENGTH.max))
    )


class Upgraded(Response):
    """The app's answer to the upgrade: 101, and the connection handed to
    its session once the request's hooks have run (so the access log and the
    request metrics count the opening, as a stream's, not the connection's
    whole life). gunicorn is then told the connection is done with (by
    StopIteration, as flask-sock tells it) and closes it."""

    def __init__(self, session: Session):
        super().__init__(status=101)
        self.session = session

    def __call__(self, environ, start_response):
        try:
            self.session.run(environ)
        except Exception:  # a bug: logged, and the connection closed
            log.exception("the socket of game %s failed", self.session.game_id)
        raise StopIteration


def handshake_problem() -> Problem | None:
    """What is wrong with this request as a WebSocket opening handshake
    (RFC 6455, 4.2.1), if anything: 426 ``websocket_required``."""
    headers = request.headers
    connection = {part.strip().lower() for part in headers.get("Connection", "").split(",")}
    key = headers.get("Sec-WebSocket-Key", "")
    try:
        keyed = len(base64.b64decode(key, validate=True)) == 16
    except (binascii.Error, ValueError):
        keyed = False
    if (
        headers.get("Upgrade", "").lower() == "websocket"
        and "upgrade" in connection
        and headers.get("Sec-WebSocket-Version") == "13"
        and keyed
        and "gunicorn.socket" in request.environ  # a server that hands its connection over
    ):
        return None
    return Problem(
        426,
        "websocket_required",
        "This route is a WebSocket: open it with GET, 'Upgrade: websocket', 'Connection: Upgrade', "
        "'Sec-WebSocket-Version: 13' and a Sec-WebSocket-Key (a browser's or a library's WebSocket does).",
        headers={"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13"},
    )


# werkzeug routes a request that asks for a WebSocket ('Connection: Upgrade',
# 'Upgrade: websocket') only to a rule marked for one, and any other
# request only to a rule that is not: both, to one view, so a plain GET is
# told what the route wants (426) rather than werkzeug's bare 400
@bp.get("/games/<game_id>/socket", websocket=True)
@bp.get("/games/<game_id>/socket")
def connect(game_id: str):
    svc = services()
    # 404 for an unknown game, before anything else (no store read for a
    # game the process follows: the hello reads the log, once subscribed)
    svc.realtime.exists(game_id)
    problem = handshake_problem()
    if problem is not None:
        raise problem
    return Upgraded(Session(svc, game_id, request.remote_addr))
