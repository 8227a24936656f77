"""Text as a reader sees it (``service.app.text``): the characters a reader
counts, and the format characters that write an emoji."""
from __future__ import annotations

import pytest

from service.app.text import emoji_formats, graphemes

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
RAINBOW = "\U0001f3f3\ufe0f\u200d\U0001f308"
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"


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
        ("\u0915\u094d\u0937", ["\u0915\u094d", "\u0937"]),  # a conjunct: two here (one since Unicode 15.1)
        ("", []),
    ],
)
def test_graphemes_are_what_a_reader_counts_as_one_character(text, cut):
    assert graphemes(text) == cut
    assert "".join(graphemes(text)) == text


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
    ],
)
def test_emoji_formats_are_the_joiners_between_pictographs_and_a_flags_tags(text, positions):
    assert emoji_formats(text) == positions
