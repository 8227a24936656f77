"""The player events an append brings (``projections/player_events.py``),
told to their player as ``text``, as player streams and webhooks send them."""
from __future__ import annotations

import dataclasses
import random

from games.registry import GAMES
from projections.folding import Folded, fold
from projections.local import LocalGame
from projections.player_events import player_events

BOT = [{"seat": 1, "level": "heuristic"}]


def held_by_a_player(envelopes, version: int) -> Folded:
    """The game at ``version``, seat 0 taken by player p0."""
    folded = fold(envelopes[:version], None, "g")
    return dataclasses.replace(folded, table=dataclasses.replace(folded.table, players=("p0", None)))


def test_player_events_are_told_to_their_player():
    local = LocalGame("color-doubt", 2, seed="told", bots=BOT, options={"turn_seconds": 0})
    started = next(e.version for e in local.envelopes if e.type == "game_started")
    events = player_events(held_by_a_player(local.envelopes, started - 1), held_by_a_player(local.envelopes, local.version))
    told = {kind: data["text"] for _, kind, data, _ in events}
    assert told["game_started"] == "Your game of Color Doubt has started, with Bot 1 (heuristic)."
    assert told.get("turn", "Your turn in Color Doubt, with Bot 1 (heuristic).") == "Your turn in Color Doubt, with Bot 1 (heuristic)."

    heuristic = GAMES["color-doubt"].bots["heuristic"]
    local.play_out({0: heuristic, 1: heuristic}, random.Random(1))
    last = local.version
    ended = player_events(held_by_a_player(local.envelopes, last - 1), held_by_a_player(local.envelopes, last))
    finished = [data["text"] for _, kind, data, _ in ended if kind == "game_finished"]
    won = 0 in local.table.result["winners"]
    assert finished == ["The game is over: you won (Color Doubt)." if won else "The game is over: Bot 1 (heuristic) won (Color Doubt)."]


def test_an_event_id_is_the_same_for_the_same_append_and_new_for_a_version_written_again():
    """A sweep doing an append's work again gives the same ids (dropped as
    duplicates); the same version written again with another entry (a
    store restored from a backup, then played on) gives new ones, so a
    receiver deduplicating by ``webhook-id`` takes them."""
    local = LocalGame("color-doubt", 2, seed="ids", bots=BOT, options={"turn_seconds": 0})
    started = next(e.version for e in local.envelopes if e.type == "game_started")
    before, after = held_by_a_player(local.envelopes, started - 1), held_by_a_player(local.envelopes, started)
    first = [event_id for *_, event_id in player_events(before, after)]
    assert first and first == [event_id for *_, event_id in player_events(before, after)]
    rewritten = dataclasses.replace(after, last_hash="0" * 64)  # that version's entry, written again otherwise
    again = [event_id for *_, event_id in player_events(before, rewritten)]
    assert len(again) == len(first) and not set(again) & set(first)
    assert all(event_id.startswith(f"g:{started}:") for event_id in first)
