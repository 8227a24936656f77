"""Text as a reader sees it: the characters a reader counts (grapheme
clusters), the format characters that belong to an emoji rather than hide
something, and the character properties the text rules ask about.

A reader counts "é", a flag, a family of emoji joined by zero-width joiners
(U+200D) and a letter with its accents each as one character, though each is
several code points. ``graphemes`` cuts text so: Unicode's extended grapheme
clusters (UAX #29), which the regex package matches as ``\\X``, rule for
rule, from its own Unicode data (a Devanagari conjunct, a consonant, a
virama and a consonant, is one, as Unicode 15.1 counts it).

Every property asked here comes from the regex package's Unicode data, not
the stdlib's ``unicodedata``, which is the running Python's (Unicode 14 in
Python 3.11): there a pictograph added since, 🫨 or 🩷, is unassigned, and an
unassigned character is refused (``service.http.schemas.shown_text``). The
pinned regex release knows Unicode 17. Normalisation (NFC here, NFKD in
``service.app.names``) is still the stdlib's: it changes nothing it does not
know.

Format characters are refused in text people are shown (they reorder or
hide what follows: ``service.http.schemas.shown_text``), but two of them are
how emoji are written (UTS #51): the zero-width joiner between two
pictographs (👩‍💻, 👨‍👩‍👧, 🏳️‍🌈, 🙂‍↔️: an emoji ZWJ sequence, the first with a
skin tone or an emoji variation selector if it has one) and the tag letters
of a subdivision's flag (🏴 then "gbeng" in tags, then the cancel tag:
England's). ``emoji_formats`` finds them; anywhere else the same characters
are refused.
"""
from __future__ import annotations

from typing import Iterable

import regex

GRAPHEME = regex.compile(r"\X")
# a joiner that joins two pictographs (UTS #51's emoji ZWJ sequence: each
# element a pictograph, with a skin tone or U+FE0F after it)
EMOJI_JOINER = regex.compile(r"(?<=\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0F]?)\u200D(?=\p{Extended_Pictographic})")
# a subdivision's flag: the black flag, its code in tag letters and digits
# (2 to 6 of them: "gbeng", "gbsct", "gbwls"), the cancel tag
TAG_SEQUENCE = regex.compile("\U0001F3F4[\U000E0030-\U000E0039\U000E0061-\U000E007A]{2,6}\U000E007F")
MARK = regex.compile(r"\p{M}")  # a combining mark, spacing or not
STACKED = regex.compile(r"[\p{Mn}\p{Me}]")  # a mark drawn over or under its letter (not beside it)


def graphemes(text: str) -> list[str]:
    """``text`` cut into the characters a reader counts (see the module)."""
    return GRAPHEME.findall(text)


def emoji_formats(text: str) -> set[int]:
    """The positions in ``text`` of format characters that write an emoji:
    a zero-width joiner between two pictographs, and the tags of a
    subdivision's flag."""
    found = {position for match in TAG_SEQUENCE.finditer(text) for position in range(match.start() + 1, match.end())}
    return found | {match.start() for match in EMOJI_JOINER.finditer(text)}


def character_class(categories: Iterable[str], characters: Iterable[str] = ()) -> regex.Pattern:
    """A pattern matching one character of any of the general
    ``categories`` ("Cf", "Mn"), or one of ``characters``."""
    listed = "".join(f"\\U{ord(char):08x}" for char in sorted(characters))
    return regex.compile("[" + "".join(f"\\p{{{category}}}" for category in sorted(categories)) + listed + "]")


def combining(char: str) -> bool:
    """A combining mark (category M): it belongs to the character before it."""
    return MARK.fullmatch(char) is not None


def stacked_marks(character: str) -> int:
    """How many marks are drawn over or under ``character`` (a grapheme):
    its non-spacing and enclosing marks (Mn, Me)."""
    return len(STACKED.findall(character))
