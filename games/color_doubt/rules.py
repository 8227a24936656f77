"""Color Doubt: the state, ``decide`` and ``evolve``.

Rule names in comments and errors are the headings of
``docs/rules/color-doubt.md``; each decision there is referenced here where it
is enforced.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping

from games.contract import Deadline, Event, RuleError, UnknownEvent
from games.kit import replaced
from games.options import refuse, with_defaults
from games.rng import card_ids, derive
from games.timing import deadline

COLORS = ("red", "orange", "yellow", "green", "blue", "purple", "pink")
RAINBOW = "rainbow"


@dataclass(frozen=True)
class Claim:
    """The last play on the table: what was said, and what lies there."""

    seat: int
    cards: tuple[str, ...]
    color: str


@dataclass(frozen=True)
class State:
    seats: int
    options: Mapping[str, Any]
    seed: str
    # the version of the rules the game was created under (RULES_VERSION): a
    # log keeps re-deciding under the rules it was played by
    rules: int = 1
    game_no: int = 0  # 1, 2, 3 in a match of the extended rule
    first: int = 0  # who led this game
    faces: Mapping[str, str] = None  # card id -> colour, this deal's cards
    hands: tuple[tuple[str, ...], ...] = ()
    minus: tuple[tuple[str, ...], ...] = ()  # each seat's minus pile
    pile: tuple[str, ...] = ()  # every card face down on the table
    claim: Claim | None = None  # None: the next play is a free lead
    doubt_open: bool = False  # the seat to act may still doubt the claim
    turn: int = 0
    turn_started_at: int = 0
    plays: int = 0  # plays and doubts so far: labels the random draws they lead to
    revealed: Mapping[str, str] = None  # card id -> colour, shown to all by doubts this game
    # what each viewer saw go into a hand (decision "doubting": ``known``):
    # one mapping per seat and a last one for spectators, card id -> the
    # seat whose hand the viewer last saw it go into. A card leaves it only
    # when the viewer sees it leave: laid by the viewer itself, turned up by a
    # doubt, come to the viewer's minus pile, or taken by the penalty
    seen: tuple[Mapping[str, int], ...] = ()
    scores: tuple[int, ...] = ()  # running totals over a match
    games: tuple[Mapping[str, Any], ...] = ()  # each finished game's outcome
    over: bool = False


# -- options -----------------------------------------------------------------


def suits_in_play(state_or_seats, options: Mapping[str, Any]) -> tuple[str, ...]:
    seats = state_or_seats.seats if isinstance(state_or_seats, State) else state_or_seats
    count = options["two_player_suits"] if seats == 2 else options["suits"]
    return COLORS[:count]


def validate_options(spec, seats: int, given: Mapping[str, Any]) -> dict[str, Any]:
    options = with_defaults(spec, given)
    removed = options["two_player_removed_cards"] if seats == 2 else options["removed_cards"]
    deck = len(suits_in_play(seats, options)) * options["cards_per_suit"] + 1
    if deck - removed < seats:
        raise refuse(
            "removed_cards",
            f"a deck of {deck} cards less {removed} removed cannot deal one card to each of {seats} players.",
        )
    return options


def initial_state(seats: int, options: Mapping[str, Any], seed: str, rules: int = 1) -> State:
    return State(seats=seats, options=dict(options), seed=seed, rules=rules, scores=(0,) * seats)


# -- decide ------------------------------------------------------------------


def start(state: State, at: int) -> list[Event]:
    return [_deal(state, game_no=1, first=derive(state.seed, "first player").randrange(state.seats))]


def decide(state: State, command: Mapping[str, Any]) -> list[Event]:
    kind = command["type"]
    if state.over:
        raise RuleError("game_over", "winning", "The game is over.")
    seat = command["seat"]
    if kind == "timeout":
        return _timeout(state, seat)
    if seat != state.turn:
        raise RuleError("not_your_turn", "turns", f"It is seat {state.turn}'s turn, not seat {seat}'s.")
    if kind == "play":
        return _play(state, seat, list(command["cards"]), command["color"])
    if kind == "pass":
        return _pass(state, seat)
    if kind == "doubt":
        return _doubt(state, seat)
    raise RuleError("unknown_command", "turns", f"Color Doubt has no {kind!r} command.")


def required_count(state: State) -> int:
    """Rule "laying cards": at least as many as the claim on the table."""
    return len(state.claim.cards) if state.claim else 1


def last_card_pending(state: State) -> bool:
    """Rule "winning": the claimant laid their last card and it has not stood yet."""
    return state.claim is not None and not state.hands[state.claim.seat]


def _next(state: State, seat: int) -> int:
    return (seat + 1) % state.seats


def _play(state: State, seat: int, cards: list[str], color: str) -> list[Event]:
    if last_card_pending(state):
        raise RuleError(
            "last_card_pending",
            "winning",
            f"Seat {state.claim.seat} laid their last card: doubt it or pass to let it stand.",
        )
    if color not in suits_in_play(state, state.options):
        raise RuleError(
            "unknown_color",
            "announcing",
            f"Announce one of the colours in play ({', '.join(suits_in_play(state, state.options))}), not {color!r}.",
        )
    if len(set(cards)) != len(cards):
        raise RuleError("duplicate_card", "laying cards", "A card can be laid only once.")
    hand = set(state.hands[seat])
    missing = [card for card in cards if card not in hand]
    if missing:
        raise RuleError("card_not_in_hand", "laying cards", f"Card {missing[0]} is not in your hand.")
    if len(cards) < required_count(state):
        raise RuleError(
            "too_few_cards",
            "laying cards",
            f"Lay at least {required_count(state)} cards: as many as the claim on the table, or more.",
        )
    return [
        Event(
            "played",
            public={"seat": seat, "count": len(cards), "color": color, "next": _next(state, seat)},
            private={seat: {"cards": cards}},
        )
    ]


def _pass(state: State, seat: int) -> list[Event]:
    if state.claim is None:
        raise RuleError("must_lead", "passing", "A free lead cannot be passed: lay at least one card.")
    nxt = _next(state, seat)
    events = [Event("passed", public={"seat": seat, "next": nxt})]
    if last_card_pending(state):
        # decision "winning": letting a last card pass makes it stand
        return events + _won(state, state.claim.seat)
    if nxt == state.claim.seat:
        # decision "passing round": everyone passed; the last to lay cards leads
        events.append(Event("table_cleared", public={"leader": nxt}))
    return events


def _doubt(state: State, seat: int) -> list[Event]:
    if not state.doubt_open:
        raise RuleError(
            "doubt_not_allowed",
            "doubting",
            "Only the next player may doubt a claim, before anyone passes or plays on it.",
        )
    claim = state.claim
    revealed = [{"id": card, "color": state.faces[card]} for card in claim.cards]
    truthful = all(state.faces[card] in (claim.color, RAINBOW) for card in claim.cards)
    # rule "doubting": the truth sends the doubter the pile; a lie sends the
    # liar their cards back and the rest of the pile as minus points
    taker = seat if truthful else claim.seat
    taken = [card for card in state.pile if truthful or card not in claim.cards]
    leader = claim.seat if truthful else seat
    events = [
        Event(
            "doubted",
            public={
                "seat": seat,
                "claimant": claim.seat,
                "cards": revealed,
                "truthful": truthful,
                "taker": taker,
                "taken": len(taken),
                "leader": leader,
            },
            private={taker: {"minus": [_card(state, c) for c in taken]}},
        )
    ]
    after = evolve(state, events[0])
    if truthful and not state.hands[claim.seat]:
        return events + _won(after, claim.seat)
    if state.seats == 2 and taken:
        events += _two_player_penalty(after, taker)
    return events


def _two_player_penalty(state: State, taker: int) -> list[Event]:
    """Rule "two players": who received minus points takes two cards from
    the other player's hand (at random: decision "two players")."""
    other = 1 - taker
    rng = derive(state.seed, "penalty", state.game_no, state.plays)
    count = min(2, len(state.hands[other]))
    cards = rng.sample(sorted(state.hands[other]), count)
    events = [
        Event(
            "cards_taken",
            public={"seat": taker, "source": other, "count": count},
            private={taker: {"cards": [_card(state, c) for c in cards]}, other: {"ids": cards}},
        )
    ]
    if count and count == len(state.hands[other]):
        # the object is to be rid of every card "by any means necessary"
        events += _won(evolve(state, events[0]), other)
    return events


