"""A naive, independent reference implementation of Pot de Vin replay and scoring.

Written straight from ``shared/rules/pot-de-vin.md`` (decisions D1-D9) for the property and
golden-log tests. It imports nothing from ``scoring``: its own card parsing, its own standard
deck (D1), its own round logic and its own scoring, with Jokers placed by brute force (D5).

It reads VALID logs only (no error codes): a log that breaks the rules is a bug of the caller,
and the few ``assert`` lines below are sanity checks, not the engine's validation.

``expected_for(log)`` builds the golden ``expected`` dict and ``golden_document(log)`` a whole
golden file (``tests/golden/potdevin/*.json``); ``test_potdevin_golden.py`` checks that this
module still reproduces every golden file, so the golden data is tied to this reference, never
to the engine's output. To add or rebuild a golden file, write
``json.dumps(reference.golden_document(log), indent=1)`` for its log.
"""

from __future__ import annotations

import itertools
from typing import Any

CHARS = "APEU"  # Aldo, Pietra, Enzo, Ugo: index 0..3
GUILD_NAMES = ("nobles", "artists", "traders", "workmen", "knights", "assassins")

# Setup table of the rules: players -> (trump pile, hand, gems each, rounds in a full game).
SETUP = {3: (16, 12, 4, 16), 4: (12, 10, 2, 12), 5: (12, 8, 4, 12), 6: (4, 8, 4, 12)}

# Column table (Jokers included) for 0..8 symbols; D6: above 8 scores like 8.
COLUMN_TABLE = [0, 1, 3, 6, -1, -3, -6, 10, 15]
# Pot de Vin cards held by one scoring unit (D8: a team's total).
POT_TABLE = [0, -1, -3, -6, 10]


def parse(card: str) -> tuple[int, int]:
    """``"E12"`` -> (character index 2, value 12)."""
    char = CHARS.index(card[0])
    value = int(card[1:])
    assert 1 <= value <= 13, card
    return char, value


def standard_symbols(card: str) -> list[str]:
    """D1 default layout: the guild symbols the card carries ([] for neutral cards)."""
    char, value = parse(card)
    if 4 <= value <= 9:
        return [GUILD_NAMES[(value - 4 + char) % 6]]
    if 10 <= value <= 12:
        guild = GUILD_NAMES[((value - 10) * 4 + char) % 6]
        return [guild, guild]
    return []


def column_points(symbols: int) -> int:
    if symbols > 8:
        return 15  # D6
    return COLUMN_TABLE[symbols]


def best_guild_points(columns: dict[str, int], jokers: int) -> int:
    """D5 by brute force: place exactly min(jokers, eligible) Jokers on distinct columns that
    have at least one real symbol, in every possible way, and keep the best total."""
    eligible = [g for g in GUILD_NAMES if columns[g] > 0]
    placed = min(jokers, len(eligible))
    best = None
    for chosen in itertools.combinations(eligible, placed):
        total = sum(column_points(columns[g] + (1 if g in chosen else 0)) for g in GUILD_NAMES)
        if best is None or total > best:
            best = total
    assert best is not None  # combinations(..., 0) yields one empty choice
    return best


def tableau(cards: list[str]) -> dict[str, int]:
    """A player's columns: real symbols per guild, and the neutral cards by kind."""
    out = {g: 0 for g in GUILD_NAMES}
    out.update(jokers=0, bonus=0, malus=0, pot=0)
    for card in cards:
        _, value = parse(card)
        for guild in standard_symbols(card):
            out[guild] += 1
        if value == 1:
            out["jokers"] += 1
        elif value == 2:
            out["bonus"] += 1
        elif value == 3:
            out["malus"] += 1
        elif value == 13:
            out["pot"] += 1
    return out


def unit_score(
    columns: dict[str, int], jokers: int, bonus: int, malus: int, pot: int, gems: int
) -> int:
    return (
        best_guild_points(columns, jokers)
        + 2 * bonus
        - 2 * malus
        + POT_TABLE[min(pot, 4)]
        + gems  # +1 per gem won
    )


