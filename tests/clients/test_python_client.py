"""The Python client (clients/python) against the real stack: gunicorn as
`make run` serves it (``api_server``) on the tests' store, RQ workers for
the bots. The network's failures come from an httpx transport that loses
what the network loses (a command's answer, a stream in the middle of a
line); everything else is the real server."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import httpx
import pytest

from tabletell_client import Conflict, Forbidden, RuleRefused, Tabletell, Unauthorized
from tests.support.api import SHORT
from tests.support.paths import ROOT
from tests.support.patience import PATIENCE, WHOLE_RUN
from tests.support.stack import OPERATOR_TOKEN
from tests.support.streams import finished_diez


class Cut(httpx.SyncByteStream):
    """A response body that breaks after ``lines`` lines, halfway into the next."""

    def __init__(self, inner: httpx.SyncByteStream, lines: int):
        self.inner, self.lines = inner, lines

    def __iter__(self):
        seen = 0
        for chunk in self.inner:
            if seen >= self.lines:
                yield chunk[: len(chunk) // 2]
                raise httpx.ReadError("the connection dropped (a test's)")
            seen += chunk.count(b"\n")
            yield chunk

    def close(self) -> None:
        self.inner.close()


class Network(httpx.BaseTransport):
    """httpx's transport, failing on demand: ``lose_next_answer`` (a command
    reaches the server, its answer never comes back), ``cut_stream_after``
    (the next stream breaks after that many lines). ``commands`` keeps every
    command request sent."""

    def __init__(self):
        self.inner = httpx.HTTPTransport()
        self.lose_next_answer = False
        self.cut_stream_after: int | None = None
        self.commands: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        path = request.url.path
        if path.endswith("/commands"):
            self.commands.append(request)
            if self.lose_next_answer:
                self.lose_next_answer = False
                response.read()
                response.close()
                raise httpx.ReadError("the answer was lost (a test's)", request=request)
        if path.endswith("/stream") and self.cut_stream_after is not None and response.status_code == 200:
            lines, self.cut_stream_after = self.cut_stream_after, None
            stream = Cut(response.stream, lines)  # type: ignore[arg-type]
            return httpx.Response(response.status_code, headers=response.headers, stream=stream, extensions=response.extensions)
        return response

    def close(self) -> None:
        self.inner.close()


def body_of(move: dict, rng: random.Random) -> dict:
    body = {name: value for name, value in move.items() if name != "choose"}
    for name, spec in move.get("choose", {}).items():
        body[name] = rng.choice(spec["one_of"]) if "one_of" in spec else rng.sample(spec["from"], rng.randint(spec["min"], spec["max"]))
    return body


def test_a_whole_game_through_the_client(api_server):
    """Two players play a short game from their views' ``moves`` while one
    of them follows the game's events on a stream that breaks twice; along
    the way a command whose answer is lost is retried with its
    Idempotency-Key (played once), a move out of turn is a ``RuleRefused``
    with its ``code`` and ``rule``, a stale If-Match a ``Conflict`` with
    both versions. The stream's messages are then the game's event feed,
    each once; the player's own stream too, opened again where it was."""
    network = Network()
    rng = random.Random(7)
    with Tabletell(api_server.url, timeout=PATIENCE, transport=network) as client:
        client.backoff_base = 0.05  # quicker retries; nothing here waits on the clock
        keys = [client.create_player({"name": f"player{n}"})["key"] for n in range(2)]
        game_id = client.create_game({"type": "color-doubt", "seats": 2, "options": SHORT["color-doubt"]})["game_id"]
        key_of = {client.take_seat(game_id, token=key)["seat"]: key for key in keys}

        # the stream breaks in its third line (the game's first events, sent
        # at once), then is dropped at its first message after that: early
        # on, so in any game
        network.cut_stream_after = 2
        stream = client.stream_game(game_id, token=key_of[0], data="events")
        received, checked = [], set()
        for message in stream:
            received.append(message)
            if stream.reconnects == 1 and "drop" not in checked:
                checked.add("drop")
                stream.drop()  # as a network would, between two messages
            view = client.get_view(game_id, token=key_of[0])
            if view["status"] != "active":
                continue
            seat = view["to_act"][0]
            view = client.get_view(game_id, token=key_of[seat])
            body = body_of(rng.choice(view["moves"]), rng)
            if "refusal" not in checked:
                checked.add("refusal")
                with pytest.raises(RuleRefused) as refused:
                    client.send_command(game_id, body, token=key_of[1 - seat])
                assert refused.value.status == 422 and refused.value.code == "not_your_turn"
                assert refused.value.rule, refused.value.body
            if "conflict" not in checked:
                checked.add("conflict")
                sent = len(network.commands)
                with pytest.raises(Conflict) as conflict:
                    client.send_command(game_id, body, token=key_of[seat], expected_version=view["version"] - 1)
                problem = conflict.value
                assert (problem.code, problem.expected_version, problem.current_version) == (
                    "version_conflict", view["version"] - 1, view["version"])
                assert len(network.commands) == sent + 1  # a 409 is not retried
            if "retry" not in checked:
                checked.add("retry")
                network.lose_next_answer = True
                sent = len(network.commands)
                answer = client.send_command(game_id, body, token=key_of[seat], expected_version=view["version"])
                first, retry = network.commands[sent:]
                assert first.headers["Idempotency-Key"] == retry.headers["Idempotency-Key"]
                # played once: the game is where the answer says, and the
                # key again is answered the same
                assert client.get_view(game_id, token=key_of[seat])["version"] == answer["version"]
                again = client.send_command(game_id, body, token=key_of[seat], idempotency_key=first.headers["Idempotency-Key"])
                assert again == answer
                continue
            client.send_command(game_id, body, token=key_of[seat], expected_version=view["version"])

        assert checked == {"refusal", "conflict", "retry", "drop"}
        assert stream.reconnects == 2
        assert received[-1].event == "finished" and received[-1].data["status"] == "finished"
        feed = client.get_events(game_id, token=key_of[0])["events"]
        events = [m for m in received if m.event == "event"]
        assert [m.id for m in events] == [e["version"] for e in feed]  # nothing lost, nothing twice
        assert [m.data for m in events] == feed
        assert client.get_game(game_id)["status"] == "finished"

        # the player's stream from its start; closed, and opened again from
        # the id it had reached (a client that restarted)
        with client.stream_player(token=key_of[0], last_event_id=0) as mine:
            ids = [next(mine).id for _ in range(3)]
        with client.stream_player(token=key_of[0], last_event_id=mine.last_event_id) as mine:
            for message in mine:
                ids.append(message.id)
                if message.event == "game_finished":
                    break
        assert ids == list(range(1, len(ids) + 1)) and len(ids) > 3


