"""What every game's rule tests share: acting on a state through a game's
Decider, refusals, and reading events. Each game's ``tables.py`` binds these
to its ``GAME`` (``act = partial(kit.act, GAME)``)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from games.contract import Event, Game, RuleError


def act(game: Game, state: Any, seat: int | None, kind: str, at: int = 0, **fields) -> tuple[list[Event], Any]:
    """Decide a command and fold its events: (events, state after)."""
    events = game.decide(state, {"type": kind, "seat": seat, "at": at, **fields})
    for event in events:
        state = game.evolve(state, event)
    return events, state


def refused(game: Game, state: Any, seat: int | None, kind: str, at: int = 0, **fields) -> RuleError:
    """The RuleError the rules answer a command with (the test fails if
    they accept it)."""
    with pytest.raises(RuleError) as error:
        game.decide(state, {"type": kind, "seat": seat, "at": at, **fields})
    return error.value


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def of(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event.type == kind]


RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


def rules_section(game_type: str, heading: str) -> str:
    """The text under ``## <heading>`` (any case) in docs/rules/<game>.md, "" if none."""
    parts = re.split(r"^## (.+)$", (RULES / f"{game_type}.md").read_text(), flags=re.MULTILINE)
    return next((text for name, text in zip(parts[1::2], parts[2::2]) if name.strip().lower() == heading.lower()), "")


def left_and_played_out(game_type: str, seats: int, options: dict | None = None, seed: str = "leave"):
    """Rule "leaving the table", the same in every game: seat 0 leaves a game
    under way; its commands are refused from then on, a bot (the heuristic,
    as the workers give it) plays it with the other seats' bots to the end,
    and the log verifies. Returns the local game."""
    import random

    from games.contract import RuleError
    from projections.local import LocalGame

    local = LocalGame(game_type, seats, seed=seed, options=options)
    local.command(0, {"type": "leave"})
    assert local.envelopes[-1].type == "seat_left" and local.envelopes[-1].public == {"seat": 0}
    assert local.table.left == (0,) and local.view(None)["seats"][0]["left"]
    with pytest.raises(RuleError) as again:
        local.command(0, {"type": "leave"})
    assert again.value.code == "seat_left" and again.value.rule == "leaving the table"
    return played_out_after_leaving(local, random.Random(seed))


def played_out_after_leaving(local, rng, leave_later: tuple[int, ...] = (), after: int = 12):
    """``local`` played to its end: each seat its player left by the
    heuristic, from the view the workers' bot gets (``for_bot``), once its
    player's own move was refused and their view offered nothing; the other
    seats by the random bot. Each seat of ``leave_later`` leaves, in that
    order, once ``after`` more moves were made. The log verifies. Returns
    ``local``."""
    from games.contract import RuleError
    from projections.audit import verify

    game = local.game
    later = list(leave_later)
    moves = 0
    while not local.finished:
        if later and moves and moves % after == 0:
            local.command(later.pop(0), {"type": "leave"})
        for seat in local.view(None)["to_act"]:
            left = seat in local.table.left
            view = local.view(seat, for_bot=left)
            if left:
                # the player is offered nothing at the seat they left
                assert local.view(seat)["actions"] == [] and local.view(seat)["moves"] == []
            if left and view["actions"]:
                # the player's own move is refused; the bot's, for the same seat, is not
                body = game.bots["heuristic"](view, rng)
                with pytest.raises(RuleError) as refused:
                    local.command(seat, body)
                assert refused.value.code == "seat_left"
                local.command(seat, body, actor="bot")
            elif view["actions"]:
                local.command(seat, game.bots["random"](view, rng), actor="bot")
            break
        moves += 1
        assert moves < 5000, "no end"
    assert not any(e.type == "seat_returned" for e in local.envelopes), "a left seat never comes back"
    assert verify(local.envelopes).ok
    return local


def rated_and_left(game_type: str, seats: int, options: dict | None = None, seed: str = "leave"):
    """Rule "leaving the table" in a rated game: every seat a player's
    (``player-<seat>``), seat 0 leaves before any move and, at a table of
    three or more, the last seat leaves later; bots play them to the end.
    Leaving is a resignation: the ratings rank every player who stayed above
    every one who left, and of those who left the first to leave last,
    whatever their seats' results. Returns (the local game, each seat's
    rank in ``rated_result``)."""
    import random

    from projections.local import LocalGame
    from projections.ratings import rated_result

    players = [f"player-{seat}" for seat in range(seats)]
    local = LocalGame(game_type, seats, seed=seed, options=options, players=players, rated=True)
    local.command(0, {"type": "leave"})
    later = (seats - 1,) if seats > 2 else ()
    played_out_after_leaving(local, random.Random(seed), later)
    assert local.table.left == (0, *later)
    result = rated_result(local.folded)
    assert result is not None and sorted(p.player_id for p in result.placings) == players
    ranks = {p.seat: p.rank for p in result.placings}
    stayed = [seat for seat in range(seats) if seat not in local.table.left]
    winners = set(local.table.result["winners"])
    # those who stayed, by the result: the winners first (or all first, if only a seat that left won)
    assert {ranks[seat] for seat in stayed if seat in winners} <= {1}
    assert all(ranks[seat] == (2 if winners & set(stayed) else 1) for seat in stayed if seat not in winners)
    # then those who left, below every one who stayed, the first to leave last
    left_ranks = [ranks[seat] for seat in local.table.left]
    assert min(left_ranks) > max(ranks[seat] for seat in stayed)
    assert left_ranks == sorted(left_ranks, reverse=True) and len(set(left_ranks)) == len(left_ranks)
    assert ranks[0] == max(ranks.values()) == len(set(ranks.values()))  # last, and the places follow on
    return local, ranks


