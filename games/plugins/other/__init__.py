"""Any other game on the record side: a club's named games (``BoardGame``) and their plays,
recorded by their final scores only (``games.board_games``)."""

GAME_TYPE = "other"
