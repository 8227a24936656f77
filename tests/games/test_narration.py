"""Narration (``games/narration.py`` and each game's ``narration.py``):
every event type of every game, and every event of the table, is told in
one sentence from each viewer's side, naming seats by their display names
and the viewer as "you". What a description may know is held by the
non-interference test and the two-world harness (they compare ``text``)."""
from __future__ import annotations

import functools
import importlib
import random
import re

import pytest

from games import narration
from games.narration import count
from games import table as tables
from games.contract import Event
from games.registry import GAMES
from projections.folding import fold
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


@functools.lru_cache(maxsize=None)
def played(game_type: str) -> tuple[LocalGame, ...]:
    """The games of ``SEEDS``: seat counts 2, 3, 4, 5 in turn (within the
    game's), the variants of ``VARIANTS`` in turn. Played once a process:
    the two tests that read them only read them, and playing Diez's six
    (some 10,000 events) was most of each test's time."""
    game = GAMES[game_type]
    games = []
    for seed in SEEDS[game_type]:
        seats = min(game.max_seats, max(game.min_seats, 2 + seed % 4))
        options = dict(VARIANTS[game_type][seed % len(VARIANTS[game_type])])
        if game_type == "opticall" and seats == 2:
            options["two_players"] = True
        local = LocalGame(game_type, seats, seed=seed, options=options)
        local.play_out({s: game.bots["random"] for s in range(seats)}, random.Random(seed))
        games.append(local)
    return tuple(games)


# each game's two tests that read ``played`` in one test process (--dist loadgroup), which plays its games once
BY_GAME = [pytest.param(game_type, marks=pytest.mark.xdist_group(f"narration-{game_type}")) for game_type in sorted(GAMES)]


@pytest.mark.parametrize("game_type", BY_GAME)
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
        "ended_by_operator": {"operator": "Olga", "reason": "every player idle"},
        "game_voided": {"operator": "Olga", "reason": "collusion", "seed": "s"},
    }
    assert set(samples) == tables.TABLE_EVENTS
    told = {kind: narration.describe(game, Event(kind, data), 0, names) for kind, data in samples.items()}
    assert told["game_created"] == "A table of Color Doubt for 3 players was set, with Bot 1 (heuristic)."
    assert told["seat_timed_out"] == "You ran out of time on your turn (2 in a row): the rules acted instead."
    assert told["autopilot_started"] == "A bot now plays for you until you act again."
    assert told["seat_left"] == "You left the table: a bot plays your seat to the end."
    assert told["game_finished"] == "The game is over: Carla won."
    assert told["ended_by_operator"] == "An operator (Olga) ended the game where it stands: every player idle."
    assert told["game_voided"] == "This game was voided by an operator (Olga): collusion."
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


# -- grammar: "you" in every role, counts 0, 1 and 2 ----------------------------

# the verbs the tellers agree with their subject (``Voice.s``, ``Voice.is_``)
VERBS = ("take", "lead", "play", "lose", "start", "win", "have", "claim", "guess", "give", "choose", "decide", "reveal", "are")
AGREED = {"take": "takes", "lead": "leads", "play": "plays", "lose": "loses", "start": "starts", "win": "wins",
          "have": "has", "claim": "claims", "guess": "guesses", "give": "gives", "choose": "chooses",
          "decide": "decides", "reveal": "reveals", "are": "is"}
# a few words of Voice's own that may follow "you" and end in an s
AFTER_YOU = {"as", "this", "always"}
# the fields that count something; those that may count none (0) too
COUNTS = {"count", "taken", "hand_size", "cards_each", "cards_left", "total", "required", "short", "streak",
          "pile", "deck", "discard", "draw_pile", "discards"}
MAY_BE_NONE = {"taken", "cards_left", "short", "pile", "deck", "discard", "draw_pile", "discards"}


