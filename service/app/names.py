"""Names that pose: a player's name that reads as what the table prints for
someone else, so that the others would take it for that.

In a seat's place the narration (``games.narration``) prints "you" and
"your" for the reader ("You sat down at the table."), "Bot 1 (heuristic)"
for a bot, "Seat 2" for a free seat, "someone" for a seat it cannot name
and "nobody" for no seat at all; the web page prints "(you)" after the
reader's own seat, "(a bot)" and "(the service)" after who acted in a
replay, "A spectator" and "(watching)" in the chat, and offers "a heuristic
bot" for a seat when a game is created. A name that reads as one of them is
refused (``reads_as``): a seat named "You" would make the others read "You
sat down at the table.", one named "Bot 1 (expert)" would pass for a bot.
The narration's words are taken from the narration itself (its ``Voice``
and ``display_names``), so a change of what it prints changes what is
refused; the page's are listed here (``PAGE_SUFFIXES``, ``PAGE_NAMES``,
``BOT_OFFER``). It is checked where a name is given (a seat taken, a player
created: ``service.http.schemas.PlayerName``); a name already in a log or a
player's record (a rematch seats its players under theirs) is not asked
again.

"Reads as" is decided on the name's words, as a reader takes them in:
NFKC (fullwidth, mathematical and circled letters become plain ones), then
the letters of other scripts drawn like the Latin ones (``LOOK_ALIKE``: the
Cyrillic "о" in "Yоu", small capitals), case folded, accents dropped, a zero
read as an "o" (and as a digit), cut into words at every space, punctuation
mark or symbol and between letters and digits, single letters in a row read
as one word ("Y O U"), and any number read as any number. A name is refused
when it holds the reader's word ("you", "your": "Ana (you)", "You2"), when
it is one of what is printed for another (a bot's name or any part of it
that keeps the word "bot", a free seat, "someone", "nobody", a spectator,
the service), or when it ends with what the page prints after a name.
"Youssef" and "my-bot" read as themselves, and are taken.

``LOOK_ALIKE`` is a small table, not Unicode's whole list of confusables
(UTS #39's confusables.txt, which the confusable_homoglyphs package
carries, and which is not a dependency yet): the letters of Cyrillic,
Greek, Armenian and Cherokee, and Latin's small capitals, drawn like the
Latin letters of the words above (the only ones compared here). A
look-alike of a rarer script is not in it.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from games import narration
from games.registry import GAMES

# letters of other scripts drawn like a Latin letter, by the Latin letter
_DRAWN_LIKE = {
    "a": "\u0430\u0251\u03b1\u1d00\u0410\u0391\u13aa",  # а ɑ α ᴀ А Α Ꭺ
    "b": "\u042c\u044c\u0185\u0184\u0432\u0412\u0392\u13f4\u0299\u13cf",  # Ь ь ƅ Ƅ в В Β Ᏼ ʙ Ꮟ
    "c": "\u0441\u03f2\u1d04\u0421\u03f9\u13df",  # с ϲ ᴄ С Ϲ Ꮯ
    "d": "\u0501\u0500\u13a0\u1d05",  # ԁ Ԁ Ꭰ ᴅ
    "e": "\u0435\u04bd\u0415\u0395\u13ac\u1d07",  # е ҽ Е Ε Ꭼ ᴇ
    "g": "\u0261\u0581\u050c\u13c0\u0262",  # ɡ ց Ԍ Ꮐ ɢ
    "h": "\u04bb\u04ba\u0570\u041d\u043d\u0397\u13bb\u029c",  # һ Һ հ Н н Η Ꮋ ʜ
    "i": "\u0456\u0406\u0269\u03b9\u0399\u0131\u026a\u04c0\u04cf\u13a5",  # і І ɩ ι Ι ı ɪ Ӏ ӏ Ꭵ
    "m": "\u041c\u043c\u039c\u13b7\u1d0d",  # М м Μ Ꮇ ᴍ
    "n": "\u0578\u039d\u0274\u043f",  # ո Ν ɴ п
    "o": "\u043e\u03bf\u0585\u041e\u039f\u0555\u1d0f",  # о ο օ О Ο Օ ᴏ
    "p": "\u0440\u03c1\u0420\u03a1\u13e2\u1d18",  # р ρ Р Ρ Ꮲ ᴘ
    "r": "\u0433\u13a1\u0280",  # г Ꭱ ʀ
    "s": "\u0455\u0405\u13da\u054f\ua731",  # ѕ Ѕ Ꮪ Տ ꜱ
    "t": "\u0422\u0442\u03a4\u03c4\u13a2\u1d1b",  # Т т Τ τ Ꭲ ᴛ
    "u": "\u057d\u03c5\u054d\u1d1c\u028b",  # ս υ Ս ᴜ ʋ
    "v": "\u03bd\u0475\u0474\u13d9\u1d20",  # ν ѵ Ѵ Ꮩ ᴠ
    "w": "\u051d\u0461\u051c\u13b3\u1d21",  # ԝ ѡ Ԝ Ꮃ ᴡ
    "x": "\u0445\u0425\u03a7\u03c7",  # х Х Χ χ
    "y": "\u0443\u04af\u03b3\u028f\u0423\u03a5\u04ae\u13a9",  # у ү γ ʏ У Υ Ү Ꭹ
}
LOOK_ALIKE = str.maketrans({other: latin for latin, others in _DRAWN_LIKE.items() for other in others})

NUMBER = "#"  # any number, in a name's words
WORDS = re.compile(r"[^\W\d_]+|\d+")  # runs of letters, runs of digits

# What the web page prints after a seat's name (static/js): after the
# reader's own seat (table.js, leaderboard.js), after who acted in a replay
# (replay.js), after a spectator in the chat (chat.js); each -> for whom.
PAGE_SUFFIXES = {"(you)": "the reader", "(a bot)": "a bot", "(the service)": "the service", "(watching)": "a spectator"}
# what it prints in a seat's place: a spectator in the chat (chat.js)
PAGE_NAMES = {"A spectator": "a spectator"}
# what the lobby offers for a seat (lobby.js): "a heuristic bot", "an expert bot"
BOT_OFFER = "{article} {level} bot"


def words(name: str, zero: str = "0") -> tuple[str, ...]:
    """``name`` as the words a reader takes in (see the module); ``zero``:
    what a "0" reads as, a digit or the letter "o"."""
    text = unicodedata.normalize("NFKC", name).translate(LOOK_ALIKE)
    text = text.casefold().translate(LOOK_ALIKE)
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.category(c).startswith("M"))
    out: list[str] = []
    spelled = False  # the last word is single letters in a row ("Y O U")
    for word in WORDS.findall(text.replace("0", zero)):
        word = NUMBER if word.isdigit() else word
        single = len(word) == 1 and word != NUMBER
        if single and spelled:
            out[-1] += word
        else:
            out.append(word)
        spelled = single
    return tuple(out)


@lru_cache(maxsize=None)
def printed() -> tuple[frozenset[str], dict[tuple[str, ...], tuple[str, str]], dict[tuple[str, ...], tuple[str, str]]]:
    """What the table prints in a seat's place, as words: the reader's
    words; each whole thing printed for another seat (-> what is printed,
    and for whom); each thing the page prints after a name (-> the same)."""
    voice = narration.Voice(["?"], 0)
    reader = frozenset(word for told in (voice.Who(0), voice.Whose(0)) for word in words(told))
    whole: dict[tuple[str, ...], tuple[str, str]] = {}
    for level in sorted({level for game in GAMES.values() for level in game.bots}):
        bot = narration.display_names([None], {0: level})[0]  # "Bot 1 (heuristic)"
        article = "an" if level[0] in "aeiou" else "a"
        offers = [BOT_OFFER.format(article=a, level=level) for a in (article, *{"a", "an"} - {article})]
        for told in (bot, *offers):
            # the bot's name, and any part of it that keeps the word "bot"
            for part in _parts(words(told)):
                if "bot" in part:
                    whole.setdefault(part, (told, "a bot"))
    free = narration.display_names([None], {})[0]  # "Seat 1"
    whole[words(free)] = (free, "a free seat")
    whole[words(voice.who(None))] = (voice.who(None), "a seat the table cannot name")  # "someone"
    whole[words(narration.join([]))] = (narration.join([]), "no seat")  # "nobody"
    suffixes = {words(told): (told, whom) for told, whom in PAGE_SUFFIXES.items()}
    for told, whom in {**PAGE_NAMES, **PAGE_SUFFIXES}.items():
        whole.setdefault(words(told), (told, whom))
    return reader, whole, suffixes


def _parts(told: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every part of ``told`` that keeps its words' order (a subsequence)."""
    parts: list[tuple[str, ...]] = [()]
    for word in told:
        parts += [part + (word,) for part in parts]
    return [part for part in parts if part]


def reads_as(name: str) -> tuple[str, str] | None:
    """What the table prints that ``name`` reads as, and for whom (None: the
    name reads as itself). Read with a zero as a digit, then as an "o"."""
    reader, whole, suffixes = printed()
    for read in (words(name), words(name, "o")):
        mine = next((word for word in read if word in reader), None)
        if mine is not None:
            return mine, "the reader"
        if read in whole:
            return whole[read]
        for suffix, found in suffixes.items():
            if read[-len(suffix):] == suffix:
                return found
    return None
