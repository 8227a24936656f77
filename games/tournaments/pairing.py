"""Forming tables (docs/tournaments.md: "swiss pairing", "byes and smaller
tables", "arena pool and pairing").

Pure and deterministic: the order of the players comes from their scores,
their ratings and the tournament's seed, nothing else, so re-deciding a
tick from the log forms the same tables.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from games import rng as seeded

# how many of the next players in rank order a table's seat is looked for
# among before it settles for the one who repeats the fewest tablemates
WINDOW = 48
# how many tables either side a repeated pair is swapped with, and how many
# passes over the tables the swaps make
SWAP_REACH, SWAP_PASSES = 6, 3


def table_sizes(count: int, seats: int, min_seats: int) -> tuple[list[int], int]:
    """How ``count`` players sit at tables of ``seats``: the sizes (full
    tables first) and how many are left over for byes. When the count does
    not divide, the tables are made as even as they can be, each one or
    more seats smaller, as long as the game's ``min_seats`` allows; when it
    does not, the remainder sits out (byes)."""
    if count < min_seats:
        return [], count
    tables = -(-count // seats)
    smallest = count // tables
    if count % seats == 0:
        return [seats] * tables, 0
    if smallest >= min_seats:
        larger = count - smallest * tables
        return [smallest + 1] * larger + [smallest] * (tables - larger), 0
    full = count // seats
    return [seats] * full, count - full * seats


def ranked(players: Sequence[str], points: Mapping[str, int], ratings: Mapping[str, float], seed: str, *labels: object) -> list[str]:
    """``players`` by points, then rating, both highest first; players equal
    on both in an order drawn from the seed and ``labels`` (the round)."""
    draw = seeded.derive(seed, "order", *labels)
    lot = {who: draw.random() for who in sorted(players)}
    return sorted(players, key=lambda who: (-points[who], -ratings[who], lot[who]))


def repeats(tables: Sequence[Sequence[str]], met: Mapping[str, set[str] | frozenset[str]]) -> int:
    """How many pairs of players sit together again at ``tables``."""
    count = 0
    for table in tables:
        for i, who in enumerate(table):
            known = met.get(who)
            if known:
                count += sum(1 for other in table[i + 1 :] if other in known)
    return count


def form(order: Sequence[str], sizes: Sequence[int], met: Mapping[str, set[str] | frozenset[str]]) -> list[list[str]]:
    """Tables of ``sizes`` from ``order`` (best first): each table starts
    from the best player not seated yet and takes, seat by seat, the next
    player in order who has sat with none of it before (looking at most
    ``WINDOW`` players ahead, else the one who repeats the fewest); then a
    bounded pass of swaps between nearby tables removes the repeats left."""
    taken = [False] * len(order)
    front = 0
    tables: list[list[str]] = []
    empty: frozenset[str] = frozenset()
    for size in sizes:
        while taken[front]:
            front += 1
        taken[front] = True
        table = [order[front]]
        while len(table) < size:
            best, fewest, looked, i = -1, size + 1, 0, front + 1
            while i < len(order) and looked < WINDOW:
                if not taken[i]:
                    known = met.get(order[i], empty)
                    clash = 0 if not known or known.isdisjoint(table) else sum(1 for who in table if who in known)
                    if clash < fewest:
                        best, fewest = i, clash
                        if clash == 0:
                            break
                    looked += 1
                i += 1
            taken[best] = True
            table.append(order[best])
        tables.append(table)
    _swap(tables, met)
    return tables


def _clashes(table: Sequence[str], met: Mapping[str, set[str] | frozenset[str]]) -> int:
    return repeats([table], met)


def _swap(tables: list[list[str]], met: Mapping[str, set[str] | frozenset[str]]) -> None:
    """Swap single players between a table with a repeat and a table near it
    (nearest first) wherever that lowers the two tables' repeats."""
    for _ in range(SWAP_PASSES):
        improved = False
        for t, table in enumerate(tables):
            if not _clashes(table, met):
                continue
            for distance in range(1, SWAP_REACH + 1):
                for u in (t + distance, t - distance):
                    if not 0 <= u < len(tables) or not _clashes(table, met):
                        continue
                    other = tables[u]
                    before = _clashes(table, met) + _clashes(other, met)
                    for i in range(len(table)):
                        done = False
                        for j in range(len(other)):
                            table[i], other[j] = other[j], table[i]
                            if _clashes(table, met) + _clashes(other, met) < before:
                                improved = done = True
                                break
                            table[i], other[j] = other[j], table[i]
                        if done:
                            break
        if not improved:
            return


def seat_order(table: Sequence[str], seed: str, *labels: object) -> list[str]:
    """The seats of a formed table, drawn from the seed (who plays first is
    not who ranks highest)."""
    seated = list(table)
    seeded.derive(seed, "seats", *labels).shuffle(seated)
    return seated


def swiss_round(
    players: Sequence[str],
    points: Mapping[str, int],
    ratings: Mapping[str, float],
    byes_had: Mapping[str, int],
    met: Mapping[str, set[str] | frozenset[str]],
    seats: int,
    min_seats: int,
    seed: str,
    round_no: int,
) -> tuple[list[list[str]], list[str]]:
    """A Swiss round's tables (each in seat order) and its byes. The byes
    go to the lowest ranked players who have had the fewest byes."""
    order = ranked(players, points, ratings, seed, round_no)
    sizes, left_over = table_sizes(len(order), seats, min_seats)
    byes: list[str] = []
    if left_over:
        by_fewest = sorted(range(len(order)), key=lambda i: (byes_had.get(order[i], 0), -i))
        chosen = set(by_fewest[:left_over])
        byes = [order[i] for i in sorted(chosen)]
        order = [who for i, who in enumerate(order) if i not in chosen]
    tables = form(order, sizes, met)
    return [seat_order(table, seed, round_no, n + 1) for n, table in enumerate(tables)], byes
