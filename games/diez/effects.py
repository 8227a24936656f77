"""What each card does once its jump-in window has closed (rule per card).

``apply`` is one effect; it returns the seat whose turn comes next, so a
challenge can add its penalty before that turn begins. Which effect happens
when (a Sub's question, a [C] card's challenge first) is ``resolving``'s.
"""
from __future__ import annotations

from math import ceil

from games.diez import forced_draws, proc, stacking, tokens, watchers
from games.diez.deck import TOKEN_CARDS
from games.diez.drawing import draw
from games.diez.moves import Moves
from games.diez.state import Play, next_seat
from games.rng import derive

CANCELLED = "cancelled"  # rule "snare": the effect of a snared card


def effect_of(m_or_state, play: Play) -> str:
    """The effect a played card has: its kind, or a Choice's chosen effect
    (``"wild"``: a Choice with none); none at all when a Snare cancelled it."""
    state = getattr(m_or_state, "state", m_or_state)
    if play.snared:
        return CANCELLED
    kind = state.faces[play.card]["kind"]
    if kind == "choice":
        return play.effect or "wild"
    return kind


def apply(m: Moves, play: Play, kind: str) -> int:
    """Carry out effect ``kind`` of ``play``; the seat to play next."""
    state = m.state
    player = play.seat
    after = next_seat(state, player)
    on_stack = state.stack is not None
    mirror = watchers.mirrored(state, play, kind)
    if mirror is not None:
        m.add("token_triggered", {"seat": mirror, "token": "mirror", "player": player, "effect": kind})
        return _reflected(m, play, kind)
    if kind == CANCELLED:
        if on_stack:
            # the snared card did not answer the stack: its player draws it
            return stacking.take_now(m, player)
        return after
    if kind == "proc":
        return proc.effect(m, play)
    if kind in TOKEN_CARDS:
        tokens.card_effect(m, play, kind)
        return after
    if kind == "skip" or (kind == "reverse" and state.seats == 2):
        # rule "reverse": at two players a Reverse is a Skip
        if on_stack:
            return stacking.move(m, after, player)
        return next_seat(state, after)
    if kind == "reverse":
        m.add("direction_reversed", {"direction": -state.direction})
        back = next_seat(m.state, player)
        return stacking.move(m, back, player) if on_stack else back
    if kind in stacking.DRAWS:
        return stacking.add(m, play, stacking.DRAWS[kind])
    if kind == "stop":
        if on_stack:
            m.add("stack_cleared")
        return after
    if kind == "tag":
        return stacking.move(m, play.target, player) if on_stack else play.target
    if kind == "dagger":
        draw(m, after, cause="dagger", count=1, forced=True)
        return after
    if kind == "draw_color":
        color = play.color
        draw(m, after, cause="draw_color", color=color, forced=True)
        return next_seat(m.state, after)
    if kind == "trade":
        _trade(m, player, after)
    elif kind == "share":
        _share(m, play, after)
    elif kind == "cut_deck" and play.new_pile and (state.rules < 3 or len(state.piles[play.pile].cards) > 1):
        # rules 3: with nothing left under it (the black last card's draw
        # may have reshuffled it away) there is no pile to leave behind, and
        # the card stays where it is; rules 2 left an empty pile
        m.add("pile_cut", {"pile": play.pile})
    elif kind == "revive" and play.revive is not None:
        _revive(m, play)
    elif kind == "stitch_deck" and play.stitch is not None and len(state.piles) > 1:
        m.add("piles_stitched", {"pile": play.pile, "added": play.stitch})
    elif kind == "mulligan":
        _mulligan(m, play)
    elif kind == "flush":
        _flush(m, play)
    return after


def _reflected(m: Moves, play: Play, kind: str) -> int:
    """Rule "mirror": effect ``kind`` used on its own player, who cannot
    counter it (a stack it would have put on the holder is drawn at once).
    The turn then goes on from the player as if the card had no victim."""
    state = m.state
    player = play.seat
    if kind == "reverse":
        m.add("direction_reversed", {"direction": -state.direction})
    after = next_seat(m.state, player)
    stack = state.stack
    if kind in stacking.DRAWS or (stack is not None and kind in watchers.MOVES_STACK):
        total = (stack.total if stack else 0) + stacking.DRAWS.get(kind, 0)
        draw(m, player, cause="mirror", count=total, forced=True)
        if stack is not None:
            m.add("stack_cleared")
    elif kind == "dagger":
        draw(m, player, cause="mirror", count=1, forced=True)
    elif kind == "draw_color":
        draw(m, player, cause="mirror", color=play.color, forced=True)
    elif kind == "share":
        _share(m, play, player)
    elif kind == "drop_all" and state.tokens[player]:
        m.add("tokens_dropped", {"seat": player, "from": player, "tokens": list(state.tokens[player])})
    elif kind == "token" and (play.tokens or {}).get("token") in state.tokens[player]:
        m.add("token_removed", {"seat": player, "from": player, "token": play.tokens["token"]})
    elif kind == "proc" and (play.tokens or {}).get("token") == "hex" and state.tokens[player]:
        draw(m, player, cause="mirror", count=len(state.tokens[player]), forced=True)
    # Skip, Trade, Steal and Proc-Magnet used on oneself do nothing
    return after


