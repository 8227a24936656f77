"""Players' names cannot deceive: no control, format or invisible
characters, one normal form (NFC), at most 40 characters after it, and
nothing that reads as what the table prints for someone else."""
from __future__ import annotations

import json

import pytest

from tests.support.api import auth, new_game
from tests.support.openapi_contract import check
from tests.support.paths import ROOT

SEATS = "/v1/games/{game_id}/seats"


def join(http, game_id: str, name):
    return http.post(f"/v1/games/{game_id}/seats", json={"name": name})


def refused(response, why: str) -> str:
    """The 400 names the field and says why; returns the reason."""
    assert response.status_code == 400, response.get_json()
    body = response.get_json()
    assert body["code"] == "invalid_request"
    check(SEATS, "post", response)
    [reason] = body["errors"]["name"]
    assert why.lower() in reason.lower(), reason
    return reason


def names_at_the_table(http, game_id: str) -> list:
    return [seat["name"] for seat in http.get(f"/v1/games/{game_id}").get_json()["seats"]]


INVISIBLE = "control, formatting or invisible characters are not allowed"


@pytest.mark.parametrize(
    "name, code_point",
    [
        ("ana\u0007", "U+0007"),  # Cc: a bell
        ("a\tna", "U+0009"),  # Cc: a tab
        ("ana\nbo", "U+000A"),  # Cc: a line feed
        ("ana\u202egnp.exe", "U+202E"),  # Cf: right-to-left override
        ("\u202aana", "U+202A"),  # Cf: left-to-right embedding
        ("\u2066ana\u2069", "U+2066"),  # Cf: a bidi isolate
        ("a\u200bna", "U+200B"),  # Cf: zero-width space
        ("a\u200cna", "U+200C"),  # Cf: zero-width non-joiner
        ("a\u200dna", "U+200D"),  # Cf: zero-width joiner
        ("\u2060ana", "U+2060"),  # Cf: word joiner
        ("\ufeffana", "U+FEFF"),  # Cf: zero-width no-break space (BOM)
        ("ana\U000e0041", "U+E0041"),  # Cf: a tag character
        ("\ue000ana", "U+E000"),  # Co: private use
        ("\U000f0000", "U+F0000"),  # Co: supplementary private use
        ("ana\u0378", "U+0378"),  # Cn: unassigned
        ("ana\u2028bo", "U+2028"),  # Zl: line separator
        ("\u3164", "U+3164"),  # a Hangul filler: a letter drawn as nothing
    ],
)
def test_a_name_with_control_format_private_or_unassigned_characters_is_refused(http, name, code_point):
    game_id = new_game(http, 3)
    reason = refused(join(http, game_id, name), INVISIBLE)
    assert code_point in reason
    assert names_at_the_table(http, game_id) == [None, None, None]  # nothing taken


def test_a_lone_surrogate_sent_as_a_json_escape_is_refused(http):
    game_id = new_game(http, 3)
    for raw in ('{"name": "\\ud800"}', '{"name": "ana\\udfff"}', '{"name": "\\udc00bo"}'):
        response = http.post(f"/v1/games/{game_id}/seats", data=raw, content_type="application/json")
        reason = refused(response, INVISIBLE)
        assert "U+D" in reason
    assert names_at_the_table(http, game_id) == [None, None, None]


def test_a_combining_sequence_is_stored_and_shown_in_nfc(http):
    game_id = new_game(http, 3)
    response = join(http, game_id, "Rene\u0301e")
    assert response.status_code == 201, response.get_json()
    assert names_at_the_table(http, game_id)[0] == "Ren\u00e9e"
    # the same name sent precomposed is stored the same
    assert join(http, game_id, "Ren\u00e9e").status_code == 201
    assert names_at_the_table(http, game_id)[:2] == ["Ren\u00e9e", "Ren\u00e9e"]
    log = http.get(f"/v1/games/{game_id}/events").get_json()
    taken = [e["data"]["name"] for e in log["events"] if e["type"] == "seat_taken"]
    assert taken == ["Ren\u00e9e", "Ren\u00e9e"]


def test_nfc_is_not_nfkc_what_the_player_typed_is_kept(http):
    game_id = new_game(http, 3)
    assert join(http, game_id, "\uff21\uff4e\uff41 \ufb01").status_code == 201  # fullwidth "Ana", the "fi" ligature
    assert names_at_the_table(http, game_id)[0] == "\uff21\uff4e\uff41 \ufb01"


@pytest.mark.parametrize(
    "name",
    [
        "\U0001f3b2 ana",
        "\u738b\u5c0f\u660e",
        "\u0417\u043e\u044f",
        "\u0645\u0631\u064a\u0645",
        "a b",
        "ana \U0001f469\u200d\U0001f4bb",
        "ana \U0001fae8",  # an emoji of Unicode 15, which the running Python's unicodedata (14) does not know
        "ana \U0001f642\u200d\u2194\ufe0f",  # head shaking (Unicode 15.1): joined to an arrow, a pictograph
    ],
)
def test_emoji_cjk_and_other_scripts_are_accepted(http, name):
    game_id = new_game(http, 3)
    response = join(http, game_id, name)
    assert response.status_code == 201, response.get_json()
    check(SEATS, "post", response)
    assert names_at_the_table(http, game_id)[0] == name


