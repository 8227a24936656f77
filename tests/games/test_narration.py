"""Narration (``games/narration.py`` and each game's ``narration.py``):
every event type of every game, and every event of the table, is told in
one sentence from each viewer's side, naming seats by their display names
and the viewer as "you". What a description may know is held by the
non-interference test and the two-world harness (they compare ``text``)."""
from __future__ import annotations

import importlib
import random
import re

import pytest

from games import narration
from games import table as tables
from games.contract import Event
from games.registry import GAMES
from projections.local import LocalGame
from projections.views import feed, stream_messages

NAMES = ["Ana", "Bot 1 (heuristic)", "Carla", "Bot 2 (expert)", "Dev", "Eve"]
# options that reach every event type a game has (a variant's events: the
# reveal rounds, the Predictable and Swap variants, the extended match)
VARIANTS = {
    "color-doubt": [{}, {"extended": True, "match_games": 2, "cards_per_suit": 4}],
    "opticall": [{}, {"setup": "classic"}],
    "deceptidice": [{}, {"predictable": True, "loser_swap": "player"}, {"loser_swap": "draw_pile", "power_cards": True}],
    "diez": [{}],
}
# the seeds whose games (random bots, the seat counts and variants below)
# meet every event type of each game between them (found by playing seeds
# in order; a rules change that moves an event elsewhere fails the test
# below, naming it)
SEEDS = {"color-doubt": [0], "opticall": [0, 1, 3], "deceptidice": [0, 1], "diez": [0, 1, 2, 4, 8, 18]}


def package(game_type: str) -> str:
    return "games." + game_type.replace("-", "_")


def played(game_type: str):
    """The games of ``SEEDS``: seat counts 2, 3, 4, 5 in turn (within the
    game's), the variants of ``VARIANTS`` in turn."""
    game = GAMES[game_type]
    for seed in SEEDS[game_type]:
        seats = min(game.max_seats, max(game.min_seats, 2 + seed % 4))
        options = dict(VARIANTS[game_type][seed % len(VARIANTS[game_type])])
        if game_type == "opticall" and seats == 2:
            options["two_players"] = True
        local = LocalGame(game_type, seats, seed=seed, options=options)
        local.play_out({s: game.bots["random"] for s in range(seats)}, random.Random(seed))
        yield local


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_narration_every_event_type_of_every_game_is_told_from_every_side(game_type):
    """Each type of ``evolve.EVENTS`` has its teller, and every event of
    games that meet them all is told from every seat's side and a
    spectator's: a sentence, "you" for the viewer, no seat by number, no
    identifier (``black_sheep``) left raw."""
    game = GAMES[game_type]
    tellers = importlib.import_module(package(game_type) + ".narration").TELLERS
    events = importlib.import_module(package(game_type) + ".evolve").EVENTS
    assert set(tellers) == set(events), "a teller for every event type evolve folds, and none else"
    met: set[str] = set()
    for local in played(game_type):
        names = NAMES[: local.table.seats]
        for envelope in local.envelopes:
            met.add(envelope.type)
            for viewer in [None, *range(local.table.seats)]:
                seen = Event(envelope.type, envelope.seen_by(viewer)["data"])
                # the game's own describe, not the dispatcher's fallback
                told = narration.describe_table(game, seen, viewer, names) if envelope.type in tables.TABLE_EVENTS else game.describe(seen, viewer, names)
                assert told and (told[0].isupper() or told[0].isdigit()) and told[-1] in ".!", (envelope.type, told)
                assert "_" not in told and "None" not in told, (envelope.type, told)
                assert not re.search(r"\b[Ss]eat \d", told), (envelope.type, told)
                if viewer is not None:
                    assert NAMES[viewer] not in told, f"the viewer is 'you': {told}"
    assert met >= set(events), f"no game met {sorted(set(events) - met)}"


def test_narration_tells_the_issue_s_doubt_from_each_side():
    """A doubt of a true claim, from the claimant's, the doubter's and a
    spectator's side."""
    doubt = Event(
        "doubted",
        {"seat": 1, "claimant": 0, "cards": [{"id": "a", "color": "orange"}] * 6, "truthful": True, "taker": 1,
         "taken": 13, "leader": 0},
    )
    names = ["Ana", "Bot 1 (expert)"]
    game = GAMES["color-doubt"]
    assert narration.describe(game, doubt, 0, names) == (
        "Bot 1 (expert) doubted your 6 orange: it was true, Bot 1 (expert) takes 13 cards as minus points."
    )
    assert narration.describe(game, doubt, 1, names) == "You doubted Ana's 6 orange: it was true, you take 13 cards as minus points."
    assert narration.describe(game, doubt, None, names).startswith("Bot 1 (expert) doubted Ana's 6 orange")