def _timeout(state: State, seat: int) -> list[Event]:
    """Decision "timeouts": a silent seat passes; on a free lead, where
    passing is not allowed, it lays one card at random and announces a colour
    drawn at random from the colours in play, apart from the card: the system
    must not tell the table what a face-down card is."""
    if seat != state.turn:
        raise RuleError("not_your_turn", "turns", f"It is seat {state.turn}'s turn, not seat {seat}'s.")
    if state.claim is not None:
        return _pass(state, seat)
    rng = derive(state.seed, "timeout", state.game_no, state.plays)
    card = rng.choice(sorted(state.hands[seat]))
    color = rng.choice(suits_in_play(state, state.options))
    return _play(state, seat, [card], color)


def _won(state: State, winner: int) -> list[Event]:
    """Rule "winning", and the extended rule's scoring when it is on."""
    scores = _scores(state, winner) if state.options["extended"] else None
    events = [Event("game_won", public={"seat": winner, "game": state.game_no, "scores": scores})]
    if state.options["extended"] and state.game_no < state.options["match_games"]:
        # decision "extended rule": the next game is led by the seat left of
        # this game's first player
        events.append(_deal(state, state.game_no + 1, _next(state, state.first)))
    return events


def _scores(state: State, winner: int) -> list[int]:
    """Rule "extended rule": +10 to the winner; everyone else loses a point
    per card in hand and minus pile, the rainbow costing 10 (5 at two)."""
    rainbow = 5 if state.seats == 2 else 10
    scores = []
    for seat in range(state.seats):
        if seat == winner:
            scores.append(10)
            continue
        cards = state.hands[seat] + state.minus[seat]
        scores.append(-sum(rainbow if state.faces[c] == RAINBOW else 1 for c in cards))
    return scores