def test_forty_characters_after_normalisation_are_accepted_forty_one_refused(http):
    game_id = new_game(http, 3)
    assert join(http, game_id, "x" * 40).status_code == 201
    refused(join(http, game_id, "x" * 41), "at most 40 characters")
    # a pile of combining marks on one letter does not compose away: "a" and
    # 42 marks are 43 code points sent, 42 after NFC (a + U+0301 compose)
    refused(join(http, game_id, "a" + "\u0301\u0302" * 21), "at most 40 characters, not 42")
    # counted after NFC: 40 "e" + U+0301 pairs are 80 code points sent, 40 stored
    assert join(http, game_id, "e\u0301" * 40).status_code == 201
    assert names_at_the_table(http, game_id)[:2] == ["x" * 40, "\u00e9" * 40]


@pytest.mark.parametrize("name", ["", " ", "   ", "\u3000", " ana", "ana ", "\u00a0ana", "\u2800", "ana\u2800"])
def test_empty_blank_and_padded_names_are_refused_not_trimmed(http, name):
    game_id = new_game(http, 3)
    response = join(http, game_id, name)
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_request"
    assert "name" in response.get_json()["errors"]
    assert names_at_the_table(http, game_id) == [None, None, None]


def test_a_name_that_starts_with_a_combining_mark_is_refused(http):
    game_id = new_game(http, 3)
    refused(join(http, game_id, "\u0301ana"), "combining mark")


@pytest.mark.parametrize("name", [None, 7, ["ana"], {"n": 1}])
def test_a_name_that_is_not_a_string_is_refused(http, name):
    game_id = new_game(http, 3)
    response = http.post(f"/v1/games/{game_id}/seats", data=json.dumps({"name": name}), content_type="application/json")
    assert response.status_code == 400 and "name" in response.get_json()["errors"]


def posing(response, printed: str) -> None:
    """A 400 ``reserved_name`` naming the field and what the name reads as."""
    assert response.status_code == 400, response.get_json()
    body = response.get_json()
    assert body["code"] == "reserved_name", body
    [reason] = body["errors"]["name"]
    assert repr(printed) in reason, reason


@pytest.mark.parametrize(
    "name, printed",
    [
        ("You", "you"),
        ("you", "you"),
        ("YOU", "you"),
        ("Y\u043eu", "you"),  # a Cyrillic o
        ("\uff39\uff4f\uff55", "you"),  # fullwidth
        ("\U0001d418\U0001d428\U0001d42e", "you"),  # mathematical bold
        ("\u028f\u1d0f\u1d1c", "you"),  # small capitals
        ("Y0u", "you"),
        ("Y O U", "you"),
        ("Y\u00f3u", "you"),  # an accent
        ("Ana (you)", "you"),  # as the page marks the reader's own seat
        ("You2", "you"),
        ("Your turn", "your"),
        ("Bot 1 (expert)", "Bot 1 (expert)"),
        ("bot 3 (heuristic)", "Bot 1 (heuristic)"),
        ("\u0412\u043e\u0442 2 (random)", "Bot 1 (random)"),  # Cyrillic "Vot"
        ("B0t 1", "Bot 1 (expert)"),
        ("Bot1", "Bot 1 (expert)"),
        ("an expert bot", "an expert bot"),
        ("Seat 2", "Seat 1"),
        ("Someone", "someone"),
        ("NOBODY", "nobody"),
        ("A spectator", "A spectator"),
        ("Ana (a bot)", "(a bot)"),
        ("The Service", "(the service)"),
        ("ana (watching)", "(watching)"),
    ],
)
def test_a_name_that_reads_as_what_the_table_prints_for_someone_else_is_refused(http, name, printed):
    """A seat named "You" would have the others read "You sat down at the
    table."; one named "Bot 1 (expert)" would pass for a bot: refused where
    a name is given (a seat, a player, a player's seat under another name),
    whatever its case or the look-alike letters it is written in."""
    game_id = new_game(http, 3)
    posing(join(http, game_id, name), printed)
    check(SEATS, "post", join(http, game_id, name))
    posing(http.post("/v1/players", json={"name": name}), printed)
    key = http.post("/v1/players", json={"name": "ana"}).get_json()["key"]
    posing(http.post(f"/v1/games/{game_id}/seats", json={"name": name}, headers=auth(key)), printed)
    assert names_at_the_table(http, game_id) == [None, None, None]  # nothing taken


