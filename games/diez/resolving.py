"""What happens once a played card's jump-in window has closed (or when
none opened): a Sub holder may first recolour a wild card (rule "sub"); a
[C] card then waits for its victim's answer (rule "challenging"); any other
card's effect (``effects``) happens at once and the next turn begins.
"""
from __future__ import annotations

from games.diez import challenges, effects, watchers
from games.diez.deck import CHALLENGEABLE
from games.story import Story
from games.diez.offers import begin_turn


def resolve(story: Story) -> None:
    """The card in ``state.pending`` acts: first a Sub holder may recolour a
    wild card; a [C] card then waits for its victim's answer, unless a Mirror
    sends it back (its player cannot counter it)."""
    state = story.state
    play = state.pending
    sub = watchers.sub_holder(state, play)
    if sub is not None:
        watchers.ask_sub(story, sub)
        return
    kind = effects.effect_of(story, play)
    if state.faces[play.card]["kind"] in CHALLENGEABLE and kind != effects.CANCELLED and watchers.mirrored(state, play, kind) is None:
        challenges.open(story, play, kind)
        return
    begin_turn(story, effects.apply(story, play, kind))
