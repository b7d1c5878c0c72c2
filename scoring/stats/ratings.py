"""Skill ratings: openskill's Plackett-Luce model (computed by ``plackett_luce``, to the same
numbers) over the finished games of each game type in date order, one independent series per
game type (a Pot de Vin rating says nothing of one's Complots), and per named game for the
games without an engine here (``stats_key``). Players of different clubs never meet, so each
club's series is apart: a change is followed in its clubs only. Recomputed from the earliest
changed date once a change commits: in Celery tasks that take the changes pending
(``RatingsPending``), or in process when ``settings.POTDEVIN_RATINGS_SYNC`` is on."""

from __future__ import annotations

import datetime
import logging
import threading
from collections import defaultdict
from collections.abc import Iterator, Sequence
from operator import itemgetter
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from games.records.bulk import update_rows
from games.records.models import Player
from scoring.models import PlayerGame, Rating, RatingHistory, RatingsPending
from scoring.stats.db import BATCH, RATINGS_LOCK_KEY, chunks, clubs_lock, delete, insert
from scoring.stats.plackett_luce import MU, SIGMA, rate

logger = logging.getLogger(__name__)

# Sent by name (``scoring.stats.tasks`` runs this module, which cannot import it back).
CATCH_UP_TASK = "scoring.ratings_catch_up"

HISTORY_FIELDS = (
    "player_id",
    "game_id",
    "game_type",
    "played_on",
    "mu",
    "sigma",
    "ordinal",
)

# .since: {game type: (earliest date (date.min: all), clubs (None: every club))} to commit
_pending = threading.local()

Clubs = frozenset[int] | None  # the clubs whose ratings to recompute; None: every club's


def ratings_schedule(
    *, game_type: str, since: datetime.date | None, clubs: Sequence[int] | None = None
) -> None:
    """Recompute the ratings of ``game_type`` from ``since`` (None: all) in ``clubs`` (None:
    every club) once the current transaction commits. Calls in one transaction make one
    recompute per game type, from its earliest date, over their clubs. Without
    ``POTDEVIN_RATINGS_SYNC`` the change is written down (``RatingsPending``, a row per club)
    with the transaction, and a catch-up task is queued once it commits."""
    if not settings.POTDEVIN_RATINGS_SYNC:
        RatingsPending.objects.bulk_create(
            [RatingsPending(game_type=game_type, since=since, club_id=c) for c in clubs]
            if clubs is not None
            else [RatingsPending(game_type=game_type, since=since)]
        )
    wanted = since or datetime.date.min
    pending: dict[str, tuple[datetime.date, Clubs]] | None = getattr(_pending, "since", None)
    if pending is None:
        pending = _pending.since = {}
    date, known = pending.get(game_type, (wanted, frozenset()))
    pending[game_type] = (
        min(date, wanted),
        None if known is None or clubs is None else known | frozenset(clubs),
    )
    transaction.on_commit(_ratings_after_commit)


def _ratings_after_commit() -> None:
    pending: dict[str, tuple[datetime.date, Clubs]] | None = getattr(_pending, "since", None)
    if not pending:
        return  # an earlier callback of the same commit took it
    _pending.since = None
    if settings.POTDEVIN_RATINGS_SYNC:
        for game_type, (since, clubs) in sorted(pending.items()):
            ratings_recompute(
                game_type=game_type,
                since=None if since == datetime.date.min else since,
                clubs=clubs,
            )
        return
    _queue_catch_up()


# Pending changes one catch-up takes at once: a change over many clubs (a re-score of every
# game) is shared by the workers, each taking its part with the locks of its clubs.
PENDING_PER_TASK = 50


def ratings_catch_up() -> int:
    """Recompute ratings for pending changes, once per game type over their clubs from the
    earliest of their dates; returns the number of games rated (0: nothing was pending, an
    earlier catch-up took it). Takes at most ``PENDING_PER_TASK`` of them, skipping those
    another catch-up holds (PostgreSQL), and queues another catch-up first when more remain,
    so several workers share a large change. Recomputes of the same club queue on its lock."""
    with transaction.atomic():
        taken = take_pending(limit=PENDING_PER_TASK)
        if taken and RatingsPending.objects.exclude(pk__in=[pk for pk, *_ in taken]).exists():
            _queue_catch_up()
        dates: dict[str, list[datetime.date | None]] = defaultdict(list)
        clubs: dict[str, set[int | None]] = defaultdict(set)
        for _, game_type, since, club in taken:
            dates[game_type].append(since)
            clubs[game_type].add(club)
        rated = 0
        for game_type, found in sorted(dates.items()):
            since = None if None in found else min(d for d in found if d is not None)
            of = clubs[game_type]
            rated += ratings_recompute(
                game_type=game_type,
                since=since,
                clubs=None if None in of else frozenset(c for c in of if c is not None),
            )
        return rated


