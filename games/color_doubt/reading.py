"""The Color Doubt expert's own move, the one its search starts from and
must beat (``games.search``): the heuristic, doubting by what a claim says
of its maker. Section "The expert's belief" of ``docs/rules/color-doubt.md``.

Like every bot it decides from its seat's view alone.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from games.color_doubt.bots import claim_probability, heuristic_bot, unseen_colors
from games.color_doubt.state import RAINBOW
from games.kit import truthful_share

HANDS = 200  # the claimant's hands sampled a doubt


def reading_heuristic(view: Mapping[str, Any], rng) -> dict:
    """The heuristic, but a claim's chance of being true is reckoned as
    ``claim_truth`` does (a claimant that tells the truth when it can)."""
    return heuristic_bot(view, rng, truth=lambda shown: claim_truth(shown, rng))


def claim_truth(view: Mapping[str, Any], rng, hands: int = HANDS) -> float:
    """The chance the claim on the table is true, if its maker tells the
    truth when it can: in each hand the claimant may have held (its known
    cards and the laid ones among them, the rest drawn from what this seat
    has not seen), it would have told the truth had it held enough of one
    colour; then it lays every card of its most plentiful colour (rainbows
    only to make up the count, or all of them going out), and the claim must
    be just that play; else it lied, laying exactly the count required. The
    share of the hands that could have made the claim in which it was the
    truth; the plain reckoning (``claim_probability``) where none could."""
    table = view["table"]
    claim = table["claim"]
    claimant = view["seats"][claim["seat"]]
    colors = table["colors"]
    count, color = claim["count"], claim["color"]
    pool = [c for c, n in unseen_colors(view).items() for _ in range(max(n, 0))]
    known = [card["color"] for card in claimant["known"]]
    draw = claimant["cards"] + count - len(known)  # the hand before the claim, less what is known of it

    def verdict(hand: Counter) -> bool | None:
        rainbows = hand[RAINBOW]
        most = max(colors, key=lambda c: hand[c])
        if hand[most] + rainbows >= count:
            # it could have told the truth for this claim's count (a lie lays
            # exactly the count required, at most the claim's): it did, so
            # the claim is its truthful play or not its play at all
            return True if most == color and (hand[most] == count or hand[most] < count <= hand[most] + rainbows) else None
        return False

    share = truthful_share(known, pool, draw, rng, hands, verdict)
    return claim_probability(view) if share is None else share
