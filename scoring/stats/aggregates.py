"""A player's statistics per game type and bucket (``PlayerStats``), kept two ways that give the
same values, to the bit:

- ``player_stats_refresh`` recomputes a player's rows from all their ``PlayerGame`` rows: GROUP
  BY in the database, one ordered pass for the winning streaks;
- ``player_stats_change`` moves them by the rows a change removed and added (``StatsChanges``):
  sums and counts by difference; the best and worst scores and the streaks read again only
  where a changed row can move them; a player whose statistics are out of step with their rows
  recomputed whole."""

from __future__ import annotations

import datetime
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import orjson
from django.db import connection
from django.db.models import BigIntegerField, Count, F, IntegerField, Max, Min, Q, Sum, TextField
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Floor
from django.utils import timezone

from scoring.engine import ENGINES
from scoring.models import PlayerGame, PlayerStats
from scoring.models.stats import (
    BUCKET_ALL,
    BUCKET_INDIVIDUAL,
    BUCKET_TEAM,
    bucket_for_player_count,
)
from scoring.stats.db import chunks, delete, insert, marks
from scoring.stats.facts import FACT_FIELDS, Fact
from scoring.stats.games import game_stats, is_known

# A win share is 1/k for a first place shared by k units, k at most the largest player count
# of any game: a whole number of 1/WIN_UNITS. Wins are summed as those whole numbers and
# divided once, so that the float stored does not depend on the order of the sum: a change
# by difference ends on the float a recompute gives. (The share of a game type the registry
# no longer knows, past that count, is rounded alike both ways.)
WIN_UNITS = math.lcm(*range(1, max(n for e in ENGINES.values() for n in e.info.player_counts) + 1))


def win_units(share: float) -> int:
    """A win share in 1/WIN_UNITS, as the database rounds it (``_aggregates``)."""
    return math.floor(share * WIN_UNITS + 0.5)


def _aggregates(counters: Sequence[str]) -> dict[str, Any]:
    units = Floor(F("win_share") * float(WIN_UNITS) + 0.5)
    sums: dict[str, Any] = {
        "games": Count("id"),
        "detailed_games": Count("id", filter=Q(detailed=True)),
        "wins": Sum(Cast(units, BigIntegerField())),
        "scored_games": Count("score"),
        "score_sum": Sum("score"),
        "best_score": Max("score"),
        "worst_score": Min("score"),
        "rank_sum": Sum("rank"),
    }
    for i, name in enumerate(counters):
        sums[f"counter_{i}"] = Sum(Cast(KeyTextTransform(name, "counters"), IntegerField()))
    return sums


def _merge(into: dict[str, Any], group: dict[str, Any], counters: Sequence[str]) -> None:
    for key in ("games", "detailed_games", "scored_games"):
        into[key] += group[key]
    for key in ("wins", "score_sum", "rank_sum"):
        into[key] += int(group[key] or 0)  # PostgreSQL sums bigints as numeric
    _merge_scores(into, group)
    for i, name in enumerate(counters):
        into["counters"][name] = into["counters"].get(name, 0) + (group[f"counter_{i}"] or 0)


def _merge_scores(into: dict[str, Any], group: dict[str, Any]) -> None:
    for key, pick in (("best_score", max), ("worst_score", min)):
        value = group[key]
        if value is not None:
            into[key] = value if into[key] is None else pick(into[key], value)


def _empty(counters: Sequence[str]) -> dict[str, Any]:
    return {
        "games": 0,
        "detailed_games": 0,
        "wins": 0,  # in 1/WIN_UNITS until written
        "scored_games": 0,
        "score_sum": 0,
        "best_score": None,
        "worst_score": None,
        "rank_sum": 0,
        "counters": dict.fromkeys(counters, 0),
    }


def _buckets(player_count: int, team_play: bool) -> tuple[str, str, str]:
    """The buckets a game of this size and kind counts in."""
    return (
        BUCKET_ALL,
        bucket_for_player_count(player_count),
        BUCKET_TEAM if team_play else BUCKET_INDIVIDUAL,
    )