@functools.lru_cache(maxsize=None)
def _named_verbs(others: tuple[str, ...]) -> re.Pattern:
    """A name of ``others`` with a verb agreed for "you" ("Ana take"), not
    the last of several ("Ana and Carla take")."""
    names = "|".join(re.escape(name) for name in others)
    return re.compile(rf"(?<!and )(?<![\w'])({names}) ({'|'.join(VERBS)})\b")


@functools.lru_cache(maxsize=None)
def misread(told: str, names: tuple[str, ...], viewer: int | None) -> tuple[str, ...]:
    """What reads wrong in ``told``: "you" with a verb or possessive for
    someone else ("you's", "you takes", "you is"), a name with the verb for
    "you" ("Ana take"), a count that does not agree ("1 cards", "1 card that
    are", "2 cards that is") or a bare 0 ("0 cards": "no cards")."""
    wrong = []
    if re.search(r"\b[Yy]ou's\b", told):
        wrong.append("you's")
    for word in re.findall(r"\b[Yy]ou ([a-z]+)\b", told):
        if word in AGREED.values() or (word.endswith("s") and word not in AFTER_YOU and word not in VERBS):
            wrong.append(f"you {word}")
    others = tuple(name for seat, name in enumerate(names) if seat != viewer)
    if others:
        for name, verb in _named_verbs(others).findall(told):
            wrong.append(f"{name} {verb}")
    if re.search(r"(?<![\w.])1 (card|die|player|token|timeout)s\b", told):
        wrong.append("1 ...s")
    if re.search(r"(?<![\w.])1 (?:[a-z]+ ){0,2}cards?(?: that)? (are|were)\b", told):
        wrong.append("1 card ... are")
    if re.search(r"(?<!of )(?<![\w.])([02-9]|\d\d+|no) (?:[a-z]+ ){0,2}cards(?: that)? (is|was)\b", told):
        wrong.append("2 cards ... is")
    if re.search(r"(?<![\w.])0 (card|die|player|token|timeout)s?\b", told):
        wrong.append("0 instead of no")
    return tuple(wrong)


