"""Rules "winning" and "extended rule": a game won, its scores, and the next
game of a match."""
from __future__ import annotations

from games.color_doubt.dealing import deal
from games.color_doubt.state import RAINBOW, State, next_seat
from games.story import Story


def won(story: Story, winner: int) -> None:
    """Rule "winning", and the extended rule's scoring when it is on."""
    state = story.state
    scores = _scores(state, winner) if state.options["extended"] else None
    story.add("game_won", public={"seat": winner, "game": state.game_no, "scores": scores})
    if state.options["extended"] and state.game_no < state.options["match_games"]:
        # decision "extended rule": the next game is led by the seat left of
        # this game's first player
        deal(story, state.game_no + 1, next_seat(state, state.first))


def _scores(state: State, winner: int) -> list[int]:
    """Rule "extended rule": +10 to the winner; everyone else loses a point
    per card in hand and minus pile, the rainbow costing 10 (5 at two)."""
    rainbow = 5 if state.seats == 2 else 10
    faces = state.faces
    assert faces is not None, "a game is won once dealt"
    scores = []
    for seat in range(state.seats):
        if seat == winner:
            scores.append(10)
            continue
        cards = state.hands[seat] + state.minus[seat]
        scores.append(-sum(rainbow if faces[c] == RAINBOW else 1 for c in cards))
    return scores
