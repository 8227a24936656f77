"""A game played in memory through the same table Decider, envelopes and
views as the service, without the store: for property tests, bot
benchmarks and replay checks that need thousands of games quickly.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from events.envelope import Envelope
from games import table as tables
from games.registry import GAMES
from projections.folding import Folded, advance
from projections.views import seat_view

START_AT = 1_800_000_000_000  # a fixed clock, so local games replay exactly


class LocalGame:
    def __init__(
        self,
        game_type: str,
        seats: int,
        seed: str | int,
        options: Mapping[str, Any] | None = None,
        bots: list[dict] | None = None,
        rules: int | None = None,
        players: list[str | None] | None = None,
        rated: bool = False,
    ):
        """``rules``: the rules version to play by (default: today's);
        ``players``: the player (id) who takes each seat, by seat (None: a
        seat taken by name alone, or a bot's); ``rated``: a rated game."""
        self.game = GAMES[game_type]
        self.now = START_AT
        create = {
            "type": "create",
            "game_type": game_type,
            "seats": seats,
            "options": dict(options or {}),
            "bots": list(bots or []),
            "seed": str(seed),
            "rules": self.game.rules_version if rules is None else rules,
            "at": self.now,
        }
        if rated:
            create["rated"] = True
        # the game each command leads to is the table its decision reached
        # (``advance``), never folded again, as the service keeps it: the
        # conformance harness folds the whole log at the end and compares
        self.envelopes: list[Envelope]
        self.envelopes, self.folded = advance(None, self.game, create, None, "create", "system", game_id="local")
        for seat in tables.free_seats(self.table):
            join = {"type": "join", "name": f"seat {seat}", "at": self.now}
            if players and players[seat] is not None:
                join["player"] = players[seat]
            self._apply(*advance(self.folded, self.game, join, None, f"join-{seat}", "player"))

    @property
    def table(self) -> tables.Table:
        return self.folded.table

    @property
    def version(self) -> int:
        return self.folded.version

    @property
    def finished(self) -> bool:
        return self.table.status == tables.FINISHED

    def view(self, seat: int | None, for_bot: bool = False) -> dict[str, Any]:
        """``seat_view``: ``for_bot``, as the bot playing a seat its player left sees it."""
        return seat_view(self.folded, seat, for_bot)

    def command(self, seat: int | None, body: Mapping[str, Any], actor: str = "player") -> list[Envelope]:
        """Decide and apply ``body`` for ``seat``; raises RuleError."""
        command = {**body, "seat": seat, "at": self.now, "actor": actor}
        envelopes, after = advance(self.folded, self.game, command, seat, f"c{self.version + 1}", actor)
        self._apply(envelopes, after)
        return envelopes

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * 1000)

    def play_out(
        self,
        bots: Mapping[int, Callable[[Mapping[str, Any], random.Random], dict]],
        rng: random.Random,
        max_commands: int = 20_000,
    ) -> int:
        """Let each seat's bot act until the game ends; returns commands sent.

        When several seats may act (a reaction window), one of them, chosen
        at random, acts first.
        """
        sent = 0
        while not self.finished:
            if sent >= max_commands:
                raise RuntimeError(f"{self.game.type}: no end after {max_commands} commands")
            seats = self.view(None)["to_act"]
            if not seats:
                raise RuntimeError(f"{self.game.type}: nobody can act at version {self.version}")
            seat = rng.choice(seats)
            self.command(seat, bots[seat](self.view(seat), rng))
            sent += 1
        return sent

    def _apply(self, envelopes: list[Envelope], after: Folded) -> None:
        self.envelopes.extend(envelopes)
        self.folded = after
