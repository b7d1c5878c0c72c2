"""One package per game on the record side's surfaces: its API bodies (``api``), its forms and
pages (``web``) and the statistics it contributes (``stats``). Packages are found by game type
through the registry in ``games.records.game_types``; generic code never imports one by name."""
