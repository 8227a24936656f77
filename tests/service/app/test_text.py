"""Text as a reader sees it (``service.app.text``): the characters a reader
counts, and the format characters that write an emoji."""
from __future__ import annotations

import pytest

from service.app.text import emoji_formats, graphemes

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
RAINBOW = "\U0001f3f3\ufe0f\u200d\U0001f308"
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
HEAD_SHAKE = "\U0001f642\u200d\u2194\ufe0f"  # head shaking horizontally (Unicode 15.1)


@pytest.mark.parametrize(
    "text, cut",
    [
        ("abc", ["a", "b", "c"]),
        ("e\u0301x", ["e\u0301", "x"]),  # a letter and its mark
        (FAMILY + "!", [FAMILY, "!"]),  # emoji joined by zero-width joiners
        (RAINBOW, [RAINBOW]),  # a variation selector before the joiner
        ("\U0001f469\U0001f3fd\u200d\U0001f4bb", ["\U0001f469\U0001f3fd\u200d\U0001f4bb"]),  # a skin tone
        (ENGLAND + "x", [ENGLAND, "x"]),  # a subdivision's flag: tags extend the black flag
        ("\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea\U0001f1ee", ["\U0001f1eb\U0001f1f7", "\U0001f1e9\U0001f1ea", "\U0001f1ee"]),
        ("1\ufe0f\u20e3", ["1\ufe0f\u20e3"]),  # a keycap
        ("\u1100\u1161\u11a8\uac00", ["\u1100\u1161\u11a8", "\uac00"]),  # Hangul jamo, then a syllable
        ("a\u200d\U0001f600", ["a\u200d", "\U0001f600"]),  # a joiner after a letter joins nothing to it
        ("", []),
    ],
)
def test_graphemes_are_what_a_reader_counts_as_one_character(text, cut):
    assert graphemes(text) == cut
    assert "".join(graphemes(text)) == text


@pytest.mark.parametrize(
    "text, cut",
    [
        ("\u0915\u094d\u0937\u093e", ["\u0915\u094d\u0937\u093e"]),  # a Devanagari conjunct (Unicode 15.1): one
        ("\uff76\uff9e", ["\uff76\uff9e"]),  # halfwidth katakana and its voiced mark, a letter (Lm) that extends
        (HEAD_SHAKE, [HEAD_SHAKE]),  # a pictograph that is not a symbol (So), joined: ↔ is Sm
        ("\u2500\u200d\u2500", ["\u2500\u200d", "\u2500"]),  # a box-drawing symbol is no pictograph: nothing joined
        ("\U0001faea\u200d\U0001f525", ["\U0001faea\u200d\U0001f525"]),  # a pictograph of Unicode 17
    ],
)
def test_graphemes_follow_unicode_where_the_hand_written_cut_approximated(text, cut):
    """Where the first, hand-written cut approximated UAX #29 from what the
    stdlib knows (a pictograph: a symbol, So; no Indic conjunct rule), the
    regex package's ``\\X`` is exact."""
    assert graphemes(text) == cut


def test_a_bodys_worth_of_marks_on_one_letter_is_one_grapheme():
    """(The text rules then refuse it for its marks: it is still cut, whole,
    a request's text being up to 64 KiB.)"""
    assert graphemes("a" + "\u0301" * 60_000) == ["a" + "\u0301" * 60_000]


@pytest.mark.parametrize(
    "text, positions",
    [
        (FAMILY, {1, 3}),
        (RAINBOW, {2}),
        (ENGLAND, {1, 2, 3, 4, 5, 6}),
        ("a\u200db", set()),  # between letters: it hides, it joins nothing
        ("\U0001f600\u200d", set()),  # nothing after it
        ("\U0001f600\u200d\u200d\U0001f600", set()),  # two joiners
        ("hi\U000e0041", set()),  # a tag outside a flag
        ("\U0001f3f4\U000e0067\U000e0062", set()),  # a flag's tags not cancelled
        (HEAD_SHAKE, {1}),  # a pictograph that is not a symbol (So): ↔ is Sm
        ("\u2500\u200d\u2500", set()),  # box-drawing symbols (So) are no pictographs
        ("\u2800\u200d\u2800", set()),  # nor are Braille blanks (So)
        ("\U0001f600\u0301\u200d\U0001f600", set()),  # a mark is no part of an emoji (UTS #51)
    ],
)
def test_emoji_formats_are_the_joiners_between_pictographs_and_a_flags_tags(text, positions):
    assert emoji_formats(text) == positions
