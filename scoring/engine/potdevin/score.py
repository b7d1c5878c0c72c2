"""End-of-game scoring: tableaux, Jokers (D5), the tables (D6), teams (D8), ranks (D7).

The same functions score a replayed game and a game entered by its final tableaux only, so the
two can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

from scoring.engine.errors import LogError
from scoring.engine.potdevin.cards import (
    BONUS_VALUE,
    GUILD_INDEX,
    GUILDS,
    JOKER_VALUE,
    MALUS_VALUE,
    POT_DE_VIN_VALUE,
)
from scoring.engine.potdevin.decks import Deck
from scoring.engine.potdevin.rules import (
    BONUS_POINTS,
    COLUMN_POINTS_UPTO_73,
    ENGINE_VERSION,
    GAME_ID,
    GEM_POINTS,
    MALUS_POINTS,
    POT_DE_VIN_POINTS,
    RESULT_FORMAT,
)


class Tableau(NamedTuple):
    """What one player won: real guild symbols per guild, neutral cards, gems and card count."""

    guilds: tuple[int, ...]  # symbols per guild, in GUILDS order
    jokers: int = 0
    bonus: int = 0
    malus: int = 0
    pot_de_vin: int = 0
    gems: int = 0
    cards: int = 0  # cards won, trump cards and Jokers included (the D7 tie-break count)

    def as_dict(self) -> dict[str, int]:
        g = self.guilds
        return {
            "nobles": g[0],
            "artists": g[1],
            "traders": g[2],
            "workmen": g[3],
            "knights": g[4],
            "assassins": g[5],
            "jokers": self.jokers,
            "bonus": self.bonus,
            "malus": self.malus,
            "pot_de_vin": self.pot_de_vin,
        }


def tableau_of(cards: Sequence[int], deck: Deck, gems: int) -> Tableau:
    """Sort won cards into columns. A symbol counts in its own guild's column, so a card with
    two different guilds (D1 allows such decks) adds one symbol to each."""
    guilds = [0, 0, 0, 0, 0, 0]
    neutral = [0] * 14  # by card value; only 1, 2, 3 and 13 are neutral
    symbols = deck.symbols
    for ci in cards:
        syms = symbols[ci]
        if syms:
            for g in syms:
                guilds[g] += 1
        else:
            neutral[ci % 13 + 1] += 1
    return Tableau(
        tuple(guilds),
        neutral[JOKER_VALUE],
        neutral[BONUS_VALUE],
        neutral[MALUS_VALUE],
        neutral[POT_DE_VIN_VALUE],
        gems,
        len(cards),
    )


def place_jokers(
    columns: tuple[int, ...], jokers: int, stated: Sequence[str] | None, *, seat: int | None = None
) -> list[int]:
    """Guild indexes that receive a Joker.

    Rules: one Joker at most per column, never a column of Jokers alone, the rest discarded.
    D5: exactly min(jokers, eligible columns) are placed; without a stated placement the one
    that scores most is chosen. Raises ``LogError`` (bad_joker_placement) for a stated
    placement that breaks these rules.
    """
    if not jokers and not stated:
        return []
    eligible = [g for g, n in enumerate(columns) if n > 0]
    forced = min(jokers, len(eligible))
    if stated is None:
        if forced == len(eligible):
            return eligible
        points = COLUMN_POINTS_UPTO_73
        # Best gain first, forced even when every gain is negative; the sort is stable, so
        # equal gains go to the first guild and the choice is deterministic.
        best = sorted(eligible, key=lambda g: points[columns[g]] - points[columns[g] + 1])
        return sorted(best[:forced])
    chosen = []
    for name in stated:
        g = GUILD_INDEX.get(name)
        if g is None:
            raise LogError("bad_joker_placement", f"{name!r} is not a guild", seat=seat)
        if g in chosen:
            raise LogError(
                "bad_joker_placement", f"a column holds one Joker at most ({name})", seat=seat
            )
        if columns[g] == 0:
            raise LogError(
                "bad_joker_placement",
                f"a Joker cannot make a column alone: no {name} symbol to join",
                seat=seat,
            )
        chosen.append(g)
    if len(chosen) != forced:
        raise LogError(
            "bad_joker_placement",
            f"{forced} Joker(s) must be placed ({jokers} held, {len(eligible)} columns to take "
            f"them), not {len(chosen)}",
            seat=seat,
        )
    return sorted(chosen)


def score_unit(
    columns: tuple[int, ...],
    *,
    jokers: int,
    bonus: int,
    malus: int,
    pot_de_vin: int,
    gems: int,
    stated_jokers: Sequence[str] | None = None,
    column_seats: list[int | None] | None = None,
    dropped: list[list[dict[str, int]]] | None = None,
    seat: int | None = None,
) -> dict[str, Any]:
    """The scorepad of one scoring unit (a player, or a team whose counted columns are given).

    ``column_seats`` names, per guild, the seat whose column counted (teams); without it every
    column is ``seat``'s."""
    placed = place_jokers(columns, jokers, stated_jokers, seat=seat)
    guilds: dict[str, Any] = {}
    guild_points = 0
    table = COLUMN_POINTS_UPTO_73
    for g in range(6):
        symbols = columns[g]
        joker = g in placed
        points = table[symbols + joker]
        guild_points += points
        entry: dict[str, Any] = {
            "symbols": symbols,
            "joker": joker,
            "points": points,
            "seat": column_seats[g] if column_seats is not None else seat if symbols else None,
        }
        if dropped is not None and dropped[g]:
            entry["dropped"] = dropped[g]
        guilds[GUILDS[g]] = entry
    pdv_points = POT_DE_VIN_POINTS[min(pot_de_vin, len(POT_DE_VIN_POINTS) - 1)]
    total = (
        guild_points + bonus * BONUS_POINTS + malus * MALUS_POINTS + pdv_points + gems * GEM_POINTS
    )
    return {
        "guilds": guilds,
        "jokers": {
            "held": jokers,
            "placed": [GUILDS[g] for g in placed],
            "discarded": jokers - len(placed),
        },
        "guild_points": guild_points,
        "bonus": {"cards": bonus, "points": bonus * BONUS_POINTS},
        "malus": {"cards": malus, "points": malus * MALUS_POINTS},
        "pot_de_vin": {"cards": pot_de_vin, "points": pdv_points},
        "gems": {"count": gems, "points": gems * GEM_POINTS},
        "total": total,
    }


