"""A player deleting themselves (``DELETE /v1/players/me``), in the order
that leaves nothing half done.

1. Their seats are left, as leaving does (rule "leaving the table"): each
   game under way where they hold a seat not yet left gets the table's
   ``leave`` for that seat, through the command path like any command, so
   the log says ``seat_left`` and a bot plays the seat to the end (in a
   rated game it is a resignation: ``projections.ratings``). Nobody could
   play the seat after them: their key goes, and so does their seats'
   tokens' use (``service.app.seats``).
2. Their ratings: off every leaderboard, the history deleted
   (``Ratings.forget``).
3. Their key's entry, and then everything kept under their id in one step
   (``Players.delete``): the record, the feed and the games list. Work an
   append owed them and done after this (a game of theirs a bot plays to
   its end, a sweep late by its grace period) writes neither back.

Each step may be done again: a deletion cut short (a process killed, the
store away) leaves the record, so the same key asks again, and a seat left
already is refused ``seat_left`` and passed over. The record goes last: from
then on the key and the seats' tokens are refused (``invalid_token``).

A seat at a game still waiting for players is not left (a table has no
leaving before its start): the game starts without its player, and the
seat's turns time out to the autopilot as any absent player's do. The
seats are found in the player's games list, a projection the appends owe
(``service.app.outbox``): a seat taken moments before by a process that
died before writing the list (a sweep writes it within ``GRACE_SECONDS``)
is not found either, and goes the same way; its token is refused all the
same.
"""
from __future__ import annotations

from games import table as tables
from games.contract import RuleError
from service.app.commands import Commands
from service.app.players import Player, Players
from service.app.ratings import Ratings

# the refusals that say the seat needs no leaving: left already, or the
# game not under way (over, abandoned, or not started)
NOTHING_TO_LEAVE = ("seat_left", "game_over", "game_abandoned", "game_not_started")


class Deletion:
    def __init__(self, commands: Commands, players: Players, ratings: Ratings):
        self.commands = commands
        self.players = players
        self.ratings = ratings

    def delete(self, player: Player) -> list[str]:
        """Deletes ``player`` (the module's steps); the games whose seats it
        left. Raises the command path's ``Conflict`` when a seat could not
        be left (the game moved too often): nothing is deleted yet, and
        asking again goes on."""
        left = self.leave_seats(player.id)
        self.ratings.forget(player.id)
        self.players.delete(player)
        return left

    def leave_seats(self, player_id: str) -> list[str]:
        """``leave`` for each seat the player holds at a game under way."""
        left = []
        for game_id in self.players.games(player_id, limit=None):
            brief = self.commands.repository.brief(game_id)  # an archived game's from its record
            if brief is None or brief.status != tables.ACTIVE or player_id not in brief.players:
                continue
            try:
                self.commands.execute(game_id, brief.players.index(player_id), {"type": "leave"})
            except RuleError as refused:
                if refused.code not in NOTHING_TO_LEAVE:
                    raise
                continue
            left.append(game_id)
        return left
