"""Heads & Tails (the Confederation's rules, revised 2019): Articles 2, 3 and 4."""

from controller.games.heads_and_tails.engine import HeadsAndTailsEngine
from controller.games.heads_and_tails.state import Format, MatchSettings, State

__all__ = ["Format", "HeadsAndTailsEngine", "MatchSettings", "State"]
