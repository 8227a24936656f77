"""What happens once a played card's jump-in window has closed (or when
none opened): a Sub holder may first recolour a wild card (rule "sub"); a
[C] card then waits for its victim's answer (rule "challenging"); any other
card's effect (``effects``) happens at once and the next turn begins.
"""
from __future__ import annotations

from games.diez import challenges, effects, watchers
from games.diez.deck import CHALLENGEABLE
from games.diez.moves import Moves
from games.diez.offers import begin_turn


def resolve(m: Moves) -> None:
    """The card in ``state.pending`` acts: first a Sub holder may recolour a
    wild card; a [C] card then waits for its victim's answer, unless a Mirror
    sends it back (its player cannot counter it)."""
    state = m.state
    play = state.pending
    sub = watchers.sub_holder(state, play)
    if sub is not None:
        watchers.ask_sub(m, sub)
        return
    kind = effects.effect_of(m, play)
    if state.faces[play.card]["kind"] in CHALLENGEABLE and kind != effects.CANCELLED and watchers.mirrored(state, play, kind) is None:
        challenges.open(m, play, kind)
        return
    begin_turn(m, effects.apply(m, play, kind))
