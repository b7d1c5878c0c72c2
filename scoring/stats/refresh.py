"""Keeping statistics up to date: the hook for changed results, the re-score job's follow-up,
and a full rebuild."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable

from django.db import transaction

from games.models import Game, Player
from scoring.models import HeadToHead, Job, PlayerGame, PlayerStats, Rating, RatingHistory
from scoring.stats.aggregates import player_stats_refresh
from scoring.stats.db import RATINGS_LOCK_KEY, STATS_LOCK_KEY, chunks, insert, lock, vacuum
from scoring.stats.facts import FACT_FIELDS, RATING_FIELDS, Fact, facts_of_games
from scoring.stats.head_to_head import head_to_head_refresh
from scoring.stats.ratings import ratings_recompute, ratings_schedule, take_pending


def game_results_changed(*, game_ids: Iterable[int]) -> None:
    """Bring statistics up to date with these games: finished, reopened, re-scored, imported,
    re-dated or deleted (a deleted game's rows are found by their null game). Call it inside
    the transaction that changed the games, after the change; ratings follow after commit, for
    each game type whose rated games changed.

    Registered with ``games.events.on_results_changed`` (scoring.apps), so record services
    reach it through ``games.events.results_changed``. Each affected player is refreshed once
    per call, so a batch should be one call. Refreshes queue on a lock (PostgreSQL) until the
    transaction ends: keep it short after the call."""
    ids = sorted(set(game_ids))
    with transaction.atomic():
        # The last lock the caller's transaction takes (it holds the games'), so no cycle.
        lock(STATS_LOCK_KEY)
        # Rows to remove: those of deleted games, and those that differ from the result now.
        removed: list[tuple[int, Fact]] = [
            (r[0], r[1:])
            for r in PlayerGame.objects.filter(game__isnull=True).values_list("id", *FACT_FIELDS)
        ]
        stored: dict[tuple[int, int], tuple[int, Fact]] = {}
        for chunk in chunks(ids):
            for r in PlayerGame.objects.filter(game_id__in=chunk).values_list("id", *FACT_FIELDS):
                stored[(r[2], r[1])] = (r[0], r[1:])  # by (game, player)
        added: list[Fact] = []
        for fact in facts_of_games(ids):
            kept = stored.pop((fact[1], fact[0]), None)
            if kept is not None and kept[1] == fact:
                continue
            if kept is not None:
                removed.append(kept)
            added.append(fact)
        removed.extend(stored.values())  # games no longer finished
        if not removed and not added:
            return
        for chunk in chunks([pk for pk, _ in removed]):
            PlayerGame.objects.filter(pk__in=chunk).delete()
        insert(PlayerGame, FACT_FIELDS, added)

        changed = [fact for _, fact in removed] + added
        player = FACT_FIELDS.index("player_id")
        players = {fact[player] for fact in changed}
        player_stats_refresh(player_ids=players)
        head_to_head_refresh(player_ids=players)

        keys = [FACT_FIELDS.index(f) for f in RATING_FIELDS]
        before = Counter(tuple(fact[k] for k in keys) for _, fact in removed)
        after = Counter(tuple(fact[k] for k in keys) for fact in added)
        kind, played_on = RATING_FIELDS.index("game_type"), RATING_FIELDS.index("played_on")
        since: dict[str, datetime.date] = {}
        for key in (before - after) + (after - before):
            since[key[kind]] = min(since.get(key[kind], key[played_on]), key[played_on])
        for game_type, date in sorted(since.items()):
            ratings_schedule(game_type=game_type, since=date)


def job_games_changed(job: Job, game_ids: list[int]) -> None:
    """Registered in ``scoring.jobs.AFTER_JOB``: a finished re-score job rewrote the results of
    these games. (The batches of an import job call ``game_results_changed`` themselves.)"""
    if job.kind != Job.Kind.RESCORE:
        return
    with transaction.atomic():  # one commit: one ratings recompute, from the earliest date
        for chunk in chunks(sorted(game_ids), 5000):
            game_results_changed(game_ids=chunk)


def stats_rebuild(*, ratings: bool = True) -> int:
    """Rebuild every statistic of every game type from the finished games (after a deploy, for
    benchmarks). Returns the number of ``PlayerGame`` rows. Ratings are recomputed at once, in
    process."""
    with transaction.atomic():
        lock(STATS_LOCK_KEY)
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
            lock(RATINGS_LOCK_KEY)
            take_pending()  # a recompute from the first game covers them all
            ratings_recompute(since=None)
    vacuum(PlayerGame, PlayerStats, HeadToHead, Rating, RatingHistory)
    return made
