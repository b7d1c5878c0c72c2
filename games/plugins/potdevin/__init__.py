"""Pot de Vin on the record side."""

GAME_TYPE = "pot-de-vin"
