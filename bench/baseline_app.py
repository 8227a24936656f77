"""What the API is measured against, served by the same gunicorn as the API
in the same run (bench/api.py): what Flask, redis-py and gunicorn themselves
cost for the same I/O as our routes, without our code.

- ``GET /plain``: a small JSON object, built and encoded per request (the
  framework's own rate);
- ``GET /floor/view`` (a'): a real seat view's bytes, already encoded, with
  its content type: what a cached view read cannot go below;
- ``POST /floor/command`` (b): parses a command-sized JSON body, runs one
  EVALSHA whose script XADDs a command-sized entry to a stream, and answers
  a command-sized body already encoded: what a command cannot go below
  (one parse, one round trip to the store, one answer).

bench/api.py writes the view's and the command answer's bytes (taken from
the API in the same run) to files named by ``FLOOR_VIEW_FILE`` and
``FLOOR_COMMAND_FILE``; the store is ``REDIS_URL``'s.
"""
import os

from flask import Flask, Response, jsonify, request

from service.config import connect

app = Flask(__name__)


def _read(name: str) -> bytes:
    path = os.environ.get(name)
    return open(path, "rb").read() if path else b"{}"


VIEW = _read("FLOOR_VIEW_FILE")
COMMAND_ANSWER = _read("FLOOR_COMMAND_FILE")
STORE = connect(os.environ["REDIS_URL"]) if os.environ.get("REDIS_URL") else None
# one stream per process, as each game is a stream of its own
APPEND = STORE.register_script("return redis.call('XADD', KEYS[1], '*', 'e', ARGV[1])") if STORE is not None else None
STREAM = f"bench:floor:{os.getpid()}"


@app.get("/plain")
def plain():
    return jsonify({"status": "ok", "version": 12, "seat": 0})


@app.get("/floor/view")
def floor_view():
    return Response(VIEW, content_type="application/json")


@app.post("/floor/command")
def floor_command():
    body = request.get_json()
    APPEND(keys=[STREAM], args=[COMMAND_ANSWER if body else b""])
    return Response(COMMAND_ANSWER, content_type="application/json")
