"""What the logs imply for the players (their feeds, the webhooks), worked
out afresh in the tests, to hold the outbox's work to."""
from __future__ import annotations

from projections.folding import fold
from projections.player_events import player_events


def implied_by(log: list, game_id: str) -> list[tuple[str, str, str]]:
    """(player, kind, event id) of every player event ``log`` implies, each
    command's on its own (as each append's when no batch of bot moves holds
    several commands)."""
    out, before, at = [], None, 0
    while at < len(log):
        end = at + 1
        while end < len(log) and log[end].command_id == log[at].command_id:
            end += 1
        after = fold(log[at:end], before, game_id)
        out += [(player, kind, event_id) for player, kind, _, event_id in player_events(before, after)]
        before, at = after, end
    return out