def _queue_catch_up() -> None:
    try:
        current_app.tasks[CATCH_UP_TASK].delay()
    except Exception:  # the changes are written down: the next catch-up takes them
        logger.exception("could not queue the ratings catch-up")


def take_pending(
    limit: int | None = None,
) -> list[tuple[int, str, datetime.date | None, int | None]]:
    """Remove pending changes (inside the caller's transaction), at most ``limit`` (None:
    all), in club order, leaving those another transaction holds; each as (id, game type,
    date, club)."""
    pending = RatingsPending.objects.order_by("club_id", "id")
    if limit is not None:
        pending = pending.select_for_update(skip_locked=True)[:limit]
    rows = list(pending.values_list("id", "game_type", "since", "club_id"))
    delete(RatingsPending, [pk for pk, *_ in rows])
    return rows


def _ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


Skill = tuple[float, float]  # (mu, sigma)
Rated = tuple[dict[int, Skill], dict[int, int]]  # by player: (mu, sigma), rated games
_NEW: Skill = (MU, SIGMA)


def _start_ratings(game_type: str, since: datetime.date, player_ids: Sequence[int]) -> Rated:
    """Each player's rating and rated games of ``game_type`` after their last
    ``RatingHistory`` row before ``since``."""
    ratings: dict[int, Skill] = {}
    games: dict[int, int] = {}
    history = RatingHistory.objects.filter(game_type=game_type, played_on__lt=since)
    for chunk in chunks(player_ids):
        counts = dict(
            history.filter(player_id__in=chunk)
            .values("player_id")
            .annotate(n=Count("id"))
            .order_by()
            .values_list("player_id", "n")
        )
        last = (
            history.filter(player_id=OuterRef("pk"))
            .order_by("-played_on", "-game_id")
            .values("id")[:1]
        )
        last_ids = [
            pk
            for pk in Player.objects.filter(pk__in=chunk)
            .annotate(last=Subquery(last))
            .values_list("last", flat=True)
            if pk is not None
        ]
        for pid, mu, sigma in RatingHistory.objects.filter(pk__in=last_ids).values_list(
            "player_id", "mu", "sigma"
        ):
            ratings[pid] = (mu, sigma)
            games[pid] = counts[pid]
    return ratings, games


def _games_since(
    game_type: str, since: datetime.date | None, clubs: Clubs
) -> Iterator[tuple[int, datetime.date, list[Any]]]:
    """(game id, date, [(player, team, rank), ...] in seat order), in rating order."""
    rows = _in_clubs(PlayerGame.objects.filter(game_type=game_type, game__isnull=False), clubs)
    if since is not None:
        rows = rows.filter(played_on__gte=since)
    current: tuple[int, datetime.date] | None = None
    seats: list[Any] = []
    for game_id, played_on, player_id, team, rank in (
        rows.order_by("played_on", "game_id", "seat")
        .values_list("game_id", "played_on", "player_id", "team", "rank")
        .iterator(chunk_size=5000)
    ):
        if current is not None and current[0] != game_id:
            yield current[0], current[1], seats
            seats = []
        current = (game_id, played_on)
        seats.append((player_id, team, rank))
    if current is not None:
        yield current[0], current[1], seats


def _rate_games(
    state: Rated, game_type: str, since: datetime.date | None, clubs: Clubs
) -> Iterator[list[tuple[Any, ...]]]:
    """Rate the games of ``game_type`` from ``since`` in order, updating ``state``; yields each
    game's ``RatingHistory`` rows (HISTORY_FIELDS). A unit is a player, or a team: the engine's
    ranks, ties included, are openskill's. A game of one unit ranks nobody against anybody (a
    cooperative game, where the players win or lose together, rules O5; a solo game): it is
    not rated."""
    ratings, games = state
    for game_id, played_on, seats in _games_since(game_type, since, clubs):
        units: dict[int, list[int]] = {}
        unit_rank: dict[int, int] = {}
        for player_id, team, rank in seats:
            # A team by its index (0 and up), a player alone by their id negated (below 0).
            key = team if team is not None else -player_id
            if key in units:
                units[key].append(player_id)
            else:
                units[key] = [player_id]
            unit_rank[key] = rank
        if len(units) < 2:
            continue
        members = list(units.values())
        result = rate(
            [[ratings.get(p, _NEW) for p in unit] for unit in members], list(unit_rank.values())
        )
        rows = []
        for unit, rated in zip(members, result, strict=True):
            for player_id, r in zip(unit, rated, strict=True):
                ratings[player_id] = r
                games[player_id] = games.get(player_id, 0) + 1
                mu, sigma = r
                rows.append(
                    (player_id, game_id, game_type, played_on, mu, sigma, _ordinal(mu, sigma))
                )
        yield rows


_UPDATED = ("played_on", "mu", "sigma", "ordinal")
_PLAYER, _GAME = HISTORY_FIELDS.index("player_id"), HISTORY_FIELDS.index("game_id")
_VALUES = itemgetter(*(HISTORY_FIELDS.index(f) for f in _UPDATED))


