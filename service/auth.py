"""Seat tokens: bearer secrets, known to the server only by their hash."""
from __future__ import annotations

import re
import threading
from collections import OrderedDict

from flask import request

from events.store import EventStore
from service.commands import token_hash
from service.problems import Problem

BEARER = re.compile(r"^Bearer\s+(\S+)\s*$", re.IGNORECASE)


class Seats:
    """Finds the seat a bearer token holds at a game.

    A token's seat never changes, so found pairs are kept in memory and a
    view read costs no lookup.
    """

    def __init__(self, store: EventStore, capacity: int = 8192):
        self.store = store
        self.capacity = capacity
        self._known: OrderedDict[tuple[str, str], int] = OrderedDict()
        self._lock = threading.Lock()

    def seat(self, game_id: str, required: bool = True) -> int | None:
        """The bearer's seat; None without a token when ``required`` is False."""
        header = request.headers.get("Authorization")
        if header is None:
            if required:
                raise Problem(401, "missing_token", "Send the seat's token as 'Authorization: Bearer <token>'.")
            return None
        match = BEARER.match(header)
        if not match:
            raise Problem(401, "invalid_token", "The Authorization header must be 'Bearer <token>'.")
        key = (game_id, token_hash(match.group(1)))
        with self._lock:
            seat = self._known.get(key)
        if seat is None:
            seat = self.store.seat_for_token(game_id, key[1])
            if seat is None:
                raise Problem(401, "invalid_token", "This token holds no seat at this game.")
            with self._lock:
                self._known[key] = seat
                while len(self._known) > self.capacity:
                    self._known.popitem(last=False)
        return seat
