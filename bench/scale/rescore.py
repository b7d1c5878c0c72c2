"""What the re-score is checked with: stale results planted before it, every game once and the
stale ones fixed after it, and the dates of the games re-scored to compare worker counts."""

from __future__ import annotations

import datetime
import json
import random
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F

from bench.scale.config import REPLAYED, STALE_EVERY
from games.records import adapters
from games.records.models import Game, Seat, result_digest
from scoring import jobs, stats
from scoring.jobs import job_progress
from scoring.models import Job, JobItem, PlayerGame


def plant_stale() -> list[int]:
    """Give one finished game in STALE_EVERY a stale result, as an older engine might have
    stored it: the winning unit (seat, or team) and the last one swap ranks and scores in the
    result and the seats. Stored as that engine's code would have stored it, with the digest
    of the stale result itself (``Game.result_digest``): a re-score must find it stale by
    computing the result again, not by a digest left behind. The statistics and ratings follow
    the stale result, so a re-score must rewrite them. Returns the games changed."""
    ids = list(
        Game.objects.filter(status=Game.Status.FINISHED)
        .order_by("pk")
        .values_list("pk", flat=True)[::STALE_EVERY]
    )
    game_table, seat_table = Game._meta.db_table, Seat._meta.db_table
    planted = []
    for chunk in jobs.chunks(ids, 2000):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"SELECT id, result::text FROM {game_table} WHERE id = ANY(%s)", [chunk])
            games, results_json, digests = [], [], []
            seat_rows: list[list[Any]] = [[], [], [], []]  # game, seat, rank, score
            for game_id, text in cursor.fetchall():
                result = json.loads(text)
                swapped = stale(result["players"])
                if swapped is None:
                    continue
                games.append(game_id)
                winners = sorted(p["seat"] for p in swapped if p["rank"] == 1)
                result = {**result, "players": swapped, "winners": winners}
                results_json.append(json.dumps(result))
                digests.append(result_digest(result))
                for p in swapped:
                    for column, value in zip(
                        seat_rows, (game_id, p["seat"], p["rank"], p["score"]), strict=True
                    ):
                        column.append(value)
            if not games:
                continue
            cursor.execute(
                f"UPDATE {game_table} AS g SET result = v.result, result_digest = v.digest "
                "FROM (SELECT unnest(%s::bigint[]) AS id, unnest(%s::text[])::jsonb AS result, "
                "unnest(%s::text[]) AS digest) AS v WHERE g.id = v.id",
                [games, results_json, digests],
            )
            cursor.execute(
                f"UPDATE {seat_table} AS s SET rank = v.rank, score = v.score FROM (SELECT "
                "unnest(%s::bigint[]) AS game_id, unnest(%s::int[]) AS seat, "
                "unnest(%s::int[]) AS rank, unnest(%s::int[]) AS score) AS v "
                "WHERE s.game_id = v.game_id AND s.seat = v.seat",
                seat_rows,
            )
            stats.game_results_changed(game_ids=games)
        planted.extend(games)
    return planted


def stale(players: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The result's players with the first-ranked unit and the last one swapped; None when
    every unit shares one rank."""
    team_play = any(p["team"] is not None for p in players)

    def unit(p: dict[str, Any]) -> int:
        return int(p["team"] if team_play else p["seat"])

    rank = {unit(p): p["rank"] for p in players}
    score = {unit(p): p["score"] for p in players}
    best = min(rank, key=lambda u: (rank[u], u))
    worst = max(rank, key=lambda u: (rank[u], u))
    if rank[best] == rank[worst]:
        return None
    other = {best: worst, worst: best}
    return [
        {**p, "rank": rank[other[unit(p)]], "score": score[other[unit(p)]]}
        if unit(p) in other
        else p
        for p in players
    ]


def exactly_once(job_id: int, stale_ids: list[int]) -> list[str]:
    """What is wrong with the re-score job: items against games, failures, the games whose
    winners changed against the stale ones, and a sample of the stale games against a fresh
    replay (result, seats, statistics)."""
    job = Job.objects.get(pk=job_id)
    items = JobItem.objects.filter(job=job)
    games = Game.objects.count()
    problems = []
    counted = items.aggregate(items=Count("id"), keys=Count("key", distinct=True))
    if not counted["items"] == counted["keys"] == games == job.total:
        problems.append(f"{counted} items and keys for {games} games (job total {job.total})")
    missing = Game.objects.exclude(pk__in=items.values("key")).count()
    if missing:
        problems.append(f"{missing} games without an item")
    failed = items.filter(ok=False)
    if failed.exists():
        first = failed.values_list("error", flat=True).first()
        problems.append(f"{failed.count()} games failed, first: {first}")
    progress = job_progress(job)  # what a client polling the job is told
    if progress["done"] != games or progress["failures"]:
        problems.append(f"progress says {progress['done']} done, failures {progress['failures']}")
    changed = set(
        items.filter(ok=True)
        .exclude(winners_before=None)
        .exclude(winners_before=F("winners_after"))
        .values_list("game_id", flat=True)
    )
    if changed != set(stale_ids):
        problems.append(
            f"{len(changed)} games changed winners, {len(stale_ids)} stale, "
            f"{len(changed ^ set(stale_ids))} differ"
        )
    sample = sorted(random.Random(0).sample(stale_ids, min(REPLAYED, len(stale_ids))))
    stored = adapters.stored_games(sample)
    seats: dict[int, dict[int, tuple[Any, Any]]] = {g: {} for g in sample}
    for game_id, seat, score, rank in Seat.objects.filter(game_id__in=sample).values_list(
        "game_id", "seat", "score", "rank"
    ):
        seats[game_id][seat] = (score, rank)
    facts: dict[int, dict[int, tuple[Any, Any]]] = {g: {} for g in sample}
    for game_id, seat, score, rank in PlayerGame.objects.filter(game_id__in=sample).values_list(
        "game_id", "seat", "score", "rank"
    ):
        facts[game_id][seat] = (score, rank)
    wrong = 0
    for game in Game.objects.filter(pk__in=sample).select_related("edition"):
        names = [name for _, _, name in stored[game.pk].seats]
        fresh = json.loads(json.dumps(adapters.rescore(game, names, stored[game.pk].rounds)))
        expected = {p["seat"]: (p["score"], p["rank"]) for p in fresh["players"]}
        if fresh != game.result or seats[game.pk] != expected or facts[game.pk] != expected:
            wrong += 1
    if wrong:
        problems.append(f"{wrong} of {len(sample)} stale games differ from a fresh replay")
    return problems


def subset_end(size: int) -> datetime.date:
    """The date up to which about ``size`` games were played (from the first day)."""
    dates = Game.objects.order_by("played_on").values_list("played_on", flat=True)
    return dates[size - 1]
