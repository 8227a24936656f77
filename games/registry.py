"""Every game type the service hosts, by its ``type``."""
from __future__ import annotations

from games.color_doubt import GAME as COLOR_DOUBT
from games.contract import Game
from games.deceptidice import GAME as DECEPTIDICE
from games.diez import GAME as DIEZ
from games.opticall import GAME as OPTICALL

GAMES: dict[str, Game] = {game.type: game for game in (COLOR_DOUBT, OPTICALL, DECEPTIDICE, DIEZ)}
