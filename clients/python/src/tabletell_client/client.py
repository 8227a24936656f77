"""``Tabletell``: one method per operation of openapi.yaml, named by its
``operationId`` in snake_case, on an ``httpx.Client``.

Retries (up to ``retries`` attempts after the first, waiting ``Retry-After``
when the answer has one, else an exponential backoff with jitter):

- reads (every GET) and the idempotent writes: on a transport error
  (``httpx.TransportError``: the connection refused, reset or timed out,
  the answer lost) and on 503. The idempotent writes are ``send_command``
  (with an ``Idempotency-Key``, generated when not given and the same on
  every attempt, so the server answers a retry with the first answer and
  appends nothing), ``rematch`` (a seat that asked before is answered its
  seat again, with ``token`` null: nothing is created twice) and
  ``rename_player`` (the same name set twice), ``withdraw_from_tournament``
  (a retry after a lost answer is 422 ``not_joined``), ``delete_webhook`` and
  ``delete_player`` (a retry that finds the webhook
  or the key gone is the deletion done);
- the other writes (``create_game``, ``take_seat``, ``create_player``,
  ``replace_player_key``, ``matchmaking``, ``create_webhook``,
  ``create_tournament``, ``join_tournament``: no
  Idempotency-Key, and done twice they create twice or, for a key, lose
  the new one) only where nothing ran: a connection that was never made
  (``httpx.ConnectError``, ``ConnectTimeout``, ``PoolTimeout``) and a 503
  whose ``code`` says nothing was written (``server_busy``, ``store_full``,
  ``matchmaking_busy``, ``rematch_busy``); not ``store_unavailable`` (the
  store may have taken a write before it failed) or ``not_durable`` (it
  did);
- the probes (``health``, ``health_live``, ``health_ready``, ``metrics``):
  on a transport error only, since their 503 is their answer.

No 4xx is retried (a 409 ``version_conflict`` asks the caller to decide
again; a 429 says to slow down): each is raised as a ``Problem``.

Streams (``stream_game``, ``stream_player``, ``stream_tournament``) read NDJSON and reconnect on
their own, resuming after the last id received: see ``Stream``. A game's
socket (``connect_game``) carries the same messages one way and the seat's
commands the other: see ``GameSocket``.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import time
import uuid
from collections import deque
from typing import Any, Callable, Generator, Generic, Iterator, Literal, Mapping, TypeVar, cast, overload
from urllib.parse import quote

import httpx
from simple_websocket import Client as WebSocket, ConnectionClosed, ConnectionError as Refused

from . import types as t
from .types import GAME_MESSAGES, GameMessage, Message, PlayerMessage, TournamentMessage, position_of
from .problems import Problem, problem_from, problem_of, retry_after

# the package's version (pyproject.toml reads it from here): major.minor is
# the API's (openapi.yaml's info.version) that this client speaks, the patch
# the client's own; CHANGELOG.md beside pyproject.toml says what each changed
__version__ = "1.4.0"
USER_AGENT = f"tabletell-client-python/{__version__} httpx/{httpx.__version__}"

Policy = Literal["read", "idempotent", "unsafe", "probe"]
JSON = dict[str, Any]
T = TypeVar("T")
M = TypeVar("M", bound=Message)
# 503 codes after which nothing was written: any request may be sent again
NOTHING_WRITTEN = frozenset({"server_busy", "store_full", "matchmaking_busy", "rematch_busy"})
# transport errors raised before the request left: any request may be sent again
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# transport errors that another attempt would meet again
HOPELESS = (httpx.UnsupportedProtocol, httpx.LocalProtocolError, httpx.ProxyError)


class WebhookSignatureError(ValueError):
    """A webhook request whose signature or timestamp does not verify."""


class Tabletell:
    """A client of the API at ``base_url``.

    ``token`` is the bearer sent by default: a seat's token, a player's key
    (``tp_...``) or the operator token. Every method takes ``token=`` to send
    another for one call, and ``token=""`` to send none (a spectator).
    ``transport`` is httpx's (a test's, a mounted WSGI app, ...)."""

    backoff_base = 0.5  # seconds: the first backoff, doubling (with jitter) each attempt
    backoff_cap = 10.0  # seconds: the longest backoff
    stream_read_timeout = 60.0  # seconds without a byte before a stream reconnects (heartbeats: 15 s)

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        retries: int = 5,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.retries = retries
        self.timeout = timeout
        self.http = httpx.Client(
            base_url=self.base_url, timeout=timeout, transport=transport, headers={"User-Agent": USER_AGENT}
        )
        self.sleep: Callable[[float], None] = time.sleep

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> "Tabletell":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the requests ---------------------------------------------------------------

    def _headers(self, token: str | None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        bearer = self.token if token is None else token
        headers = dict(extra or {})
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        return headers

    def backoff(self, attempt: int) -> float:
        """Seconds to wait before attempt ``attempt + 1``: exponential, capped,
        with jitter (half to all of it), so clients that failed together do
        not come back together."""
        ceiling = min(self.backoff_cap, self.backoff_base * 2**attempt)
        return random.uniform(ceiling / 2, ceiling)

    def _request(
        self,
        method: str,
        path: str,
        policy: Policy,
        *,
        token: str | None = None,
        params: Mapping[str, Any] | None = None,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
        gone_on_retry_ok: bool = False,
        gone_status: int = 404,
    ) -> httpx.Response:
        """The answer (a status below 400), after the retries ``policy``
        allows; else the ``Problem`` (or the transport error)."""
        query = {name: _query_value(value) for name, value in (params or {}).items() if value is not None}
        sent_headers = self._headers(token, headers)
        attempt = 0
        while True:
            try:
                response = self.http.request(
                    method,
                    path,
                    params=query,
                    json=body,
                    headers=sent_headers,
                    timeout=timeout if timeout is not None else self.timeout,
                )
            except HOPELESS:
                raise
            except httpx.TransportError as error:
                # an unsafe request may have run unless it never left
                retryable = policy != "unsafe" or isinstance(error, NOT_SENT)
                if attempt >= self.retries or not retryable:
                    raise
                self.sleep(self.backoff(attempt))
                attempt += 1
                continue
            status = response.status_code
            if status == 503 and attempt < self.retries and _may_retry_503(policy, response):
                wait = retry_after(response)
                self.sleep(wait if wait is not None else self.backoff(attempt))
                attempt += 1
                continue
            if status == gone_status and attempt > 0 and gone_on_retry_ok:
                return response  # an earlier attempt did it; its answer was lost
            if status >= 400:
                raise problem_of(response)
            return response

    def _json(self, shape: type[T], method: str, path: str, policy: Policy, **kwargs: Any) -> T:
        """The answer's JSON, typed as ``shape`` says (not checked)."""
        return cast(T, self._request(method, path, policy, **kwargs).json())

    # -- service ----------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """``GET /v1/health``: ``{"status": "ok"}``; a 503 (the store
        unreachable) is raised at once, not retried."""
        return self._json(JSON, "GET", "/v1/health", "probe")

    def health_live(self) -> dict[str, Any]:
        """``GET /v1/health/live``: the process answers."""
        return self._json(JSON, "GET", "/v1/health/live", "probe")

    def health_ready(self) -> dict[str, Any]:
        """``GET /v1/health/ready``: ``{"status": "ready", "durability"}``, or a
        503 ``not_ready`` / ``store_unavailable`` raised at once."""
        return self._json(JSON, "GET", "/v1/health/ready", "probe")

    def metrics(self) -> str:
        """``GET /metrics``: Prometheus's text format."""
        return self._request("GET", "/metrics", "probe").text

    def list_game_types(self) -> dict[str, Any]:
        """``GET /v1/game-types``: ``{"game_types": [...]}``, each with its
        seats, options, bot levels, commands and their fields."""
        return self._json(JSON, "GET", "/v1/game-types", "read")

    # -- games --------------------------------------------------------------------------

    def list_games(
        self,
        *,
        status: str | None = None,
        type: str | None = None,
        limit: int | None = None,
        offset: int | None = None,
        token: str | None = None,
    ) -> dict[str, Any]:
        """``GET /v1/games`` (operators): ``{"games", "total", "next"}``, newest first."""
        params = {"status": status, "type": type, "limit": limit, "offset": offset}
        return self._json(JSON, "GET", "/v1/games", "read", token=token, params=params)

    def create_game(self, body: t.CreateGame | Mapping[str, Any], *, token: str | None = None) -> t.GameCreated:
        """``POST /v1/games``: ``{"type", "seats", "options", "bots", "public",
        "fill_with_bots_after"}``."""
        return self._json(t.GameCreated, "POST", "/v1/games", "unsafe", token=token, body=dict(body))

    def get_game(self, game_id: str, *, token: str | None = None) -> t.Summary:
        """``GET /v1/games/{id}``: the public summary."""
        return cast(t.Summary, self._request("GET", _game(game_id), "read", token=token).json())

    def take_seat(self, game_id: str, body: Mapping[str, Any] | None = None, *, token: str | None = None) -> t.Seated:
        """``POST /v1/games/{id}/seats``: the first free seat and its token.
        ``body`` is ``{"name": ...}``, optional with a player key as the bearer
        (the seat is then the player's, and the key acts for it)."""
        return self._json(t.Seated, "POST", _game(game_id, "seats"), "unsafe", token=token, body=dict(body or {}))

    # -- play ----------------------------------------------------------------------------

    @overload
    def get_view(
        self, game_id: str, *, token: str | None = None, wait: int | None = None, if_none_match: None = None
    ) -> t.View: ...

    @overload
    def get_view(
        self, game_id: str, *, token: str | None = None, wait: int | None = None, if_none_match: int | str
    ) -> t.View | None: ...

    def get_view(
        self,
        game_id: str,
        *,
        token: str | None = None,
        wait: int | None = None,
        if_none_match: int | str | None = None,
    ) -> t.View | None:
        """``GET /v1/games/{id}/view``: the bearer seat's view. With
        ``if_none_match`` (a version) None while the game is still there
        (304); with ``wait`` too, after holding up to that many seconds for
        it to move (a long poll)."""
        headers = {"If-None-Match": _tag(if_none_match)} if if_none_match is not None else None
        response = self._request(
            "GET",
            _game(game_id, "view"),
            "read",
            token=token,
            params={"wait": wait},
            headers=headers,
            timeout=self.timeout + (wait or 0),
        )
        return None if response.status_code == 304 else response.json()

    def send_command(
        self,
        game_id: str,
        body: Mapping[str, Any],
        *,
        token: str | None = None,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> t.CommandResult:
        """``POST /v1/games/{id}/commands``: a move, ``{"type": ..., <fields>}``.

        ``expected_version`` (``If-Match``): only at that version, else 409
        ``version_conflict`` (a ``Conflict`` with ``current_version``).
        ``idempotency_key``: a uuid4 when not given, the same on every retry,
        so a retry after a lost answer is answered the first answer and
        appends nothing."""
        headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
        if expected_version is not None:
            headers["If-Match"] = _tag(expected_version)
        path = _game(game_id, "commands")
        return self._json(t.CommandResult, "POST", path, "idempotent", token=token, body=dict(body), headers=headers)

    def get_events(
        self, game_id: str, *, token: str | None = None, after: int | None = None, wait: int | None = None
    ) -> t.EventFeed:
        """``GET /v1/games/{id}/events``: the events after version ``after``
        as the bearer may see them; ``wait``: a long poll."""
        return self._json(
            t.EventFeed,
            "GET",
            _game(game_id, "events"),
            "read",
            token=token,
            params={"after": after, "wait": wait},
            timeout=self.timeout + (wait or 0),
        )

    def stream_game(
        self,
        game_id: str,
        *,
        token: str | None = None,
        data: Literal["view", "events"] = "view",
        last_event_id: int | str | None = None,
    ) -> "Stream[GameMessage]":
        """``GET /v1/games/{id}/stream`` as NDJSON: ``view`` messages (the
        bearer's view each time it changes) or, with ``data="events"``,
        ``event`` messages (every event it may see, one per version), then
        ``finished``, after which the iteration ends; table talk comes
        between them (``chat``, ``chat_removed``). Each message is the class
        of its kind (``t.GameMessage``: look at ``event`` before ``data``).
        Resumes after ``last_event_id``; reconnects by itself (see
        ``Stream``)."""
        return Stream(
            self, _game(game_id, "stream"), token, {"data": data}, last_event_id, ends_after="finished", kinds=GAME_MESSAGES
        )

    def connect_game(
        self,
        game_id: str,
        *,
        token: str | None = None,
        data: Literal["view", "events"] = "view",
        last_event_id: int | str | None = None,
    ) -> "GameSocket":
        """``GET /v1/games/{id}/socket``: the game over one WebSocket, the
        messages ``stream_game`` gives one way (iterate it), the seat's
        commands (``send``) and table talk (``say``) the other, each
        answered on it. ``token``: the seat's (``""``: a spectator). See
        ``GameSocket``."""
        bearer = self.token if token is None else token
        url = "ws" + self.base_url.removeprefix("http") + _game(game_id, "socket")
        return GameSocket(self, url, bearer or None, data, last_event_id)

    # -- audit ------------------------------------------------------------------------------

    def get_log(self, game_id: str, *, token: str | None = None) -> list[dict[str, Any]]:
        """``GET /v1/games/{id}/log``: every entry of the log, private parts
        included (a finished or abandoned game, or the operator token)."""
        text = self._request("GET", _game(game_id, "log"), "read", token=token).text
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def get_replay(
        self, game_id: str, *, version: int | None = None, seat: int | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """``GET /v1/games/{id}/replay``: the game at ``version`` as the bearer
        saw it (``seat``: any seat's, once the game is over)."""
        params = {"version": version, "seat": seat}
        return self._json(JSON, "GET", _game(game_id, "replay"), "read", token=token, params=params)

    def get_verification(self, game_id: str, *, token: str | None = None) -> dict[str, Any]:
        """``GET /v1/games/{id}/verification``: the log checked by the service."""
        return self._json(JSON, "GET", _game(game_id, "verification"), "read", token=token)

    # -- players -----------------------------------------------------------------------------

    def create_player(self, body: Mapping[str, Any], *, token: str | None = None) -> t.Player:
        """``POST /v1/players`` ``{"name"}``: the player and its key (``tp_...``, shown once)."""
        return self._json(t.Player, "POST", "/v1/players", "unsafe", token=token, body=dict(body))

    def get_player(self, *, token: str | None = None) -> t.Player:
        """``GET /v1/players/me``: the player the key belongs to."""
        return self._json(t.Player, "GET", "/v1/players/me", "read", token=token)

    def rename_player(self, body: Mapping[str, Any], *, token: str | None = None) -> t.Player:
        """``PATCH /v1/players/me`` ``{"name"}``: the player's name changed (the seats
        taken before keep the name they were played under). Sent again
        after a lost answer: the same name set twice."""
        return self._json(t.Player, "PATCH", "/v1/players/me", "idempotent", token=token, body=dict(body))

    def create_player_stream_ticket(self, *, token: str | None = None) -> t.StreamTicket:
        """``POST /v1/players/me/stream-tickets``: a ticket that opens the
        player's stream for a browser's EventSource (as ``create_stream_ticket``)."""
        return self._json(t.StreamTicket, "POST", "/v1/players/me/stream-tickets", "unsafe", token=token)

    def replace_player_key(self, *, token: str | None = None) -> t.PlayerKey:
        """``POST /v1/players/me/keys``: a new key; the one sent is refused
        from now on. When the key replaced was this client's default
        token, the new one becomes the default."""
        answer: t.PlayerKey = self._json(t.PlayerKey, "POST", "/v1/players/me/keys", "unsafe", token=token)
        if token is None or token == self.token:
            self.token = answer["key"]
        return answer

    def delete_player(self, *, token: str | None = None) -> None:
        """``DELETE /v1/players/me``: the player's key, record, feed and games
        list are deleted (the games' logs keep the seats it took). Sent
        again after a lost answer, the key is refused (401): the deletion
        was done."""
        self._request("DELETE", "/v1/players/me", "idempotent", token=token, gone_on_retry_ok=True, gone_status=401)
        if token is None or token == self.token:
            self.token = None

    def list_player_games(
        self, *, status: str | None = None, limit: int | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """``GET /v1/players/me/games``: ``{"games": [...]}`` with the seat and
        whether it is the player's turn."""
        params = {"status": status, "limit": limit}
        return self._json(JSON, "GET", "/v1/players/me/games", "read", token=token, params=params)

    def stream_player(self, *, token: str | None = None, last_event_id: int | None = None) -> "Stream[PlayerMessage]":
        """``GET /v1/players/me/stream`` as NDJSON: ``ready`` (its id the
        player's last event so far; only when opened without
        ``last_event_id``: on a resumption it repeats the id resumed from,
        and is skipped as any message at or before it), then
        ``game_started``, ``turn``, ``window``, ``game_finished``,
        ``rematch_offered``, ``rating_changed``, ``tournament_table_ready`` (the player's
        table in a tournament: its ``game_id``, ``seat`` and the seat's ``token``),
        numbered by the player's feed. It never ends by
        itself: stop iterating, or ``close()``. Each is a ``PlayerMessage``."""
        return Stream(self, "/v1/players/me/stream", token, {}, last_event_id, ends_after=None, kinds=PlayerMessage)

    # -- lobby ---------------------------------------------------------------------------------

    def get_lobby(self, *, type: str | None = None, limit: int | None = None) -> dict[str, Any]:
        """``GET /v1/lobby``: public games waiting for players."""
        return self._json(JSON, "GET", "/v1/lobby", "read", params={"type": type, "limit": limit}, token="")

    def matchmaking(self, body: Mapping[str, Any], *, token: str | None = None) -> t.Seated | t.Queued:
        """``POST /v1/matchmaking`` ``{"type", "seats", "options",
        "fill_with_bots_after", "rated"}`` with a player key. Rated (the
        default unless ``fill_with_bots_after`` is given): ``Queued``
        (``status`` "queued") until a table of players of close rating is
        found, so ask again after its ``retry_after`` seconds, then the seat.
        Unrated: a seat at the public game filling for that kind of game, or
        a new one."""
        return self._json(JSON, "POST", "/v1/matchmaking", "unsafe", token=token, body=dict(body))  # type: ignore[return-value]

    def get_rematch(self, game_id: str) -> dict[str, Any]:
        """``GET /v1/games/{id}/rematch``: ``{"game_id", "rematch_of"}`` (404
        ``no_rematch`` until a seat asks)."""
        return self._json(JSON, "GET", _game(game_id, "rematch"), "read", token="")

    def create_stream_ticket(self, game_id: str, *, token: str | None = None) -> t.StreamTicket:
        """``POST /v1/games/{id}/stream-tickets``: a ticket that opens the
        seat's stream (``url``) for a browser's native EventSource, which
        cannot send the token; a Python program streams with the token
        (``stream_game``)."""
        return self._json(t.StreamTicket, "POST", _game(game_id, "stream-tickets"), "unsafe", token=token)

    def rematch(self, game_id: str, *, token: str | None = None) -> t.Seated:
        """``POST /v1/games/{id}/rematch`` by a seat of the finished game:
        its seat at the rematch (created by the first to ask)."""
        return self._json(t.Seated, "POST", _game(game_id, "rematch"), "idempotent", token=token)

    # -- ratings -----------------------------------------------------------------------------------

    def get_leaderboard(self, game_type: str, *, offset: int | None = None, limit: int | None = None) -> dict[str, Any]:
        """``GET /v1/leaderboards/{type}``: the type's rated players, best
        first (``rank``, ``name``, ``rating`` = mu - 3 sigma, ``mu``,
        ``sigma``, ``games``), and their ``total``."""
        path = f"/v1/leaderboards/{quote(game_type, safe='')}"
        return self._json(JSON, "GET", path, "read", params={"offset": offset, "limit": limit}, token="")

    def get_player_profile(self, player_id: str) -> dict[str, Any]:
        """``GET /v1/players/{id}``: anyone's public profile (name, games
        played, rating per type)."""
        return self._json(JSON, "GET", f"/v1/players/{quote(player_id, safe='')}", "read", token="")

    def get_rating_history(self, type: str, *, limit: int | None = None, token: str | None = None) -> dict[str, Any]:
        """``GET /v1/players/me/ratings/history?type=`` with a player key: the
        rating in ``type`` and each rated game's change to it, newest first."""
        params = {"type": type, "limit": limit}
        return self._json(JSON, "GET", "/v1/players/me/ratings/history", "read", params=params, token=token)

    def get_game_ratings(self, game_id: str) -> dict[str, Any]:
        """``GET /v1/games/{id}/ratings``: what the game did to its players'
        ratings (``status``: rated, pending or unrated)."""
        return self._json(JSON, "GET", _game(game_id, "ratings"), "read", token="")

    # -- table talk ----------------------------------------------------------------------------------

    def send_chat(self, game_id: str, body: Mapping[str, Any], *, token: str | None = None) -> dict[str, Any]:
        """``POST /v1/games/{id}/chat`` ``{"text"}``: said at the table with a
        seat's token or player key, among the spectators with ``token=""``
        (none). Not sent again after a network error (it would be said twice)."""
        return self._json(JSON, "POST", _game(game_id, "chat"), "unsafe", token=token, body=dict(body))

    def get_chat(
        self, game_id: str, *, after: str | None = None, limit: int | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """``GET /v1/games/{id}/chat``: what the bearer may read, oldest first
        (``after``: a version or a message's id, ``"12.1"``)."""
        return self._json(JSON, "GET", _game(game_id, "chat"), "read", params={"after": after, "limit": limit}, token=token)

    def remove_chat_message(
        self, game_id: str, chat_id: str, body: Mapping[str, Any] | None = None, *, token: str | None = None
    ) -> dict[str, Any]:
        """``DELETE /v1/games/{id}/chat/{chat id}`` (operators): the removal.
        ``body`` (optional): ``{"operator", "reason", "report_id"}``, what the
        moderation log keeps of it."""
        path = _game(game_id, "chat", quote(chat_id, safe=""))
        return self._json(JSON, "DELETE", path, "idempotent", token=token, body=None if body is None else dict(body))

    # -- moderation --------------------------------------------------------------------------------

    def file_report(self, body: Mapping[str, Any], *, token: str | None = None) -> dict[str, Any]:
        """``POST /v1/reports`` with a player's key or a seat's token: a chat
        message (``game_id``, ``chat_id``), a player (``player_id``) or a
        seat (``game_id``, ``seat``) reported, with a ``reason``."""
        return self._json(JSON, "POST", "/v1/reports", "unsafe", token=token, body=dict(body))

    def list_reports(
        self, *, status: str | None = None, limit: int | None = None, offset: int | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """``GET /v1/reports`` (operators): ``{"reports", "total"}``, oldest first."""
        params = {"status": status, "limit": limit, "offset": offset}
        return self._json(JSON, "GET", "/v1/reports", "read", token=token, params=params)

    def get_report(self, report_id: str, *, token: str | None = None) -> dict[str, Any]:
        """``GET /v1/reports/{id}`` (operators)."""
        return self._json(JSON, "GET", f"/v1/reports/{quote(report_id, safe='')}", "read", token=token)

    def resolve_report(self, report_id: str, body: Mapping[str, Any], *, token: str | None = None) -> dict[str, Any]:
        """``POST /v1/reports/{id}/resolve`` (operators) ``{"operator",
        "reason", "outcome"}``: the report closed."""
        path = f"/v1/reports/{quote(report_id, safe='')}/resolve"
        return self._json(JSON, "POST", path, "unsafe", token=token, body=dict(body))

    def mute_player(self, player_id: str, body: Mapping[str, Any], *, token: str | None = None) -> dict[str, Any]:
        """``POST /v1/players/{id}/mute`` (operators) ``{"operator", "reason",
        "minutes"}``: the moderation log's entry."""
        return self._moderate(player_id, "mute", body, token)

    def unmute_player(self, player_id: str, body: Mapping[str, Any], *, token: str | None = None) -> dict[str, Any]:
        """``POST /v1/players/{id}/unmute`` (operators)."""
        return self._moderate(player_id, "unmute", body, token)

    def ban_player(self, player_id: str, body: Mapping[str, Any], *, token: str | None = None) -> dict[str, Any]:
        """``POST /v1/players/{id}/ban`` (operators) ``{"operator", "reason"}``:
        the log's entry and ``left``, the games whose seats were left."""
        return self._moderate(player_id, "ban", body, token)

    def unban_player(self, player_id: str, body: Mapping[str, Any], *, token: str | None = None) -> dict[str, Any]:
        """``POST /v1/players/{id}/unban`` (operators)."""
        return self._moderate(player_id, "unban", body, token)

    def _moderate(self, player_id: str, action: str, body: Mapping[str, Any], token: str | None) -> dict[str, Any]:
        path = f"/v1/players/{quote(player_id, safe='')}/{action}"
        return self._json(JSON, "POST", path, "unsafe", token=token, body=dict(body))

    def get_moderation_log(
        self, *, limit: int | None = None, before: str | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """``GET /v1/moderation/log`` (operators): ``{"entries", "next"}``, newest first."""
        return self._json(JSON, "GET", "/v1/moderation/log", "read", token=token, params={"limit": limit, "before": before})

    # -- operators ending or voiding a game -------------------------------------------------------

    def end_game(self, game_id: str, body: Mapping[str, Any], *, token: str | None = None) -> t.Summary:
        """``POST /v1/games/{id}/end`` (operators) ``{"operator", "reason"}``:
        the game under way ends where it stands, who and why in its log; its
        summary. Not sent again after a network error (a second one is a 409
        ``game_finished``)."""
        return self._json(t.Summary, "POST", _game(game_id, "end"), "unsafe", token=token, body=dict(body))

    def void_game(self, game_id: str, body: Mapping[str, Any], *, token: str | None = None) -> t.Summary:
        """``POST /v1/games/{id}/void`` (operators) ``{"operator", "reason"}``:
        the game ends with no result, never rated, who and why in its log;
        its summary. Not sent again after a network error (as ``end_game``)."""
        return self._json(t.Summary, "POST", _game(game_id, "void"), "unsafe", token=token, body=dict(body))

    # -- the analysis of a finished game -----------------------------------------------------------

    def request_analysis(self, game_id: str, body: Mapping[str, Any], *, token: str | None = None) -> t.AnalysisStatus:
        """``POST /v1/games/{id}/analysis`` ``{"seat"}``: the seat's analysis
        record, queued or running (202) or stored (200, with the analysis). A
        seat asks for its own with its token or player key; anyone
        (``token=""``) a public game's once its spectators' delay has passed.
        Sent again after a network error: asked twice, it queues one job."""
        return self._json(t.AnalysisStatus, "POST", _game(game_id, "analysis"), "idempotent", token=token, body=dict(body))

    def get_analysis(self, game_id: str, seat: int, *, token: str | None = None) -> t.AnalysisStatus:
        """``GET /v1/games/{id}/analysis/{seat}``: the record again: status,
        progress (``done`` of ``total``) and, once stored, the analysis."""
        return self._json(t.AnalysisStatus, "GET", _game(game_id, "analysis", str(int(seat))), "read", token=token)

    # -- tournaments -------------------------------------------------------------------------------

    def create_tournament(self, body: t.CreateTournament | Mapping[str, Any], *, token: str | None = None) -> t.Tournament:
        """``POST /v1/tournaments`` with a player key (its player is the
        tournament's ``created_by``, not entered by it): ``{"name",
        "game_type", "seats_per_table", "format"}`` (``swiss`` with
        ``rounds``, ``arena`` with ``duration_seconds``), and ``options``,
        ``starts_at`` (ISO 8601; omitted: at once), ``rated``,
        ``min_rating``/``max_rating``, ``no_show_seconds``. Not sent again
        after a network error (a second would be a second tournament)."""
        return self._json(t.Tournament, "POST", "/v1/tournaments", "unsafe", token=token, body=dict(body))

    def list_tournaments(
        self, *, status: Literal["upcoming", "running", "finished"] | None = None, limit: int | None = None
    ) -> t.TournamentList:
        """``GET /v1/tournaments``: the tournaments of one ``status``
        (``running`` unless given), each a ``TournamentSummary``."""
        params = {"status": status, "limit": limit}
        return self._json(t.TournamentList, "GET", "/v1/tournaments", "read", params=params, token="")

    def get_tournament(self, tournament_id: str, *, token: str | None = None) -> t.Tournament:
        """``GET /v1/tournaments/{id}``: its standings and its tables by
        round (``round_tables``); with a player key, ``you`` (entered, and
        the player's table under way: their key acts for the seat)."""
        return self._json(t.Tournament, "GET", _tournament(tournament_id), "read", token=token)

    def join_tournament(self, tournament_id: str, *, token: str | None = None) -> t.Tournament:
        """``POST /v1/tournaments/{id}/players``: the key's player enters (a
        Swiss until it starts, an arena until it ends); each of their tables
        is told on their stream (``tournament_table_ready``). Not sent again
        after a network error: a second is 422 ``already_joined``."""
        return self._json(t.Tournament, "POST", _tournament(tournament_id, "players"), "unsafe", token=token)

    def withdraw_from_tournament(self, tournament_id: str, *, token: str | None = None) -> t.Tournament:
        """``DELETE /v1/tournaments/{id}/players/me``: the key's player is
        seated at no table again (a game of theirs under way plays on).
        Sent again after a network error (a DELETE)."""
        path = _tournament(tournament_id, "players", "me")
        return self._json(t.Tournament, "DELETE", path, "idempotent", token=token)

    def stream_tournament(self, tournament_id: str, *, last_event_id: int | None = None) -> "Stream[TournamentMessage]":
        """``GET /v1/tournaments/{id}/stream`` as NDJSON: one
        ``TournamentMessage`` per entry of its log (``event`` the entry's
        type, ``id`` its version, ``data`` the entry as anyone may see it),
        from the first (or after ``last_event_id``); the iteration ends
        after ``tournament_finished``. Reconnects by itself (see ``Stream``)."""
        return Stream(
            self, _tournament(tournament_id, "stream"), "", {}, last_event_id, ends_after="tournament_finished",
            kinds=TournamentMessage,
        )  # fmt: skip

    def get_tournament_log(self, tournament_id: str, *, token: str | None = None) -> list[dict[str, Any]]:
        """``GET /v1/tournaments/{id}/log``: every entry with every part (what
        ``python -m service.replay verify --tournament`` checks), once the
        tournament has finished (before that, operators only)."""
        text = self._request("GET", _tournament(tournament_id, "log"), "read", token=token).text
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    # -- webhooks ----------------------------------------------------------------------------------

    def list_webhooks(self, *, token: str | None = None) -> dict[str, Any]:
        """``GET /v1/webhooks`` (operators): ``{"webhooks": [...]}``, never their secrets."""
        return self._json(JSON, "GET", "/v1/webhooks", "read", token=token)

    def create_webhook(self, body: Mapping[str, Any], *, token: str | None = None) -> t.Webhook:
        """``POST /v1/webhooks`` (operators) ``{"url", "events"}``: the webhook
        and its signing ``secret``, shown this once."""
        return self._json(t.Webhook, "POST", "/v1/webhooks", "unsafe", token=token, body=dict(body))

    def delete_webhook(self, webhook_id: str, *, token: str | None = None) -> None:
        """``DELETE /v1/webhooks/{id}`` (operators)."""
        path = f"/v1/webhooks/{quote(webhook_id, safe='')}"
        self._request("DELETE", path, "idempotent", token=token, gone_on_retry_ok=True)

    def enable_webhook(self, webhook_id: str, *, token: str | None = None) -> t.Webhook:
        """``POST /v1/webhooks/{id}/enable`` (operators): the webhook enabled
        again after the service disabled it. Sent again after a lost answer:
        enabling twice enables once."""
        path = f"/v1/webhooks/{quote(webhook_id, safe='')}/enable"
        return self._json(t.Webhook, "POST", path, "idempotent", token=token)

    def list_webhook_deliveries(self, webhook_id: str, *, token: str | None = None) -> dict[str, Any]:
        """``GET /v1/webhooks/{id}/deliveries`` (operators): the last 100 attempts."""
        return self._json(JSON, "GET", f"/v1/webhooks/{quote(webhook_id, safe='')}/deliveries", "read", token=token)

    @staticmethod
    def webhook_event(
        secret: str, headers: Mapping[str, str], body: bytes, *, tolerance: float | None = 300, now: float | None = None
    ) -> t.WebhookEvent:
        """openapi.yaml's ``webhookEvent``, the receiving end: not a call to
        the API but the API's call to an app backend. Verifies a request the
        service POSTed (Standard Webhooks: ``webhook-signature`` is ``v1,``
        and the base64 HMAC-SHA256 of ``<webhook-id>.<webhook-timestamp>.<body>``
        keyed with the secret, and the timestamp within ``tolerance``
        seconds) and returns the event; raises ``WebhookSignatureError``
        otherwise. ``body`` is the raw bytes received."""
        lowered = {name.lower(): value for name, value in headers.items()}
        try:
            event_id, stamp, signatures = (lowered[h] for h in ("webhook-id", "webhook-timestamp", "webhook-signature"))
            key = base64.b64decode(secret.removeprefix("whsec_"))
            sent_at = int(stamp)
        except (KeyError, ValueError) as error:
            raise WebhookSignatureError(f"not a signed webhook request: {error}") from None
        if tolerance is not None and abs((time.time() if now is None else now) - sent_at) > tolerance:
            raise WebhookSignatureError("the webhook's timestamp is too far from this clock")
        signed = f"{event_id}.{stamp}.".encode() + body
        expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
        if not any(
            version == "v1" and hmac.compare_digest(value, expected)
            for version, _, value in (signature.partition(",") for signature in signatures.split())
        ):
            raise WebhookSignatureError("the webhook's signature does not verify")
        return cast(t.WebhookEvent, json.loads(body))


class Stream(Generic[M]):
    """The messages of a stream, read as NDJSON (heartbeats skipped), as an
    iterator of ``Message``: a game's each of the class of its kind
    (``t.GameMessage``), a player's ``PlayerMessage``, a tournament's
    ``TournamentMessage``.

    A dropped connection (an httpx error while reading, or the server
    closing the stream early) or a 503/429 answer is not an end: it
    reconnects with ``?last_event_id=`` the last id received, after
    ``Retry-After`` when the answer has one, else an exponential backoff
    with jitter (capped at the client's ``backoff_cap``), so nothing is lost
    and, since the server sends only what came after that id (and a message
    at or before it is skipped all the same), nothing is repeated. It gives
    up (raising the last error) after the client's ``retries`` attempts in a
    row that brought nothing; any other error answer (401, 404, 400
    ``invalid_last_event_id``) is raised as a ``Problem`` at once. A game's
    stream ends after its ``finished`` message (a tournament's after its
    ``tournament_finished``), or at once (no message) when resumed at the
    end of a finished game (or tournament).

    ``last_event_id`` is where it would resume; ``reconnects`` counts the
    reconnections. ``drop()`` closes the current connection, as a network
    that fails would (the iteration goes on over a new one); ``close()``
    ends it. A context manager."""

    def __init__(
        self,
        client: Tabletell,
        path: str,
        token: str | None,
        params: dict[str, Any],
        last_event_id: int | str | None,
        *,
        ends_after: str | None,
        kinds: Mapping[str, type[Message]] | type[Message],
    ):
        self.client = client
        self._kinds = kinds
        self.path = path
        self.last_event_id = last_event_id
        self.reconnects = 0
        self._headers = client._headers(token, {"Accept": "application/x-ndjson"})
        self._params = params
        self._ends_after = ends_after
        self._response: httpx.Response | None = None
        self._closed = False
        self._messages = self._run()

    def __iter__(self) -> Iterator[M]:
        return self

    def __next__(self) -> M:
        return next(self._messages)

    def __enter__(self) -> "Stream[M]":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def drop(self) -> None:
        """Close the current connection: the iteration reconnects and resumes."""
        response = self._response
        if response is not None:
            response.close()

    def close(self) -> None:
        self._closed = True
        self.drop()
        try:
            self._messages.close()
        except ValueError:  # closed from another thread while it reads: it ends at its next step
            pass

    def _run(self) -> Generator[M, None, None]:
        client = self.client
        timeout = httpx.Timeout(client.timeout, read=client.stream_read_timeout)
        failures = 0  # attempts in a row that brought nothing
        while not self._closed:
            params = dict(self._params)
            if self.last_event_id is not None:
                params["last_event_id"] = self.last_event_id
            wait = None
            try:
                opened = client.http.stream("GET", self.path, params=params, headers=self._headers, timeout=timeout)
                with opened as response:
                    self._response = response
                    status = response.status_code
                    if status == 204:
                        return  # a finished game, seen to its end
                    if status in (429, 503):
                        response.read()
                        if failures >= client.retries:
                            raise problem_of(response)
                        wait = retry_after(response)
                    elif status >= 400:
                        response.read()
                        raise problem_of(response)
                    else:
                        for line in response.iter_lines():
                            failures = 0  # something came: the next failure is the first in a row
                            if not line.strip():
                                continue  # a heartbeat
                            message = cast(M, _message(json.loads(line), self._kinds))
                            if message.event in UNLOGGED:
                                yield message  # no place in the log: never skipped, never resumed from
                                continue
                            if (
                                self.last_event_id is not None
                                and message.position <= position_of(self.last_event_id)
                                and message.event != "finished"  # it repeats the last view's id
                            ):
                                continue
                            self.last_event_id = message.id
                            yield message
                            if message.event == self._ends_after:
                                return
            except (httpx.TransportError, httpx.StreamError):
                if self._closed:
                    return
                if failures >= client.retries:
                    raise
            finally:
                self._response = None
            if self._closed:
                return
            failures += 1
            self.reconnects += 1
            client.sleep(wait if wait is not None else client.backoff(failures - 1))


class GameSocket:
    """A game over one WebSocket (``Tabletell.connect_game``), on
    simple-websocket's client: an iterator of the game's stream messages
    (``t.GameMessage``, each the class of its kind, as ``stream_game`` gives
    them: heartbeats skipped, ending after ``finished``), and ``send``
    (a command: its answer, ``{version, events}``, or its ``Problem``
    raised) and ``say`` (table talk), each answered before it returns. For
    one thread at a time: ``send`` reads the socket until its answer comes,
    keeping the stream's messages for the iteration.

    A dropped connection (a close that is not the game's end, or
    ``stream_read_timeout`` without even a heartbeat) or a refusal that may
    pass (408, 429, 503: the close code 4000 + the status) is not an end: it
    connects again, after a backoff (the refusal's ``retry_after``, else the
    client's exponential one), its hello resuming after the last message
    given, so nothing is lost or given twice. A command sent and not yet
    answered is sent again with the same Idempotency-Key (the server plays
    it once and answers the first answer); a chat message is not (it may
    have been said): ``ConnectionError``. It gives up after the client's
    ``retries`` attempts in a row that brought nothing; any other refusal (a
    wrong token: 401, close 4401) is raised as its ``Problem``.
    ``reconnects`` counts the new connections; ``drop()`` closes the current
    one as a failing network would; ``close()`` ends it. A context manager."""

    def __init__(self, client: Tabletell, url: str, token: str | None, data: str, last_event_id: int | str | None):
        self.client = client
        self.url = url
        self.token = token
        self.data = data
        self.last_event_id = last_event_id
        self._ws: WebSocket | None = None
        self._connections = 0  # each new connection's number: a send knows its own was lost
        self._messages: deque[GameMessage] = deque()
        self._answers: dict[int, dict[str, Any]] = {}
        self._next_id = 0
        self._finished = False  # the game's `finished` came
        self._given_finished = False
        self._closed = False
        self._failures = 0  # connections in a row that brought nothing
        self._refusal: dict[str, Any] | None = None  # the problem that refused the connection, its close to follow

    @property
    def reconnects(self) -> int:
        """The connections made after the first."""
        return max(0, self._connections - 1)

    def __iter__(self) -> Iterator[GameMessage]:
        return self

    def __next__(self) -> GameMessage:
        while not self._messages:
            if self._closed or self._given_finished:
                raise StopIteration
            self._read()
        message = self._messages.popleft()
        self._given_finished = message.event == "finished"
        return message

    def __enter__(self) -> "GameSocket":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(
        self, body: Mapping[str, Any], *, expected_version: int | None = None, idempotency_key: str | None = None
    ) -> t.CommandResult:
        """A command for the seat; ``expected_version`` is If-Match,
        ``idempotency_key`` (a uuid4 unless given) its Idempotency-Key."""
        message: dict[str, Any] = {"type": "command", "body": dict(body), "idempotency_key": idempotency_key or str(uuid.uuid4())}
        if expected_version is not None:
            message["if_match"] = expected_version
        return cast(t.CommandResult, self._ask(message, again=True))

    def say(self, text: str) -> dict[str, Any]:
        """Says ``text`` at the table (a seat) or among the spectators."""
        return self._ask({"type": "chat", "text": text}, again=False)

    def drop(self) -> None:
        """Close the current connection: the next read connects again and resumes."""
        ws, self._ws = self._ws, None
        if ws is not None:
            try:
                ws.close()
            except ConnectionClosed:
                pass

    def close(self) -> None:
        self._closed = True
        self.drop()

    def _ask(self, message: dict[str, Any], again: bool) -> dict[str, Any]:
        self._next_id += 1
        message_id = message["id"] = self._next_id
        frame = json.dumps(message)
        while True:
            ws = self._connection()
            connection = self._connections
            try:
                ws.send(frame)
            except ConnectionClosed:
                pass
            while message_id not in self._answers and self._connections == connection and not self._closed:
                self._read()
            if message_id in self._answers:
                break
            if self._closed:
                raise ConnectionError("the socket was closed before the answer")
            if not again:
                raise ConnectionError("the socket closed before the answer (the message may have been said)")
        answer = self._answers.pop(message_id)
        if answer["event"] == "problem":
            raise problem_from(answer["data"])
        return cast(dict[str, Any], answer["data"])

    def _connection(self) -> WebSocket:
        """The connection, made (and said hello on) if there is none."""
        while self._ws is None:
            if self._closed:
                raise ConnectionError("the socket is closed")
            try:
                ws = WebSocket.connect(self.url)
            except (Refused, OSError) as error:
                status = getattr(error, "status_code", None)
                if isinstance(status, int) and status not in (429, 503):  # refused before the upgrade
                    raise Problem(status, {"title": "Refused", "detail": f"the socket was refused ({status})"}) from None
                self._retry(None)
                continue
            ws.send(json.dumps({"type": "hello", "token": self.token, "last_event_id": self.last_event_id, "data": self.data}))
            self._ws = ws
            self._connections += 1
        return self._ws

    def _read(self) -> None:
        """One message read (a stream message kept, an answer filed), or
        the connection's end dealt with."""
        ws = self._connection()
        try:
            text = ws.receive(timeout=self.client.stream_read_timeout)
        except ConnectionClosed:
            return self._ended(ws)
        if text is None:  # not even a heartbeat: taken for dead
            self.drop()
            return self._retry(None)
        if not text:
            return  # the heartbeat
        found = json.loads(text)
        self._failures = 0  # something came: the next failure is the first in a row
        if found["event"] in ("answer", "problem"):
            if found["id"] is None:
                self._refusal = found["data"]  # the connection's: its close follows
            else:
                self._answers[found["id"]] = found
            return
        message = cast(GameMessage, _message(found, GAME_MESSAGES))
        if message.event == "finished":
            if self._finished:
                return  # again, on a connection made to send what waited
            self._finished = True
        elif message.event in UNLOGGED:
            pass  # told again on each connection, as it stands then
        elif self.last_event_id is not None and message.position <= position_of(self.last_event_id):
            return  # given before the reconnection
        else:
            self.last_event_id = message.id
        self._messages.append(message)

    def _ended(self, ws: WebSocket) -> None:
        """The server closed the connection: the game's end, a refusal, or a drop."""
        if self._ws is ws:
            self._ws = None
        code, refusal = ws.close_reason, self._refusal
        self._refusal = None
        if code == 1000 and self._finished:
            return  # the game's end: a send still waiting connects again
        wait = None
        if refusal is not None and code == 4000 + refusal.get("status", 0):
            problem = problem_from(refusal)
            if problem.status not in (408, 429, 503):
                self._closed = True
                raise problem
            wait = problem.retry_after
        self._retry(wait)

    def _retry(self, wait: float | None) -> None:
        """The wait before connecting again, or the giving up."""
        if self._failures >= self.client.retries:
            self._closed = True
            raise ConnectionError(f"the socket failed {self._failures + 1} times in a row")
        self._failures += 1
        self.client.sleep(wait if wait is not None else self.client.backoff(self._failures - 1))


# the messages that are no place in the game's log: an ``analysis`` carries
# the finished game's last version as its id (the server tells each analysis
# under way again on each connection); a stream never skips one as given
# before, nor resumes from it
UNLOGGED = frozenset({"analysis"})


def _message(line: dict[str, Any], kinds: Mapping[str, type[Message]] | type[Message]) -> Message:
    """A line of a stream as the class of its kind (``kinds`` a class: every
    message of that stream is one, a player's or a tournament's)."""
    found = line["id"]
    kind = kinds if isinstance(kinds, type) else kinds.get(line["event"], Message)
    return kind(event=line["event"], id=found if isinstance(found, str) else int(found), data=line["data"])


def _may_retry_503(policy: Policy, response: httpx.Response) -> bool:
    if policy in ("read", "idempotent"):
        return True
    if policy == "unsafe":
        try:
            code = response.json().get("code")
        except (ValueError, AttributeError):
            return False
        return code in NOTHING_WRITTEN
    return False  # a probe's 503 is its answer


def _game(game_id: str, *rest: str) -> str:
    return "/".join((f"/v1/games/{quote(game_id, safe='')}", *rest))


def _tournament(tournament_id: str, *rest: str) -> str:
    return "/".join((f"/v1/tournaments/{quote(tournament_id, safe='')}", *rest))


def _tag(version: int | str) -> str:
    """A version as an entity tag: ``"12"`` (a tag given as text is sent as it is)."""
    return f'"{version}"' if isinstance(version, int) else version


def _query_value(value: Any) -> Any:
    return ("true" if value else "false") if isinstance(value, bool) else value


__all__ = ["GameSocket", "Stream", "Tabletell", "WebhookSignatureError", "USER_AGENT"]
