"""Pot de Vin: a trick-taking, set-collection card game for 3 to 6 players."""

from scoring.engine.potdevin.decks import BUILTIN_DECKS, STANDARD_DECK, Deck, deck_from_dict
from scoring.engine.potdevin.engine import ENGINE, PotDeVinEngine
from scoring.engine.potdevin.play import State

__all__ = [
    "BUILTIN_DECKS",
    "ENGINE",
    "STANDARD_DECK",
    "Deck",
    "PotDeVinEngine",
    "State",
    "deck_from_dict",
]