def test_the_external_bot_finishes_a_game_against_a_heuristic_bot(api_server, workers):
    """examples/bot.py, run as its users run it, with a fresh player key:
    it creates a game with a heuristic bot, plays it to the end, exits 0."""
    workers.start()
    with Tabletell(api_server.url, timeout=PATIENCE) as client:
        key = client.create_player({"name": "external"})["key"]
        command = [
            sys.executable, "examples/bot.py", "--url", api_server.url, "--key", key,
            "--type", "color-doubt", "--seats", "2", "--bots", "1", "--seed", "1",
            "--options", json.dumps(SHORT["color-doubt"]),
        ]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=WHOLE_RUN)
        assert done.returncode == 0, done.stdout + done.stderr
        [game] = client.list_player_games(token=key)["games"]
        assert game["status"] == "finished" and game["seat"] == 0
        assert f"game {game['game_id']}: seat 0" in done.stdout and "finished at version" in done.stdout


def test_a_game_over_the_clients_game_socket(api_server):
    """``connect_game``: two seats play a short game each over its own
    socket, one of them dropped twice mid-game (its connection closed as a
    network would) and resumed where it was; a spectator's socket of events
    follows. Each seat's views come in order, none twice; the spectator's
    messages are the public feed, each once; a move out of turn is raised
    as ``RuleRefused`` and the socket goes on; a wrong token is raised as
    ``Unauthorized`` (the socket closed 4401)."""
    rng = random.Random(11)
    with Tabletell(api_server.url, timeout=PATIENCE) as client:
        client.backoff_base = 0.05  # quicker reconnections; nothing here waits on the clock
        game_id = client.create_game({"type": "color-doubt", "seats": 2, "options": SHORT["color-doubt"]})["game_id"]
        tokens = [client.take_seat(game_id, {"name": name})["token"] for name in ("ana", "bea")]
        seats = [client.connect_game(game_id, token=token) for token in tokens]
        watcher = client.connect_game(game_id, token="", data="events")
        latest: list = [None, None]  # each seat's newest message
        views: list[list[int]] = [[], []]
        refused, version = False, 0
        while True:
            for n, seat in enumerate(seats):
                while latest[n] is None or (latest[n].event == "view" and latest[n].id < version):
                    latest[n] = next(seat)
                    views[n].append(latest[n].id)
                    if n == 0 and len(views[0]) in (1, 2):
                        seat.drop()  # as a network would, between two messages
            view = latest[0].data
            if latest[0].event != "view" or view["status"] != "active":
                break
            mover = view["to_act"][0]
            body = body_of(rng.choice(latest[mover].data["moves"]), rng)
            if not refused:
                refused = True
                with pytest.raises(RuleRefused) as refusal:
                    seats[1 - mover].send(body)
                assert refusal.value.code == "not_your_turn" and refusal.value.rule == "turns"
            answer = seats[mover].send(body, expected_version=view["version"])
            assert answer["version"] > view["version"] and answer["events"]
            version = answer["version"]
        for n, seat in enumerate(seats):
            assert [m.event for m in seat][-1:] in ([], ["finished"])
        for ids in views:
            assert ids == sorted(set(ids)), ids
        assert seats[0].reconnects == 2
        events = [m for m in watcher]
        assert events[-1].event == "finished"
        assert [m.data for m in events[:-1]] == client.get_events(game_id)["events"]
        for each in seats + [watcher]:
            each.close()
        wrong = client.connect_game(game_id, token="not-a-token")
        with pytest.raises(Unauthorized) as unauthorized:
            next(wrong)
        assert unauthorized.value.code == "invalid_token"


