"""What the store runs, seen from outside: MONITOR, for tests that count a
path's round trips (every client's, every process's)."""
from __future__ import annotations

import threading
import uuid

from tests.support.patience import until


class StoreMonitor:
    """Every command the store runs meanwhile, of every client (MONITOR),
    as text, on a thread of its own."""

    def __init__(self, client):
        self.commands: list[str] = []
        self._monitor = client.monitor()
        self._monitor.__enter__()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            while True:
                self.commands.append(self._monitor.next_command()["command"])
        except Exception:
            pass  # closed by the test

    def touching(self, key: str) -> list[str]:
        return [command for command in list(self.commands) if key in command]

    def caught_up(self, client) -> None:
        """Waits until this monitor has read every command the store ran
        before now (MONITOR's feed is in order, and read behind the store on
        a loaded machine): a marker sent now, seen."""
        marker = f"monitor-mark:{uuid.uuid4().hex}"
        client.exists(marker)
        until(lambda: any(marker in command for command in list(self.commands)), "the monitor reading up to its mark")

    def close(self) -> None:
        self._monitor.connection.disconnect()
