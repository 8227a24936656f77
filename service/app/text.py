"""Text as a reader sees it: the characters a reader counts (grapheme
clusters), and the format characters that belong to an emoji rather than
hide something.

A reader counts "é", a flag, a family of emoji joined by zero-width joiners
(U+200D) and a letter with its accents each as one character, though each is
several code points. ``graphemes`` cuts text so, after Unicode's extended
grapheme clusters (UAX #29), over what the stdlib's ``unicodedata`` knows:
the regex package's ``\\X`` does the same from the full Unicode data, and
is not a dependency yet. What ``unicodedata`` lacks is approximated, each
on the side of counting more, never fewer: a pictograph is a symbol of
category So (nearly every emoji is; the few that are not join no emoji
sequence), a combining mark (M*) or a zero-width joiner extends the
character before it, and the clusters Unicode 15.1 added for Indic
conjuncts (a consonant, a virama, a consonant) are counted as two. Prepend
characters (Arabic number signs and the like) are format characters, which
the text rules refuse anyway.

Format characters are refused in text people are shown (they reorder or
hide what follows: ``service.http.schemas.shown_text``), but two of them are
how emoji are written: the zero-width joiner between two pictographs (👩‍💻,
👨‍👩‍👧, 🏳️‍🌈: an emoji ZWJ sequence, a skin tone or a variation selector
allowed before it) and the tag letters of a subdivision's flag (🏴 then
"gbeng" in tags, then the cancel tag: England's). ``emoji_formats`` finds
them; anywhere else the same characters are refused.
"""
from __future__ import annotations

import re
import unicodedata

ZWJ = "\u200d"
SKIN_TONES = range(0x1F3FB, 0x1F400)  # emoji modifiers: they extend the emoji before them
TAGS = range(0xE0020, 0xE0080)  # tag characters, the cancel tag last
REGIONAL_INDICATORS = range(0x1F1E6, 0x1F200)  # two make a flag
# a subdivision's flag: the black flag, its code in tag letters and digits
# (2 to 6 of them: "gbeng", "gbsct", "gbwls"), the cancel tag
TAG_SEQUENCE = re.compile("\U0001F3F4[\U000E0030-\U000E0039\U000E0061-\U000E007A]{2,6}\U000E007F")

# Hangul's conjoining jamo (leading consonants, vowels, trailing consonants)
# and its precomposed syllables, which join as UAX #29's rules 6 to 8 say
HANGUL_L = (range(0x1100, 0x1160), range(0xA960, 0xA97D))
HANGUL_V = (range(0x1160, 0x11A8), range(0xD7B0, 0xD7C7))
HANGUL_T = (range(0x11A8, 0x1200), range(0xD7CB, 0xD7FC))
HANGUL_SYLLABLES = range(0xAC00, 0xD7A4)


def pictographic(char: str) -> bool:
    """An emoji or another pictograph (a symbol, category So)."""
    return unicodedata.category(char) == "So"


def extends(char: str) -> bool:
    """Belongs to the character before it (UAX #29's Extend and
    SpacingMark, and the joiner): a combining mark, a zero-width joiner, a
    skin tone, a tag character."""
    return unicodedata.category(char)[0] == "M" or char == ZWJ or ord(char) in SKIN_TONES or ord(char) in TAGS


def _hangul(char: str) -> str | None:
    """The jamo type of a Hangul character: L, V, T, LV or LVT (None: not Hangul)."""
    code = ord(char)
    if code in HANGUL_SYLLABLES:
        return "LV" if (code - HANGUL_SYLLABLES.start) % 28 == 0 else "LVT"
    for kind, ranges in (("L", HANGUL_L), ("V", HANGUL_V), ("T", HANGUL_T)):
        if any(code in block for block in ranges):
            return kind
    return None


def _joins(text: str, start: int, position: int) -> bool:
    """Whether the character at ``position`` continues the grapheme that
    began at ``start`` rather than starting the next one."""
    char, last = text[position], text[position - 1]
    if extends(char):  # GB9, GB9a
        return True
    if last == ZWJ and pictographic(char):  # GB11: a pictograph, its extenders, the joiner, a pictograph
        return _joined_after_pictograph(text, position - 1, start)
    if ord(char) in REGIONAL_INDICATORS:  # GB12, GB13: regional indicators pair up
        return position - start == 1 and ord(last) in REGIONAL_INDICATORS
    before, after = _hangul(last), _hangul(char)
    if before is None or after is None:
        return False
    return (  # GB6, GB7, GB8
        (before == "L" and after in ("L", "V", "LV", "LVT"))
        or (before in ("LV", "V") and after in ("V", "T"))
        or (before in ("LVT", "T") and after == "T")
    )


def graphemes(text: str) -> list[str]:
    """``text`` cut into the characters a reader counts (see the module)."""
    out: list[str] = []
    start = 0
    for position in range(1, len(text)):
        if not _joins(text, start, position):
            out.append(text[start:position])
            start = position
    if text:
        out.append(text[start:])
    return out


def emoji_formats(text: str) -> set[int]:
    """The positions in ``text`` of format characters that write an emoji:
    a zero-width joiner between two pictographs (a skin tone or variation
    selector may stand between the first and the joiner), and the tags of a
    subdivision's flag."""
    found = {position for match in TAG_SEQUENCE.finditer(text) for position in range(match.start() + 1, match.end())}
    for position, char in enumerate(text):
        if char == ZWJ and position + 1 < len(text) and pictographic(text[position + 1]):
            if _joined_after_pictograph(text, position):
                found.add(position)
    return found


def _joined_after_pictograph(text: str, joiner: int, start: int = 0) -> bool:
    """Whether the joiner at ``joiner`` follows a pictograph (at ``start`` or
    after), with only its extenders (a skin tone, a variation selector)
    between them."""
    before = joiner - 1
    while before >= start and extends(text[before]) and text[before] != ZWJ:
        before -= 1
    return before >= start and pictographic(text[before])