def with_counts(value, n: int):
    """``value`` (an event's or a table's fields) with every count set to
    ``n`` (0 only where a count may be none)."""
    if isinstance(value, dict):
        return {
            key: n if key in COUNTS and isinstance(item, int) and not isinstance(item, bool) and (n or key in MAY_BE_NONE)
            else with_counts(item, n)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [with_counts(item, n) for item in value]
    return value


@pytest.mark.parametrize("game_type", BY_GAME)
def test_narration_reads_right_with_you_in_every_role_and_counts_0_1_2(game_type):
    """Every sentence a person reads, the events' and the table's
    (``table_says``), told from every seat's side (so "you" takes every role
    a seat has: subject, object, possessive) and a spectator's: each event
    of the games that meet every event type as played, and the first few of
    each type with the table after them, with their counts as played and as
    0, 1 and 2: "your 8 green", never "you's"; "1 card that is not", "2
    cards that are not", "no cards"."""
    game = GAMES[game_type]
    wrong: dict[str, str] = {}

    def check(told: str, names: list[str], viewer: int | None) -> None:
        for fault in misread(told, tuple(names), viewer):
            wrong.setdefault(fault, told)

    for local in played(game_type):
        names = NAMES[: local.table.seats]
        folded = None
        met: dict[str, int] = {}
        for envelope in local.envelopes:
            folded = fold([envelope], folded, "told")
            met[envelope.type] = met.get(envelope.type, 0) + 1
            sampled = met[envelope.type] <= 3
            for viewer in [None, *range(local.table.seats)]:
                data = envelope.seen_by(viewer)["data"]
                check(narration.describe(game, Event(envelope.type, data), viewer, names), names, viewer)
                if not sampled:
                    continue
                # the table's sentences after it, as the seat's view tells them
                table = game.view(folded.table.game, viewer)["table"] if folded.table.status in tables.DEALT else None
                for n in (None, 0, 1, 2):
                    if n is not None:
                        check(narration.describe(game, Event(envelope.type, with_counts(data, n)), viewer, names), names, viewer)
                    if table is not None:
                        for told in narration.table_says(game, table if n is None else with_counts(table, n), viewer, names).values():
                            check(told, names, viewer)
    assert not wrong, wrong


def test_narration_the_table_s_sentences_the_page_once_built_read_right_from_every_side():
    """The sentences the page built itself, wrong ("challenged you's 8
    green", "called you's yellow sun", "1 card that are not purple"), now
    told by ``table_says`` from each side, with counts 0, 1 and 2."""
    names = ["Ana", "Bot 1 (expert)", "Carla"]
    says = lambda game_type, table, viewer: narration.table_says(GAMES[game_type], table, viewer, names)  # noqa: E731
    # Deceptidice: the last challenge, "you" as the guesser, the challenger, the loser
    guessed = {"seat": 1, "guesser": 0, "loser": 1, "truthful": True, "tops": [], "guess": {"count": 8, "color": "green"}}
    table = {"round": 2, "liar": 0, "draw_pile": 0, "phase": "discard", "guesses": [], "current": None, "challenge": guessed}
    assert says("deceptidice", table, 0)["challenge"] == "Bot 1 (expert) challenged your 8 green: it holds, Bot 1 (expert) loses the round."
    assert says("deceptidice", table, 1)["challenge"] == "You challenged Ana's 8 green: it holds, you lose the round."
    assert says("deceptidice", table, 0)["round"] == "Round 2: you are the Liar; no cards in the draw pile."
    for n, cards in ((1, "1 card that is not purple"), (2, "2 cards that are not purple")):
        current = {"seat": 2, "count": n, "color": "purple", "modifier": "without"}
        table = {"round": 1, "liar": 2, "draw_pile": 1, "phase": "guessing", "guesses": [{"seat": 0, "count": 1, "number": 3}, current], "current": current, "challenge": None}
        assert says("deceptidice", table, 2)["current"] == f"You guess at least {cards} on the table."
        assert says("deceptidice", table, 0)["current"] == f"Carla guesses at least {cards} on the table."
        assert says("deceptidice", table, 0)["guesses"] == "Before it: you guessed 1 three."
        assert says("deceptidice", table, 0)["round"] == "Round 1: Carla is the Liar; 1 card in the draw pile."
    # Opticall: the last call, "you" as the caller and as the player
    call = {"seat": 0, "caller": 2, "color": "yellow", "suit": "sun", "cards": [{}], "copied": [], "truthful": True, "black_sheep": False}
    table = {"phase": "play", "to_beat": None, "window": None, "last_call": call, "pile": 0, "deck": 1, "discard": 2}
    assert says("opticall", table, 0)["last_call"] == "The last call: Carla called your yellow sun, the truth."
    assert says("opticall", table, 2)["last_call"] == "The last call: you called Ana's yellow sun, the truth."
    assert says("opticall", table, 0)["piles"] == "No cards on the pile, 1 card in the deck, 2 cards discarded."
    two = {**call, "cards": [{}, {}], "truthful": False}
    assert says("opticall", {**table, "last_call": two}, 2)["last_call"] == "The last call: you called Ana's 2 yellow suns, a lie."
    for n, played in ((1, "1 card as a yellow sun"), (2, "2 cards as yellow suns")):
        beat = {"seat": 0, "count": n, "color": "yellow", "suit": "sun"}
        assert says("opticall", {**table, "to_beat": beat}, 0)["to_beat"] == f"You played {played}."
    eclipse = {"seat": 1, "count": 1, "color": "eclipse", "suit": None}
    assert says("opticall", {**table, "to_beat": eclipse}, 0)["to_beat"] == "Bot 1 (expert) played 1 card as an eclipse."
    window = {"waiting": [2, 0]}
    assert says("opticall", {**table, "window": window}, 0)["window"] == "Waiting for Carla and you to call or let the play go."
    # Color Doubt: the pile, the claim, a last card
    for n, pile in ((0, "No cards on the table."), (1, "1 card face down on the table."), (2, "2 cards face down on the table.")):
        table = {"pile": n, "claim": None, "turn": 0, "required": 1, "last_card": False, "games": 1, "game": 1}
        assert says("color-doubt", table, 0) == {"pile": pile, "claim": "A free lead for you: any number of cards, any colour."}
    claim = {"seat": 2, "count": 2, "color": "red", "on": 1}
    table = {"pile": 2, "claim": claim, "turn": 0, "required": 2, "last_card": False, "games": 1, "game": 1}
    assert says("color-doubt", table, 2)["claim"] == "You claim 2 red."
    assert says("color-doubt", table, 0)["claim"] == "Carla claims 2 red."
    assert says("color-doubt", table, 0)["required"] == "To play on it: at least 2 cards."
    assert says("color-doubt", {**table, "last_card": True}, 2)["last_card"] == "Your last card: it wins unless it is doubted and was a lie."
    # Diez: a stack on you, of 1 and of 2
    table = {"direction": "clockwise", "stack": {"pile": 0, "total": 1, "victim": 0, "by": 1}}
    assert says("diez", table, 0)["stack"] == "The stack is at 1 card: you must stack on or draw it."
    table["stack"]["total"] = 2
    assert says("diez", table, 1)["stack"] == "The stack is at 2 cards: Ana must stack on or draw them."


def test_passing_round_the_table_and_the_log_tell_the_same_story_after_an_autopilot_turn():
    """Decision "passing round" of Color Doubt: when everyone passed the
    claim is cleared and its cards stay in the pile. After an autopilot's
    turn ends a passing round, the log said "the pile is set aside" while
    the table showed the cards face down: both now say the pile stays."""
    local = LocalGame("color-doubt", 3, seed="round", options={"turn_seconds": 1, "autopilot_after": 1})
    bots = GAMES["color-doubt"].bots
    rng = random.Random(5)
    since = None  # the log's length when the autopilot took seat 0
    while since is None or all(e.type != "table_cleared" for e in local.envelopes[since:]):
        assert not local.finished, "no passing round after the autopilot took seat 0"
        seat = local.view(None)["to_act"][0]
        if seat == 0 and 0 not in local.table.autopilot:
            local.advance(2)
            local.command(0, {"type": "timeout"}, actor="system")  # the autopilot takes seat 0
            since = len(local.envelopes)
        else:
            local.command(seat, (bots["heuristic"] if seat == 0 else bots["random"])(local.view(seat), rng), actor="bot")
    cleared = local.envelopes[-1]
    assert cleared.type == "table_cleared"
    view = local.view(1)
    pile = view["table"]["pile"]
    assert pile > 0 and view["table"]["claim"] is None
    told = feed(local.folded, [cleared], 1)[0]["text"]
    leader = cleared.public["leader"]
    lead = "you lead" if leader == 1 else f"{view['seats'][leader]['display_name']} leads"
    assert told == f"Everyone passed: {lead} afresh with any cards; the pile stays face down on the table."
    assert view["says"]["pile"] == f"{count(pile, 'card')} face down on the table."
    assert "set aside" not in told


def test_narration_the_grammar_check_finds_each_fault_it_looks_for():
    """The check the sentences above pass finds what it is for (one fault of
    each kind, and nothing in the right sentences)."""
    names = ("Ana", "Bea", "Carla")
    assert misread("Ana take 2 cards.", names, 1) == ("Ana take",)
    assert misread("Ana and Carla take 2 cards.", names, 1) == ()
    assert misread("Ana take 2 cards.", names, 0) == ()  # Ana is "you" there: told as "You take"
    assert misread("You takes you's 1 cards.", names, 0) == ("you's", "you takes", "1 ...s")
    assert misread("1 card that are not red; 2 cards that is red; 0 cards.", names, None) == (
        "1 card ... are", "2 cards ... is", "0 instead of no")
    assert misread("You take 1 card that is not red; Bea takes no cards.", names, 0) == ()
