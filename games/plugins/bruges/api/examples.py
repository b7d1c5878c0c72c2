"""The rulebook's own examples of a Bruges round and of a final score sheet, as the API's
documentation shows them."""

from __future__ import annotations

from typing import Any

# The rules' own example (shared/rules/bruges.md, "Log format"): round 1 of Ada and Bea.
EXAMPLE_ROUND: dict[str, Any] = {
    "dice": {"blue": 2, "brown": 5, "red": 1, "purple": 4, "yellow": 6},
    "penalties": [],
    "prestige": [1],
    "turns": [
        {"seat": 0, "steps": [{"card": "red", "action": "workers"}]},
        {"seat": 1, "steps": [{"card": "yellow", "action": "florins"}]},
        {"seat": 0, "steps": [{"card": "red", "action": "house"}]},
        {"seat": 1, "steps": [{"card": "blue", "action": "canal", "section": "left"}]},
        {"seat": 0, "steps": [{"card": "blue", "action": "florins"}]},
        {"seat": 1, "steps": [{"card": "brown", "action": "threat"}]},
        {
            "seat": 0,
            "steps": [
                {
                    "card": "purple",
                    "action": "person",
                    "house": 0,
                    "person": {
                        "id": "p1",
                        "name": "Alchimista",
                        "price": 6,
                        "group": "scholars",
                        "icon": "arrow",
                    },
                },
                {"effect": "p1", "gain": {"florins": 6}},
            ],
        },
        {"seat": 1, "steps": [{"card": "purple", "action": "workers"}]},
    ],
}

# The rulebook's example of a final scoring ("Esempio di punteggio finale") is Ada's line: 8 +
# 6 + 4 + 8 + 3 + 7 = 36; Bea: 21 + 4 + 2 + 7 + 3 = 37, and wins.
EXAMPLE_SHEET: list[dict[str, Any]] = [
    {
        "track": 0,
        "persons": [9, 3, 6, 0, 6],
        "houses": 6,
        "laurels": 4,
        "majorities": 2,
        "canals": 1,
        "statues": [],
        "step": 6,
        "florins": 3,
        "points": {"persons": 8, "prestige": 7},
        "score": 36,
    },
    {"track": 21, "persons": [12], "houses": 2, "statues": [7], "step": 3, "florins": 5},
]
