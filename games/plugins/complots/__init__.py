"""Complots on the record side."""

GAME_TYPE = "complots"
