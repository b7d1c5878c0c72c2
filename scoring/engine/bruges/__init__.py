"""Bruges (Stefan Feld, 2013): cards, canals, persons and threats, for 2 to 4 players."""

from scoring.engine.bruges.engine import ENGINE, BrugesEngine
from scoring.engine.bruges.play import State

__all__ = ["ENGINE", "BrugesEngine", "State"]