def _trade(m: Moves, player: int, other: int) -> None:
    """Rule "trade": swap hands with the next player."""
    state = m.state
    m.add(
        "hands_traded",
        {"seats": [player, other]},
        {
            player: {"hand": [dict(state.faces[c]) for c in state.hands[other]]},
            other: {"hand": [dict(state.faces[c]) for c in state.hands[player]]},
        },
    )


def _share(m: Moves, play: Play, seat: int) -> None:
    """Rule "share": the next player draws at random from the largest hand
    until it holds as many cards or more; nothing if it already has the most.
    Among tied largest hands the player's ``share_from`` gives, else the first
    of them in turn order from the player. Rules 2: the draw is forced (due
    to another player's card): the drawer's Double and Hex add to it, never
    taking the giver's last card, and another seat's Magnet may be given one
    of the cards; Ace and White, which search the draw pile, do not act."""
    state = m.state
    counts = [len(hand) for hand in state.hands]
    most = max(counts)
    if counts[seat] >= most:
        return
    tied = [s for s in (next_seat(state, play.seat, k) for k in range(state.seats)) if counts[s] == most]
    source = play.share_from if play.share_from in tied else tied[0]
    count = ceil((counts[source] - counts[seat]) / 2)
    forced = state.rules >= 2 and tokens.enabled(state)
    if forced:
        count = min(forced_draws.counted(m, seat, count), counts[source] - 1)
        state = m.state
    moved = derive(state.seed, "share", state.serial).sample(sorted(state.hands[source]), count)
    needle = next((i for i, c in enumerate(moved[:-1]) if state.faces[c]["kind"] == "needle"), None)
    if needle is not None:
        moved = moved[: needle + 1]  # rule "needle": drawing stops there, whatever caused it
    m.add(
        "cards_shared",
        {"seat": seat, "source": source, "count": len(moved)},
        {seat: {"cards": [dict(state.faces[c]) for c in moved]}, source: {"ids": moved}},
    )
    if needle is not None:
        m.add("needle_used", {"seat": seat, "card": dict(state.faces[moved[-1]]), "cause": "share"})
    if forced:
        forced_draws.after(m, seat, moved)


def _revive(m: Moves, play: Play) -> None:
    """Rule "revive": the chosen non-wild card comes back from its pile."""
    state = m.state
    for index, pile in enumerate(state.piles):
        if play.revive in pile.cards[:-1]:
            m.add("card_revived", {"seat": play.seat, "card": dict(state.faces[play.revive]), "pile": index})
            return


def _mulligan(m: Moves, play: Play) -> None:
    """Rule "mulligan": the discards are shuffled into the draw pile, then the
    player draws as many."""
    state = m.state
    gone = [c for c in play.discard if c in state.hands[play.seat]]
    if not gone:
        return
    order = list(state.draw_pile) + gone
    derive(state.seed, "mulligan", state.serial).shuffle(order)
    m.add(
        "mulligan_discarded",
        {"seat": play.seat, "count": len(gone)},
        {play.seat: {"ids": gone}},
        {"draw_pile": order},
    )
    draw(m, play.seat, cause="mulligan", count=len(gone))


def _flush(m: Moves, play: Play) -> None:
    """Rule "flush": the discards go face up on the Flush's pile, the last one
    on top. Discarding is not playing: they have no effect and open no window.
    Emptying the hand this way is a black last card: draw 2."""
    state = m.state
    gone = [c for c in play.discard if c in state.hands[play.seat]]
    if not gone:
        return
    m.add("flushed", {"seat": play.seat, "pile": play.pile, "cards": [dict(state.faces[c]) for c in gone]})
    if not m.state.hands[play.seat]:
        draw(m, play.seat, cause="last_card", count=2)
