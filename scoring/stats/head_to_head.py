"""Each player against each opponent, per game type (``HeadToHead``): counts that follow each
changed game (``head_to_head_change``), or one self-join of the players' ``PlayerGame`` rows
(``head_to_head_refresh``) where a game's rows are gone (a deleted game) or the counts are out
of step."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.db import connection
from django.db.models import Q

from games.records.bulk import update_rows
from scoring.models import HeadToHead, PlayerGame
from scoring.stats.db import chunks, delete, insert, marks
from scoring.stats.facts import FACT_FIELDS, Fact

COUNTS = ("games", "wins", "losses", "ties")
_FIELDS = ("player", "opponent", "game_type", *COUNTS)  # as rows are inserted
Pair = tuple[int, int, str]  # player, opponent, game type
_PLAYER, _TEAM, _RANK = (FACT_FIELDS.index(f) for f in ("player_id", "team", "rank"))
_KIND = FACT_FIELDS.index("game_type")


class Changes:
    """What some games' new rows change in the head-to-head counts: each game's pairs of
    opponents as its rows were, taken away, and as they are, added."""

    def __init__(self) -> None:
        self.pairs: defaultdict[Pair, list[int]] = defaultdict(lambda: [0, 0, 0, 0])

    def game(self, before: Sequence[Fact], after: Sequence[Fact]) -> None:
        """One game, its ``PlayerGame`` values (FACT_FIELDS) before and after the change."""
        self._add(before, -1)
        self._add(after, 1)

    def _add(self, facts: Sequence[Fact], sign: int) -> None:
        # As the self-join: every ordered pair of the game's players, teammates left out (both
        # in a team, the same one); a win is the smaller rank.
        for a in facts:
            for b in facts:
                if a[_PLAYER] == b[_PLAYER]:
                    continue
                if a[_TEAM] is not None and a[_TEAM] == b[_TEAM]:
                    continue
                mine, theirs = a[_RANK], b[_RANK]
                counts = self.pairs[(a[_PLAYER], b[_PLAYER], a[_KIND])]
                counts[0] += sign  # games, then wins, losses or ties
                counts[1 if mine < theirs else 2 if mine > theirs else 3] += sign


def _head_to_head_sql(count: int) -> str:
    table = connection.ops.quote_name(PlayerGame._meta.db_table)
    q = connection.ops.quote_name
    rank, team, game, player = q("rank"), q("team"), q("game_id"), q("player_id")
    kind = q("game_type")
    return (
        f"SELECT a.{player}, b.{player}, a.{kind}, COUNT(*), "
        f"SUM(CASE WHEN a.{rank} < b.{rank} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN a.{rank} > b.{rank} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN a.{rank} = b.{rank} THEN 1 ELSE 0 END) "
        f"FROM {table} a JOIN {table} b ON b.{game} = a.{game} AND b.{player} <> a.{player} "
        f"WHERE a.{player} IN ({marks(count)}) "
        f"AND (a.{team} IS NULL OR b.{team} IS NULL OR a.{team} <> b.{team}) "
        f"GROUP BY a.{player}, b.{player}, a.{kind}"
    )


def head_to_head_change(changes: Changes) -> set[int]:
    """Add ``changes`` to the stored counts: the pairs' rows updated, made or (at no game left)
    deleted; a pair no change touched is not written. Returns the players of any pair whose
    counts would not add up (below zero, or games other than wins, losses and ties together):
    rows out of step with the games, for the caller to refresh whole."""
    pairs = {pair: counts for pair, counts in changes.pairs.items() if any(counts)}
    if not pairs:
        return set()
    stored: dict[Pair, tuple[int, tuple[int, ...]]] = {}
    for chunk in chunks(sorted({player for player, _, _ in pairs})):
        for pk, *pair, games, wins, losses, ties in HeadToHead.objects.filter(
            player_id__in=chunk
        ).values_list("pk", "player_id", "opponent_id", "game_type", *COUNTS):
            if tuple(pair) in pairs:
                stored[tuple(pair)] = (pk, (games, wins, losses, ties))  # type: ignore[index]
    updated: list[tuple[int, ...]] = []
    made: list[tuple[object, ...]] = []
    gone: list[int] = []
    broken: set[int] = set()
    for pair, change in pairs.items():
        pk, counts = stored.get(pair, (None, (0, 0, 0, 0)))
        games, wins, losses, ties = (a + b for a, b in zip(counts, change, strict=True))
        if min(games, wins, losses, ties) < 0 or games != wins + losses + ties:
            broken.update(pair[:2])
        elif not games:
            if pk is not None:
                gone.append(pk)
        elif pk is None:
            made.append((*pair, games, wins, losses, ties))
        else:
            updated.append((pk, games, wins, losses, ties))
    delete(HeadToHead, gone)
    update_rows(HeadToHead, COUNTS, updated)
    insert(HeadToHead, _FIELDS, made)
    return broken


def head_to_head_refresh(*, player_ids: Iterable[int]) -> None:
    """Recompute the ``HeadToHead`` rows of these players, both ways round (the opponent's row
    against them too), of every game type."""
    ids = sorted(set(player_ids))
    pairs: dict[tuple[int, int, str], tuple[int, int, int, int]] = {}
    with connection.cursor() as cursor:
        for chunk in chunks(ids):
            cursor.execute(_head_to_head_sql(len(chunk)), list(chunk))
            for player, opponent, game_type, games, wins, losses, ties in cursor.fetchall():
                pairs[(player, opponent, game_type)] = (games, wins, losses, ties)
                pairs[(opponent, player, game_type)] = (games, losses, wins, ties)
    for chunk in chunks(ids):
        HeadToHead.objects.filter(Q(player_id__in=chunk) | Q(opponent_id__in=chunk)).delete()
    # Rows, not objects: every pair of a club's players, per game type.
    insert(
        HeadToHead,
        _FIELDS,
        (
            (p, o, game_type, g, int(w), int(lo), int(t))
            for (p, o, game_type), (g, w, lo, t) in pairs.items()
        ),
    )
