"""Where tokens plug in. The token bag, the tokens and the cards that only
act on tokens (Token, Steal, Proc, Drop All, Choice's token effects) are the
next issue; until then each seat's ``State.tokens`` stays empty and these
hooks change nothing. They sit at the three triggers the seed's tokens use,
so the token issue fills them in without touching the rest of the rules:

- ``forced_draw``: "when you are forced to draw by another player" (Hex,
  Double, Ace, White, Magnet);
- ``card_played``: a power card played (Snare, Mirror) or a wild card played
  (Sub);
- ``card_effect``: the token effect of Token, Steal, Proc and Drop All.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from games.diez.moves import Moves
    from games.diez.state import Play


def forced_draw(m: "Moves", seat: int, count: int) -> int:
    """How many cards ``seat`` draws when forced to draw ``count`` by another
    player (Double doubles it, Hex adds to it)."""
    return count


def card_played(m: "Moves", play: "Play") -> None:
    """A card has just been played: Snare and Mirror watch power cards, Sub
    watches wild cards."""


def card_effect(m: "Moves", play: "Play", kind: str) -> None:
    """The token effect of a Token, Steal, Proc or Drop All card: none until
    the token issue (the card is played by colour and symbol like any other;
    Drop All is still a wild card)."""
