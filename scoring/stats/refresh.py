"""Keeping statistics up to date: the hook for changed results, the re-score job's follow-up,
and a full rebuild."""

from __future__ import annotations

import datetime
import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from celery import current_app
from django.db import transaction

from games.records.models import Game, Player
from scoring.models import HeadToHead, Job, PlayerGame, PlayerStats, Rating, RatingHistory
from scoring.stats.aggregates import StatsChanges, player_stats_change, player_stats_refresh
from scoring.stats.db import (
    RATINGS_LOCK_KEY,
    STATS_LOCK_KEY,
    chunks,
    clubs_lock,
    delete,
    insert,
    vacuum,
)
from scoring.stats.facts import FACT_FIELDS, RATING_FIELDS, Fact, facts_of_games
from scoring.stats.head_to_head import Changes, head_to_head_change, head_to_head_refresh
from scoring.stats.ratings import ratings_recompute, ratings_schedule, take_pending

# Sent by name (``scoring.stats.tasks`` runs this module, which cannot import it back).
FOLLOW_UP_TASK = "scoring.stats_follow_up"


logger = logging.getLogger(__name__)


def game_results_changed(*, game_ids: Iterable[int]) -> None:
    """Bring statistics up to date with these games: finished, reopened, re-scored, imported,
    re-dated or deleted (a deleted game's rows are found by their null game). Call it inside
    the transaction that changed the games, after the change; ratings follow after commit, for
    each game type (and club) whose rated games changed, from the earliest date changed.

    Registered with ``games.records.events.on_results_changed`` (scoring.apps), so record services
    reach it through ``games.records.events.results_changed``. The games' rows are compared and
    rewritten a chunk at a time (memory stays flat at any count); each affected player's
    statistics then follow the rows changed once per call, by difference where they can
    (``player_stats_change``), so a batch should be one call. Refreshes of the same club queue
    on its lock (PostgreSQL) until the transaction ends, those of other clubs run side by side
    (a club's statistics are its players' own): keep it short after the call."""
    ids = sorted(set(game_ids))
    with transaction.atomic():
        # The last locks the caller's transaction takes (it holds the games'), so no cycle.
        clubs = _clubs_touched(ids)
        clubs_lock(STATS_LOCK_KEY, clubs)
        players: set[int] = set()
        moved = StatsChanges()
        since: dict[str, datetime.date] = {}
        rating_players: dict[str, set[int]] = defaultdict(set)
        # Rows of deleted games first (of the clubs locked: another club's are its own
        # refresh's), then the games' own, a chunk at a time.
        orphans = [
            (r[0], r[1:])
            for r in PlayerGame.objects.filter(game__isnull=True, player__club_id__in=clubs)
            .order_by()
            .values_list("id", *FACT_FIELDS)
        ]
        _rewrite(orphans, [], moved, players, since, rating_players)
        # Which rows of a deleted game played together is lost: those players' head-to-head
        # is counted again whole. Every other change adds to the counts, game by game.
        recount = {fact[_PLAYER] for _, fact in orphans}
        pairs = Changes()
        for chunk in chunks(ids, 2000):
            removed: list[tuple[int, Fact]] = []
            stored: dict[tuple[int, int], tuple[int, Fact]] = {}
            before: defaultdict[int, list[Fact]] = defaultdict(list)
            for part in chunks(chunk):
                for r in PlayerGame.objects.filter(game_id__in=part).values_list(
                    "id", *FACT_FIELDS
                ):
                    stored[(r[2], r[1])] = (r[0], r[1:])  # by (game, player)
                    before[r[2]].append(r[1:])
            added: list[Fact] = []
            after: defaultdict[int, list[Fact]] = defaultdict(list)
            changed: set[int] = set()
            for fact in facts_of_games(chunk):
                after[fact[1]].append(fact)
                kept = stored.pop((fact[1], fact[0]), None)
                if kept is not None and kept[1] == fact:
                    continue
                if kept is not None:
                    removed.append(kept)
                added.append(fact)
                changed.add(fact[1])
            changed.update(game for game, _ in stored)  # games no longer finished
            removed.extend(stored.values())
            _rewrite(removed, added, moved, players, since, rating_players)
            for game in changed:
                pairs.game(before[game], after[game])
        if not players:
            return
        player_stats_change(moved)
        recount |= head_to_head_change(pairs)
        if recount:
            head_to_head_refresh(player_ids=recount)
        for game_type, date in sorted(since.items()):
            ratings_schedule(
                game_type=game_type, since=date, clubs=_clubs_of(rating_players[game_type])
            )


_PLAYER = FACT_FIELDS.index("player_id")
_RATED = [FACT_FIELDS.index(f) for f in RATING_FIELDS]
_KIND, _DATE = RATING_FIELDS.index("game_type"), RATING_FIELDS.index("played_on")
_RATED_PLAYER = RATING_FIELDS.index("player_id")