def _write_history(rows: list[tuple[Any, ...]], kept: dict[tuple[int, int], int]) -> None:
    """Write these ``RatingHistory`` rows (HISTORY_FIELDS): each over the row ``kept`` has for
    its player and game (taken out of it), or as a new row."""
    if not kept:  # none left to rewrite (a full recompute has none): all new
        if rows:
            insert(RatingHistory, HISTORY_FIELDS, rows)
        return
    updates, inserts = [], []
    for row in rows:
        pk = kept.pop((row[_PLAYER], row[_GAME]), None)
        if pk is None:
            inserts.append(row)
        else:
            updates.append((pk, *_VALUES(row)))
    update_rows(RatingHistory, _UPDATED, updates)
    if inserts:
        insert(RatingHistory, HISTORY_FIELDS, inserts)


def rated_game_types() -> list[str]:
    """Every game type with games, ratings or rating history."""
    found: set[str] = set()
    for model in (PlayerGame, Rating, RatingHistory):
        found |= set(model.objects.values_list("game_type", flat=True).distinct().order_by())
    return sorted(found)


def ratings_recompute(
    *, game_type: str | None = None, since: datetime.date | None = None, clubs: Clubs = None
) -> int:
    """Recompute the ratings of ``game_type`` (None: of every game type) in ``clubs`` (None:
    every club) game by game in (played_on, game id) order from ``since`` (None: from the
    first game): history before ``since`` is kept and each player starts from their rating
    after it; then the current ``Rating`` rows follow. Returns the number of games rated.

    Runs in one transaction; on PostgreSQL under the advisory locks of its clubs, so
    recomputes of the same club queue and those of others run side by side."""
    with transaction.atomic():
        clubs_lock(RATINGS_LOCK_KEY, clubs)
        if game_type is None:
            return sum(_recompute(kind, since, clubs) for kind in rated_game_types())
        return _recompute(game_type, since, clubs)


def _in_clubs(rows: QuerySet[Any], clubs: Clubs) -> QuerySet[Any]:
    return rows if clubs is None else rows.filter(player__club_id__in=sorted(clubs))


def _recompute(game_type: str, since: datetime.date | None, clubs: Clubs) -> int:
    history = _in_clubs(RatingHistory.objects.filter(game_type=game_type), clubs)
    ratings = _in_clubs(Rating.objects.filter(game_type=game_type), clubs)
    affected: set[int] = set()
    # The rows to rewrite, by (player, game). A game rated again has its row updated in place:
    # on PostgreSQL, with room left on every page of the table (scoring 0012), the new values
    # go beside the old ones, so no index entry is written and no foreign key checked again;
    # a recompute rewrites hundreds of thousands of rows that mostly exist already. Every
    # club's history from the first game is deleted and written afresh instead: the whole
    # table would be held here.
    kept: dict[tuple[int, int], int] = {}
    if since is None and clubs is None:
        affected |= set(history.values_list("player_id", flat=True).distinct())
        history.delete()
    else:
        rewritten = history
        if since is not None:
            rewritten = history.filter(Q(played_on__gte=since) | Q(game__isnull=True))
        orphans = []  # rows of deleted games
        for pk, player_id, game_id in rewritten.values_list("pk", "player_id", "game_id"):
            affected.add(player_id)
            if game_id is None:
                orphans.append(pk)
            else:
                kept[(player_id, game_id)] = pk
        delete(RatingHistory, orphans)
    if since is None:
        affected |= set(ratings.values_list("player_id", flat=True))
    rows = _in_clubs(PlayerGame.objects.filter(game_type=game_type, game__isnull=False), clubs)
    if since is not None:
        rows = rows.filter(played_on__gte=since)
    affected |= set(rows.values_list("player_id", flat=True).distinct())
    state = ({}, {}) if since is None else _start_ratings(game_type, since, sorted(affected))

    rated = 0
    batch: list[tuple[Any, ...]] = []
    for made in _rate_games(state, game_type, since, clubs):
        rated += 1
        batch.extend(made)
        if len(batch) >= BATCH:  # PlayerGame is read in chunks meanwhile: another table
            _write_history(batch, kept)
            batch = []
    _write_history(batch, kept)
    delete(RatingHistory, list(kept.values()))  # games no longer rated

    skills, games = state
    unrated = [p for p in affected if p not in skills]
    for chunk in chunks(unrated):
        ratings.filter(player_id__in=chunk).delete()
    Rating.objects.bulk_create(
        [
            Rating(
                player_id=pid,
                game_type=game_type,
                mu=mu,
                sigma=sigma,
                ordinal=_ordinal(mu, sigma),
                games=games[pid],
            )
            for pid, (mu, sigma) in skills.items()
            if pid in affected
        ],
        batch_size=BATCH,
        update_conflicts=True,
        unique_fields=["player", "game_type"],
        update_fields=["mu", "sigma", "ordinal", "games", "updated"],
    )
    return rated
