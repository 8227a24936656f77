"""A rolling restart under load: `make run`'s stack, ``--streams`` event
streams open over ``--games`` games of a player against a random bot (half
the seat's streams, half spectators'), the players going on at their pace,
and ``python -m service.run restart`` in the middle of it (the scenario of
tests/service/runtime/test_rolling.py, tests/support/rolling.py, at the
scale asked; the code is today's, not a new version).

It reports, as JSON on its last line: the streams, how many resumed by
themselves after the restart cut them (aim: all), the longest and the
median gap a stream saw (from its cut to its next 200: the client's
``retry:`` of 2 s, then the new request workers' start and every stream's
reconnection), the refusals and silent closes meanwhile, the commands sent
during the restart, answered and lost (aim: 0; ``lost``: answered but not
in the log as the seat reads it), the commands sent again with their
Idempotency-Key, the bot moves after the restart (the new worker's jobs),
and the restart's time from asking to the supervisor's "done"; and the
streams that lost or repeated a version or differ from the log (aim: 0).

    .venv/bin/python bench/rolling.py [--games 10] [--streams 1000]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.runtime.embedded_redis import free_port  # noqa: E402
from service.runtime.run import raise_file_limit  # noqa: E402
from tests.support.rolling import rolling_restart_under_load, start  # noqa: E402

OPERATOR = "bench-operator-token"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--streams", type=int, default=1000)
    args = parser.parse_args()
    raise_file_limit()
    with tempfile.TemporaryDirectory(prefix="tabletell-rolling-") as tmp:
        port, log, data = free_port(), Path(tmp) / "run.log", Path(tmp) / "var"
        base = f"http://127.0.0.1:{port}"
        service = start(ROOT, port, data, log, OPERATOR_TOKEN=OPERATOR)
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    with urllib.request.urlopen(base + "/v1/health/live", timeout=5):
                        break
                except OSError:
                    if time.monotonic() > deadline or service.poll() is not None:
                        raise SystemExit(f"the stack did not come up: {log.read_text()[-2000:]}")
                    time.sleep(0.2)
            run = asyncio.run(rolling_restart_under_load(base, ROOT, data, log, OPERATOR, args.games, args.streams))
        finally:
            service.send_signal(signal.SIGINT)
            service.wait(timeout=120)
    print(json.dumps({"games": args.games, **run.figures()}))


if __name__ == "__main__":
    main()
