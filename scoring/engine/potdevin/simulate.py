"""A seeded simulator of legal Pot de Vin games, for tests, demo data and benchmarks.

It deals and plays on its own (it does not call the engine), so a replay of its logs is a check
of the engine by an independent route. Chance is drawn here, from ``random.Random(seed)``, and
written into the log, as at a real table.
"""

from __future__ import annotations

import random
from typing import Any

from scoring.engine.potdevin.cards import CARD_COUNT, CARD_NAMES
from scoring.engine.potdevin.rules import LOG_FORMAT, SETUPS, SIX_PLAYER_CYCLE

PLAYER_NAMES = ("Ada", "Bea", "Cy", "Dev", "Eli", "Flo")
# Seatings where teammates never sit side by side.
TEAM_SEATINGS = {
    4: ([[0, 2], [1, 3]],),
    6: ([[0, 3], [1, 4], [2, 5]], [[0, 2], [1, 4], [3, 5]], [[0, 4], [1, 3], [2, 5]]),
}


def simulate(
    players: int,
    *,
    seed: int = 0,
    teams: bool = False,
    record_deal: bool = True,
    pass_rate: float = 0.25,
    names: list[str] | None = None,
) -> dict[str, Any]:
    """One random legal game as a ``potdevin-log/1`` document.

    ``record_deal`` writes ``hands`` and ``trump_pile`` into the log; ``pass_rate`` is how often
    a player who may pass does so.
    """
    setup = SETUPS.get(players)
    if setup is None:
        raise ValueError(f"Pot de Vin is for 3 to 6 players, not {players}")
    if teams and players not in TEAM_SEATINGS:
        raise ValueError("team play needs 4 or 6 players")
    rng = random.Random(seed)
    deck = list(range(CARD_COUNT))
    rng.shuffle(deck)
    first = rng.randrange(players)
    hands: list[list[int]] = [[] for _ in range(players)]
    if players == 6:
        # Deal clockwise from the starter: 8, 8, 8, 9, 9, 9 cards and the last card to the
        # pile; each 9-card player discards one card to it, and the 4 cards are shuffled.
        at = 0
        for k in range(6):
            size = 8 if k < 3 else 9
            hands[(first + k) % 6] = deck[at : at + size]
            at += size
        pile = [deck[51]]
        for k in range(3, 6):
            hand = hands[(first + k) % 6]
            pile.append(hand.pop(rng.randrange(len(hand))))
        rng.shuffle(pile)
    else:
        pile = deck[: setup.trump_pile]
        for k, card in enumerate(deck[setup.trump_pile :]):
            hands[(first + k) % players].append(card)
    dealt = [sorted(h) for h in hands]
    gems = [setup.gems] * players

    rounds: list[dict[str, Any]] = []
    starter = first
    reveal = list(pile)
    for rno in range(1, setup.rounds + 1):
        if not any(hands):
            break
        if players == 6:
            if (rno - 1) % SIX_PLAYER_CYCLE == 0 and rno > 1:
                reveal = list(pile)
                rng.shuffle(reveal)
            trump = reveal[(rno - 1) % SIX_PLAYER_CYCLE]
        else:
            trump = pile[rno - 1]
        plays: list[dict[str, Any]] = []
        lead = -1
        best: tuple[int, int, int] | None = None  # (is trump, card, seat)
        for k in range(players):
            seat = (starter + k) % players
            hand = hands[seat]
            if not hand:
                continue  # rules D2: skipped
            if lead >= 0 and gems[seat] and rng.random() < pass_rate:
                gems[seat] -= 1
                plays.append({"seat": seat, "pass": True})
                continue
            follow = [c for c in hand if c // 13 == lead]
            card = rng.choice(follow or hand)
            hand.remove(card)
            if lead < 0:
                lead = card // 13
            plays.append({"seat": seat, "card": CARD_NAMES[card]})
            key = (card // 13 == trump // 13, card, seat)
            if card // 13 in (lead, trump // 13) and (best is None or key > best):
                best = key
            if not hand:
                gems[seat] = 0  # rules D2: gems of an empty hand leave the game
        assert best is not None
        rounds.append({"trump": CARD_NAMES[trump], "plays": plays})
        winner = best[2]
        starter = next(
            ((winner + k) % players for k in range(players) if hands[(winner + k) % players]),
            winner,
        )

    log: dict[str, Any] = {
        "format": LOG_FORMAT,
        "players": list(names or PLAYER_NAMES[:players]),
        "teams": rng.choice(TEAM_SEATINGS[players]) if teams else None,
        "first_player": first,
        "deck": "standard",
        "hands": None,
        "trump_pile": None,
        "rounds": rounds,
        "jokers": None,
    }
    if record_deal:
        log["hands"] = {str(s): [CARD_NAMES[c] for c in dealt[s]] for s in range(players)}
        log["trump_pile"] = [CARD_NAMES[c] for c in pile]
    return log
