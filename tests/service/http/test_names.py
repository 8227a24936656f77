"""Players' names cannot deceive: no control, format or invisible
characters, one normal form (NFC), at most 40 characters after it."""
from __future__ import annotations

import json

import pytest

from tests.support.api import new_game
from tests.support.openapi_contract import check

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


@pytest.mark.parametrize("name", ["\U0001f3b2 ana", "\u738b\u5c0f\u660e", "\u0417\u043e\u044f", "\u0645\u0631\u064a\u0645", "a b"])
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


@pytest.mark.parametrize("name", ["", " ", "   ", "\u3000", " ana", "ana ", "\u00a0ana"])
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
