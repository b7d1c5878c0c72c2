"""Complots (the original French Coup): bluffing and deduction for 2 to 8 players."""

from scoring.engine.complots.engine import ENGINE, ComplotsEngine
from scoring.engine.complots.play import State

__all__ = ["ENGINE", "ComplotsEngine", "State"]
