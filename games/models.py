# Players, games and rounds will live here.