def test_table_talk_and_ratings_through_the_client(api_server):
    """Chat said, read, streamed in order among the versions and resumed
    after a chat id; a rated game's ratings and the leaderboard read."""
    with Tabletell(api_server.url, timeout=PATIENCE) as anyone:
        game_id = anyone.create_game({"type": "color-doubt", "seats": 2, "options": SHORT["color-doubt"], "rated": True})["game_id"]
        tokens = [anyone.take_seat(game_id, {"name": name})["token"] for name in ("ana", "bea")]
        first = anyone.send_chat(game_id, {"text": "hello"}, token=tokens[0])
        second = anyone.send_chat(game_id, {"text": "again"}, token=tokens[1])
        stream = anyone.stream_game(game_id, token=tokens[1], data="events")
        got = []
        for message in stream:
            got.append(message)
            if message.id == second["id"]:
                break
        stream.close()
        assert [m.id for m in got if m.event == "chat"] == [first["id"], second["id"]]
        assert [m.position for m in got] == sorted(m.position for m in got)
        third = anyone.send_chat(game_id, {"text": "and again"}, token=tokens[0])
        resumed = anyone.stream_game(game_id, token=tokens[1], data="events", last_event_id=second["id"])
        assert next(iter(resumed)).id == third["id"]
        resumed.close()
        read = anyone.get_chat(game_id, after=first["id"], token=tokens[0])
        assert [m["text"] for m in read["messages"]] == ["again", "and again"]
        assert anyone.get_game_ratings(game_id)["status"] == "unrated"  # not finished
        assert anyone.get_leaderboard("color-doubt", limit=1)["limit"] == 1

    # an operator ends the game where it stands, then cannot void it; a waiting game is voided
    why = {"operator": "olga", "reason": "A test of the operators' routes."}
    with Tabletell(api_server.url, token=OPERATOR_TOKEN, timeout=PATIENCE) as operator:
        ended = operator.end_game(game_id, why)
        assert (ended["status"], ended["ended"], ended["voided"]) == ("finished", why, None)
        with pytest.raises(Conflict) as again:
            operator.void_game(game_id, why)
        assert again.value.code == "game_finished"
        waiting = operator.create_game({"type": "color-doubt", "seats": 2, "options": SHORT["color-doubt"]})["game_id"]
        voided = operator.void_game(waiting, why)
        assert (voided["status"], voided["voided"], voided["result"]) == ("abandoned", why, None)