def score_player(tableau: Tableau, stated: Sequence[str] | None, seat: int) -> dict[str, Any]:
    return score_unit(
        tableau.guilds,
        jokers=tableau.jokers,
        bonus=tableau.bonus,
        malus=tableau.malus,
        pot_de_vin=tableau.pot_de_vin,
        gems=tableau.gems,
        stated_jokers=stated,
        seat=seat,
    )


def score_team(
    seats: Sequence[int], tableaux: Sequence[Tableau], stated: Sequence[str] | None
) -> dict[str, Any]:
    """rules D8: per guild only the teammates' smaller column counts (Jokers not counted in that
    choice); then the team's Jokers go on the counted columns; Pot de Vin cards count on the
    team's total; +2, -2 and gems are summed."""
    columns: list[int] = []
    column_seats: list[int | None] = []
    dropped: list[list[dict[str, int]]] = []
    for g in range(len(GUILDS)):
        held = [(tableaux[s].guilds[g], s) for s in seats if tableaux[s].guilds[g] > 0]
        if not held:
            columns.append(0)
            column_seats.append(None)
            dropped.append([])
            continue
        held.sort()  # fewest symbols first; on equal columns the lower seat counts
        columns.append(held[0][0])
        column_seats.append(held[0][1])
        dropped.append([{"seat": s, "symbols": n} for n, s in held[1:]])
    team = [tableaux[s] for s in seats]
    return score_unit(
        tuple(columns),
        jokers=sum(t.jokers for t in team),
        bonus=sum(t.bonus for t in team),
        malus=sum(t.malus for t in team),
        pot_de_vin=sum(t.pot_de_vin for t in team),
        gems=sum(t.gems for t in team),
        stated_jokers=stated,
        column_seats=column_seats,
        dropped=dropped,
        seat=seats[0],
    )


def rank(keys: list[tuple[int, int, int]]) -> tuple[list[int], list[str | None]]:
    """rules D7: order by points, then cards won, then gems won; equal on all three share the
    place. Competition ranks (1, 2, 2, 4). Also says, per unit, what settled it against the
    units with the same points: None (nobody has the same points), "cards", "gems" or
    "shared"."""
    n = len(keys)
    ranks: list[int] = []
    why: list[str | None] = []
    for i in range(n):
        points, cards, gems = keys[i]
        ahead = same_points = same_cards = same_all = 0
        for j in range(n):
            other = keys[j]
            if other > keys[i]:
                ahead += 1
            if j != i and other[0] == points:
                same_points += 1
                if other[1] == cards:
                    same_cards += 1
                    if other[2] == gems:
                        same_all += 1
        ranks.append(ahead + 1)
        if not same_points:
            why.append(None)
        elif same_all:
            why.append("shared")
        elif same_cards:
            why.append("gems")
        else:
            why.append("cards")
    return ranks, why