def _deal(state: State, game_no: int, first: int) -> Event:
    """Rule "set-up": shuffle, remove cards unseen, deal evenly, set the rest aside."""
    rng = derive(state.seed, "deal", game_no)
    per_suit = state.options["cards_per_suit"]
    colors = [c for c in suits_in_play(state, state.options) for _ in range(per_suit)] + [RAINBOW]
    rng.shuffle(colors)
    cards = [{"id": card_id, "color": color} for card_id, color in zip(card_ids(rng, len(colors)), colors)]
    removed = state.options["two_player_removed_cards"] if state.seats == 2 else state.options["removed_cards"]
    dealt = cards[removed:]
    each = len(dealt) // state.seats
    hands = [sorted(dealt[seat * each : (seat + 1) * each], key=card_order) for seat in range(state.seats)]
    aside = cards[:removed] + dealt[each * state.seats :]
    return Event(
        "dealt",
        public={"game": game_no, "first": first, "hand_size": each, "set_aside": len(aside)},
        private={seat: {"hand": hand} for seat, hand in enumerate(hands)},
        secret={"set_aside": aside},
    )


def _card(state: State, card_id: str) -> dict[str, str]:
    return {"id": card_id, "color": state.faces[card_id]}


def card_order(card: Mapping[str, str]) -> tuple[int, str]:
    """Hands are shown sorted by colour, in the order of ``COLORS``."""
    return ((COLORS + (RAINBOW,)).index(card["color"]), card["id"])


