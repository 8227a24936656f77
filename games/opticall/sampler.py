"""Opticall's expert sampler: ``determinize(view, rng)``, a full ``State`` the
game could be in given only one seat's view, and ``evaluate(state)``, a
quick estimate of each seat's chance to win.

What the view pins down, and the sampled state keeps exactly:

- the seat's own hand, its own calling card, and every public count: the
  deck, the discard pile, each hand, each play on the pile (its seat,
  announcement, ``final``, ``revealed``), who has a calling card down, who
  is owed draw-backs, who is out and in which order, the turn, the call
  window (asked, passed, calling), the reveal round, ``last_call``;
- every card the seat has seen and where: the cards of its own plays and of
  revealed plays lie in those plays on the pile; ``discard_seen`` lies in
  the discard pile; a seat's ``known`` cards lie in that seat's hand (when
  the seat has fewer cards than it has known ones, it has laid some of
  them down since: a random few stay in the hand, the others join the
  hidden cards below); the seat's memory is rebuilt from these, so its view
  is the same;
- Spectrum: the play a Spectrum of the latest call copied keeps the
  copied card (``last_call.copied``) as its top card; below any older
  revealed play holding a Spectrum, a hidden top card gets the revealed
  play's announced face (the play was true, so that is what it copied);
- the clocks: the turn's start and the call window's opening are taken
  from the view's ``deadlines`` (and the window's own deadline), so the
  sampled state has the same deadlines.

What is dealt at random (uniformly, with ``rng``): every other card of the
deck's composition (``table.composition``, from the options) less the cards
pinned above, shuffled and dealt into the places the seat cannot see: the
other hands (up to their counts), the other seats' calling cards, the
hidden plays on the pile, the unseen part of the discard pile and the deck
(in a random order). Cards the seat never saw get invented ids (``u0``,
``u1``, ...); known cards keep theirs. The state's ``seed`` is a fresh
random string, so the sampled game's shuffles and timeouts differ from
sample to sample.

What it deliberately does not infer: nothing from how players behaved. Not
whether an announcement was a lie (a hidden play gets random cards, whatever
was announced), nor from who called or passed, nor from a reveal round that
a seat holds no more of the round's colour than it showed, nor where a known
card went once its seat laid it down (it may land in any hidden place). The
other seats' memories are not rebuilt exactly: each gets what this seat's
view shows as public (the revealed plays, the seats' known cards), which
only the other seats' views read.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from games.opticall.cards import ECLIPSE, SPECTRUM
from games.opticall.state import DISCARD, OVER, PILE, Play, Reveal, State, Window, active
from games.sampling import Dealer, Faces, clock_start, expanded, fresh_seed, invented, keep_known, normalized, shares

EVALUATE_SPREAD = 2.0  # how much a longer hand counts in ``evaluate``


def determinize(view: Mapping[str, Any], rng) -> State:
    me = view["seat"]
    table = view["table"]
    options = dict(view["options"])
    seats = view["seats"]
    learned = Faces(lambda card: (card["color"], card["suit"]))
    faces = learned.faces
    pin = learned.learn
    memory: dict[str, Any] = {}
    placed: set[str] = set()

    hands: list[list[str]] = [[] for _ in seats]
    hands[me] = [pin(card) for card in view["hand"]]
    placed.update(hands[me])

    # the pile: the seat's own plays and revealed plays as shown, the rest hidden
    pile: list[list[str | None]] = []
    for play in table["plays"]:
        if play["cards"] is None:
            pile.append([None] * play["count"])
        else:
            ids: list[str | None] = []
            for card in play["cards"]:
                card_id = pin(card)
                ids.append(card_id)
                memory[card_id] = PILE
            pile.append(ids)
    placed.update(card for play in pile for card in play if card)

    _latest_copies(table, pile, memory, placed, pin)

    discard = [pin(card) for card in table["discard_seen"]]
    for card_id in discard:
        memory[card_id] = DISCARD
    placed.update(discard)

    window = table["window"]
    mine = window["my_calling_card"] if window else None
    if mine:
        placed.add(pin(mine))

    # each seat's known cards: in its hand, as many as it holds
    overflow: list[str] = []
    for seat, shown in enumerate(seats):
        known = [pin(card) for card in shown["known"]]
        for card_id in known:
            memory[card_id] = seat
        if seat == me:
            continue
        free, laid = keep_known([card for card in known if card not in placed], shown["cards"], rng)
        overflow += laid
        hands[seat] = free
        placed.update(free)

    # the hidden cards: the composition less every card pinned
    pool = Counter({(c["color"], c["suit"]): c["count"] for c in table["composition"]})
    pool.subtract(faces[card] for card in placed)
    pool.subtract(faces[card] for card in overflow)
    taken = set(faces)
    last = table["last_call"]
    if last:
        taken.update(c["id"] for c in last["cards"] + last["copied"])
    _older_copies(table, pile, pool, faces, taken)
    hidden = overflow + _invented(pool, faces, taken)
    rng.shuffle(hidden)

    callers = [seat for seat in (window["calling"] if window else ()) if seat != me]
    slots = (
        sum(shown["cards"] - len(hands[seat]) for seat, shown in enumerate(seats) if seat != me)
        + len(callers)
        + sum(card is None for play in pile for card in play)
        + table["discard"] - len(discard)
        + table["deck"]
    )
    if slots != len(hidden):
        raise ValueError(f"the view's counts leave {slots} hidden places for {len(hidden)} hidden cards")
    dealer = Dealer(hidden)
    for seat, shown in enumerate(seats):
        if seat != me:
            dealer.fill(hands[seat], shown["cards"])
    answers: dict[int, str | None] = {}
    if window:
        answers.update({seat: None for seat in window["passed"]})
        answers.update({seat: dealer.next() for seat in callers})
        if mine:
            answers[me] = mine["id"]
    plays = []
    for play, on_pile in zip(table["plays"], pile):
        laid = [card if card else dealer.next() for card in on_pile]
        plays.append(Play(play["seat"], tuple(laid), play["color"], play["suit"], play["final"], play["revealed"]))
    dealer.fill(discard, table["discard"])
    deck = dealer.take(table["deck"])

    opened_at = 0
    if window and window["deadline"] is not None:
        opened_at = window["deadline"] - options["call_seconds"] * 1000
    public = {card: where for card, where in memory.items() if where != DISCARD}
    reveal = table["reveal"]
    return State(
        seats=len(seats),
        options=options,
        seed=fresh_seed(rng),
        rules=view["rules"],
        deal=table["deal"],
        dealer=table["dealer"],
        phase="" if table["phase"] == "dealing" else table["phase"],
        faces=faces,
        deck=tuple(deck),
        discard=tuple(discard),
        hands=tuple(tuple(hand) for hand in hands),
        pile=tuple(plays),
        window=Window(plays[-1], tuple(window["asked"]), opened_at, answers) if window else None,
        turn=table["turn"],
        turn_started_at=clock_start(view, options, kinds=("turn",)),
        owed=tuple(shown["owed"] for shown in seats),
        out=tuple(view["eliminated"]),
        winner=table["winner"],
        reveal=Reveal(reveal["color"], tuple(reveal["players"]), tuple(c["count"] for c in reveal["counts"])) if reveal else None,
        memory=tuple(memory if seat == me else public for seat in range(len(seats) + 1)),
        rebuilds=0,
        plays=len(plays),
        last_call=table["last_call"],
    )


def _latest_copies(table, pile, memory, placed, pin) -> None:
    """Rule "spectrum": the latest call names the cards a Spectrum of its
    play copied (``last_call.copied``: the top card of each play below, down
    the chain); while that play is on the pile, those cards are there."""
    last = table.get("last_call")
    if not last or not last["copied"]:
        return
    shown = [c["id"] for c in last["cards"]]
    for index, ids in enumerate(pile):
        if ids != shown or not table["plays"][index]["revealed"]:
            continue
        for depth, copied in enumerate(last["copied"]):
            at = index - 1 - depth
            if at >= 0 and pile[at][-1] is None and copied["id"] not in placed:
                pile[at][-1] = pin(copied)
                placed.add(copied["id"])
                memory[copied["id"]] = PILE


def _older_copies(table, pile, pool: Counter, faces, taken) -> None:
    """An older revealed play holding a Spectrum was true: the hidden top
    card of the play below gets the revealed play's announced face (what the
    Spectrum copied; a chain of Spectrums is not sampled)."""
    for index, play in enumerate(table["plays"]):
        if not play["revealed"] or index == 0 or pile[index - 1][-1] is not None:
            continue
        if not any(c["color"] == SPECTRUM for c in play["cards"]):
            continue
        face = (ECLIPSE, None) if play["color"] == ECLIPSE else (play["color"], play["suit"])
        if pool[face] > 0:
            pool[face] -= 1
            card_id = _fresh(f"r{index}", taken)
            faces[card_id] = face
            pile[index - 1][-1] = card_id


def _fresh(card_id: str, taken: set) -> str:
    while card_id in taken:
        card_id += "x"
    taken.add(card_id)
    return card_id


def _invented(pool: Counter, faces: dict, taken: set) -> list[str]:
    """Fresh ids (``u0``, ``u1``, ...: a prefix no id in the view starts
    with) for the faces nobody placed, recorded in ``faces``."""
    prefix = "u"
    while any(card.startswith(prefix) for card in taken):
        prefix += "u"
    hidden = expanded(pool)
    ids = invented(prefix, len(hidden))
    faces.update(zip(ids, hidden))
    return ids


def evaluate(state: State) -> list[float]:
    """Each seat's rough chance to win. The last player left wins, and a
    player goes out with no cards left: a seat still in counts by the cards
    it holds or will receive (its hand, its draw-backs owed, a calling card
    down), an eliminated seat counts nothing."""
    if state.phase == OVER and state.winner is not None:
        return shares([state.winner], state.seats)
    calling = state.window.answers if state.window else {}
    weights = [0.0] * state.seats
    for seat in active(state):
        held = (len(state.hands[seat]) if state.hands else 0) + (state.owed[seat] if state.owed else 0)
        held += 1 if calling.get(seat) else 0
        weights[seat] = (1.0 + held) ** EVALUATE_SPREAD
    if sum(weights) <= 0:
        return [1.0 / state.seats] * state.seats
    return normalized(weights)
