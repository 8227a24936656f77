"""Points, tie-breaks and standings (docs/tournaments.md: "points per
place", "streaks", "byes and smaller tables", "tie-breaks")."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from games.tournaments.model import ARENA, Entrant, Tournament

# on fire: after this many first places in a row, a game's points are doubled
ON_FIRE_AFTER = 2


def table_ranks(players: Sequence[str], places: Mapping[str, int], left: Sequence[str], no_shows: Sequence[str]) -> dict[str, int]:
    """Each player's rank at a finished table (1 best, ties share a rank):
    the players who stayed by the game's places, then those who left below
    them all, the first to leave lowest, and below them the no-shows the
    result did not list as leaving (rule "no-shows": a no-show is a leave at
    the table's forming)."""
    gone = list(left) + [who for who in no_shows if who not in left]
    stayed = sorted((who for who in players if who not in gone), key=lambda who: places[who])
    ranks: dict[str, int] = {}
    for index, who in enumerate(stayed):
        tied = index and places[stayed[index - 1]] == places[who]
        ranks[who] = ranks[stayed[index - 1]] if tied else index + 1
    # the last to leave ranks highest of those who left
    for offset, who in enumerate(reversed(left)):
        ranks[who] = len(stayed) + offset + 1
    rest = [who for who in gone if who not in left]
    for offset, who in enumerate(rest):
        ranks[who] = len(stayed) + len(left) + offset + 1
    return ranks


def place_points(rank: int, ranks: Mapping[str, int], seats: int) -> int:
    """Rule "points per place": one point for each tablemate who finished
    below, scaled to a table of the tournament's size (a smaller table's
    winner scores what a full table's does), rounded half up."""
    beaten = sum(1 for other in ranks.values() if other > rank)
    at_table = len(ranks)
    if at_table < 2:
        return 0
    return (2 * beaten * (seats - 1) + (at_table - 1)) // (2 * (at_table - 1))


def bye_points(seats: int) -> int:
    """Rule "byes and smaller tables": a bye scores the average of a table's
    points rounded up (at a table of two, a win, as a chess bye is)."""
    return -(-(seats - 1) // 2)


def table_points(state: Tournament, ranks: Mapping[str, int]) -> dict[str, int]:
    """What each player scores at a finished table: the points of their
    place, doubled in an arena for a player on fire (rule "streaks": the
    ``ON_FIRE_AFTER`` tables before this one were first places). A player
    who left or did not show scores their place's points (nothing doubled:
    they were not there to play on fire)."""
    out = {}
    for who, rank in ranks.items():
        points = place_points(rank, ranks, state.seats)
        entrant = state.players[who]
        if state.format == ARENA and entrant.streak >= ON_FIRE_AFTER:
            points *= 2
        out[who] = points
    return out


def tiebreaks(state: Tournament, entrant: Entrant) -> list[int]:
    """Rule "tie-breaks": Swiss: the sum of every tablemate's points (each
    once a table shared: a Buchholz sum), then first places. Arena: first
    places, then the Buchholz sum. Rating comes after both, then the player
    id (the same order for everyone, but no merit: a shared rank)."""
    buchholz = sum(state.players[mate].points for mate in entrant.tablemates)
    if state.format == ARENA:
        return [entrant.firsts, buchholz]
    return [buchholz, entrant.firsts]


def standings(state: Tournament) -> list[dict[str, Any]]:
    """Ranked rows: by points, then the tie-breaks, then rating; players
    equal on all three share a rank. Withdrawn players stay in (flagged)."""
    rows: list[dict[str, Any]] = []
    for entrant in state.players.values():
        rows.append(
            {
                "player": entrant.player,
                "name": entrant.name,
                "points": entrant.points,
                "tiebreaks": tiebreaks(state, entrant),
                "games": entrant.games,
                "rating": entrant.rating,
                "withdrawn": entrant.withdrawn is not None,
                "streak": entrant.streak,
            }
        )
    rows.sort(key=lambda row: (-row["points"], [-value for value in row["tiebreaks"]], -row["rating"], row["player"]))
    ranked: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        before = rows[index - 1] if index else None
        same = before is not None and all(before[key] == row[key] for key in ("points", "tiebreaks", "rating"))
        ranked.append({"rank": ranked[-1]["rank"] if same else index + 1, **row})
    return ranked