# -- evolve ------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    p = event.public
    kind = event.type
    if kind == "dealt":
        hands = tuple(tuple(c["id"] for c in event.private[s]["hand"]) for s in range(state.seats))
        faces = {c["id"]: c["color"] for s in range(state.seats) for c in event.private[s]["hand"]}
        faces.update({c["id"]: c["color"] for c in event.secret["set_aside"]})
        return replace(
            state,
            game_no=p["game"],
            first=p["first"],
            faces=faces,
            hands=hands,
            minus=((),) * state.seats,
            pile=(),
            claim=None,
            doubt_open=False,
            turn=p["first"],
            turn_started_at=event.at,
            revealed={},
            seen=({},) * (state.seats + 1),
        )
    if kind == "played":
        seat = p["seat"]
        cards = tuple(event.private[seat]["cards"])
        return replace(
            state,
            hands=replaced(state.hands, seat, tuple(c for c in state.hands[seat] if c not in cards)),
            pile=state.pile + cards,
            claim=Claim(seat, cards, p["color"]),
            doubt_open=True,
            turn=p["next"],
            turn_started_at=event.at,
            plays=state.plays + 1,
            # face down: only the player sees the cards leave its hand
            seen=_seen(state.seen, [seat], cards, None),
        )
    if kind == "passed":
        return replace(state, doubt_open=False, turn=p["next"], turn_started_at=event.at)
    if kind == "table_cleared":
        return replace(state, claim=None, turn=p["leader"], turn_started_at=event.at)
    if kind == "doubted":
        claim = state.claim
        taker = p["taker"]
        taken = tuple(c["id"] for c in event.private[taker]["minus"])
        hands = state.hands
        if not p["truthful"]:
            hands = replaced(hands, claim.seat, hands[claim.seat] + claim.cards)
        # the taker sees what comes to its minus pile; everyone sees where
        # the turned-up cards go: back into the liar's hand, or out of play
        seen = _seen(state.seen, [taker], taken, None)
        seen = _seen(seen, range(len(seen)), claim.cards, None if p["truthful"] else claim.seat)
        return replace(
            state,
            hands=hands,
            seen=seen,
            minus=replaced(state.minus, taker, state.minus[taker] + taken),
            pile=(),
            revealed={**state.revealed, **{c["id"]: c["color"] for c in p["cards"]}},
            claim=None,
            doubt_open=False,
            turn=p["leader"],
            turn_started_at=event.at,
            plays=state.plays + 1,
        )
    if kind == "cards_taken":
        seat, source = p["seat"], p["source"]
        moved = tuple(event.private[source]["ids"])
        hands = replaced(state.hands, source, tuple(c for c in state.hands[source] if c not in moved))
        # both players see which cards moved; spectators only how many
        seen = _seen(state.seen, [seat, source], moved, seat)
        return replace(state, hands=replaced(hands, seat, hands[seat] + moved), seen=seen)
    if kind == "game_won":
        outcome = {"game": p["game"], "winner": p["seat"], "scores": p["scores"]}
        scores = state.scores
        if p["scores"] is not None:
            scores = tuple(total + gained for total, gained in zip(scores, p["scores"]))
        last = not state.options["extended"] or p["game"] >= state.options["match_games"]
        return replace(state, scores=scores, games=state.games + (outcome,), over=last, claim=None)
    raise UnknownEvent("Color Doubt", kind)



def _seen(seen: tuple, viewers: Iterable[int], ids: Iterable[str], into: int | None) -> tuple[Mapping[str, int], ...]:
    """``seen`` once ``viewers`` saw the cards ``ids`` go into seat ``into``'s
    hand (``None``: out of every hand, to the pile or a minus pile)."""
    ids, viewers = set(ids), set(viewers)
    gone = {} if into is None else {card: into for card in ids}

    def moved(cards: Mapping[str, int]) -> Mapping[str, int]:
        return {**{card: where for card, where in cards.items() if card not in ids}, **gone}

    return tuple(moved(cards) if viewer in viewers else cards for viewer, cards in enumerate(seen))


# -- what the service asks ---------------------------------------------------


def to_act(state: State) -> list[int]:
    return [] if state.over or state.faces is None else [state.turn]


def actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    if last_card_pending(state):
        return ["doubt", "pass"]
    if state.claim is None:
        return ["play"]
    out = ["play"] if len(state.hands[seat]) >= required_count(state) else []
    out.append("pass")
    if state.doubt_open:
        out.append("doubt")
    return out


def deadlines(state: State) -> list[Deadline]:
    at = deadline(state.turn_started_at, state.options["turn_seconds"])
    if at is None or not to_act(state):
        return []
    return [Deadline(state.turn, at, "turn")]


def result(state: State) -> dict[str, Any] | None:
    if not state.over:
        return None
    if state.options["extended"]:
        best = max(state.scores)
        winners = [seat for seat, score in enumerate(state.scores) if score == best]
        return {"winners": winners, "scores": list(state.scores), "games": list(state.games)}
    return {"winners": [state.games[-1]["winner"]], "scores": None, "games": list(state.games)}
