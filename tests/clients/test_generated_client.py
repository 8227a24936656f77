"""A client nobody here wrote plays every game: openapi-python-client
generates a Python client from openapi.yaml as the API serves it (as an
integrator would, with no option of ours), and it plays a game of each type
to its end against bots, reading each view as the game's own typed model
and sending each command as the command's typed model, never None on a 200. A schema the generator
cannot read (an array without ``items``, say) fails the test: it drops that
model and every model using it. Only the streams are left out, which a
generated client does not read (NDJSON and SSE come line by line)."""
from __future__ import annotations

import importlib
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from games.registry import GAMES
from projections.shapes import camel
from tests.support.api import SHORT
from tests.support.patience import PATIENCE, until

PACKAGE = "tabletell_generated"
# the longest a long poll is held (openapi.yaml's Wait: ?wait= up to 30 s); a
# move the game makes before then answers it at once
LONG_POLL = 30
# the client is generated once, by the one process that plays every game with it
pytestmark = pytest.mark.xdist_group("generated-client")


@pytest.fixture(scope="module")
def generated(api_server, tmp_path_factory):
    """The client openapi-python-client makes of openapi.yaml, imported."""
    where = tmp_path_factory.mktemp("generated")
    # as generated, unformatted: its formatter (ruff) would only double the time
    (where / "config.yaml").write_text("post_hooks: []\n")
    # openapi.yaml as the API serves it, GET /openapi.json, saved as an
    # integrator saves it: the generator reads JSON with the standard
    # library, YAML with ruamel.yaml's pure-Python loader (a third of its run)
    spec = httpx.get(api_server.url + "/openapi.json", timeout=PATIENCE)
    assert spec.status_code == 200 and spec.headers["Content-Type"] == "application/json", spec.text[:200]
    (where / "openapi.json").write_bytes(spec.content)
    done = subprocess.run(
        [str(Path(sys.executable).parent / "openapi-python-client"), "generate", "--path", str(where / "openapi.json"),
         "--meta", "none", "--output-path", str(where / PACKAGE), "--config", str(where / "config.yaml")],
        capture_output=True, text=True, timeout=PATIENCE,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "Unable to process" not in said, said
    # what it leaves out is only what no generated client reads: a stream
    # (NDJSON, SSE), which a client reads line by line as it comes
    for warning in said.split("WARNING")[1:]:
        assert re.search(r"Unsupported content_type (application/x-ndjson|text/event-stream)", warning), warning
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def _module(package, name: str):
    return importlib.import_module(f"{package.__name__}.{name}")


def _picked(moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """One of the listed moves, at random; but a move that only takes cards
    (Diez's draw, and keeping the card drawn) only when nothing else is
    listed. A seat that draws by choice whenever the draw is listed beside
    a card to play keeps its hand growing (Diez's random bot favours plays
    for the same reason): a Diez game then ran to 400 versions at the
    median, and to 2,400 one time in twenty."""
    playing = [move for move in moves if move["type"] not in ("draw", "keep")]
    return rng.choice(playing or moves)


def _chosen(move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A command body from a listed move: its fixed fields, and a value for
    each free one as ``choose`` offers it."""
    body = {key: value for key, value in move.items() if key != "choose"}
    for name, choice in move.get("choose", {}).items():
        if "one_of" in choice:
            body[name] = rng.choice(choice["one_of"])
        else:
            body[name] = rng.sample(choice["from"], rng.randint(choice["min"], choice["max"]))
    return body


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_a_generated_client_plays_a_game_of_each_type_to_its_end_against_bots(api_server, workers, generated, game_type):
    workers.start()
    game, rng = GAMES[game_type], random.Random(game_type)
    models = _module(generated, "models")
    client = generated.Client(base_url=api_server.url, timeout=httpx.Timeout(PATIENCE))
    create = _module(generated, "api.games.create_game")
    # heuristic bots: they play to win, and end a game sooner than random ones
    body = {"type": game_type, "seats": game.min_seats, "options": SHORT[game_type],
            "bots": [{"seat": seat, "level": "heuristic"} for seat in range(1, game.min_seats)]}
    created = create.sync(client=client, body=models.CreateGame.from_dict(body))
    assert isinstance(created, models.CreateGameResponse201), created
    take = _module(generated, "api.games.take_seat")
    seated = take.sync(created.game_id, client=client, body=models.TakeSeatBody.from_dict({"name": "generated"}))
    assert isinstance(seated, models.TakeSeatResponse201), seated
    seat = generated.AuthenticatedClient(base_url=api_server.url, token=seated.token, timeout=httpx.Timeout(PATIENCE))
    get_view = _module(generated, "api.play.get_view")
    send = _module(generated, "api.play.send_command")
    typed_view = getattr(models, f"{camel(game_type)}View")
    sent = 0
    view = get_view.sync(created.game_id, client=seat)

    def finished() -> bool:
        nonlocal sent, view
        assert isinstance(view, typed_view), view  # never None, never another game's
        if view.status.value == "finished":
            return True
        if not view.moves:
            # the bots' turn: a long poll on the version seen, answered as
            # soon as the game moves (304 after LONG_POLL s if it has not)
            answer = get_view.sync_detailed(created.game_id, client=seat, wait=LONG_POLL, if_none_match=f'"{view.version}"')
            assert answer.status_code in (200, 304), answer
            view = answer.parsed if answer.status_code == 200 else view
            return False
        move = _picked([move.to_dict() for move in view.moves], rng)
        command = getattr(models, f"{camel(game_type)}{camel(move['type'])}Command").from_dict(_chosen(move, rng))
        answer = send.sync(created.game_id, client=seat, body=command)
        assert answer is not None, "a command's answer the client could not read"
        # a bot may answer in a window first: the move is then gone (409, 422)
        assert not isinstance(answer, models.Problem) or answer.status in (409, 422), answer
        sent += 1
        view = get_view.sync(created.game_id, client=seat)
        return False

    # no pause between rounds: the long poll is the wait
    until(finished, f"the generated client's {game_type} game to finish", progress=lambda: getattr(view, "version", None), every=0)
    assert sent, "the generated client never moved"
    final = get_view.sync(created.game_id, client=seat)
    assert final.result is not None and final.result.winners, final
