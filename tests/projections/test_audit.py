"""The log as evidence: ``verify`` passes every honest log, old formats
included, and names what was done to a log that was tampered with."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

from events.envelope import Envelope
from events.store import EventStore
from events.upcasting import CURRENT_SCHEMA, UnknownSchema
from games import table as tables
from games.registry import GAMES
from projections.audit import verify
from projections.local import LocalGame
from projections.views import summary
from service.runtime import replay
from service.app.index import GameIndex
from tests.support.paths import FIXTURES



def random_game(game_type: str, seed: int, seats: int = 3) -> LocalGame:
    game = LocalGame(game_type, seats, f"audit-{seed}")
    bot = GAMES[game_type].bots["random"]
    game.play_out({seat: bot for seat in range(seats)}, random.Random(seed))
    return game


def resealed(envelopes: list[Envelope]) -> list[Envelope]:
    """The hash chain recomputed over ``envelopes``: what a forger who can
    rewrite the whole log would do. The other checks must still catch it."""
    chained, prev = [], None
    for envelope in envelopes:
        envelope = envelope.chained(prev)
        chained.append(envelope)
        prev = envelope.hash
    return chained


def renumbered(envelopes: list[Envelope]) -> list[Envelope]:
    return [dataclasses.replace(e, version=n) for n, e in enumerate(envelopes, start=1)]


def changed_public(envelope: Envelope, **fields) -> Envelope:
    return dataclasses.replace(envelope, public={**envelope.public, **fields})


def problems(envelopes: list[Envelope]) -> str:
    audit = verify(envelopes)
    assert not audit.ok, "verify passed a tampered log"
    return "\n".join(audit.problems)


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_verify_passes_full_random_games_of_every_game_type(game_type):
    for seed in range(3):
        game = random_game(game_type, seed, seats=min(3 + seed, GAMES[game_type].max_seats))
        audit = verify(game.envelopes)
        assert audit.ok, audit.problems
        assert audit.commands == sum(1 for e in game.envelopes if e.command is not None)
        assert audit.chained == len(game.envelopes)
        assert audit.folded.table == game.table


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_verify_re_decides_timeouts_the_system_took(game_type):
    game = LocalGame(game_type, 3, "audit-timeouts")
    for _ in range(3):
        due = min(d.at for d in GAMES[game_type].deadlines(game.table.game))
        game.advance((due - game.now) / 1000)
        seat = next(d.seat for d in GAMES[game_type].deadlines(game.table.game) if d.at <= game.now)
        game.command(seat, {"type": "timeout"}, actor="system")
    assert sum(e.type == "seat_timed_out" for e in game.envelopes) == 3
    assert verify(game.envelopes).ok


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_verify_passes_the_fixture_log_of_every_game_in_the_first_event_format(game_type):
    path = FIXTURES / f"{game_type}.v1.ndjson"
    assert path.exists(), f"every game keeps a log in the first format: {path.name} is missing"
    envelopes = replay.read_file(path)
    assert {e.schema for e in envelopes} == {1}
    audit = verify(envelopes)
    assert audit.ok, audit.problems
    assert audit.folded.table.status == tables.FINISHED
    assert any("before the hash chain" in note for note in audit.notes)


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_verify_passes_the_fixture_log_of_every_game_played_by_its_first_rules(game_type):
    """Each game keeps a log played by rules version 1, written before the
    fixes that changed what some commands decide: it re-decides by those
    rules, which the game keeps for the games created under them."""
    path = FIXTURES / f"{game_type}.rules1.ndjson"
    assert path.exists(), f"every game keeps a log of its first rules: {path.name} is missing"
    envelopes = replay.read_file(path)
    assert envelopes[0].public["rules"] == 1
    audit = verify(envelopes)
    assert audit.ok, audit.problems
    assert audit.folded.table.status == tables.FINISHED and audit.folded.table.rules == 1


def test_verify_passes_the_diez_log_played_by_its_second_rules():
    """Diez's rules 3 changed who a jump-in window asks, a Proc of Link's
    offer and a Cut Deck with nothing under it. A game played by rules 2,
    written by the code before that change, re-decides by rules 2 to the
    events it holds: a Proc of Link offered only to a player holding an
    underlined number, and windows that did not ask the seat a Dagger or a
    Share landed on."""
    envelopes = replay.read_file(FIXTURES / "diez.rules2.ndjson")
    assert envelopes[0].public["rules"] == 2
    audit = verify(envelopes)
    assert audit.ok, audit.problems
    assert audit.folded.table.status == tables.FINISHED and audit.folded.table.rules == 2
    assert any(e.type == "offer_owed" and e.public["kind"] == "link" for e in envelopes)
    assert any(e.type == "window_opened" and e.public["card"]["kind"] in ("dagger", "share") for e in envelopes)


def test_a_game_records_the_rules_version_it_was_created_under():
    for game_type, game in GAMES.items():
        local = LocalGame(game_type, game.min_seats if game_type != "opticall" else 3, seed=1)
        assert local.envelopes[0].public["rules"] == game.rules_version == local.table.rules
        assert local.envelopes[0].command["rules"] == game.rules_version
    # logs from before rules versions read as version 1
    raw = json.loads((FIXTURES / "color-doubt.v1.ndjson").open().readline())
    assert Envelope.from_dict(raw).public["rules"] == 1


def test_verify_checks_the_chain_of_an_upcast_log_against_the_entries_as_stored():
    """Schema 3 makes a Diez game's "no tokens" explicit in its creation,
    which changes what an older, hashed entry holds once read."""
    envelopes = replay.read_file(FIXTURES / "diez.v2.ndjson")
    assert {e.schema for e in envelopes} == {2}
    assert envelopes[0].public["options"]["tokens"] is False
    audit = verify(envelopes)
    assert audit.ok, audit.problems
    assert audit.chained == len(envelopes)
    lines = (FIXTURES / "diez.v2.ndjson").read_text().splitlines()
    forged = json.loads(lines[0])
    forged["public"]["seats"] = 4
    envelopes[0] = Envelope.from_dict(forged)
    assert "version 1 (game_created): its content does not match its hash" in problems(envelopes)


def test_an_upcast_entry_keeps_the_schema_it_was_written_in_and_gains_the_new_fields():
    raw = next(json.loads(line) for line in (FIXTURES / "color-doubt.v1.ndjson").open() if '"game_started"' in line)
    envelope = Envelope.from_dict(raw)
    assert envelope.schema == 1 and envelope.hash is None and envelope.prev_hash is None
    assert envelope.public["shuffle_commitment"] is None


def test_an_entry_of_an_unknown_schema_is_refused_by_name():
    raw = json.loads((FIXTURES / "color-doubt.v1.ndjson").open().readline())
    with pytest.raises(UnknownSchema, match=f"event schema {CURRENT_SCHEMA + 1} is not one this code reads"):
        Envelope.from_dict({**raw, "schema": CURRENT_SCHEMA + 1})


def test_verify_finds_a_changed_event():
    envelopes = random_game("color-doubt", 1).envelopes
    at = len(envelopes) // 2
    envelopes[at] = changed_public(envelopes[at], forged=True)
    assert f"version {at + 1} ({envelopes[at].type}): its content does not match its hash" in problems(envelopes)


def test_verify_finds_a_changed_event_even_when_the_whole_chain_is_rehashed():
    envelopes = random_game("opticall", 2, seats=4).envelopes
    at = next(i for i, e in enumerate(envelopes) if e.type == "played" and i > 20)
    envelopes[at] = changed_public(envelopes[at], count=envelopes[at].public["count"] + 1)
    found = problems(resealed(envelopes))
    assert f"version {at + 1} (played): re-deciding the command 'play'" in found
    assert "gives public" in found


def test_verify_finds_a_removed_event():
    envelopes = random_game("deceptidice", 3, seats=4).envelopes
    del envelopes[10]
    assert "entry 11 is version 12, expected 11: an event is missing, repeated or out of order" in problems(envelopes)


def test_verify_finds_a_removed_event_when_the_rest_is_renumbered():
    envelopes = random_game("diez", 4).envelopes
    del envelopes[12]
    found = problems(renumbered(envelopes))
    assert "version 13" in found and "does not chain on version 12" in found


def test_verify_finds_reordered_events():
    envelopes = random_game("color-doubt", 5).envelopes
    envelopes[8], envelopes[9] = envelopes[9], envelopes[8]
    found = problems(renumbered(envelopes))
    assert "version 9" in found and "does not chain on version 8" in found


def test_verify_finds_a_wrong_shuffle_seed():
    envelopes = random_game("color-doubt", 6).envelopes
    created, finished = envelopes[0], envelopes[-1]
    envelopes[0] = dataclasses.replace(created, secret={"seed": "another seed"})
    envelopes[-1] = changed_public(finished, seed="another seed")
    found = problems(resealed(envelopes))
    assert "the seed does not match the seed commitment published with it" in found
    assert "the seed revealed at the end does not match the seed commitment" in found


def test_verify_finds_a_seed_swapped_with_its_commitment_by_the_deal():
    """A forger who swaps the seed and its commitment at creation still
    cannot match the shuffle commitment published when the cards were dealt."""
    envelopes = random_game("opticall", 7, seats=4).envelopes
    envelopes[0] = dataclasses.replace(
        changed_public(envelopes[0], seed_commitment=tables.seed_commitment("another seed")),
        secret={"seed": "another seed"},
    )
    envelopes[-1] = changed_public(envelopes[-1], seed="another seed")
    started = next(e for e in envelopes if e.type == "game_started")
    found = problems(resealed(envelopes))
    assert f"version {started.version} (game_started): the shuffle commitment does not match" in found


def test_verify_finds_an_unknown_event_type():
    envelopes = random_game("deceptidice", 8).envelopes
    at = next(i for i, e in enumerate(envelopes) if e.type == "guessed")
    envelopes[at] = dataclasses.replace(envelopes[at], type="conjured")
    found = problems(resealed(envelopes))
    assert "unknown event type 'conjured': Deceptidice has no event 'conjured'" in found


def test_the_summary_publishes_the_hash_of_the_newest_entry():
    game = random_game("color-doubt", 9)
    shown = summary(game.folded)
    assert shown["log_hash"] == game.envelopes[-1].hash == game.envelopes[-1].digest()


# -- the command line, against the store -------------------------------------


def stored_game(redis_client, game_type: str = "color-doubt") -> tuple[str, LocalGame]:
    game = random_game(game_type, 10)
    game_id = f"audit-{game_type}"
    EventStore(redis_client).append(game_id, 0, game.envelopes)
    GameIndex(redis_client).record(dataclasses.replace(game.folded, game_id=game_id), game.table.created_at)
    return game_id, game


def url_of(redis_client) -> str:
    kwargs = redis_client.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}/0"


def test_replay_verify_passes_a_stored_game_and_says_what_it_checked(redis_client, capsys):
    game_id, game = stored_game(redis_client)
    assert replay.main(["verify", game_id, "--url", url_of(redis_client)]) == 0
    out = capsys.readouterr().out
    assert f"verify {game_id}: OK: {len(game.envelopes)} events" in out
    assert f"{len(game.envelopes)} entries hash-chained" in out


def test_replay_verify_finds_a_game_missing_from_the_index_and_reindex_mends_it(redis_client, capsys):
    game_id, _ = stored_game(redis_client, "opticall")
    redis_client.delete(*redis_client.keys("tabletell:games*"))
    assert replay.main(["verify", game_id, "--url", url_of(redis_client)]) == 1
    assert "the operators' index does not list the game as finished" in capsys.readouterr().out
    assert replay.main(["reindex", "--url", url_of(redis_client)]) == 0
    assert "reindex: 1 games indexed" in capsys.readouterr().out
    assert replay.main(["verify", game_id, "--url", url_of(redis_client)]) == 0


def test_replay_verify_of_a_tampered_file_prints_what_differs(tmp_path, capsys):
    envelopes = random_game("diez", 11).envelopes
    envelopes[20] = changed_public(envelopes[20], forged=True)
    path = tmp_path / "game.ndjson"
    path.write_text("".join(e.to_json() + "\n" for e in envelopes))
    assert replay.main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"verify {path}: FAILED" in out and "version 21" in out and "does not match its hash" in out


def test_replay_verify_of_an_unreadable_file_says_so(tmp_path, capsys):
    path = tmp_path / "game.ndjson"
    path.write_text('{"version": 1, "schema": 99}\n')
    assert replay.main(["verify", str(path)]) == 1
    assert "the log cannot be read: version 1: event schema 99 is not one this code reads" in capsys.readouterr().out


def test_replay_verify_compares_the_summary_a_running_api_serves(redis_client):
    game_id, game = stored_game(redis_client, "deceptidice")
    audit = verify(EventStore(redis_client).read(game_id), game_id)
    served = summary(audit.folded)
    replay.check_served(audit, json.loads(json.dumps(served)))
    assert audit.ok, audit.problems
    replay.check_served(audit, {**served, "status": "active"})
    assert audit.problems == [
        f"the summary the API serves at version {audit.folded.version} differs from the log folded afresh"
    ]


@pytest.mark.parametrize("name", ["diez.v2", "diez.v1", "color-doubt.v1", "opticall.rules1"])
def test_a_log_of_an_older_schema_is_handed_out_as_it_was_stored_and_still_verifies(name):
    """`/log` and exports write each entry with ``to_json``: an entry read in
    an older schema must come out as stored, not as upcast, or its hash no
    longer matches (an exported Diez schema-2 log failed to verify)."""
    lines = (FIXTURES / f"{name}.ndjson").read_text().splitlines()
    envelopes = replay.read_file(FIXTURES / f"{name}.ndjson")
    assert [e.to_json() for e in envelopes] == [json.dumps(json.loads(line), sort_keys=True, separators=(",", ":")) for line in lines]
    again = [Envelope.from_json(e.to_json()) for e in envelopes]
    assert verify(again).ok, verify(again).problems


def test_every_entry_is_salted_so_the_hash_every_seat_sees_hides_its_hidden_parts():
    """Two games dealt and played alike differ in every entry's salt, hence in
    every hash: the hash is no test of a guess at a hidden part; the salt is
    in the log, never in a seat's feed, and verify checks it like the rest."""
    first, second = (random_game("color-doubt", seed=4) for _ in range(2))
    assert [e.public for e in first.envelopes] == [e.public for e in second.envelopes]
    for one, other in zip(first.envelopes, second.envelopes):
        assert len(one.salt) == 32 and one.salt != other.salt and one.hash != other.hash
        assert "salt" not in json.dumps([one.seen_by(seat) for seat in (None, 0, 1, 2)])
    assert verify(first.envelopes).ok
    salted = dataclasses.replace(first.envelopes[3], salt="0" * 32)
    assert "does not match its hash" in problems(first.envelopes[:3] + [salted] + first.envelopes[4:])