def _rewrite(
    removed: list[tuple[int, Fact]],
    added: list[Fact],
    moved: StatsChanges,
    players: set[int],
    since: dict[str, datetime.date],
    rating_players: dict[str, set[int]],
) -> None:
    """Delete ``removed`` rows and insert ``added`` ones; note what they change in the
    players' statistics (``moved``), whose statistics changed and, per game type, the earliest
    date and the players whose rated games changed."""
    if not removed and not added:
        return
    delete(PlayerGame, [pk for pk, _ in removed])
    insert(PlayerGame, FACT_FIELDS, added)
    old = [fact for _, fact in removed]
    moved.change(old, added)
    players.update(fact[_PLAYER] for fact in old)
    players.update(fact[_PLAYER] for fact in added)
    before = Counter(tuple(fact[k] for k in _RATED) for fact in old)
    after = Counter(tuple(fact[k] for k in _RATED) for fact in added)
    for key in (before - after) + (after - before):
        kind = key[_KIND]
        since[kind] = min(since.get(kind, key[_DATE]), key[_DATE])
        rating_players[kind].add(key[_RATED_PLAYER])


def _clubs_touched(game_ids: Sequence[int]) -> list[int]:
    """The clubs of these games, and of the rows of deleted games waiting to be removed."""
    found = set(
        PlayerGame.objects.filter(game__isnull=True)
        .values_list("player__club_id", flat=True)
        .distinct()
        .order_by()
    )
    for chunk in chunks(game_ids, 5000):
        found.update(
            Game.objects.filter(pk__in=chunk)
            .values_list("club_id", flat=True)
            .distinct()
            .order_by()
        )
    return sorted(found)


def _clubs_of(player_ids: set[int]) -> list[int]:
    """The clubs of these players: ratings are recomputed for those clubs only (players of
    different clubs never meet, so each club's ratings are a series of its own)."""
    found: set[int] = set()
    for chunk in chunks(sorted(player_ids)):
        found.update(Player.objects.filter(pk__in=chunk).values_list("club_id", flat=True))
    return sorted(found)


# A re-score that changed more games than this shares its statistics among the workers:
# one task per group of whole clubs of about this many games (a club's statistics are its own).
FOLLOW_UP_PART = 2_000


def job_games_changed(job: Job, game_ids: list[int]) -> None:
    """Registered in ``scoring.jobs.AFTER_JOB``: a finished re-score job rewrote the results of
    these games. (The batches of an import job call ``game_results_changed`` themselves.) Up
    to ``FOLLOW_UP_PART`` games are followed here, in one call: every player refreshed once,
    one ratings recompute per game type. More are split by club into tasks
    (``scoring.stats_follow_up``) that the workers share, each part followed here instead if
    it cannot be queued."""
    if job.kind != Job.Kind.RESCORE:
        return
    if len(game_ids) <= FOLLOW_UP_PART:
        game_results_changed(game_ids=game_ids)
        return
    for part in club_parts(game_ids, FOLLOW_UP_PART):
        try:
            current_app.tasks[FOLLOW_UP_TASK].delay(part)
        except Exception:  # no broker: the part is followed here, as a small job's would be
            logger.exception("could not queue a statistics follow-up")
            game_results_changed(game_ids=part)


def club_parts(game_ids: Sequence[int], size: int) -> list[list[int]]:
    """These games in parts of whole clubs, each of about ``size`` games (a club with more
    is a part alone), in club order."""
    by_club: dict[int, list[int]] = defaultdict(list)
    for chunk in chunks(sorted(game_ids), 5000):
        for club, pk in (
            Game.objects.filter(pk__in=chunk).order_by("pk").values_list("club_id", "pk")
        ):
            by_club[club].append(pk)
    parts: list[list[int]] = [[]]
    for club in sorted(by_club):
        if parts[-1] and len(parts[-1]) + len(by_club[club]) > size:
            parts.append([])
        parts[-1].extend(by_club[club])
    return [part for part in parts if part]


def stats_rebuild(*, ratings: bool = True) -> int:
    """Rebuild every statistic of every game type from the finished games (after a deploy, for
    benchmarks). Returns the number of ``PlayerGame`` rows. Ratings are recomputed at once, in
    process."""
    with transaction.atomic():
        clubs_lock(STATS_LOCK_KEY, None)
        PlayerGame.objects.all().delete()
        game_ids = list(
            Game.objects.filter(status=Game.Status.FINISHED)
            .order_by("id")
            .values_list("id", flat=True)
        )
        made = 0
        for chunk in chunks(game_ids, 5000):
            rows = facts_of_games(chunk)
            insert(PlayerGame, FACT_FIELDS, rows)
            made += len(rows)
        PlayerStats.objects.all().delete()
        HeadToHead.objects.all().delete()
        players = list(Player.objects.values_list("id", flat=True))
        player_stats_refresh(player_ids=players)
        head_to_head_refresh(player_ids=players)
    if ratings:
        with transaction.atomic():
            clubs_lock(RATINGS_LOCK_KEY, None)
            take_pending()  # a recompute from the first game covers them all
            ratings_recompute(since=None)
    vacuum(PlayerGame, PlayerStats, HeadToHead, Rating, RatingHistory)
    return made