def test_moderation_through_the_client(api_server):
    """A player reports another's message; the operator removes it, mutes
    its sender (their chat refused), unmutes, bans (their key refused, their
    seat left), unbans, resolves the report and reads the moderation log."""
    from tabletell_client import Problem
    from tests.support.stack import OPERATOR_TOKEN

    with Tabletell(api_server.url, timeout=PATIENCE) as api:
        ana, bea = api.create_player({"name": "ana"}), api.create_player({"name": "bea"})
        game_id = api.create_game({"type": "color-doubt", "seats": 2, "options": SHORT["color-doubt"]})["game_id"]
        for player in (ana, bea):
            api.take_seat(game_id, {}, token=player["key"])
        rude = api.send_chat(game_id, {"text": "rude"}, token=ana["key"])
        report = api.file_report({"game_id": game_id, "chat_id": rude["id"], "reason": "abuse"}, token=bea["key"])
        assert api.get_report(report["id"], token=OPERATOR_TOKEN)["target"]["text"] == "rude"
        assert report["id"] in [r["id"] for r in api.list_reports(status="open", limit=200, token=OPERATOR_TOKEN)["reports"]]
        who = {"operator": "mod-py", "reason": "abuse", "report_id": report["id"]}
        assert api.remove_chat_message(game_id, rude["id"], who, token=OPERATOR_TOKEN)["removes"] == rude["id"]
        assert api.mute_player(ana["player_id"], {**who, "minutes": 5}, token=OPERATOR_TOKEN)["action"] == "mute"
        with pytest.raises(Problem) as muted:
            api.send_chat(game_id, {"text": "again"}, token=ana["key"])
        assert muted.value.code == "chat_muted"
        api.unmute_player(ana["player_id"], {"operator": "mod-py", "reason": "served"}, token=OPERATOR_TOKEN)
        assert api.ban_player(ana["player_id"], who, token=OPERATOR_TOKEN)["left"] == [game_id]
        with pytest.raises(Problem) as banned:
            api.get_player(token=ana["key"])
        assert banned.value.code == "player_banned"
        api.unban_player(ana["player_id"], {"operator": "mod-py", "reason": "appeal"}, token=OPERATOR_TOKEN)
        closed = api.resolve_report(report["id"], {"operator": "mod-py", "reason": "done", "outcome": "actioned"}, token=OPERATOR_TOKEN)
        assert [a["action"] for a in closed["actions"]] == ["remove_message", "mute", "ban"]
        entries = api.get_moderation_log(limit=7, token=OPERATOR_TOKEN)["entries"]
        assert [e["action"] for e in entries] == ["resolve_report", "unban", "ban", "unmute", "mute", "remove_message", "report"]
        assert all(e["operator"] == "mod-py" for e in entries[:-1])


def test_an_analysis_asked_for_and_read_through_the_client(api_server):
    """A seat asks for its analysis and reads its record (queued: no worker
    here, the workers' tests run it); anyone is refused a private game's."""
    with httpx.Client(base_url=api_server.url, timeout=PATIENCE) as http:
        game_id, tokens = finished_diez(http)
    with Tabletell(api_server.url, timeout=PATIENCE) as anyone:
        asked = anyone.request_analysis(game_id, {"seat": 0}, token=tokens[0])
        assert (asked["game_id"], asked["seat"], asked["status"], asked["analysis"]) == (game_id, 0, "queued", None)
        assert anyone.get_analysis(game_id, 0, token=tokens[0]) == asked
        with pytest.raises(Forbidden) as refused:
            anyone.request_analysis(game_id, {"seat": 1}, token="")
        assert refused.value.code == "analysis_private"
        # its progress on the game's stream, resumed at the game's last version:
        # an analysis message carries that version as its id, and is no event
        # of the log given before (it was skipped as one)
        last = anyone.get_game(game_id)["version"]
        with anyone.stream_game(game_id, token=tokens[0], last_event_id=last) as stream:
            told = next(stream)
        assert (told.event, told.data["seat"], told.data["status"]) == ("analysis", 0, "queued")
        assert stream.last_event_id == last


