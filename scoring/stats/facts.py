"""The facts of finished games: one ``PlayerGame`` row per seat, read from the results in the
database (only the values statistics need ever reach Python), per game type."""

from __future__ import annotations

import datetime
import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection

from games.records.models import Game, Seat
from scoring.stats.db import as_date, chunks, marks
from scoring.stats.games import GameStats, Tally, game_stats, is_known, stats_key

# The fields a game's result decides; two rows equal on these need no rewrite.
FACT_FIELDS = (
    "player_id",
    "game_id",
    "game_type",
    "played_on",
    "seat",
    "player_count",
    "team",
    "team_play",
    "score",
    "rank",
    "win_share",
    "counters",
    "detailed",
)
# The fields ratings read: a change elsewhere (a score, a counter) leaves ratings as they are.
RATING_FIELDS = ("player_id", "game_id", "game_type", "played_on", "team", "rank")
Fact = tuple[Any, ...]  # the values of FACT_FIELDS, in order


def game_facts(
    *,
    stats: GameStats,
    game_id: int,
    played_on: datetime.date,
    players: Sequence[Mapping[str, Any]],
    tallies: Mapping[str, Counter[int]],
    player_ids: Mapping[int, int],
    detailed: bool = True,
) -> list[Fact]:
    """The ``PlayerGame`` values (FACT_FIELDS) of one finished game: ``players`` holds, per
    seat, its values by name (``stats.paths``) read from the result; ``tallies`` the counts of
    ``stats.tallies`` by seat; ``player_ids`` maps seat to player. A game not ``detailed`` (known
    by its final scores only) has every counter of its game null: unknown, never 0.

    The scoring unit is the player, or the team in team play: a unit among k units ranked 1
    gets a win share of 1/k for each of its members (a cooperative game's one unit: 1 each
    when the players won, 0 when they lost)."""
    team_play = any(p["team"] is not None for p in players)
    unit_rank = {(p["team"] if team_play else p["seat"]): p["rank"] for p in players}
    winners = sum(1 for r in unit_rank.values() if r == 1)
    facts = []
    for p in players:
        seat = p["seat"]
        values = {
            **p,
            **{t.name: tallies.get(t.name, Counter()).get(seat, 0) for t in stats.tallies},
        }
        counters = stats.counters(values) if detailed else dict.fromkeys(stats.counter_names)
        # A game whose result keeps none of its counters (a Complots game known by its final
        # sheet) is no more detailed than one known by its scores: its counts are unknown.
        counted = detailed and (not counters or any(v is not None for v in counters.values()))
        facts.append(
            (
                player_ids[seat],
                game_id,
                stats.game_type,
                played_on,
                seat,
                len(players),
                p["team"] if team_play else None,
                team_play,
                p["score"],
                p["rank"],
                1.0 / winners if p["rank"] == 1 else 0.0,
                counters,
                counted,
            )
        )
    return facts


def _table() -> str:
    return connection.ops.quote_name(Game._meta.db_table)


def _path(path: Sequence[str]) -> str:
    """A path into a JSON document as an SQL literal (keys are checked plain: see games)."""
    if connection.vendor == "postgresql":
        return "'{" + ",".join(path) + "}'"
    return "'$." + ".".join(path) + "'"


def _result_values(
    stats: GameStats, game_ids: Sequence[int]
) -> dict[int, tuple[datetime.date, list[dict[str, Any]]]]:
    """Per game, its date and the values of ``stats.paths`` per player of its result, read in
    the database: the rest of the result never reaches Python."""
    where = f"g.id IN ({marks(len(game_ids))}) AND g.result IS NOT NULL"
    names = [name for name, _ in stats.paths]
    found: dict[int, tuple[datetime.date, list[dict[str, Any]]]] = {}
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            columns = ", ".join(f"(p #>> {_path(path)})::int" for _, path in stats.paths)
            cursor.execute(
                f"SELECT g.id, g.played_on, {columns} FROM {_table()} g CROSS JOIN LATERAL "
                f"jsonb_array_elements(g.result -> 'players') p WHERE {where}",
                list(game_ids),
            )
            rows = [(r[0], r[1], list(r[2:])) for r in cursor.fetchall()]
        else:  # SQLite: one json_extract with every path parses each player once
            paths = ", ".join(_path(path) for _, path in stats.paths)
            cursor.execute(
                f"SELECT g.id, g.played_on, json_extract(p.value, {paths}) FROM {_table()} g, "
                f"json_each(g.result, '$.players') p WHERE {where}",
                list(game_ids),
            )
            rows = [(r[0], as_date(r[1]), json.loads(r[2])) for r in cursor.fetchall()]
    for game_id, played_on, values in rows:
        found.setdefault(game_id, (played_on, []))[1].append(dict(zip(names, values, strict=True)))
    return found