def leaving_a_rated_game_ranks_last(game_type: str, two: dict | None = None, four: dict | None = None) -> None:
    """Rule "leaving the table" in rated games of ``game_type`` (options
    ``two`` and ``four``, seed "rated"): seat 0 leaves a game of two before
    any move, the bot that plays the seat wins, and its player is ranked
    last all the same; at four the last seat leaves later, and both rank
    below the two who stayed, the first to leave last (``rated_and_left``)."""
    local, ranks = rated_and_left(game_type, 2, two, seed="rated")
    assert local.table.result["winners"] == [0] and ranks == {0: 2, 1: 1}
    local, ranks = rated_and_left(game_type, 4, four, seed="rated")
    assert ranks[0] == max(ranks.values()) and ranks[3] == ranks[0] - 1 and max(ranks[1], ranks[2]) < ranks[3]


def rated_under_way(game_type: str, seats: int, options: dict | None, seed: str, moves: int):
    """A local rated game, every seat a player's (``player-<seat>``),
    ``moves`` random moves in: what an operator ends or voids below."""
    import random

    from projections.local import LocalGame

    players = [f"player-{seat}" for seat in range(seats)]
    local = LocalGame(game_type, seats, seed=seed, options=options, players=players, rated=True)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = local.view(None)["to_act"][0]
        local.command(seat, local.game.bots["random"](local.view(seat), rng))
    return local


def ended_by_an_operator(game_type: str, seats: int, options: dict | None = None, seed: str = "end", moves: int = 6):
    """Rule "ending by an operator", the table's part, the same in every
    game: a rated game of players, ``moves`` random moves in, is ended by an
    operator: the log holds ``ended_by_operator`` with their name and reason, then
    ``game_finished`` with the game's ``standing`` (its result's shape), the
    views and feed entries fit the game's declared shapes, the log
    verifies, and the ratings rank the game by that result. Returns (the
    local game, each seat's rank in ``rated_result``)."""
    from games import table as tables
    from projections.audit import verify
    from projections.ratings import places, rated_result
    from projections.views import feed
    from tests.support.shapes import check_entry, check_view

    local = rated_under_way(game_type, seats, options, seed, moves)
    standing = local.game.standing(local.table.game)
    ended = local.command(None, {"type": "end", "operator": "op", "reason": "players idle"}, actor="system")
    assert [e.type for e in ended] == ["ended_by_operator", "game_finished"]
    assert ended[0].public == {"operator": "op", "reason": "players idle"} and ended[0].actor == "system"
    assert local.table.status == tables.FINISHED and local.table.result == standing == ended[1].public["result"]
    assert local.table.ended == {"operator": "op", "reason": "players idle"} and local.table.voided is None
    assert standing["winners"], "someone stands first"
    for seat in (None, *range(seats)):
        view = local.view(seat)
        check_view(local.game, view)
        assert view["ended"] == {"operator": "op", "reason": "players idle"} and view["voided"] is None
        for entry in feed(local.folded, ended, seat):
            check_entry(local.game, entry)
        assert "players idle" in feed(local.folded, ended, seat)[0]["text"]
    assert verify(local.envelopes).ok
    rated = rated_result(local.folded)
    assert rated is not None
    ranks = {p.seat: p.rank for p in rated.placings}
    assert ranks == places(local.table) and {ranks[s] for s in standing["winners"]} == {1}
    return local, ranks


def voided_by_an_operator(game_type: str, seats: int, options: dict | None = None, seed: str = "void", moves: int = 6):
    """Rule "ending by an operator": a rated game of players, ``moves``
    random moves in, is voided: ``game_voided`` with the operator's name,
    reason and the seed; finished with no result, never rated; views and
    entries fit the shapes; the log verifies. An end or a void of a game
    over is refused (``game_finished``), and so is either from a player."""
    from games import table as tables
    from games.contract import RuleError
    from projections.audit import verify
    from projections.ratings import rated_result
    from projections.views import feed
    from tests.support.shapes import check_entry, check_view

    local = rated_under_way(game_type, seats, options, seed, moves)
    with pytest.raises(RuleError) as player:
        local.command(0, {"type": "void", "operator": "me", "reason": "I am losing"})
    assert player.value.code == "unknown_command"
    voided = local.command(None, {"type": "void", "operator": "op", "reason": "cheating"}, actor="system")
    assert [e.type for e in voided] == ["game_voided"]
    assert voided[0].public == {"operator": "op", "reason": "cheating", "seed": local.table.seed}
    assert local.table.status == tables.FINISHED and local.table.result is None
    assert local.table.voided == {"operator": "op", "reason": "cheating"} and local.table.ended is None
    for seat in (None, *range(seats)):
        view = local.view(seat)
        check_view(local.game, view)
        assert view["voided"] == {"operator": "op", "reason": "cheating"} and view["result"] is None
        assert view["to_act"] == [] and view["deadlines"] == [] and view["moves"] == []
        (entry,) = feed(local.folded, voided, seat)
        check_entry(local.game, entry)
        assert "cheating" in entry["text"]
    assert rated_result(local.folded) is None, "a voided game is never rated"
    assert verify(local.envelopes).ok
    for kind in ("end", "void"):
        with pytest.raises(RuleError) as over:
            local.command(None, {"type": kind, "operator": "op", "reason": "again"}, actor="system")
        assert over.value.code == "game_finished" and over.value.rule == "ending by an operator"
    return local
