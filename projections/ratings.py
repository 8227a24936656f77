"""Ratings, the pure part: what a finished game says about its players'
skill, and the rating model that turns it into numbers.

A finished game counts for the ratings when it was created ``rated`` and at
least two of its seats are held by player keys (``Table.players``); bots
never are (a rated game seats none). The game's result ranks those players:
its winners share first place, everyone else shares the place after (every
game's ``result`` names its ``winners``; none ranks the losers among
themselves in a way all four share).

Rule "leaving the table": leaving a rated game is a resignation, as on
Lichess and Board Game Arena. A bot plays the seat to the end, but what it
does there is not the player's: the players who left (``Table.left``, folded
from the log's ``seat_left`` events, in their order) are ranked below every
player who stayed, whatever their seats' results, and among themselves by
when they left, the first to leave last (as players knocked out of a game
are placed: who stayed longer played more of it; each ``seat_left`` is an
entry of its own, so the log always orders them). The players who stayed
are ranked by the result as above, or share first place when only a seat
that left won.

The model is OpenSkill's Plackett-Luce (the ``openskill`` package, Weng and
Lin's Bayesian approximation): a rating is a skill estimate ``mu`` and its
uncertainty ``sigma`` (25 and 25/3 for a new player), updated from a
free-for-all table's ranks in one step, for 2 to 10 seats alike. What a
leaderboard ranks by is ``mu - 3 sigma`` (openskill's ``ordinal``: a rating the
player is very likely above), so a newcomer who won once is not placed above a
player who has won often. The arithmetic is deterministic: the same inputs
in the same order give the same floats, which is what lets ``reindex`` rebuild
exactly the numbers the live service wrote.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from openskill.models import PlackettLuce

from games import table as tables
from projections.folding import Folded

MODEL = PlackettLuce()
MU = MODEL.mu  # 25.0: a new player's skill estimate
SIGMA = MODEL.sigma  # 25/3: and its uncertainty


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0  # rated games played of this type

    @property
    def ordinal(self) -> float:
        """What leaderboards rank by: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Placing:
    player_id: str
    seat: int
    rank: int  # 1 for the winners, then the others who stayed, then those who left (``places``)


@dataclass(frozen=True)
class RatedResult:
    """A finished rated game, as the ratings read it."""

    game_id: str
    game_type: str
    finished_at: int  # the table's ended_at (game_finished's time, ms): the order games are rated in
    placings: tuple[Placing, ...]


def rated_result(folded: Folded | None) -> RatedResult | None:
    """What ``folded`` means to the ratings: None unless it is a finished
    rated game with two or more seats held by players."""
    if folded is None:
        return None
    table = folded.table
    if not table.rated or table.status != tables.FINISHED or table.result is None:
        return None
    ranks = places(table)
    # ``places`` ranks only seats a player holds
    placings = tuple(
        Placing(player, seat, ranks[seat]) for seat, player in enumerate(table.players) if player is not None and seat in ranks
    )
    if len(placings) < 2:
        return None
    return RatedResult(folded.game_id, folded.game.type, table.ended_at or 0, placings)


def places(table: tables.Table) -> dict[int, int]:
    """The place of each seat a player holds (1 is first; equal places are
    ties), by rule "leaving the table" (the module's docstring): the
    winners who stayed, then the others who stayed, then each seat that
    left, the last to leave first and the first to leave last. Places
    follow on without gaps (1, 2, 3)."""
    seated = [seat for seat, player in enumerate(table.players) if player is not None and seat not in table.bots]
    winners = set((table.result or {}).get("winners") or ())
    stayed = [seat for seat in seated if seat not in table.left]
    groups = [[seat for seat in stayed if seat in winners], [seat for seat in stayed if seat not in winners]]
    groups += [[seat] for seat in reversed(table.left) if seat in seated]
    ranks: dict[int, int] = {}
    place = 0
    for group in groups:
        if group:
            place += 1
            ranks.update(dict.fromkeys(group, place))
    return ranks


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """Each player's rating after a game where they placed ``ranks`` (1 is
    first; equal ranks are ties), from their ratings ``before``."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [Rating(team[0].mu, team[0].sigma, old.games + 1) for team, old in zip(rated, before)]
