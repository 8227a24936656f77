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
from games.story import Story
from games.diez.state import Play, next_seat
from games.rng import derive

CANCELLED = "cancelled"  # rule "snare": the effect of a snared card


def effect_of(story_or_state, play: Play) -> str:
    """The effect a played card has: its kind, or a Choice's chosen effect
    (``"wild"``: a Choice with none); none at all when a Snare cancelled it."""
    state = getattr(story_or_state, "state", story_or_state)
    if play.snared:
        return CANCELLED
    kind = state.faces[play.card]["kind"]
    if kind == "choice":
        return play.effect or "wild"
    return kind


def apply(story: Story, play: Play, kind: str) -> int:
    """Carry out effect ``kind`` of ``play``; the seat to play next."""
    state = story.state
    player = play.seat
    after = next_seat(state, player)
    on_stack = state.stack is not None
    mirror = watchers.mirrored(state, play, kind)
    if mirror is not None:
        story.add("token_triggered", {"seat": mirror, "token": "mirror", "player": player, "effect": kind})
        return _reflected(story, play, kind)
    if kind == CANCELLED:
        if on_stack:
            # the snared card did not answer the stack: its player draws it
            return stacking.take_now(story, player)
        return after
    if kind == "proc":
        return proc.effect(story, play)
    if kind in TOKEN_CARDS:
        tokens.card_effect(story, play, kind)
        return after
    if kind == "skip" or (kind == "reverse" and state.seats == 2):
        # rule "reverse": at two players a Reverse is a Skip
        if on_stack:
            return stacking.move(story, after, player)
        return next_seat(state, after)
    if kind == "reverse":
        story.add("direction_reversed", {"direction": -state.direction})
        back = next_seat(story.state, player)
        return stacking.move(story, back, player) if on_stack else back
    if kind in stacking.DRAWS:
        return stacking.add(story, play, stacking.DRAWS[kind])
    if kind == "stop":
        if on_stack:
            story.add("stack_cleared")
        return after
    if kind == "tag":
        target = play.target
        assert target is not None, "a Tag names its seat (placing refuses one without)"
        return stacking.move(story, target, player) if on_stack else target
    if kind == "dagger":
        draw(story, after, cause="dagger", count=1, forced=True)
        return after
    if kind == "draw_color":
        color = play.color
        draw(story, after, cause="draw_color", color=color, forced=True)
        return next_seat(story.state, after)
    if kind == "trade":
        _trade(story, player, after)
    elif kind == "share":
        _share(story, play, after)
    elif kind == "cut_deck" and play.new_pile and (state.rules < 3 or len(state.piles[play.pile].cards) > 1):
        # rules 3: with nothing left under it (the black last card's draw
        # may have reshuffled it away) there is no pile to leave behind, and
        # the card stays where it is; rules 2 left an empty pile
        story.add("pile_cut", {"pile": play.pile})
    elif kind == "revive" and play.revive is not None:
        _revive(story, play)
    elif kind == "stitch_deck" and play.stitch is not None and len(state.piles) > 1:
        story.add("piles_stitched", {"pile": play.pile, "added": play.stitch})
    elif kind == "mulligan":
        _mulligan(story, play)
    elif kind == "flush":
        _flush(story, play)
    return after


def _reflected(story: Story, play: Play, kind: str) -> int:
    """Rule "mirror": effect ``kind`` used on its own player, who cannot
    counter it (a stack it would have put on the holder is drawn at once).
    The turn then goes on from the player as if the card had no victim."""
    state = story.state
    player = play.seat
    if kind == "reverse":
        story.add("direction_reversed", {"direction": -state.direction})
    after = next_seat(story.state, player)
    stack = state.stack
    chosen = play.tokens or {}  # the token choices played with the card
    if kind in stacking.DRAWS or (stack is not None and kind in watchers.MOVES_STACK):
        total = (stack.total if stack else 0) + stacking.DRAWS.get(kind, 0)
        draw(story, player, cause="mirror", count=total, forced=True)
        if stack is not None:
            story.add("stack_cleared")
    elif kind == "dagger":
        draw(story, player, cause="mirror", count=1, forced=True)
    elif kind == "draw_color":
        draw(story, player, cause="mirror", color=play.color, forced=True)
    elif kind == "share":
        _share(story, play, player)
    elif kind == "drop_all" and state.tokens[player]:
        story.add("tokens_dropped", {"seat": player, "from": player, "tokens": list(state.tokens[player])})
    elif kind == "token" and chosen.get("token") in state.tokens[player]:
        story.add("token_removed", {"seat": player, "from": player, "token": chosen["token"]})
    elif kind == "proc" and chosen.get("token") == "hex" and state.tokens[player]:
        draw(story, player, cause="mirror", count=len(state.tokens[player]), forced=True)
    # Skip, Trade, Steal and Proc-Magnet used on oneself do nothing
    return after


