"""What each game's cards do, in a sentence a player reads beside the card
(the web page's hover, long-press and focus help): served with the game types
(``GET /v1/game-types``, each type's ``cards``), so the text is kept here
alone and no client types it again.

Each game's help is a list of ``{"when": {...}, "says": "..."}``: a card is
told by the first entry whose ``when`` its face matches (each key the face's
value; ``{}`` matches any card). The sentences follow the seeds' card
sections (``docs/rules/<game>.md``) and the how-to-play pages
(``docs/howto/<game>.md``), told to the player; Deceptidice's power cards say
their combos as the deck declares them (``POWER_CARDS``).
"""
from __future__ import annotations

from typing import Any

from games.deceptidice.deck import POWER_CARDS

Help = list[dict[str, Any]]

COLOR_DOUBT: Help = [
    {"when": {"color": "rainbow"}, "says": "Rainbow: counts as any colour, so it never makes a claim a lie. "
     "Worth -10 at the end of a match."},
    {"when": {}, "says": "Laid face down with the others you play: announce its colour, or lie about it. "
     "The next player may doubt the claim."},
]

OPTICALL: Help = [
    {"when": {"color": "eclipse"}, "says": "Eclipse: the lowest colour, below red."},
    {"when": {"color": "reset"}, "says": "Reset: announce it as \u201creset\u201d: the pile is cleared and you play again."},
    {"when": {"color": "spectrum"}, "says": "Spectrum: copies the card below it."},
    {"when": {"color": "black_sheep"}, "says": "Black Sheep: always a lie when called, but the pile just resets "
     "and the calling card goes to its player."},
    {"when": {}, "says": "Played face down and announced as a colour and suit at least as high as the last play "
     "(red lowest, purple highest; sun and moon equal), or laid to call a play."},
]

DECEPTIDICE: Help = [
    {"when": {"wild": True}, "says": "Wildcard: on top of a die it is whatever number or colour the guess "
     "being challenged wants."},
    *({"when": {"power": card.name}, "says": f"Power card worth {card.value}: a guess of it holds when the top "
       f"cards show {card.combo}."} for card in POWER_CARDS),
    {"when": {}, "says": "Counts in a guess while it is on top of a die: its number and its colour."},
]

DIEZ: Help = [
    {"when": {"kind": "number", "color": "white"}, "says": "White: a plain number card; no wild card can choose white."},
    {"when": {"kind": "number"}, "says": "A plain number card: it matches its colour or its number."},
    {"when": {"kind": "dek"}, "says": "Dek: a plain card of its colour; it matches another Dek."},
    {"when": {"kind": "el"}, "says": "El: a plain card of its colour; it matches another El."},
    {"when": {"kind": "blank"}, "says": "Blank: goes on any colour, and any colour may follow it."},
    {"when": {"kind": "needle"}, "says": "Needle: when you draw it you may stop drawing, whatever made you draw."},
    {"when": {"kind": "skip"}, "says": "Skip: the next player misses a turn."},
    {"when": {"kind": "reverse"}, "says": "Reverse: turns play around (with two players, a Skip)."},
    {"when": {"kind": "draw_two"}, "says": "Draw 2: the next player draws 2, or stacks onto it."},
    {"when": {"kind": "stop"}, "says": "Stop: jump in with it on a power or wild card of its colour to cancel "
     "that card."},
    {"when": {"kind": "tag"}, "says": "Tag: the turn goes to any player you choose, you included."},
    {"when": {"kind": "dagger"}, "says": "Dagger [C]: the next player draws 1 and keeps the turn; it may be "
     "challenged."},
    {"when": {"kind": "token"}, "says": "Token: draw a token and give it to a player, or remove one from a player."},
    {"when": {"kind": "trade"}, "says": "Trade: swap hands with the next player (as your last card it still wins)."},
    {"when": {"kind": "share"}, "says": "Share: the next player draws from the biggest hand until theirs is as big."},
    {"when": {"kind": "proc"}, "says": "Proc: use the special effect of any token in play."},
    {"when": {"kind": "cut_deck"}, "says": "Cut Deck: starts a new discard pile beside the others."},
    {"when": {"kind": "steal"}, "says": "Steal: take a token from another player for yourself."},
    {"when": {"kind": "revive"}, "says": "Revive: take any non-wild card back from the discard pile."},
    {"when": {"kind": "stitch_deck"}, "says": "Stitch Deck: puts another discard pile on top of this one."},
    {"when": {"kind": "wild"}, "says": "Wild: goes on anything; you choose the colour."},
    {"when": {"kind": "draw_four"}, "says": "Draw 4 [C]: you choose the colour; the next player draws 4 or stacks "
     "onto it; it may be challenged."},
    {"when": {"kind": "mulligan"}, "says": "Mulligan: a wild card; you may throw cards from your hand back and "
     "draw as many."},
    {"when": {"kind": "flush"}, "says": "Flush: a wild card; you may throw away your cards of the colour you choose."},
    {"when": {"kind": "bomb"}, "says": "Bomb: a wild card; drawn in a natural draw, it makes you draw 3 more."},
    {"when": {"kind": "draw_color"}, "says": "Draw Color [C]: the next player draws until they get the colour you "
     "choose; it may be challenged."},
    {"when": {"kind": "drop_all"}, "says": "Drop All: a wild card that removes every token of one player."},
    {"when": {"kind": "choice"}, "says": "Choice [C]: a wild card that may also act as any non-wild card's effect; "
     "it may be challenged."},
    {"when": {}, "says": "Play it on a card of its colour or symbol."},
]

CARD_HELP: dict[str, Help] = {"color-doubt": COLOR_DOUBT, "opticall": OPTICALL, "deceptidice": DECEPTIDICE, "diez": DIEZ}


def card_help(game_type: str) -> Help:
    """The game type's card help, as ``GET /v1/game-types`` serves it."""
    return CARD_HELP.get(game_type, [])
