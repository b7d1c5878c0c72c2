"""End-of-game scoring: tableaux, Jokers (D5), the tables (D6), teams (D8), ranks (D7).

The same functions score a replayed game and a game entered by its final tableaux only, so the
two can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from scoring.engine.errors import Code, LogError, said
from scoring.engine.potdevin.cards import (
    GUILD_INDEX,
    GUILDS,
    TALLY_CARDS_SHIFT,
    TALLY_GUILD_BITS,
    TALLY_NEUTRAL_BITS,
    TALLY_NEUTRAL_SHIFT,
)
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


class Tableau:
    """What one player won: real guild symbols per guild, neutral cards, gems and card count."""

    __slots__ = ("guilds", "jokers", "bonus", "malus", "pot_de_vin", "gems", "cards")

    def __init__(
        self,
        guilds: tuple[int, ...],  # symbols per guild, in GUILDS order
        jokers: int = 0,
        bonus: int = 0,
        malus: int = 0,
        pot_de_vin: int = 0,
        gems: int = 0,
        cards: int = 0,  # cards won, trump cards and Jokers included (the D7 tie-break count)
    ) -> None:
        self.guilds = guilds
        self.jokers = jokers
        self.bonus = bonus
        self.malus = malus
        self.pot_de_vin = pot_de_vin
        self.gems = gems
        self.cards = cards

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


_GUILD_FIELD: Final = (1 << TALLY_GUILD_BITS) - 1
_NEUTRAL_FIELD: Final = (1 << TALLY_NEUTRAL_BITS) - 1


def tableau_of(tally: int, gems: int) -> Tableau:
    """Unpack a won-cards tally (see ``cards.card_tally``). A symbol counts in its own guild's
    column, so a card with two different guilds (D1 allows such decks) adds one to each."""
    neutral = tally >> TALLY_NEUTRAL_SHIFT
    return Tableau(
        (
            tally & _GUILD_FIELD,
            tally >> TALLY_GUILD_BITS & _GUILD_FIELD,
            tally >> 2 * TALLY_GUILD_BITS & _GUILD_FIELD,
            tally >> 3 * TALLY_GUILD_BITS & _GUILD_FIELD,
            tally >> 4 * TALLY_GUILD_BITS & _GUILD_FIELD,
            tally >> 5 * TALLY_GUILD_BITS & _GUILD_FIELD,
        ),
        neutral & _NEUTRAL_FIELD,
        neutral >> TALLY_NEUTRAL_BITS & _NEUTRAL_FIELD,
        neutral >> 2 * TALLY_NEUTRAL_BITS & _NEUTRAL_FIELD,
        neutral >> 3 * TALLY_NEUTRAL_BITS & _NEUTRAL_FIELD,
        gems,
        tally >> TALLY_CARDS_SHIFT,
    )


def place_jokers(
    columns: tuple[int, ...], jokers: int, stated: Sequence[str] | None, *, seat: int | None = None
) -> int:
    """Bit mask of the guilds (by index) that receive a Joker.

    Rules: one Joker at most per column, never a column of Jokers alone, the rest discarded.
    D5: exactly min(jokers, eligible columns) are placed; without a stated placement the one
    that scores most is chosen. Raises ``LogError`` (bad_joker_placement) for a stated
    placement that breaks these rules.
    """
    if not jokers and not stated:
        return 0
    eligible: list[int] = []
    for g in range(len(columns)):
        if columns[g] > 0:
            eligible.append(g)
    forced = min(jokers, len(eligible))
    placed = 0
    if stated is None:
        if forced == len(eligible):
            for g in eligible:
                placed |= 1 << g
            return placed
        # Best gain first, forced even when every gain is negative; equal gains go to the first
        # guild, so the choice is deterministic.
        points = COLUMN_POINTS_UPTO_73
        for _ in range(forced):
            best = -1
            best_gain = 0
            for g in eligible:
                gain = points[columns[g] + 1] - points[columns[g]]
                if not placed >> g & 1 and (best < 0 or gain > best_gain):
                    best, best_gain = g, gain
            placed |= 1 << best
        return placed
    count = 0
    for name in stated:
        g = GUILD_INDEX.get(name, -1)
        if g < 0:
            raise LogError(
                "bad_joker_placement", said("{guild!r} is not a guild", guild=name), seat=seat
            )
        if placed >> g & 1:
            raise LogError(
                "bad_joker_placement",
                said(
                    "a column holds one Joker at most ({guild})",
                    guild=Code(name, quoted=False),
                ),
                seat=seat,
            )
        if columns[g] == 0:
            raise LogError(
                "bad_joker_placement",
                said(
                    "a Joker cannot make a column alone: no {guild} symbol to join",
                    guild=Code(name, quoted=False),
                ),
                seat=seat,
            )
        placed |= 1 << g
        count += 1
    if count != forced:
        raise LogError(
            "bad_joker_placement",
            said(
                "{forced} Joker(s) must be placed ({held} held, {columns} columns to take them), "
                "not {count}",
                forced=forced,
                held=jokers,
                columns=len(eligible),
                count=count,
            ),
            seat=seat,
        )
    return placed


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
    dropped: list[list[dict[str, int]] | None] | None = None,
    seat: int | None = None,
) -> dict[str, Any]:
    """The scorepad of one scoring unit (a player, or a team whose counted columns are given).

    ``column_seats`` names, per guild, the seat whose column counted (teams); without it every
    column is ``seat``'s."""
    placed = place_jokers(columns, jokers, stated_jokers, seat=seat)
    table = COLUMN_POINTS_UPTO_73
    entries: list[dict[str, Any]] = []
    placed_names: list[str] = []
    guild_points = 0
    for g in range(len(GUILDS)):
        symbols = columns[g]
        joker = placed >> g & 1
        points = table[symbols + joker]
        guild_points += points
        entry: dict[str, Any] = {
            "symbols": symbols,
            "joker": joker == 1,
            "points": points,
            "seat": column_seats[g] if column_seats is not None else seat if symbols else None,
        }
        if dropped is not None:
            below = dropped[g]
            if below is not None:
                entry["dropped"] = below
        entries.append(entry)
        if joker:
            placed_names.append(GUILDS[g])
    # One literal, so the dict is sized once (GUILDS order).
    guilds = {
        "nobles": entries[0],
        "artists": entries[1],
        "traders": entries[2],
        "workmen": entries[3],
        "knights": entries[4],
        "assassins": entries[5],
    }
    pdv_points = POT_DE_VIN_POINTS[min(pot_de_vin, len(POT_DE_VIN_POINTS) - 1)]
    total = (
        guild_points + bonus * BONUS_POINTS + malus * MALUS_POINTS + pdv_points + gems * GEM_POINTS
    )
    return {
        "guilds": guilds,
        "jokers": {
            "held": jokers,
            "placed": placed_names,
            "discarded": jokers - len(placed_names),
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
    seats: list[int], tableaux: list[Tableau], stated: Sequence[str] | None
) -> dict[str, Any]:
    """rules D8: per guild only the teammates' smaller column counts (Jokers not counted in that
    choice; on equal columns the lower seat's); then the team's Jokers go on the counted
    columns; Pot de Vin cards count on the team's total; +2, -2 and gems are summed. Teams are
    pairs (``play.check_teams``)."""
    a, b = seats
    ta, tb = tableaux[a], tableaux[b]
    columns: list[int] = []
    column_seats: list[int | None] = []
    dropped: list[list[dict[str, int]] | None] = []
    for g in range(len(GUILDS)):
        na, nb = ta.guilds[g], tb.guilds[g]
        if na and nb:
            if nb < na or (nb == na and b < a):
                columns.append(nb)
                column_seats.append(b)
                dropped.append([{"seat": a, "symbols": na}])
            else:
                columns.append(na)
                column_seats.append(a)
                dropped.append([{"seat": b, "symbols": nb}])
        else:
            columns.append(na + nb)  # the one that holds any, or 0
            column_seats.append(a if na else b if nb else None)
            dropped.append(None)
    return score_unit(
        tuple(columns),
        jokers=ta.jokers + tb.jokers,
        bonus=ta.bonus + tb.bonus,
        malus=ta.malus + tb.malus,
        pot_de_vin=ta.pot_de_vin + tb.pot_de_vin,
        gems=ta.gems + tb.gems,
        stated_jokers=stated,
        column_seats=column_seats,
        dropped=dropped,
        seat=a,
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
            other_points, other_cards, other_gems = keys[j]
            if other_points != points:
                ahead += other_points > points
            elif other_cards != cards:
                ahead += other_cards > cards
            else:
                ahead += other_gems > gems
            if j != i and other_points == points:
                same_points += 1
                if other_cards == cards:
                    same_cards += 1
                    if other_gems == gems:
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
    tableaux: list[Tableau],
    teams: list[list[int]] | None,
    jokers: Mapping[int, list[str]] | None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None, list[int]]:
    """Score every unit and rank them. Returns ``(by_seat, teams, winners)`` where
    ``by_seat[seat]`` is the unit (player or team) record the seat belongs to and ``teams`` the
    team records (None without teams)."""
    n = len(tableaux)
    groups: list[list[int]] = []
    breakdowns: list[dict[str, Any]] = []
    keys: list[tuple[int, int, int]] = []
    if teams is None:
        for s in range(n):
            t = tableaux[s]
            b = score_player(t, stated_for(jokers, (s,)), s)
            groups.append([s])
            breakdowns.append(b)
            keys.append((b["total"], t.cards, t.gems))
    else:
        for team in teams:
            group = list(team)
            b = score_team(group, tableaux, stated_for(jokers, group))
            cards = gems = 0
            for s in group:
                cards += tableaux[s].cards
                gems += tableaux[s].gems
            groups.append(group)
            breakdowns.append(b)
            keys.append((b["total"], cards, gems))
    ranks, why = rank(keys)
    by_seat: list[dict[str, Any]] = [{}] * n
    units: list[dict[str, Any]] = []  # the team records
    winners: list[int] = []
    for i in range(len(groups)):
        group = groups[i]
        points, cards, gems = keys[i]
        unit = {
            "seats": group,
            "score": points,
            "rank": ranks[i],
            "tiebreak": why[i],
            "cards_won": cards,
            "gems_won": gems,
            "breakdown": breakdowns[i],
        }
        for s in group:
            by_seat[s] = unit
            if ranks[i] == 1:
                winners.append(s)
        if teams is not None:
            units.append(
                {
                    "team": i,
                    "seats": group,
                    "score": points,
                    "rank": ranks[i],
                    "tiebreak": why[i],
                    "cards_won": cards,
                    "gems_won": gems,
                    "breakdown": breakdowns[i],
                }
            )
    winners.sort()
    return by_seat, units if teams is not None else None, winners


def result_document(
    *,
    deck_id: str,
    names: list[str],
    teams: list[list[int]] | None,
    tableaux: list[Tableau],
    jokers: Mapping[int, list[str]] | None,
    live: tuple[list[int], list[int], list[int], list[int], list[int]] | None,
    complete: bool,
    rounds_played: int,
    rounds_total: int,
    rounds: list[dict[str, Any]],
    violations: list[dict[str, Any]],
) -> dict[str, Any]:
    """The result document (see docs/pot-de-vin-engine.md), scored from the tableaux.

    ``live`` holds the per-seat counters only a replay knows: rounds won, cards in hand, gems in
    hand, gems paid and gems removed (D2). A scorepad sheet has None, and they are null."""
    by_seat, team_list, winners = score_table(tableaux, teams, jokers)
    team_of: list[int | None] = [None] * len(tableaux)
    for i, team in enumerate(teams or ()):
        for s in team:
            team_of[s] = i
    won: list[Any]
    in_hand: list[Any]
    gems_held: list[Any]
    paid: list[Any]
    removed: list[Any]
    if live is None:
        won = in_hand = gems_held = paid = removed = [None] * len(tableaux)
    else:
        won, in_hand, gems_held, paid, removed = live
    players = []
    for s in range(len(tableaux)):
        tableau = tableaux[s]
        unit = by_seat[s]
        players.append(
            {
                "seat": s,
                "name": names[s],
                "team": team_of[s],
                "score": unit["score"],
                "rank": unit["rank"],
                "tiebreak": unit["tiebreak"],
                "cards_won": tableau.cards,
                "gems_won": tableau.gems,
                "rounds_won": won[s],
                "cards_in_hand": in_hand[s],
                "gems_in_hand": gems_held[s],
                "gems_paid": paid[s],
                "gems_removed": removed[s],
                "tableau": tableau.as_dict(),
                "breakdown": unit["breakdown"],
            }
        )
    return {
        "format": RESULT_FORMAT,
        "game": GAME_ID,
        "engine_version": ENGINE_VERSION,
        "deck": deck_id,
        "complete": complete,
        "rounds_played": rounds_played,
        "rounds_total": rounds_total,
        "players": players,
        "teams": team_list,
        "rounds": rounds,
        "winners": winners,
        "violations": violations,
    }
