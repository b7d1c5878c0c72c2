"""Bruges on the record side."""

GAME_TYPE = "bruges"