def _tally(tally: Tally, game_ids: Sequence[int]) -> dict[int, Counter[int]]:
    """Per game and seat, the items of ``tally``'s list that match it."""
    if connection.vendor == "postgresql":
        items = f"g.result #> {_path(tally.items)}"
        match = " AND ".join(f"v #>> {_path((k,))} = %s" for k, _ in tally.match) or "TRUE"
        sql = (
            f"SELECT g.id, (v #>> {_path((tally.seat,))})::int, COUNT(*) FROM {_table()} g "
            f"CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof({items}) = 'array' "
            f"THEN {items} ELSE '[]'::jsonb END) v "
            f"WHERE g.id IN ({marks(len(game_ids))}) AND {match} GROUP BY 1, 2"
        )
    else:
        match = " AND ".join(f"json_extract(v.value, {_path((k,))}) = %s" for k, _ in tally.match)
        sql = (
            f"SELECT g.id, json_extract(v.value, {_path((tally.seat,))}), COUNT(*) "
            f"FROM {_table()} g, json_each(g.result, {_path(tally.items)}) v "
            f"WHERE g.id IN ({marks(len(game_ids))}) AND {match or '1'} GROUP BY 1, 2"
        )
    found: dict[int, Counter[int]] = defaultdict(Counter)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*game_ids, *(v for _, v in tally.match)])
        for game_id, seat, count in cursor.fetchall():
            if seat is not None:
                found[game_id][int(seat)] += count
    return found


def facts_of_games(game_ids: Sequence[int]) -> list[Fact]:
    """The ``PlayerGame`` values the finished games among ``game_ids`` should have."""
    facts: list[Fact] = []
    for chunk in chunks(game_ids):
        # By statistics key (a named game's plays apart from another's: ``stats_key``).
        by_type: dict[str, list[int]] = defaultdict(list)
        brief: set[int] = set()  # known by their final scores only
        for game_id, game_type, board_game_id, mode in (
            Game.objects.filter(pk__in=chunk, status=Game.Status.FINISHED)
            .order_by("pk")
            .values_list("pk", "game_type", "board_game_id", "mode")
        ):
            by_type[stats_key(game_type, board_game_id)].append(game_id)
            if mode == Game.Mode.RESULT:
                brief.add(game_id)
        if not by_type:
            continue
        seats: dict[int, dict[int, int]] = defaultdict(dict)
        for game_id, seat, player_id in Seat.objects.filter(
            game_id__in=[g for ids in by_type.values() for g in ids]
        ).values_list("game_id", "seat", "player_id"):
            seats[game_id][seat] = player_id
        for game_type, ids in by_type.items():
            if not is_known(game_type):  # no engine reads it any more: it has no statistics
                continue
            stats = game_stats(game_type)
            values = _result_values(stats, ids)
            detailed_ids = [g for g in ids if g not in brief]
            tallies = (
                {t.name: _tally(t, detailed_ids) for t in stats.tallies} if detailed_ids else {}
            )
            for game_id in sorted(values):
                played_on, players = values[game_id]
                facts.extend(
                    game_facts(
                        stats=stats,
                        game_id=game_id,
                        played_on=played_on,
                        players=players,
                        tallies={
                            name: found.get(game_id, Counter()) for name, found in tallies.items()
                        },
                        player_ids=seats[game_id],
                        detailed=game_id not in brief,
                    )
                )
    return facts