def _streaks(player_ids: Sequence[int]) -> dict[tuple[int, str], tuple[int, int]]:
    """(current, longest) winning streak per player and game type: runs of games with a win
    share, in date order (played_on, game id), found in one ordered pass of the database over
    the players' rows. A run is the wins that follow the same number of games without a win."""
    q = connection.ops.quote_name
    table = q(PlayerGame._meta.db_table)
    player, kind, share = q("player_id"), q("game_type"), q("win_share")
    unit = f"{player}, {kind}"
    order = f"PARTITION BY {unit} ORDER BY {q('played_on')}, {q('game_id')}"
    sql = (
        f"SELECT {unit}, MAX(run), MAX(CASE WHEN last = total THEN run ELSE 0 END) FROM ("
        f"SELECT {unit}, COUNT(*) AS run, MAX(pos) AS last, MAX(total) AS total FROM ("
        f"SELECT {unit}, {share}, ROW_NUMBER() OVER ({order}) AS pos, "
        f"COUNT(*) OVER (PARTITION BY {unit}) AS total, "
        f"SUM(CASE WHEN {share} > 0 THEN 0 ELSE 1 END) OVER ({order} ROWS UNBOUNDED PRECEDING) "
        f"AS misses FROM {table} WHERE {player} IN ({marks(len(player_ids))})"
        f") ordered WHERE {share} > 0 GROUP BY {unit}, misses"
        f") runs GROUP BY {unit}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, list(player_ids))
        return {
            (pid, game_type): (current, longest)
            for pid, game_type, longest, current in cursor.fetchall()
        }


def _counter_names(game_type: str) -> tuple[str, ...]:
    # Rows of a game no engine reads any more keep their generic figures.
    return game_stats(game_type).counter_names if is_known(game_type) else ()


def player_stats_refresh(*, player_ids: Iterable[int]) -> None:
    """Recompute every ``PlayerStats`` row of these players, of every game type, from their
    ``PlayerGame`` rows."""
    ids = sorted(set(player_ids))
    for chunk in chunks(ids, 200):
        buckets: dict[tuple[int, str, str], dict[str, Any]] = {}
        rows = PlayerGame.objects.filter(player_id__in=chunk)
        game_types = sorted(set(rows.values_list("game_type", flat=True).distinct().order_by()))
        for game_type in game_types:
            counters = _counter_names(game_type)
            groups = (
                rows.filter(game_type=game_type)
                .values("player_id", "player_count", "team_play")
                .annotate(**_aggregates(counters))
                .order_by()
            )
            for group in groups:
                pid = group["player_id"]
                for bucket in _buckets(group["player_count"], group["team_play"]):
                    key = (pid, game_type, bucket)
                    _merge(buckets.setdefault(key, _empty(counters)), group, counters)
        streaks = _streaks(chunk) if buckets else {}
        PlayerStats.objects.filter(player_id__in=chunk).delete()
        now = timezone.now()
        # Rows, not objects: a refresh after a large change writes tens of thousands.
        insert(
            PlayerStats,
            STATS_FIELDS,
            (
                _row(key, values, streaks.get(key[:2], (0, 0)), now)
                for key, values in buckets.items()
            ),
        )


def _row(
    key: tuple[int, str, str],
    values: dict[str, Any],
    streak: tuple[int, int],
    now: datetime.datetime,
) -> tuple[Any, ...]:
    """A ``PlayerStats`` row (STATS_FIELDS) from its aggregates (wins in 1/WIN_UNITS) and the
    streaks of its player and game type, kept on the ``all`` row only."""
    written = {**values, "wins": values["wins"] / WIN_UNITS}
    return (
        *key,
        *(written[name] for name in _VALUES),
        *(streak if key[2] == BUCKET_ALL else (0, 0)),
        now,
    )


# --- Following changed rows -----------------------------------------------------------------

Key = tuple[int, str, str]  # player, game type, bucket
Pair = tuple[int, str]  # player, game type
Place = tuple[datetime.date, int]  # a game's place in a player's history: played_on, game
_SUMS = ("games", "detailed_games", "wins", "scored_games", "score_sum", "rank_sum")
_PLAYER, _GAME, _KIND, _DATE, _SIZE, _TEAM_PLAY, _SCORE, _RANK, _SHARE, _COUNTERS, _DETAILED = (
    FACT_FIELDS.index(f)
    for f in (
        "player_id",
        "game_id",
        "game_type",
        "played_on",
        "player_count",
        "team_play",
        "score",
        "rank",
        "win_share",
        "counters",
        "detailed",
    )
)


class _Delta:
    """What the changed rows of one ``PlayerStats`` row take away and bring: the sums (wins in
    1/WIN_UNITS), the counters, and the extreme scores on each side."""

    __slots__ = ("sums", "counters", "removed", "added")

    def __init__(self) -> None:
        self.sums = [0] * len(_SUMS)
        self.counters: defaultdict[str, int] = defaultdict(int)
        self.removed: list[int] = []  # lowest and highest score taken away, if any
        self.added: list[int] = []


class StatsChanges:
    """What changed ``PlayerGame`` rows change in their players' ``PlayerStats``: per row, the
    sums and counts the rows taken away remove and those put in add, and the scores at both
    ends; per player and game type, whether the winning streaks must be read again
    (``reordered``: a game gone, moved, or won or lost otherwise) or only go on
    (``appended``: new games, their earliest place and how many). It grows with the rows of
    statistics touched, not with the facts given."""

    def __init__(self) -> None:
        self.deltas: defaultdict[Key, _Delta] = defaultdict(_Delta)
        self.reordered: set[Pair] = set()
        self.appended: dict[Pair, tuple[Place, int]] = {}
        self.whole: set[int] = set()  # players whose changes cannot be added: recomputed
        self._names: dict[str, tuple[str, ...]] = {}

    def names(self, game_type: str) -> tuple[str, ...]:
        """The counters of ``game_type``, as a recompute sums them."""
        names = self._names.get(game_type)
        if names is None:
            names = self._names[game_type] = _counter_names(game_type)
        return names

    def change(self, removed: Sequence[Fact], added: Sequence[Fact]) -> None:
        """Rows (FACT_FIELDS) taken away and put in; a game's old and new rows in one call."""
        fresh = {(f[_GAME], f[_PLAYER]): f for f in added}
        for old in removed:
            self._add(old, -1)
            new = fresh.get((old[_GAME], old[_PLAYER])) if old[_GAME] is not None else None
            if new is not None and _place(new) == _place(old):
                del fresh[(old[_GAME], old[_PLAYER])]  # the same place, won or lost alike
            else:
                self.reordered.add((old[_PLAYER], old[_KIND]))
        for new in added:
            self._add(new, 1)
        for new in fresh.values():
            pair, place = (new[_PLAYER], new[_KIND]), (new[_DATE], new[_GAME])
            first, count = self.appended.get(pair, (place, 0))
            self.appended[pair] = (min(first, place), count + 1)

    def _add(self, fact: Fact, sign: int) -> None:
        pid, kind, score = fact[_PLAYER], fact[_KIND], fact[_SCORE]
        names = self.names(kind)
        counters = fact[_COUNTERS] or {}
        if not isinstance(counters, dict):
            self.whole.add(pid)
            counters = {}
        values = (
            1,
            int(fact[_DETAILED]),
            win_units(fact[_SHARE]),
            int(score is not None),
            score or 0,
            fact[_RANK],
        )
        for bucket in _buckets(fact[_SIZE], fact[_TEAM_PLAY]):
            delta = self.deltas[(pid, kind, bucket)]
            sums = delta.sums
            for i, value in enumerate(values):
                sums[i] += sign * value
            for name in names:
                value = counters.get(name)
                if value is None:
                    continue
                if type(value) is not int:  # as the database would cast it: not guessed here
                    self.whole.add(pid)
                    continue
                delta.counters[name] += sign * value
            if score is not None:
                ends = delta.removed if sign < 0 else delta.added
                if ends:
                    ends[0], ends[1] = min(ends[0], score), max(ends[1], score)
                else:
                    ends.extend((score, score))


def _place(fact: Fact) -> tuple[Any, ...]:
    """What a row's place in its player's winning streaks depends on."""
    return fact[_KIND], fact[_DATE], fact[_SHARE] > 0


def player_stats_change(changes: StatsChanges) -> None:
    """Move the ``PlayerStats`` rows of the changed rows' players by ``changes``: rows
    rewritten, made or (at no game left) deleted; a row the changes leave as it was is not
    written. Call it once the ``PlayerGame`` rows are rewritten. A player whose stored
    statistics do not add up with the changes (counts below zero, counters of other names,
    another number of games than of rows) is recomputed whole (``player_stats_refresh``)."""
    whole = set(changes.whole)
    keys: defaultdict[int, list[Key]] = defaultdict(list)
    for key in changes.deltas:
        if key[0] not in whole:
            keys[key[0]].append(key)
    for chunk in chunks(sorted(keys), 200):
        whole |= _change(changes, [key for pid in chunk for key in keys[pid]])
    if whole:
        player_stats_refresh(player_ids=whole)


Stored = tuple[int, dict[str, Any], tuple[int, int]]  # pk, aggregates, streaks
NO_ENDS: dict[str, Any] = {"best_score": None, "worst_score": None}


def _change(changes: StatsChanges, keys: list[Key]) -> set[int]:
    """``player_stats_change`` for the rows of these keys (every key of the changes of their
    players); returns the players to recompute whole."""
    players = {pid for pid, _, _ in keys}
    stored, whole = _stored(changes, players)
    moved: dict[Key, dict[str, Any]] = {}
    asked: set[Key] = set()  # best and worst scores to read from the rows
    for key in keys:
        delta = changes.deltas[key]
        old = stored[key][1] if key in stored else _empty(changes.names(key[1]))
        values = _moved(old, delta, changes.names(key[1]))
        if values is None:
            whole.add(key[0])
            continue
        moved[key] = values
        if _ends(values, old, delta):
            asked.add(key)
    streaks, out_of_step = _follow(changes, stored, moved, asked, whole)
    whole |= out_of_step
    now = timezone.now()
    gone: list[int] = []
    rows: list[tuple[Any, ...]] = []
    for key, values in moved.items():
        if key[0] in whole:
            continue
        entry = stored.get(key)
        old_streak = entry[2] if entry is not None else (0, 0)
        streak = streaks.get(key[:2], old_streak) if key[2] == BUCKET_ALL else (0, 0)
        if entry is not None:
            if values == entry[1] and streak == old_streak:
                continue
            gone.append(entry[0])
        if values["games"]:
            rows.append(_row(key, values, streak, now))
    delete(PlayerStats, gone)
    insert(PlayerStats, STATS_FIELDS, rows)
    return whole


def _stored(changes: StatsChanges, players: set[int]) -> tuple[dict[Key, Stored], set[int]]:
    """The stored rows the changes touch, wins in 1/WIN_UNITS, and the players whose rows do
    not read as a recompute writes them (wins not a sum of shares, counters not a mapping)."""
    stored: dict[Key, Stored] = {}
    whole: set[int] = set()
    # The counters as text, parsed for the rows touched only: most of a player's are not.
    rows = (
        PlayerStats.objects.filter(player_id__in=sorted(players))
        .annotate(counters_text=Cast("counters", TextField()))
        .values_list(
            "pk",
            "player_id",
            "game_type",
            "bucket",
            *_PLAIN,
            "counters_text",
            "current_streak",
            "longest_streak",
        )
    )
    for pk, pid, kind, bucket, *values, counters, current, longest in rows:
        key = (pid, kind, bucket)
        if key not in changes.deltas:
            continue
        old = dict(zip(_PLAIN, values, strict=True))
        old["counters"] = orjson.loads(counters)
        wins = old["wins"] * WIN_UNITS
        old["wins"] = round(wins)
        if abs(wins - old["wins"]) > 0.01 or not isinstance(old["counters"], dict):
            whole.add(pid)
        stored[key] = (pk, old, (current, longest))
    return stored, whole


def _moved(old: dict[str, Any], delta: _Delta, names: Sequence[str]) -> dict[str, Any] | None:
    """A row's aggregates (wins in 1/WIN_UNITS) moved by ``delta``, its best and worst scores
    left as they were; None when they do not add up."""
    if set(old["counters"]) != set(names):
        return None
    values = dict(old)
    for name, change in zip(_SUMS, delta.sums, strict=True):
        values[name] += change
    counters = values["counters"] = dict(old["counters"])
    for name, change in delta.counters.items():
        counters[name] += change
    games, scored = values["games"], values["scored_games"]
    if not (
        0 <= values["detailed_games"] <= games
        and 0 <= scored <= games
        and 0 <= values["wins"] <= games * WIN_UNITS
        and values["rank_sum"] >= games  # every rank is 1 or more
    ):
        return None
    if not games and (values["rank_sum"] or any(counters.values())):
        return None
    if not scored and values["score_sum"]:
        return None
    return values


def _ends(values: dict[str, Any], old: dict[str, Any], delta: _Delta) -> bool:
    """Set the best and worst scores of ``values`` where the changes decide them; True when
    only the rows can tell: a score taken away was the stored best (or worst), and no score
    put in reaches it."""
    if not values["scored_games"]:
        values.update(NO_ENDS)
        return False
    ask = False
    for name, end, pick in (("worst_score", 0, min), ("best_score", 1, max)):
        was = old[name]
        gone = delta.removed[end] if delta.removed else None
        came = delta.added[end] if delta.added else None
        if gone is not None and (was is None or pick(gone, was) == gone):
            if came is not None and was is not None and pick(came, was) == came:
                values[name] = came
            else:
                ask = True
        elif came is not None:
            values[name] = came if was is None else pick(was, came)
    return ask


def _follow(
    changes: StatsChanges,
    stored: dict[Key, Stored],
    moved: dict[Key, dict[str, Any]],
    asked: set[Key],
    whole: set[int],
) -> tuple[dict[Pair, tuple[int, int]], set[int]]:
    """The (current, longest) winning streaks the changes move, and the best and worst scores
    of the ``asked`` rows (set in ``moved``). New games placed after every other game of their
    player go on from the stored streaks; other changes, and the asked rows, are read from the
    rows. Every pair's number of rows is checked against the games of its ``all`` row: a
    statistic out of step with the rows (a row lost) cannot be moved by difference. Returns
    the streaks and the players whose counts are out of step. The players of ``whole`` are
    left out: they are recomputed."""
    touched = {
        key[:2]: values["games"]
        for key, values in moved.items()
        if key[2] == BUCKET_ALL and key[0] not in whole
    }
    reordered = {pair for pair in touched if pair in changes.reordered}
    appended = {
        pair: changes.appended[pair]
        for pair in touched
        if pair in changes.appended and pair not in reordered
    }
    streaks: dict[Pair, tuple[int, int]] = {}
    for pair, tail in _tails(appended).items():
        _, old, (current, longest) = stored.get((*pair, BUCKET_ALL), (0, {}, (0, 0)))
        if len(tail) != appended[pair][1] or not current <= longest <= old.get("games", 0):
            reordered.add(pair)
            continue
        for _, won in sorted(tail):
            current = current + 1 if won else 0
            longest = max(longest, current)
        streaks[pair] = (current, longest)
    asked = {key for key in asked if key[0] not in whole}
    read = reordered | {key[:2] for key in asked}
    counts, runs, ends = _history(read, {key[:2] for key in asked})
    for pair in reordered:
        streaks[pair] = runs.get(pair, (0, 0))
    for key in asked:
        moved[key].update(ends.get(key, NO_ENDS))
    counts.update(_counts({pair for pair in touched if pair not in read}))
    out_of_step = {pair[0] for pair, games in touched.items() if games != counts.get(pair, 0)}
    return streaks, out_of_step


def _counts(pairs: set[Pair]) -> dict[Pair, int]:
    """The number of rows of each of these pairs (player, game type)."""
    if not pairs:
        return {}
    return {
        (pid, kind): count
        for pid, kind, count in PlayerGame.objects.filter(
            player_id__in=sorted({pid for pid, _ in pairs}),
            game_type__in=sorted({kind for _, kind in pairs}),
        )
        .values_list("player_id", "game_type")
        .annotate(count=Count("*"))
        .order_by()
    }


def _tails(appended: dict[Pair, tuple[Place, int]]) -> dict[Pair, list[tuple[Place, bool]]]:
    """Per pair of ``appended``, its rows from its first new game on, by place, won or not:
    only its new games when they come after all the others."""
    tails: dict[Pair, list[tuple[Place, bool]]] = {pair: [] for pair in appended}
    if not appended:
        return tails
    for pid, kind, played_on, game, share in PlayerGame.objects.filter(
        player_id__in=sorted({pid for pid, _ in appended}),
        game_type__in=sorted({kind for _, kind in appended}),
        played_on__gte=min(first[0] for first, _ in appended.values()),
    ).values_list("player_id", "game_type", "played_on", "game_id", "win_share"):
        entry = appended.get((pid, kind))
        # A deleted game's row (no place) is counted in: the streaks are read again.
        if entry is not None and (game is None or (played_on, game) >= entry[0]):
            tails[(pid, kind)].append(((played_on, game or 0), share > 0))
    return tails


def _history(
    pairs: set[Pair], scored: set[Pair]
) -> tuple[dict[Pair, int], dict[Pair, tuple[int, int]], dict[Key, dict[str, Any]]]:
    """One ordered pass over the rows of these pairs (player, game type): per pair its number
    of rows and its (current, longest) winning streak, as ``_streaks`` finds them; per row of
    statistics of the ``scored`` pairs its best and worst scores."""
    counts: dict[Pair, int] = {}
    runs: dict[Pair, tuple[int, int]] = {}
    ends: dict[Key, dict[str, Any]] = {}
    if not pairs:
        return counts, runs, ends
    last: Pair | None = None
    count = current = longest = 0
    for pid, kind, size, team_play, score, share in (
        PlayerGame.objects.filter(
            player_id__in=sorted({pid for pid, _ in pairs}),
            game_type__in=sorted({kind for _, kind in pairs}),
        )
        .order_by("player_id", "game_type", "played_on", "game_id")
        .values_list("player_id", "game_type", "player_count", "team_play", "score", "win_share")
    ):
        pair = (pid, kind)
        if pair != last:
            if last is not None:
                counts[last], runs[last] = count, (current, longest)
            last, count, current, longest = pair, 0, 0, 0
        count += 1
        current = current + 1 if share > 0 else 0
        longest = max(longest, current)
        if score is not None and pair in scored:
            for bucket in _buckets(size, team_play):
                end = ends.get((pid, kind, bucket))
                if end is None:
                    ends[(pid, kind, bucket)] = {"worst_score": score, "best_score": score}
                else:
                    end["worst_score"] = min(end["worst_score"], score)
                    end["best_score"] = max(end["best_score"], score)
    if last is not None:
        counts[last], runs[last] = count, (current, longest)
    return counts, runs, ends


_VALUES = tuple(_empty(()))  # the aggregates' names, in the order of ``_empty``
_PLAIN = tuple(name for name in _VALUES if name != "counters")  # read as they are
STATS_FIELDS = (
    "player",
    "game_type",
    "bucket",
    *_VALUES,
    "current_streak",
    "longest_streak",
    "updated",
)