@pytest.mark.parametrize(
    "name, printed",
    [
        ("\u0423\u043eu", "you"),  # Cyrillic У and о
        ("\u03a5\u03bf\u03c5", "you"),  # Greek Υου
        ("\u13a9\u13be\u13cc", "you"),  # Cherokee ᎩᎾᏌ
        ("\ua4ec\ua4f3\ua4f4", "you"),  # Lisu ꓬꓳꓴ
        ("\uff39\uff4f\uff55", "you"),  # fullwidth
        ("\U0001d688\U0001d698\U0001d69e", "you"),  # mathematical monospace
        ("\U0001d51c\U0001d52c\U0001d532", "you"),  # mathematical fraktur
        ("\u0412\u043e\u0442", "Bot 1 (expert)"),  # Cyrillic Вот
        ("\u0432\u043e\u0442", "Bot 1 (expert)"),  # Cyrillic вот: в and т are drawn as small capitals
        ("\u0392\u039f\u03a4", "Bot 1 (expert)"),  # Greek ΒΟΤ
        ("\U0001d6a9\U0001d6d0\U0001d6d5", "Bot 1 (expert)"),  # mathematical bold Greek 𝚩𝛐𝛕
        ("\u13f4\u13be\u13a2", "Bot 1 (expert)"),  # Cherokee ᏴᎾᎢ
        ("\ua4d0\ua4f3\ua4d4", "Bot 1 (expert)"),  # Lisu ꓐꓳꓔ
        ("\uff22\uff4f\uff54", "Bot 1 (expert)"),  # fullwidth
        ("\U0001d539\U0001d560\U0001d565", "Bot 1 (expert)"),  # mathematical double-struck 𝔹𝕠𝕥
        ("\u0299\u1d0f\u1d1b", "Bot 1 (expert)"),  # small capitals ʙᴏᴛ
        ("Bot 1 (rando\u043c)", "Bot 1 (random)"),  # a Cyrillic м
        ("The SERV\u0406CE", "(the service)"),  # a Cyrillic І: Unicode reads an I as an l
        ("\u0274\u1d0f\u0299\u1d0f\u1d05\u028f", "nobody"),  # small capitals
    ],
)
def test_look_alikes_of_you_and_bot_from_any_script_are_refused(http, name, printed):
    """Each letter is read as Unicode's confusables read it (UTS #39's
    prototype), whatever its script: Cyrillic, Greek, Cherokee, Lisu,
    fullwidth or mathematical letters that spell "You" or "Bot"."""
    game_id = new_game(http, 3)
    posing(join(http, game_id, name), printed)
    posing(http.post("/v1/players", json={"name": name}), printed)
    assert names_at_the_table(http, game_id) == [None, None, None]


@pytest.mark.parametrize(
    "name",
    [
        "Youssef",
        "Yousra",
        "my-bot",
        "Robot",
        "Abbot",
        "Seat",
        "Nobody's fool",
        "Bea",
        "Tabletell",
        "Lou",
        "Tom",
        "\u0395\u03bb\u03ad\u03bd\u03b7",  # Ελένη
        "\u041c\u0438\u043b\u043e\u0448",  # Милош
        "\u13e3\u13b3\u13a9",  # ᏣᎳᎩ
    ],
)
def test_a_name_that_only_resembles_them_is_taken(http, name):
    game_id = new_game(http, 3)
    assert join(http, game_id, name).status_code == 201
    assert http.post("/v1/players", json={"name": name}).status_code == 201


def test_what_the_table_prints_for_a_bot_a_free_seat_and_the_reader_is_refused_as_a_name(http):
    """Read from the API itself: the bots' and the free seat's display names
    and the reader's own words in the narration, each refused as a name."""
    game_id = new_game(http, 4, bots=[{"seat": 1, "level": "expert"}, {"seat": 2, "level": "random"}])
    seats = http.get(f"/v1/games/{game_id}").get_json()["seats"]
    shown = [seat["display_name"] for seat in seats]
    assert shown[1:] == ["Bot 1 (expert)", "Bot 2 (random)", "Seat 4"]
    for name in shown[1:]:
        posing(join(http, game_id, name), name if name != "Bot 2 (random)" else "Bot 1 (random)")
    token = join(http, game_id, "ana").get_json()["token"]
    told = http.get(f"/v1/games/{game_id}/events", headers=auth(token)).get_json()["events"][-1]["text"]
    assert told == "You sat down at the table."
    posing(join(http, game_id, told.split()[0]), "you")
    assert names_at_the_table(http, game_id)[0] == "ana"


def test_the_words_the_page_prints_beside_a_name_are_the_ones_refused():
    """The page's words ``service.app.names`` refuses are the page's own: a
    change of the page shows here."""
    from service.app.names import BOT_OFFER, PAGE_NAMES, PAGE_SUFFIXES

    scripts = "".join(path.read_text() for path in (ROOT / "service" / "http" / "web" / "static" / "js").glob("*.js"))
    for told in (*PAGE_SUFFIXES, *PAGE_NAMES):
        assert f'"{told}"' in scripts or f'" {told}"' in scripts, told
    assert BOT_OFFER == "{article} {level} bot" and "${article(level)} ${level} bot" in scripts