def stated_for(jokers: Mapping[int, list[str]] | None, seats: Sequence[int]) -> list[str] | None:
    """The stated placement of a unit, or None to let the engine choose (D5). In a team the
    teammates' Jokers are pooled (D8), so their stated lists are joined."""
    if jokers is None or not any(s in jokers for s in seats):
        return None
    return [g for s in seats for g in jokers.get(s, [])]


def score_table(
    tableaux: Sequence[Tableau],
    teams: Sequence[Sequence[int]] | None,
    jokers: Mapping[int, list[str]] | None,
) -> dict[str, Any]:
    """Score every unit and rank them. Returns ``{"units", "teams", "winners"}`` where
    ``units[seat]`` is the unit (player or team) record each seat belongs to."""
    n = len(tableaux)
    if teams is None:
        groups: list[list[int]] = [[s] for s in range(n)]
        breakdowns = [score_player(tableaux[s], stated_for(jokers, [s]), s) for s in range(n)]
    else:
        groups = [list(t) for t in teams]
        breakdowns = [score_team(t, tableaux, stated_for(jokers, t)) for t in groups]
    if teams is None:
        keys = [(b["total"], t.cards, t.gems) for b, t in zip(breakdowns, tableaux, strict=True)]
    else:
        keys = [
            (
                b["total"],
                sum(tableaux[s].cards for s in group),
                sum(tableaux[s].gems for s in group),
            )
            for b, group in zip(breakdowns, groups, strict=True)
        ]
    ranks, why = rank(keys)
    units = [
        {
            "seats": group,
            "score": key[0],
            "rank": r,
            "tiebreak": w,
            "cards_won": key[1],
            "gems_won": key[2],
            "breakdown": b,
        }
        for group, key, r, w, b in zip(groups, keys, ranks, why, breakdowns, strict=True)
    ]
    by_seat: list[dict[str, Any]] = [{}] * n
    for unit in units:
        for s in unit["seats"]:
            by_seat[s] = unit
    winners = sorted(s for unit in units if unit["rank"] == 1 for s in unit["seats"])
    team_list = None
    if teams is not None:
        team_list = [{"team": i, **unit} for i, unit in enumerate(units)]
    return {"by_seat": by_seat, "teams": team_list, "winners": winners}


# Per-seat counters only a replay knows; a scorepad sheet reports them as null.
LIVE_FIELDS: Final = ("rounds_won", "cards_in_hand", "gems_in_hand", "gems_paid", "gems_removed")


def result_document(
    *,
    deck_id: str,
    names: list[str],
    teams: list[list[int]] | None,
    tableaux: list[Tableau],
    jokers: Mapping[int, list[str]] | None,
    live: list[dict[str, int]] | None,
    complete: bool,
    rounds_played: int,
    rounds_total: int,
    rounds: list[dict[str, Any]],
    violations: list[dict[str, Any]],
) -> dict[str, Any]:
    """The result document (see docs/pot-de-vin-engine.md), scored from the tableaux."""
    table = score_table(tableaux, teams, jokers)
    team_of = {s: i for i, t in enumerate(teams or ()) for s in t}
    players = []
    for s, tableau in enumerate(tableaux):
        unit = table["by_seat"][s]
        player: dict[str, Any] = {
            "seat": s,
            "name": names[s],
            "team": team_of.get(s),
            "score": unit["score"],
            "rank": unit["rank"],
            "tiebreak": unit["tiebreak"],
            "cards_won": tableau.cards,
            "gems_won": tableau.gems,
        }
        if live is None:
            for field in LIVE_FIELDS:
                player[field] = None
        else:
            player.update(live[s])
        player["tableau"] = tableau.as_dict()
        player["breakdown"] = unit["breakdown"]
        players.append(player)
    return {
        "format": RESULT_FORMAT,
        "game": GAME_ID,
        "engine_version": ENGINE_VERSION,
        "deck": deck_id,
        "complete": complete,
        "rounds_played": rounds_played,
        "rounds_total": rounds_total,
        "players": players,
        "teams": table["teams"],
        "rounds": rounds,
        "winners": table["winners"],
        "violations": violations,
    }