def test_narration_tells_every_event_of_the_table():
    game = GAMES["color-doubt"]
    names = ["Ana", "Bot 1 (heuristic)", "Carla"]
    samples = {
        "game_created": {"type": "color-doubt", "seats": 3, "bots": [{"seat": 1, "level": "heuristic"}]},
        "seat_taken": {"seat": 2, "name": "Carla"},
        "bots_seated": {"bots": [{"seat": 1, "level": "heuristic"}]},
        "game_started": {"shuffle_commitment": "00"},
        "seat_timed_out": {"seat": 0, "kind": "turn", "streak": 2},
        "autopilot_started": {"seat": 0},
        "seat_returned": {"seat": 0},
        "seat_left": {"seat": 0},
        "game_finished": {"result": {"winners": [2]}, "seed": "s"},
        "game_abandoned": {"reason": "no_players", "seed": "s"},
    }
    assert set(samples) == tables.TABLE_EVENTS
    told = {kind: narration.describe(game, Event(kind, data), 0, names) for kind, data in samples.items()}
    assert told["game_created"] == "A table of Color Doubt for 3 players was set, with Bot 1 (heuristic)."
    assert told["seat_timed_out"] == "You ran out of time on your turn (2 in a row): the rules acted instead."
    assert told["autopilot_started"] == "A bot now plays for you until you act again."
    assert told["seat_left"] == "You left the table: a bot plays your seat to the end."
    assert told["game_finished"] == "The game is over: Carla won."
    assert narration.describe(game, Event("game_finished", samples["game_finished"]), 2, names) == "The game is over: you won!"
    assert narration.describe(game, Event("seat_left", {"seat": 2}), 0, names) == "Carla left the table: a bot plays Carla's seat to the end."


def test_narration_never_refuses_an_event_it_cannot_read():
    """A feed is never refused for its narration: an event a teller cannot
    read (a log written by other code) is told by its type."""
    game = GAMES["diez"]
    assert narration.describe(game, Event("played", {}), 0, ["Ana", "Bea"]) == "Played."
    assert narration.describe(game, Event("no_such_event", {}), None, ["Ana", "Bea"]) == "No such event."


def test_narration_display_names_number_the_bots_and_the_free_seats():
    assert narration.display_names(["Ana", "expert bot", None, "heuristic bot"], {1: "expert", 3: "heuristic"}) == [
        "Ana", "Bot 1 (expert)", "Seat 3", "Bot 2 (heuristic)",
    ]


def test_narration_is_served_as_text_on_every_feed_entry():
    local = LocalGame("color-doubt", 2, seed="text", bots=[{"seat": 1, "level": "heuristic"}])
    entries = feed(local.folded, local.envelopes, 0)
    assert all(entry["text"] for entry in entries)
    assert entries[0]["text"] == "A table of Color Doubt for 2 players was set, with Bot 1 (heuristic)."
    assert entries[1]["text"] == "You sat down at the table."
    # the streams of events send the same entries
    streamed = stream_messages(local.folded, local.envelopes, 0, "events")
    assert [data for _, _, data in streamed] == entries


def test_narration_tells_the_player_who_left_the_table_what_the_bot_played_at_their_seat_as_your_bot():
    """Rule "leaving the table": to the player who left, the moves a bot
    made at their seat, and the game's end, are "your bot"'s, never "you":
    the player did not make them. Everyone else reads them as before."""
    game = GAMES["color-doubt"]
    names = ["Ana", "Bea"]
    laid = Event("played", {"seat": 0, "count": 2, "color": "red"})
    assert narration.describe(game, laid, 0, names) == "You laid 2 cards face down, claiming 2 red."
    assert narration.describe(game, laid, 0, names, by_bot=True) == "Your bot laid 2 cards face down, claiming 2 red."
    assert narration.describe(game, laid, 1, names) == "Ana laid 2 cards face down, claiming 2 red."
    over = Event("game_finished", {"result": {"winners": [0]}, "seed": "s"})
    assert narration.describe(game, over, 0, names, by_bot=True) == "The game is over: your bot won."

    # in a feed: the bot's entries at the seat its player left, and the end
    local = LocalGame("color-doubt", 2, seed="left")
    local.command(0, {"type": "leave"})
    rng = random.Random(2)
    while not local.finished:
        seat = local.view(None)["to_act"][0]
        local.command(seat, game.bots["random"](local.view(seat, for_bot=True), rng), actor="bot" if seat == 0 else "player")
    mine = feed(local.folded, local.envelopes, 0)
    played = [entry["text"] for entry in mine if entry["seat"] == 0 and entry["actor"] == "bot"]
    assert any(text.startswith("Your bot ") for text in played)  # its moves; and what followed them, told of it too
    assert not any(re.search(r"\byou(r)?\b", re.sub(r"(?i)\byour bot\b", "", text), re.I) for text in played), played
    assert mine[-1]["text"] in ("The game is over: your bot won.", "The game is over: seat 1 won.")
    theirs = feed(local.folded, local.envelopes, 1)
    assert not any("your bot" in entry["text"].lower() for entry in theirs)
