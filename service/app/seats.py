"""Seat tokens: bearer secrets, known to the server only by their hash."""
from __future__ import annotations

import re
from typing import NoReturn

from typing import Callable

from events.store import EventStore
from service.app.commands import game_not_found
from service.app.ids import token_hash
from service.app.live import LiveGame
from service.app.errors import Unauthenticated

BEARER = re.compile(r"^Bearer\s+(\S+)\s*$", re.IGNORECASE)


class Seats:
    """Finds the seat a bearer token holds at a game.

    A token's seat never changes, so found pairs are kept with the game live
    in the process (``LiveGame.seats``) and a view read costs no lookup. The one way a seat's token stops working is
    its player's deletion (``DELETE /v1/players/me``): a seat taken with a
    player key is kept with its player's id, and each use of its token asks
    the store whether that player still exists (one round trip, as a player
    key's own use costs), so a deletion refuses it at once in every process.
    """

    def __init__(
        self,
        store: EventStore,
        exists,
        held: Callable[[str], LiveGame | None] = lambda game_id: None,
        player_seat=None,
        holder=None,
        player_exists=None,
    ):
        self.store = store
        self.exists = exists  # game id -> bool: an unknown game is not found, not a seat refused
        # game id -> the game as this process holds it, if it does (its
        # ``seats``: token hash -> (seat, the player who took it or None))
        self.held = held
        # (game id, bearer) -> the seat the bearer's player holds there, or
        # None: a player key acts for its player's seats. Never cached: a
        # replaced key must stop working at once
        self.player_seat = player_seat
        # (game id, seat) -> the player who took the seat (the log's
        # ``seat_taken``), or None; and player id -> not deleted
        self.holder = holder
        self.player_exists = player_exists

    def seat(self, game_id: str, header: str | None, required: bool = True) -> int | None:
        """The seat of the bearer an ``Authorization`` header (``header``)
        names; None without a token when ``required`` is False.

        A known token costs no lookup; only when the answer is a refusal do we
        ask whether the game exists, so an unknown game is not found either way.
        """
        if header is None:
            if required:
                self._refuse(game_id, "missing_token", "Send the seat's token as 'Authorization: Bearer <token>'.")
            return None
        match = BEARER.match(header)
        if not match:
            self._refuse(game_id, "invalid_token", "The Authorization header must be 'Bearer <token>'.")
        hashed = token_hash(match.group(1))
        live = self.held(game_id)
        known = live.seats.get(hashed) if live is not None else None
        if known is None:
            seat = self.store.seat_for_token(game_id, hashed)
            if seat is None:
                seat = self.player_seat(game_id, match.group(1)) if self.player_seat is not None else None
                if seat is None:
                    self._refuse(game_id, "invalid_token", "This token holds no seat at this game.")
                return seat
            known = (seat, self.holder(game_id, seat) if self.holder is not None else None)
            if live is not None:
                live.seats[hashed] = known
        seat, player = known
        if player is not None and self.player_exists is not None and not self.player_exists(player):
            self._refuse(game_id, "invalid_token", "This seat's player was deleted: its token no longer works.")
        return seat

    def _refuse(self, game_id: str, code: str, detail: str) -> NoReturn:
        """Always raises: ``NotFound`` for an unknown game, else
        ``Unauthenticated`` with ``code``."""
        if not self.exists(game_id):
            raise game_not_found(game_id)
        raise Unauthenticated(code, detail)