class LoseDeletion(httpx.BaseTransport):
    """The first DELETE reaches the server, its answer never comes back."""

    def __init__(self):
        self.inner = httpx.HTTPTransport()
        self.deletions = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.method == "DELETE":
            self.deletions += 1
            if self.deletions == 1:
                response.read()
                response.close()
                raise httpx.ReadError("the answer was lost (a test's)", request=request)
        return response

    def close(self) -> None:
        self.inner.close()


def test_a_player_deleted_whose_answer_was_lost_is_deleted_once(api_server):
    """``delete_player`` is sent again after a lost answer; the key is gone
    by then (401), which is the deletion done, not an error."""
    from tabletell_client import Unauthorized

    network = LoseDeletion()
    with Tabletell(api_server.url, timeout=PATIENCE, transport=network) as client:
        client.backoff_base = 0.01
        key = client.create_player({"name": "cy"})["key"]
        assert client.get_player(token=key)["name"] == "cy"
        assert client.rename_player({"name": "Cy"}, token=key)["name"] == "Cy"  # (renamed first)
        assert client.get_player(token=key)["name"] == "Cy"
        client.delete_player(token=key)
        assert network.deletions == 2
        with pytest.raises(Unauthorized) as refused:
            client.get_player(token=key)
        assert refused.value.code == "invalid_token"


def test_a_tournament_created_listed_joined_withdrawn_and_followed_through_the_client(api_server):
    """Every tournament route through the client, on a Swiss that starts in
    an hour (no worker here: nothing is due before then): created with a
    player key, listed among the upcoming, entered by two players (``you``
    says so; a second entry is refused), one withdrawn, its stream read
    from the first entry and resumed after one, and its whole log refused
    while it has not finished."""
    from datetime import datetime, timedelta, timezone

    from tabletell_client import NotFound, TournamentMessage

    starts = (datetime.now(timezone.utc) + timedelta(hours=1)).isoformat()
    with Tabletell(api_server.url, timeout=PATIENCE) as api:
        ana, bea = api.create_player({"name": "ana"}), api.create_player({"name": "bea"})
        body = {
            "name": "Client Swiss", "game_type": "color-doubt", "seats_per_table": 2, "options": SHORT["color-doubt"],
            "format": "swiss", "rounds": 2, "starts_at": starts,
        }  # fmt: skip
        made = api.create_tournament(body, token=ana["key"])
        tournament_id = made["id"]
        assert (made["status"], made["created_by"], made["players"], made["you"]["entered"]) == ("upcoming", ana["player_id"], 0, False)
        listed = api.list_tournaments(status="upcoming", limit=200)
        assert listed["status"] == "upcoming" and tournament_id in [t["id"] for t in listed["tournaments"]]
        for player in (ana, bea):
            joined = api.join_tournament(tournament_id, token=player["key"])
            assert joined["you"] == {"player": player["player_id"], "entered": True, "table": None}
        with pytest.raises(RuleRefused) as again:
            api.join_tournament(tournament_id, token=bea["key"])
        assert again.value.code == "already_joined"
        left = api.withdraw_from_tournament(tournament_id, token=bea["key"])
        assert (left["players"], left["you"]["entered"]) == (1, False)
        shown = api.get_tournament(tournament_id, token="")
        assert "you" not in shown and [row["name"] for row in shown["standings"] if not row["withdrawn"]] == ["ana"]
        assert api.get_tournament(tournament_id, token=ana["key"])["you"]["entered"] is True

        # the stream: every entry from the first, then resumed after the second
        stream = api.stream_tournament(tournament_id)
        seen = [next(stream) for _ in range(4)]
        stream.close()
        assert all(isinstance(m, TournamentMessage) for m in seen)
        assert [(m.event, m.id) for m in seen] == [
            ("tournament_created", 1), ("player_joined", 2), ("player_joined", 3), ("player_withdrew", 4)
        ]
        assert seen[0].data["data"]["seed_commitment"] == made["seed_commitment"] and "seed" not in seen[0].data["data"]
        with api.stream_tournament(tournament_id, last_event_id=2) as resumed:
            assert next(resumed).id == 3

        with pytest.raises(Forbidden) as early:
            api.get_tournament_log(tournament_id)
        assert early.value.code == "tournament_in_progress"
        with pytest.raises(NotFound):
            api.get_tournament("0" * 32)
