"""Which games the controller runs, and the :class:`GameModule` of each.

Modules are imported on first use, so a table running one game does not
load the others.

>>> module_for(Game.HEADS_AND_TAILS).game.value
'heads-and-tails'
>>> Game.HEADS_AND_TAILS in SUPPORTED
True
"""

from __future__ import annotations

import importlib
from typing import Any

from controller.gamemodule import GameModule
from controller.model import Game

_MODULES = {
    Game.HEADS_AND_TAILS: "controller.games.heads_and_tails.module",
    Game.BACKGAMMON: "controller.games.backgammon.module",
    Game.TANTRIX: "controller.games.tantrix.module",
    Game.TIDDLYWINKS: "controller.games.tiddlywinks.module",
}

SUPPORTED = frozenset(_MODULES)
"""The games the harness and the service can run today."""


def module_for(game: Game) -> GameModule[Any, Any]:
    """The game module of ``game``; KeyError for a game not built yet."""
    module: GameModule[Any, Any] = importlib.import_module(_MODULES[game]).MODULE
    return module


def supported_names() -> str:
    """The supported games for an error message: "heads-and-tails, tantrix"."""
    return ", ".join(sorted(g.value for g in SUPPORTED))