def _trade(story: Story, player: int, other: int) -> None:
    """Rule "trade": swap hands with the next player."""
    state = story.state
    story.add(
        "hands_traded",
        {"seats": [player, other]},
        {
            player: {"hand": [dict(state.faces[c]) for c in state.hands[other]]},
            other: {"hand": [dict(state.faces[c]) for c in state.hands[player]]},
        },
    )


def _share(story: Story, play: Play, seat: int) -> None:
    """Rule "share": the next player draws at random from the largest hand
    until it holds as many cards or more; nothing if it already has the most.
    Among tied largest hands the player's ``share_from`` gives, else the first
    of them in turn order from the player. Rules 2: the draw is forced (due
    to another player's card): the drawer's Double and Hex add to it, never
    taking the giver's last card, and another seat's Magnet may be given one
    of the cards; Ace and White, which search the draw pile, do not act."""
    state = story.state
    counts = [len(hand) for hand in state.hands]
    most = max(counts)
    if counts[seat] >= most:
        return
    tied = [s for s in (next_seat(state, play.seat, k) for k in range(state.seats)) if counts[s] == most]
    source = play.share_from if play.share_from in tied else tied[0]
    count = ceil((counts[source] - counts[seat]) / 2)
    forced = state.rules >= 2 and tokens.enabled(state)
    if forced:
        count = min(forced_draws.counted(story, seat, count), counts[source] - 1)
        state = story.state
    moved = derive(state.seed, "share", state.serial).sample(sorted(state.hands[source]), count)
    needle = next((i for i, c in enumerate(moved[:-1]) if state.faces[c]["kind"] == "needle"), None)
    if needle is not None:
        moved = moved[: needle + 1]  # rule "needle": drawing stops there, whatever caused it
    story.add(
        "cards_shared",
        {"seat": seat, "source": source, "count": len(moved)},
        {seat: {"cards": [dict(state.faces[c]) for c in moved]}, source: {"ids": moved}},
    )
    if needle is not None:
        story.add("needle_used", {"seat": seat, "card": dict(state.faces[moved[-1]]), "cause": "share"})
    if forced:
        forced_draws.after(story, seat, moved)


def _revive(story: Story, play: Play) -> None:
    """Rule "revive": the chosen non-wild card comes back from its pile."""
    state = story.state
    for index, pile in enumerate(state.piles):
        if play.revive in pile.cards[:-1]:
            story.add("card_revived", {"seat": play.seat, "card": dict(state.faces[play.revive]), "pile": index})
            return


def _mulligan(story: Story, play: Play) -> None:
    """Rule "mulligan": the discards are shuffled into the draw pile, then the
    player draws as many."""
    state = story.state
    gone = [c for c in play.discard if c in state.hands[play.seat]]
    if not gone:
        return
    order = list(state.draw_pile) + gone
    derive(state.seed, "mulligan", state.serial).shuffle(order)
    story.add(
        "mulligan_discarded",
        {"seat": play.seat, "count": len(gone)},
        {play.seat: {"ids": gone}},
        {"draw_pile": order},
    )
    draw(story, play.seat, cause="mulligan", count=len(gone))


def _flush(story: Story, play: Play) -> None:
    """Rule "flush": the discards go face up on the Flush's pile, the last one
    on top. Discarding is not playing: they have no effect and open no window.
    Emptying the hand this way is a black last card: draw 2."""
    state = story.state
    gone = [c for c in play.discard if c in state.hands[play.seat]]
    if not gone:
        return
    story.add("flushed", {"seat": play.seat, "pile": play.pile, "cards": [dict(state.faces[c]) for c in gone]})
    if not story.state.hands[play.seat]:
        draw(story, play.seat, cause="last_card", count=2)
