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

"Reads as" is decided on the name's words, as a reader takes them in
(``reading``): each letter read as Unicode's prototype for it (the skeleton
of UTS #39, from its confusables data: ``look_alikes``; the Cyrillic "о" in
"Yоu" as an "o", the Greek "Υ" and the Cherokee "Ꭹ" as a "Y"; a Latin
letter as itself), case folded, compatibility forms made plain and
accents dropped (NFKD without its marks: fullwidth, mathematical and
circled letters, "ó"), over again until nothing changes (a prototype in
capitals is then folded, and read again); a zero read as an "o" (and as a
digit), cut into words at every space, punctuation mark or symbol and
between letters and digits, single letters in a row read as one word ("Y O
U"), and any number read as any number. What the table prints is read the
same way. A name is refused when it holds the reader's word ("you", "your":
"Ana (you)", "You2"), when it is one of what is printed for another (a
bot's name or any part of it that keeps the word "bot", a free seat,
"someone", "nobody", a spectator, the service), or when it ends with what
the page prints after a name. "Youssef" and "my-bot" read as themselves,
and are taken.

Unicode's confusables (confusables.txt, which the confusable_homoglyphs
package carries) compare any two strings, case and all; here a name is
compared, whatever its case, with words spelled in Latin letters. So a
Latin letter reads as itself, though the data gives "m" the prototype "rn"
and a capital "I" an "l": a letter whose prototype is "rn" reads as an "m";
the Greek "Ι" and the Cyrillic "І" read as an "l", as "I" does there, and
"I" is an "i" once case is folded, so "i" and "l" are one letter here. A
small capital ("ᴛ", "ʙ") is drawn like its capital, no case folding maps
it, and the data makes some the prototype of other letters ("ᴛ" of the
Cyrillic "т" and the Greek "τ"): each is read as the letter its Unicode name
gives ("LATIN LETTER SMALL CAPITAL T": a "t"), and so is every letter that
shares its prototype. A letter is read as its prototype only where the data
says which is the prototype (a character with one look-alike, which others
share too); the few pairs it leaves open are read as themselves. Only
letters are read so: a digit, a symbol or a punctuation mark stays what it
is, and still cuts words.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import utils as confusable_data

from games import narration
from games.registry import GAMES
from service.app.text import MARK

NUMBER = "#"  # any number, in a name's words
WORDS = re.compile(r"[^\W\d_]+|\d+")  # runs of letters, runs of digits
READINGS = 4  # rounds of reading a name's letters as their prototypes, at most
SMALL_CAPITAL = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z])")  # a small capital's Unicode name

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
    return words_read(reading(name), zero)


def words_read(read: str, zero: str = "0") -> tuple[str, ...]:
    """The words of a name already read (``reading``)."""
    out: list[str] = []
    spelled = False  # the last word is single letters in a row ("Y O U")
    for word in WORDS.findall(read.replace("0", zero)):
        word = NUMBER if word.isdigit() else word
        single = len(word) == 1 and word != NUMBER
        if single and spelled:
            out[-1] += word
        else:
            out.append(word)
        spelled = single
    return tuple(out)


def reading(name: str) -> str:
    """``name`` as a reader takes it in, letter by letter (see the module):
    its skeleton, case folded, without accents."""
    text = name
    for _ in range(READINGS):
        read = MARK.sub("", unicodedata.normalize("NFKD", text.translate(look_alikes()).casefold()))
        if read == text:
            break
        text = read
    return text.replace("l", "i")


# Basic Latin to Latin Extended-B: looked up once, when the table is made
LATIN_END = 0x250


class LookAlikes(dict):
    """What each letter reads as (``look_alikes``: a translation table, code
    point -> string); a small capital it does not list reads as its letter,
    looked up when met (``small_capital``)."""

    def __missing__(self, code: int) -> str:
        letter = small_capital(chr(code))
        if letter is None:
            raise LookupError(code)  # str.translate: left as it is
        return letter


@lru_cache(maxsize=None)
def look_alikes() -> LookAlikes:
    """Each letter that Unicode's confusables read as another character (->
    its prototype), but a Latin letter (read as itself); and where a
    prototype is no Latin letter yet stands for one (a small capital, "ᴛ",
    or the prototype of one, "rn" for "m"), it and every letter it stands
    for (-> that letter: "т" and "ᴛ" as a "t", "ⅿ" as an "m").

    confusable_homoglyphs keeps confusables.txt both ways (a character ->
    its look-alikes), which hides the direction: a source has one
    prototype, and a prototype is what each of its sources has. So a
    character with one look-alike that others share too is a source of that
    one; a pair that shares nothing else is left as it is. Built once, from
    the package's data file, which is not kept: a few thousand strings in
    one table rather than its 10 MB of lists and dicts in every process."""
    # its JSON, untyped: character -> its look-alikes, [{"c": a look-alike, "n": its name}]
    data: dict[str, list[dict[str, str]]] = confusable_data.load("confusables.json")
    prototypes = {
        char: found[0]["c"]
        for char, found in data.items()
        if len(char) == 1 and char.isalpha() and len(found) == 1 and len(data.get(found[0]["c"], ())) > 1
    }
    sources: dict[str, list[str]] = {}
    for char, prototype in prototypes.items():
        sources.setdefault(prototype, []).append(char)
    table = LookAlikes({ord(char): prototype for char, prototype in prototypes.items() if not latin(char)})
    for char in data:
        letter = char if latin(char) else small_capital(char) if len(char) == 1 else None
        prototype = prototypes.get(char, char)
        if letter is None or latin(prototype):
            continue  # no letter, or one read as a Latin letter already
        for alike in (prototype, *sources.get(prototype, ())):
            if len(alike) == 1 and not latin(alike):
                table[ord(alike)] = letter.lower()
    # the letters of most names (Latin, its accents) read as themselves, said
    # here once: each would otherwise ask ``__missing__`` (its Unicode name,
    # a pattern) at every reading of every name, 60 us for "Player 1"
    for code in range(LATIN_END):
        if code not in table and small_capital(chr(code)) is None:
            table[code] = chr(code)
    return table


def latin(char: str) -> bool:
    """One of the 52 ASCII letters, a to z in either case."""
    return len(char) == 1 and char.isascii() and char.isalpha()


def small_capital(char: str) -> str | None:
    """The letter a Latin small capital is drawn as ("ᴛ": "t"), from its
    Unicode name; None for any other character."""
    found = SMALL_CAPITAL.fullmatch(unicodedata.name(char, ""))
    return found.group(1).lower() if found is not None else None


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
    text = reading(name)
    for read in (words_read(text), words_read(text, "o")):
        mine = next((word for word in read if word in reader), None)
        if mine is not None:
            return mine, "the reader"
        if read in whole:
            return whole[read]
        for suffix, found in suffixes.items():
            if read[-len(suffix):] == suffix:
                return found
    return None