def competition_ranks(keys: list[tuple[int, int, int]]) -> list[int]:
    """D7: 1 + the number of units strictly ahead on (points, cards won, gems won)."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def replay(log: dict[str, Any]) -> dict[str, Any]:
    """Replay a valid log and score it as it stands."""
    n = len(log["players"])
    pile_size, hand_size, gems_each, total_rounds = SETUP[n]
    winner_takes_trump = n != 6
    in_hand = [hand_size] * n  # cards still held
    gems = [gems_each] * n  # gems in hand
    gems_won = [0] * n
    gems_paid = [0] * n
    gems_removed = [0] * n
    won: list[list[str]] = [[] for _ in range(n)]
    plays_by_seat: list[list[tuple[int, str, str | None]]] = [[] for _ in range(n)]
    rounds_out = []
    starter = log["first_player"]
    over = False
    for number, rnd in enumerate(log.get("rounds") or [], start=1):
        assert not over, "a round after the end of the game"
        trump_char, _ = parse(rnd["trump"])
        plays = rnd["plays"]
        # Turn order: clockwise from the starter, skipping players without cards (D2).
        order = [(starter + k) % n for k in range(n) if in_hand[(starter + k) % n] > 0]
        assert [p["seat"] for p in plays] == order, (number, plays, order)
        lead_char = parse(plays[0]["card"])[0]
        pot = 0
        cards = []
        best_trump: tuple[int, int] | None = None  # (value, seat)
        best_lead: tuple[int, int] | None = None
        for position, play in enumerate(plays):
            seat = play["seat"]
            if play.get("pass"):
                assert position > 0 and gems[seat] > 0
                gems[seat] -= 1
                gems_paid[seat] += 1
                pot += 1
                continue
            card = play["card"]
            char, value = parse(card)
            cards.append(card)
            in_hand[seat] -= 1
            plays_by_seat[seat].append((number, card, CHARS[lead_char] if position > 0 else None))
            if char == trump_char:
                if best_trump is None or value > best_trump[0]:
                    best_trump = (value, seat)
            elif char == lead_char and (best_lead is None or value > best_lead[0]):
                best_lead = (value, seat)
        # Highest trump if any trump was played, else highest card of the lead character.
        best = best_trump if best_trump is not None else best_lead
        assert best is not None
        winner = best[1]
        taken = cards + ([rnd["trump"]] if winner_takes_trump else [])
        won[winner].extend(taken)
        gems_won[winner] += pot
        # D2: a player without cards loses the gems still in hand.
        for seat in range(n):
            if in_hand[seat] == 0 and gems[seat] > 0:
                gems_removed[seat] += gems[seat]
                gems[seat] = 0
        rounds_out.append(
            {"round": number, "starter": starter, "winner": winner, "cards": taken, "gems": pot}
        )
        # D2: the winner starts, or the next player clockwise who still holds a card.
        holders = [(winner + k) % n for k in range(n) if in_hand[(winner + k) % n] > 0]
        # D3: the game ends after the last trump, or when nobody holds a card.
        if number == total_rounds or not holders:
            over = True
        else:
            starter = holders[0]

    # D4 after the fact: an off-lead card while the lead was X, and later any X card.
    violations = []
    for seat in range(n):
        history = plays_by_seat[seat]
        for i, (number, card, lead) in enumerate(history):
            if lead is None or card[0] == lead:
                continue
            later = [(r, c) for r, c, _ in history[i + 1 :] if c[0] == lead]
            if later:
                violations.append(
                    {
                        "code": "revoke",
                        "round": number,
                        "seat": seat,
                        "card": card,
                        "lead": lead,
                        "proof": {"round": later[0][0], "card": later[0][1]},
                    }
                )
    violations.sort(key=lambda v: (v["round"], v["seat"]))

    tabs = [tableau(won[s]) for s in range(n)]
    players = [
        {
            "seat": s,
            "cards_won": len(won[s]),
            "gems_won": gems_won[s],
            "cards_in_hand": in_hand[s],
            "gems_in_hand": gems[s],
            "gems_paid": gems_paid[s],
            "gems_removed": gems_removed[s],
        }
        for s in range(n)
    ]
    teams = log.get("teams")
    if teams is None:
        keys = []
        for s in range(n):
            t = tabs[s]
            columns = {g: t[g] for g in GUILD_NAMES}
            score = unit_score(columns, t["jokers"], t["bonus"], t["malus"], t["pot"], gems_won[s])
            keys.append((score, len(won[s]), gems_won[s]))
        ranks = competition_ranks(keys)
        for s in range(n):
            players[s]["score"] = keys[s][0]
            players[s]["rank"] = ranks[s]
        team_out = None
    else:
        keys = []
        for seats in teams:
            # D8: per guild the smaller of the teammates' columns (a missing column does not
            # count as a smaller one); Jokers pooled; the rest summed.
            columns = {}
            for g in GUILD_NAMES:
                held = [tabs[s][g] for s in seats if tabs[s][g] > 0]
                columns[g] = min(held) if held else 0
            score = unit_score(
                columns,
                sum(tabs[s]["jokers"] for s in seats),
                sum(tabs[s]["bonus"] for s in seats),
                sum(tabs[s]["malus"] for s in seats),
                sum(tabs[s]["pot"] for s in seats),
                sum(gems_won[s] for s in seats),
            )
            keys.append((score, sum(len(won[s]) for s in seats), sum(gems_won[s] for s in seats)))
        ranks = competition_ranks(keys)
        team_out = []
        for index, seats in enumerate(teams):
            team_out.append(
                {
                    "team": index,
                    "seats": list(seats),
                    "score": keys[index][0],
                    "rank": ranks[index],
                    "cards_won": keys[index][1],
                    "gems_won": keys[index][2],
                }
            )
            for s in seats:
                players[s]["score"] = keys[index][0]
                players[s]["rank"] = ranks[index]
    winners = sorted(p["seat"] for p in players if p["rank"] == 1)
    return {
        "complete": over,
        "rounds_played": len(rounds_out),
        "players": players,
        "rounds": rounds_out,
        "winners": winners,
        "teams": team_out,
        "violations": violations,
    }


def expected_for(log: dict[str, Any]) -> dict[str, Any]:
    """The golden ``expected`` dict of a log, from this reference only."""
    ref = replay(log)
    return {
        "complete": ref["complete"],
        "rounds_played": ref["rounds_played"],
        "players": [
            {k: p[k] for k in ("seat", "score", "rank", "cards_won", "gems_won")}
            for p in ref["players"]
        ],
        "rounds": [{"round": r["round"], "winner": r["winner"]} for r in ref["rounds"]],
        "winners": ref["winners"],
        "teams": None
        if ref["teams"] is None
        else [{k: t[k] for k in ("team", "seats", "score", "rank")} for t in ref["teams"]],
        "violations": ref["violations"],
    }


def golden_document(log: dict[str, Any]) -> dict[str, Any]:
    """A golden file: ``{"log": ..., "expected": expected_for(log)}``."""
    return {"log": log, "expected": expected_for(log)}
