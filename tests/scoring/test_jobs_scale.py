"""The re-score job at scale: a game whose stored result is current is left as it is (nothing
written, nothing followed up); the job counts its items itself (``Job.done``, ``Job.failed``);
statistics and ratings follow only the games it changed, and ratings only in the clubs those
games are of; jobs made before the counters get theirs from their items (scoring 0010).

Expected values come from elsewhere: the import's own documents replayed by the engine, the
games planted stale by hand, openskill called directly (test_ratings) and a full recompute."""

from __future__ import annotations

import copy
import datetime
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.records import services
from games.records.models import Club, Game, Player, Round, Seat
from scoring import jobs, stats
from scoring.engine import get_engine
from scoring.engine.complots.simulate import simulate as simulate_complots
from scoring.engine.potdevin.simulate import simulate
from scoring.jobs import selectors as job_selectors
from scoring.jobs.writes import same_result
from scoring.models import (
    HeadToHead,
    Job,
    JobItem,
    PlayerGame,
    PlayerStats,
    Rating,
    RatingHistory,
    RatingsPending,
)
from scoring.stats.tasks import ratings_catch_up_task
from tests.accounts import first_club
from tests.records.migrations import latest, migrate
from tests.scoring import stats_builders as B
from tests.scoring import test_jobs as jobs_tests
from tests.scoring import test_ratings as ratings_tests

pytestmark = pytest.mark.django_db

POT_DE_VIN, COMPLOTS, BRUGES = "pot-de-vin", "complots", "bruges"
# A log's game, by its format (written out: the test does not ask the engines' registry).
GAME_OF_FORMAT = {"potdevin-log/1": POT_DE_VIN, "complots-log/1": COMPLOTS, "bruges-log/1": BRUGES}
DAY = datetime.date(2026, 4, 1)
NAMES = ["Ada", "Bea", "Cy", "Dev", "Eli"]

no_sending = jobs_tests.no_sending  # batches are run by the test: what would be queued
Capture = Callable[..., AbstractContextManager[Any]]


@pytest.fixture
def owner() -> Any:
    return get_user_model().objects.create_user("owner", is_staff=True)


@pytest.fixture
def queued(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Ratings without POTDEVIN_RATINGS_SYNC: a change is written down (``RatingsPending``)
    and the catch-up task it queues is recorded, not run."""
    settings.POTDEVIN_RATINGS_SYNC = False
    sent: list[Any] = []
    monkeypatch.setattr(ratings_catch_up_task, "delay", lambda *args: sent.append(args))
    return sent


@pytest.fixture
def after_job() -> Iterator[list[tuple[int, list[int]]]]:
    """What the hooks of a finished job are handed, recorded beside the registered ones."""
    handed: list[tuple[int, list[int]]] = []

    def record(job: Job, game_ids: list[int]) -> None:
        handed.append((job.pk, sorted(game_ids)))

    jobs.AFTER_JOB.append(record)
    yield handed
    jobs.AFTER_JOB.remove(record)


def _day(n: int) -> datetime.date:
    return DAY + datetime.timedelta(days=n)


def _pot_de_vin(
    count: int, seed: int, names: list[str], *, teams: bool = False
) -> list[dict[str, Any]]:
    """Complete games of 3 or 4 of ``names`` (``teams``: 4 players in two teams), a day
    apart."""
    logs = []
    for k in range(count):
        n = 4 if teams else 3 + k % 2
        log = simulate(n, seed=seed + k, names=names[k % 2 : k % 2 + n], teams=teams)
        log["played_on"] = _day(k).isoformat()
        logs.append(log)
    return logs


def _complots(count: int, seed: int, *, complete: bool = True) -> list[dict[str, Any]]:
    logs = []
    for k in range(count):
        log = simulate_complots(3 + k % 3, seed=seed + k, complete=complete)
        log["played_on"] = _day(k).isoformat()
        logs.append(log)
    return logs


def _bruges(count: int, seed: int, *, complete: bool = True) -> list[dict[str, Any]]:
    simulate_bruges = get_engine(BRUGES).info.simulate
    assert simulate_bruges is not None
    logs = []
    for k in range(count):
        log = simulate_bruges(2 + k % 3, seed=seed + k, complete=complete, names=NAMES[: 2 + k % 3])
        log["played_on"] = _day(k).isoformat()
        logs.append(log)
    return logs


def _import(
    owner: Any, capture: Capture, logs: list[dict[str, Any]], club: Club | None = None
) -> dict[int, dict[str, Any]]:
    """The games of ``logs``, stored as one import, statistics and ratings followed (the
    commit's callbacks run); by id, the document each was made from."""
    with capture(execute=True):
        games = services.game_import(
            club=club or first_club(), owner=owner, documents=copy.deepcopy(logs)
        )
    return {g.pk: log for g, log in zip(games, logs, strict=True)}


def _replayed(log: dict[str, Any]) -> dict[str, Any]:
    """The result the engine gives the document the game was imported from."""
    return get_engine(_game_type(log)).replay(copy.deepcopy(log))


def _game_type(log: dict[str, Any]) -> str:
    return GAME_OF_FORMAT[log["format"]]


def _rescore(owner: Any, sent: list[Any], capture: Capture, **filters: Any) -> Job:
    """A re-score job run to its end in process, each batch committed on its own (its
    callbacks, the job's follow-up among them, run after it)."""
    with capture(execute=True):
        job = jobs.rescore_start(created_by=owner, **filters)
    for batch in jobs_tests._sent_batches(sent, job):
        with capture(execute=True):
            assert jobs.rescore_batch(job_id=job.pk, game_ids=batch) == len(batch)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    return job


def _outcomes(job: Job) -> dict[int, str]:
    return dict(JobItem.objects.filter(job=job).values_list("key", "outcome"))


def _seats(game_id: int) -> list[tuple[int | None, int | None]]:
    return list(Seat.objects.filter(game_id=game_id).order_by("seat").values_list("score", "rank"))


def _seats_of(result: dict[str, Any], finished: bool) -> list[tuple[int | None, int | None]]:
    return [(p["score"], p["rank"]) if finished else (None, None) for p in result["players"]]


def _rows() -> dict[str, Any]:
    """Every row a re-score or its follow-up could write, as stored."""
    return {
        "games": list(
            Game.objects.order_by("id").values_list("id", "updated_at", "result", "engine_version")
        ),
        "seats": list(Seat.objects.order_by("id").values_list("id", "score", "rank")),
        "player_games": list(PlayerGame.objects.order_by("id").values()),
        "ratings": list(Rating.objects.order_by("id").values()),
        "history": list(RatingHistory.objects.order_by("id").values()),
    }


def _distinct_ranks(result: dict[str, Any]) -> bool:
    return sorted(p["rank"] for p in result["players"]) == list(
        range(1, len(result["players"]) + 1)
    )


def _swap_ranks(game_id: int, first: int, second: int, *, winners: list[int] | None = None) -> None:
    """Plant a stale result: the seats ranked ``first`` and ``second`` swap ranks, in the
    stored result and on the seat rows (and the stored winners become ``winners``)."""
    game = Game.objects.get(pk=game_id)
    result = game.result
    assert result is not None
    by_rank = {p["rank"]: p for p in result["players"]}
    a, b = by_rank[first], by_rank[second]
    a["rank"], b["rank"] = second, first
    if winners is not None:
        result["winners"] = winners
    Game.objects.filter(pk=game_id).update(result=result)  # no save(): updated_at kept
    for p in (a, b):
        Seat.objects.filter(game_id=game_id, seat=p["seat"]).update(rank=p["rank"])


# --- 1. and 3. Games whose stored result is current are left alone ---------------------------


def test_a_rescore_of_current_results_writes_nothing(
    owner: Any,
    no_sending: list[Any],
    django_capture_on_commit_callbacks: Capture,
    queued: list[Any],
    after_job: list[tuple[int, list[int]]],
    settings: Any,
) -> None:
    """Games of the three types, finished and not, by entries, in teams and by final sheet."""
    capture = django_capture_on_commit_callbacks
    settings.POTDEVIN_RATINGS_SYNC = True  # ratings made with the games, in process
    logs = {
        **_import(owner, capture, _pot_de_vin(4, 100, NAMES)),
        **_import(owner, capture, _pot_de_vin(2, 150, NAMES, teams=True)),
        **_import(owner, capture, _complots(3, 200)),
        **_import(owner, capture, _complots(2, 300, complete=False)),
        **_import(owner, capture, _bruges(3, 350)),
        **_import(owner, capture, _bruges(1, 380, complete=False)),
    }
    with capture(execute=True):
        sheet = B.scorepad(
            owner,
            ["Ada", "Bea", "Cy"],
            [B.tableau(nobles=3, gems=2), B.tableau(artists=2), B.tableau(traders=1)],
        )
    ids = [*logs, sheet.pk]
    assert sorted(Game.objects.values_list("id", flat=True)) == sorted(ids)
    assert Game.objects.filter(teams__isnull=False).count() == 2
    assert Rating.objects.exists() and PlayerGame.objects.exists()
    assert Game.objects.filter(status=Game.Status.IN_PROGRESS).count() == 3
    before = _rows()
    settings.POTDEVIN_RATINGS_SYNC = False  # a change would leave a RatingsPending row

    job = _rescore(owner, no_sending, django_capture_on_commit_callbacks)

    assert _outcomes(job) == dict.fromkeys(ids, JobItem.UNCHANGED)
    assert not JobItem.objects.filter(job=job).exclude(ok=True).exists()
    assert (job.total, job.done, job.failed) == (len(ids), len(ids), 0)
    assert _rows() == before  # no game, seat, statistic or rating written
    assert not RatingsPending.objects.exists() and queued == []
    assert after_job == [(job.pk, [])]
    assert jobs.job_progress(job)["winners_changed"] == []


def test_a_result_computed_again_is_compared_whatever_its_keys_order_or_type() -> None:
    """The database gives a result's keys in its own order, and an integer key back as JSON's
    string: neither is a change. Any value that differs is."""
    stored = {"players": [{"seat": 0, "score": 3}], "hands": {"0": ["A1"]}, "winners": [0]}
    reordered = {"winners": [0], "hands": {"0": ["A1"]}, "players": [{"score": 3, "seat": 0}]}
    assert same_result(reordered, stored)
    assert same_result({**stored, "hands": {0: ["A1"]}}, stored)
    assert not same_result({**stored, "players": [{"seat": 0, "score": 4}]}, stored)
    assert not same_result({**stored, "hands": {"0": ["A1", "A2"]}}, stored)
    assert not same_result({**stored, "hands": {1: ["A1"]}}, stored)
    assert not same_result({**stored, "extra": None}, stored)


def test_only_the_games_planted_stale_are_rewritten_and_followed_up(
    owner: Any,
    no_sending: list[Any],
    django_capture_on_commit_callbacks: Capture,
    queued: list[Any],
    after_job: list[tuple[int, list[int]]],
    settings: Any,
) -> None:
    settings.POTDEVIN_RATINGS_SYNC = True  # ratings made with the games, in process
    pot_de_vin = _import(owner, django_capture_on_commit_callbacks, _pot_de_vin(8, 400, NAMES))
    unfinished = _import(
        owner, django_capture_on_commit_callbacks, _complots(2, 500, complete=False)
    )
    logs = {**pot_de_vin, **unfinished}
    # Games of 4 whose seats are ranked 1 to 4: a rank can move without a tie.
    ranked = [
        pk
        for pk, log in pot_de_vin.items()
        if len(log["players"]) == 4 and _distinct_ranks(_replayed(log))
    ]
    assert len(ranked) >= 2, "the seeds give too few games ranked 1 to 4"
    # Stale records, each of one kind, and what the re-score should call them.
    ranks_moved, winners_moved = ranked[:2]
    others = [pk for pk in pot_de_vin if pk not in ranked[:2]]
    version_only, seat_score_only, version_in_result = others[:3]
    in_progress, seat_of_unfinished = unfinished
    _swap_ranks(ranks_moved, 3, 4)  # the winners stay: "changed"
    true_winners = _replayed(pot_de_vin[winners_moved])["winners"]
    (second,) = [
        p["seat"] for p in _replayed(pot_de_vin[winners_moved])["players"] if p["rank"] == 2
    ]
    _swap_ranks(winners_moved, 1, 2, winners=[second])
    Game.objects.filter(pk__in=[version_only, in_progress]).update(engine_version="0.9.0")
    result = Game.objects.get(pk=version_in_result).result
    Game.objects.filter(pk=version_in_result).update(result={**result, "engine_version": "0.9.0"})
    seat = Seat.objects.get(game_id=seat_score_only, seat=0)
    Seat.objects.filter(pk=seat.pk).update(score=(seat.score or 0) + 1)
    Seat.objects.filter(game_id=seat_of_unfinished, seat=1).update(score=7)  # none while playing
    expected = dict.fromkeys(logs, JobItem.UNCHANGED)
    expected.update(
        {
            ranks_moved: JobItem.CHANGED,
            winners_moved: JobItem.WINNERS_CHANGED,
            version_only: JobItem.CHANGED,
            seat_score_only: JobItem.CHANGED,
            version_in_result: JobItem.CHANGED,
            in_progress: JobItem.CHANGED,
            seat_of_unfinished: JobItem.CHANGED,
        }
    )
    stale = sorted(pk for pk, outcome in expected.items() if outcome != JobItem.UNCHANGED)
    before = {g.pk: g for g in Game.objects.all()}
    player_games = list(PlayerGame.objects.order_by("id").values_list("id", flat=True))
    settings.POTDEVIN_RATINGS_SYNC = False  # a change would leave a RatingsPending row

    job = _rescore(owner, no_sending, django_capture_on_commit_callbacks)

    assert _outcomes(job) == expected
    assert (job.done, job.failed) == (len(logs), 0)
    for pk, log in logs.items():
        game = Game.objects.get(pk=pk)
        want = _replayed(log)
        assert game.result == want, pk
        assert game.engine_version == want["engine_version"]
        assert _seats(pk) == _seats_of(want, game.status == Game.Status.FINISHED), pk
        if pk in stale:
            assert game.updated_at > before[pk].updated_at, pk
        else:
            assert game.updated_at == before[pk].updated_at, pk
    assert jobs.job_progress(job)["winners_changed"] == [
        {"game": winners_moved, "winners_before": [second], "winners_after": true_winners}
    ]
    # The follow-up is handed the stale games only; their statistics were already those of
    # their true results, so no statistics row and no rating moves.
    assert after_job == [(job.pk, stale)]
    assert list(PlayerGame.objects.order_by("id").values_list("id", flat=True)) == player_games
    assert not RatingsPending.objects.exists() and queued == []


def _hand_digest(result: Any) -> str:
    """The digest of a result, computed here: its canonical JSON by the standard library."""
    canonical = json.dumps(result, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _winners_changed(job: Job) -> list[tuple[Any, Any, Any]]:
    return [
        (c["game"], c["winners_before"], c["winners_after"])
        for c in jobs.job_progress(job)["winners_changed"]
    ]


def test_a_stale_result_stored_with_its_own_digest_is_found_by_its_replay(
    owner: Any,
    no_sending: list[Any],
    django_capture_on_commit_callbacks: Capture,
    queued: list[Any],
) -> None:
    """A stale result as the code of an older engine stored it: with the digest of that stale
    result, its seats and engine version as they were. Only the result computed again tells it
    from a current one; the games whose results are current are not written."""
    capture = django_capture_on_commit_callbacks
    logs = _import(owner, capture, _pot_de_vin(4, 600, NAMES))
    stale_id, *current = logs
    result = Game.objects.get(pk=stale_id).result
    assert result is not None
    true_winners = result["winners"]
    loser = next(p["seat"] for p in result["players"] if p["seat"] not in true_winners)
    planted = {**result, "winners": [loser]}
    Game.objects.filter(pk=stale_id).update(result=planted)  # and its digest, as code writes
    assert Game.objects.get(pk=stale_id).result_digest == _hand_digest(planted)
    before = dict(Game.objects.values_list("pk", "updated_at"))

    job = _rescore(owner, no_sending, capture)

    assert _outcomes(job) == {
        stale_id: JobItem.WINNERS_CHANGED,
        **dict.fromkeys(current, JobItem.UNCHANGED),
    }
    assert _winners_changed(job) == [(stale_id, [loser], true_winners)]
    game = Game.objects.get(pk=stale_id)
    assert game.result == _replayed(logs[stale_id])
    assert game.result_digest == _hand_digest(game.result)
    assert game.updated_at > before[stale_id]
    for pk in current:
        assert Game.objects.get(pk=pk).updated_at == before[pk], pk


def test_a_rescore_compares_digests_without_reading_the_stored_results(
    owner: Any,
    no_sending: list[Any],
    django_capture_on_commit_callbacks: Capture,
    queued: list[Any],
) -> None:
    """Each stored result replaced by its winners alone, each digest kept: the games are still
    found current, their winners before read from the stored winners. Nothing else of a stored
    result is read."""
    capture = django_capture_on_commit_callbacks
    logs = _import(owner, capture, [*_pot_de_vin(2, 700, NAMES), *_complots(2, 710)])
    winners = {}
    for pk, result, digest in Game.objects.values_list("pk", "result", "result_digest"):
        winners[pk] = result["winners"]
        Game.objects.filter(pk=pk).update(result={"winners": winners[pk]}, result_digest=digest)

    job = _rescore(owner, no_sending, capture)

    assert _outcomes(job) == dict.fromkeys(logs, JobItem.UNCHANGED)
    items = JobItem.objects.filter(job=job).values_list("key", "winners_before", "winners_after")
    assert {key: (before, after) for key, before, after in items} == {
        pk: (winners[pk], _replayed(log)["winners"]) for pk, log in logs.items()
    }


def test_a_result_stored_without_its_digest_is_compared_itself(
    owner: Any,
    no_sending: list[Any],
    django_capture_on_commit_callbacks: Capture,
    queued: list[Any],
) -> None:
    """A result written around the ORM has no digest: the re-score reads and compares the
    stored result itself, and writes the digest with the result when it rewrites it."""
    capture = django_capture_on_commit_callbacks
    logs = _import(owner, capture, _pot_de_vin(3, 800, NAMES))
    current, stale_id, _ = logs
    result = Game.objects.get(pk=stale_id).result
    assert result is not None
    loser = next(p["seat"] for p in result["players"] if p["seat"] not in result["winners"])
    Game.objects.filter(pk=stale_id).update(
        result={**result, "winners": [loser]}, result_digest=None
    )
    Game.objects.filter(pk=current).update(result_digest=None)

    job = _rescore(owner, no_sending, capture)

    outcomes = _outcomes(job)
    assert outcomes.pop(stale_id) == JobItem.WINNERS_CHANGED
    assert set(outcomes.values()) == {JobItem.UNCHANGED}
    assert _winners_changed(job) == [(stale_id, [loser], result["winners"])]
    game = Game.objects.get(pk=stale_id)
    assert (game.result, game.result_digest) == (result, _hand_digest(result))
    assert Game.objects.get(pk=current).result_digest is None  # current: not written


# --- 2. The job's counters ------------------------------------------------------------------


def test_the_counters_follow_the_items_through_failures_deletions_and_repeats(
    owner: Any,
    no_sending: list[Any],
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    capture = django_capture_on_commit_callbacks
    logs = {
        **_import(owner, capture, _pot_de_vin(5, 600, NAMES)),
        **_import(owner, capture, _complots(3, 700)),
    }
    ids = sorted(logs)
    assert [_game_type(logs[k]) for k in ids] == [POT_DE_VIN] * 5 + [COMPLOTS] * 3
    # Two games whose stored winners are wrong; one whose log became impossible (turn 4 is
    # claimed by the seat after the one whose turn it is).
    for pk in (ids[1], ids[3]):
        Game.objects.filter(pk=pk).update(result={**Game.objects.get(pk=pk).result, "winners": []})
    turn = Round.objects.get(game_id=ids[5], number=4)
    assert turn.data == logs[ids[5]]["turns"][3]
    players = len(logs[ids[5]]["players"])
    Round.objects.filter(pk=turn.pk).update(
        data={**turn.data, "actor": (turn.data["actor"] + 1) % players}
    )
    with capture(execute=True):
        job = jobs.rescore_start(created_by=owner)
    assert jobs_tests._sent_batches(no_sending, job) == [ids]
    with capture(execute=True):  # deleted once the job has its keys
        services.game_delete(game=Game.objects.get(pk=ids[2]))

    def counters() -> tuple[int, int, str]:
        job.refresh_from_db()
        return job.done, job.failed, job.status

    # The test splits the job's keys itself: three batches, the first delivered twice.
    with capture(execute=True):
        assert jobs.rescore_batch(job_id=job.pk, game_ids=ids[:4]) == 4
    assert counters() == (4, 1, Job.Status.RUNNING)  # the deleted game
    with capture(execute=True):
        assert jobs.rescore_batch(job_id=job.pk, game_ids=ids[:4]) == 0
    assert counters() == (4, 1, Job.Status.RUNNING)
    with capture(execute=True):
        assert jobs.rescore_batch(job_id=job.pk, game_ids=ids[4:7]) == 3
    assert counters() == (7, 2, Job.Status.RUNNING)  # the impossible log
    # The last batch broke in its worker: its keys not done yet are failures.
    with capture(execute=True):
        jobs.batch_failed(job_id=job.pk, keys=ids[6:], error=RuntimeError("boom"))
    assert counters() == (8, 3, Job.Status.DONE)
    with capture(execute=True):  # delivered again after the end: nothing moves
        assert jobs.rescore_batch(job_id=job.pk, game_ids=ids[4:]) == 0
        jobs.batch_failed(job_id=job.pk, keys=ids, error=RuntimeError("again"))
    assert counters() == (8, 3, Job.Status.DONE)
    items = JobItem.objects.filter(job=job)
    assert (items.count(), items.filter(ok=False).count()) == (job.done, job.failed)

    progress = jobs.job_progress(job)
    assert (progress["total"], progress["done"], progress["failed"]) == (8, 8, 3)
    assert [(f["key"], f["code"]) for f in progress["failures"]] == [
        (ids[2], "game_deleted"),
        (ids[5], "out_of_turn"),
        (ids[7], "internal_error"),
    ]
    assert progress["failures"][1]["round"] == 4
    assert [(c["game"], c["winners_before"]) for c in progress["winners_changed"]] == [
        (ids[1], []),
        (ids[3], []),
    ]
    assert _outcomes(job) == {
        ids[0]: JobItem.UNCHANGED,
        ids[1]: JobItem.WINNERS_CHANGED,
        ids[2]: "",
        ids[3]: JobItem.WINNERS_CHANGED,
        ids[4]: JobItem.UNCHANGED,
        ids[5]: "",
        ids[6]: JobItem.UNCHANGED,
        ids[7]: "",
    }

    # A poll lists at most LISTED of each list, the first by key; the counts are all of them.
    monkeypatch.setattr(job_selectors, "LISTED", 2)
    capped = jobs.job_progress(job)
    assert (capped["done"], capped["failed"]) == (8, 3)
    assert [f["key"] for f in capped["failures"]] == [ids[2], ids[5]]
    monkeypatch.setattr(job_selectors, "LISTED", 1)
    capped = jobs.job_progress(job)
    assert [f["key"] for f in capped["failures"]] == [ids[2]]
    assert [c["game"] for c in capped["winners_changed"]] == [ids[1]]
    assert capped["failed"] == 3


def test_the_counters_of_a_job_resumed_after_every_batch_ran(
    owner: Any, no_sending: list[Any], django_capture_on_commit_callbacks: Capture
) -> None:
    """Every game has its item but the job was never marked done: resuming ends it and
    counts nothing twice."""
    logs = _import(owner, django_capture_on_commit_callbacks, _pot_de_vin(3, 800, NAMES))
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.rescore_start(created_by=owner)
        jobs.rescore_batch(job_id=job.pk, game_ids=sorted(logs))
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, finished_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.job_resume(job.pk) == 0
    job.refresh_from_db()
    assert (job.status, job.done, job.failed) == (Job.Status.DONE, 3, 0)


def test_an_import_job_counts_its_documents(owner: Any, no_sending: list[Any]) -> None:
    docs = _pot_de_vin(4, 850, NAMES)
    docs[2]["first_player"] = 9
    job = jobs.import_start(club=first_club(), created_by=owner, documents=docs)
    assert jobs.import_batch(job_id=job.pk, keys=[0, 1]) == 2
    assert jobs.import_batch(job_id=job.pk, keys=[0, 1]) == 0
    job.refresh_from_db()
    assert (job.done, job.failed, job.status) == (2, 0, Job.Status.RUNNING)
    assert jobs.import_batch(job_id=job.pk, keys=[2, 3]) == 2
    job.refresh_from_db()
    assert (job.done, job.failed, job.status) == (4, 1, Job.Status.DONE)
    progress = jobs.job_progress(job)
    assert [(f["key"], f["code"]) for f in progress["failures"]] == [(2, "bad_first_player")]
    assert (progress["done"], progress["failed"]) == (4, 1)


@pytest.mark.django_db(transaction=True)
def test_batches_at_the_same_time_count_each_game_once(no_sending: list[Any]) -> None:
    """PostgreSQL: a batch and its copy at once, then the last two batches at once."""
    jobs_tests._postgresql_only()
    staff = get_user_model().objects.create_user("owner", is_staff=True)
    games = services.game_import(
        club=first_club(), owner=staff, documents=_pot_de_vin(30, 900, NAMES)
    )
    ids = sorted(g.pk for g in games)
    Game.objects.filter(pk__in=ids[::3]).update(engine_version="0.9.0")
    job = jobs.rescore_start(created_by=staff)

    def batch(keys: list[int]) -> Callable[[], int]:
        return lambda: jobs.rescore_batch(job_id=job.pk, game_ids=keys)

    assert jobs_tests._overlapping(batch(ids[:10]), batch(ids[:10])) == [10, 0]
    job.refresh_from_db()
    assert (job.done, job.failed, job.status) == (10, 0, Job.Status.RUNNING)
    assert jobs_tests._overlapping(batch(ids[10:20]), batch(ids[20:])) == [10, 10]
    job.refresh_from_db()
    assert (job.done, job.failed, job.status) == (30, 0, Job.Status.DONE)
    assert JobItem.objects.filter(job=job).count() == 30
    changed = JobItem.objects.filter(job=job, outcome=JobItem.CHANGED)
    assert sorted(changed.values_list("key", flat=True)) == ids[::3]


# --- 4. Ratings per club --------------------------------------------------------------------


def _club_rows(club: Club) -> dict[str, Any]:
    """A club's ratings and rating history, every column, by id."""
    return {
        "ratings": list(Rating.objects.filter(player__club=club).order_by("id").values()),
        "history": list(RatingHistory.objects.filter(player__club=club).order_by("id").values()),
    }


def _values(club: Club) -> dict[str, Any]:
    """A club's ratings and rating history by player and game, without ids or times."""
    return {
        "ratings": {
            (r["player_id"], r["game_type"]): (r["mu"], r["sigma"], r["ordinal"], r["games"])
            for r in Rating.objects.filter(player__club=club).values()
        },
        "history": {
            (h["player_id"], h["game_id"]): (h["mu"], h["sigma"], h["ordinal"], h["played_on"])
            for h in RatingHistory.objects.filter(player__club=club).values()
        },
    }


def _two_clubs(owner: Any, capture: Capture) -> tuple[Club, Club, dict[int, Any], dict[int, Any]]:
    """Pot de Vin games in two clubs, each with players of its own under the same names;
    ratings made in process. By id, the documents of each club's games."""
    home, other = first_club(), Club.objects.create(name="Other club", slug="other-club")
    in_home = _import(owner, capture, _pot_de_vin(6, 1000, NAMES), home)
    in_other = _import(owner, capture, _pot_de_vin(5, 1100, NAMES), other)
    assert Player.objects.filter(name="Ada").count() == 2
    assert RatingHistory.objects.filter(player__club=other).exists()
    return home, other, in_home, in_other


def test_a_change_in_one_club_recomputes_that_clubs_ratings_only(
    owner: Any,
    no_sending: list[Any],
    django_capture_on_commit_callbacks: Capture,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    capture = django_capture_on_commit_callbacks
    settings.POTDEVIN_RATINGS_SYNC = True
    home, other, in_home, in_other = _two_clubs(owner, capture)
    # A stale result in the first club that statistics and ratings followed: its first and
    # second place swapped, as an engine since corrected had scored it.
    ranked = [pk for pk, log in sorted(in_home.items()) if _distinct_ranks(_replayed(log))]
    stale = ranked[1]  # not the first day's: the ratings before it stay
    true = _replayed(in_home[stale])
    (second,) = [p["seat"] for p in true["players"] if p["rank"] == 2]
    _swap_ranks(stale, 1, 2, winners=[second])
    with capture(execute=True):
        stats.game_results_changed(game_ids=[stale])
    ratings_tests.assert_ratings_match(POT_DE_VIN)  # of the stale result
    home_before, other_before = _club_rows(home), _club_rows(other)
    kept = [
        h["id"]
        for h in home_before["history"]
        if h["played_on"] < Game.objects.get(pk=stale).played_on
    ]
    assert kept

    settings.POTDEVIN_RATINGS_SYNC = False
    sent: list[Any] = []
    monkeypatch.setattr(ratings_catch_up_task, "delay", lambda *args: sent.append(args))
    job = _rescore(owner, no_sending, capture)  # every club's games

    assert {k: v for k, v in _outcomes(job).items() if v != JobItem.UNCHANGED} == {
        stale: JobItem.WINNERS_CHANGED
    }
    assert Game.objects.get(pk=stale).result == true
    # Written down for the first club only, from the game's day; nothing recomputed yet.
    played_on = Game.objects.get(pk=stale).played_on
    assert list(RatingsPending.objects.values_list("game_type", "since", "club_id")) == [
        (POT_DE_VIN, played_on, home.pk)
    ]
    assert sent == [()]
    assert (_club_rows(home), _club_rows(other)) == (home_before, other_before)

    assert stats.ratings_catch_up() == sum(
        1 for log in in_home.values() if datetime.date.fromisoformat(log["played_on"]) >= played_on
    )
    assert not RatingsPending.objects.exists()
    assert _club_rows(other) == other_before  # not one row of the other club rewritten
    after = _club_rows(home)
    assert after != home_before
    assert set(kept) <= {h["id"] for h in after["history"]}  # before the game's day: kept
    # From it on, each row rewritten in place: the same rows (ids), new values.
    assert {h["id"] for h in after["history"]} == {h["id"] for h in home_before["history"]}
    if connection.vendor == "postgresql":  # with room on its pages to do so (scoring 0012)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT reloptions FROM pg_class WHERE relname = %s",
                [RatingHistory._meta.db_table],
            )
            assert cursor.fetchone()[0] == ["fillfactor=50"]
    ratings_tests.assert_ratings_match(POT_DE_VIN)  # openskill over the true results
    # And the same numbers as recomputing everything from scratch.
    caught_up = {club.pk: _values(club) for club in (home, other)}
    assert stats.ratings_recompute() == len(in_home) + len(in_other)
    assert {club.pk: _values(club) for club in (home, other)} == caught_up


def test_a_pending_change_of_no_club_recomputes_every_club(
    owner: Any, django_capture_on_commit_callbacks: Capture, settings: Any
) -> None:
    settings.POTDEVIN_RATINGS_SYNC = True
    home, other, in_home, in_other = _two_clubs(owner, django_capture_on_commit_callbacks)
    right = {club.pk: _values(club) for club in (home, other)}
    # Ratings gone wrong in both clubs: a catch-up puts right those of the clubs it is told.
    Rating.objects.update(mu=1.0, sigma=1.0, ordinal=-2.0)
    RatingHistory.objects.update(mu=1.0)
    wrong = {club.pk: _values(club) for club in (home, other)}

    RatingsPending.objects.create(game_type=POT_DE_VIN, since=None, club=other)
    assert stats.ratings_catch_up() == len(in_other)
    assert _values(other) == right[other.pk]
    assert _values(home) == wrong[home.pk]

    RatingsPending.objects.create(game_type=POT_DE_VIN, since=None, club=None)
    assert stats.ratings_catch_up() == len(in_home) + len(in_other)
    assert {club.pk: _values(club) for club in (home, other)} == right
    ratings_tests.assert_ratings_match(POT_DE_VIN)


# --- 5. Jobs made before the counters (scoring 0010) ----------------------------------------

BEFORE_COUNTERS = [("scoring", "0009_stats_detailed_games")]


@pytest.fixture
def back_to_latest(transactional_db: None) -> Iterator[None]:
    """Whatever happens, the test database ends in the latest state."""
    yield
    migrate(latest())


@pytest.mark.django_db(transaction=True)
def test_the_counters_migration_counts_the_items_of_older_jobs(back_to_latest: None) -> None:
    apps = migrate(BEFORE_COUNTERS)
    User = apps.get_model("auth", "User")
    OldJob = apps.get_model("scoring", "Job")
    OldItem = apps.get_model("scoring", "JobItem")
    staff = User.objects.create(username="staff", password="!", is_staff=True)
    rescore = OldJob.objects.create(kind="rescore", status="done", total=5, created_by=staff)
    for key, ok, before, after in [
        (1, True, [0], [1]),  # other winners
        (2, True, [0, 2], [0, 2]),  # the same winners
        (3, True, None, [1]),  # no result before: not listed as other winners
        (4, False, None, None),  # an engine error
        (5, True, [], [2]),
    ]:
        error = None if ok else {"code": "out_of_turn", "message": "x", "round": 4}
        OldItem.objects.create(
            job=rescore, key=key, ok=ok, error=error, winners_before=before, winners_after=after
        )
    running = OldJob.objects.create(kind="rescore", status="running", total=4, created_by=staff)
    OldItem.objects.create(job=running, key=7, ok=True, winners_before=[1], winners_after=[1])
    imported = OldJob.objects.create(kind="import", status="done", total=3, created_by=staff)
    OldItem.objects.create(job=imported, key=0, ok=True, outcome="")
    OldItem.objects.create(job=imported, key=1, ok=True, outcome="created")
    OldItem.objects.create(job=imported, key=2, ok=False, error={"code": "bad", "message": "x"})
    empty = OldJob.objects.create(kind="rescore", status="done", total=0, created_by=staff)

    migrate(latest())

    counts = dict(Job.objects.values_list("pk", "done"))
    failed = dict(Job.objects.values_list("pk", "failed"))
    assert counts == {rescore.pk: 5, running.pk: 1, imported.pk: 3, empty.pk: 0}
    assert failed == {rescore.pk: 1, running.pk: 0, imported.pk: 1, empty.pk: 0}
    outcomes = {
        (job, key): outcome
        for job, key, outcome in JobItem.objects.values_list("job_id", "key", "outcome")
    }
    assert outcomes == {
        (rescore.pk, 1): JobItem.WINNERS_CHANGED,
        (rescore.pk, 2): JobItem.CHANGED,
        (rescore.pk, 3): JobItem.CHANGED,
        (rescore.pk, 4): "",
        (rescore.pk, 5): JobItem.WINNERS_CHANGED,
        (running.pk, 7): JobItem.CHANGED,
        (imported.pk, 0): "",  # an import's items keep what their import said
        (imported.pk, 1): "created",
        (imported.pk, 2): "",
    }
    # What a poll shows of the older job, from its counters and the outcomes.
    progress = jobs.job_progress(Job.objects.get(pk=rescore.pk))
    assert (progress["done"], progress["failed"]) == (5, 1)
    assert [f["key"] for f in progress["failures"]] == [4]


# --- A large re-score's statistics, shared among the workers by club --------------------------


def _stats_rows() -> dict[str, Any]:
    """Every statistics row, by its natural key, without ids or times."""
    return {
        "player_games": {
            (r["game_id"], r["player_id"]): {k: v for k, v in r.items() if k != "id"}
            for r in PlayerGame.objects.values()
        },
        "player_stats": {
            (r["player_id"], r["game_type"], r["bucket"]): {
                k: v for k, v in r.items() if k not in ("id", "updated")
            }
            for r in PlayerStats.objects.values()
        },
        "head_to_head": {
            (r["player_id"], r["opponent_id"], r["game_type"]): {
                k: v for k, v in r.items() if k != "id"
            }
            for r in HeadToHead.objects.values()
        },
    }


def test_a_large_rescore_follows_up_in_parts_of_whole_clubs(
    owner: Any,
    no_sending: list[Any],
    django_capture_on_commit_callbacks: Capture,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """More changed games than ``FOLLOW_UP_PART``: the statistics are queued in parts, each of
    whole clubs, and once the parts have run they are those a full rebuild makes."""
    capture = django_capture_on_commit_callbacks
    settings.POTDEVIN_RATINGS_SYNC = True
    home, other, in_home, in_other = _two_clubs(owner, capture)
    third = Club.objects.create(name="Third club", slug="third-club")
    in_third = _import(owner, capture, _pot_de_vin(4, 1200, NAMES), third)
    stale: dict[int, list[int]] = {}
    for club, games in ((home, in_home), (other, in_other), (third, in_third)):
        ranked = [pk for pk, log in sorted(games.items()) if _distinct_ranks(_replayed(log))]
        stale[club.pk] = ranked[:2]
        for pk in ranked[:2]:
            _swap_ranks(pk, 1, 2)
    with capture(execute=True):
        stats.game_results_changed(game_ids=[pk for ids in stale.values() for pk in ids])

    from scoring.stats import refresh
    from scoring.stats.tasks import stats_follow_up_task

    parts: list[list[int]] = []
    monkeypatch.setattr(refresh, "FOLLOW_UP_PART", 3)
    monkeypatch.setattr(stats_follow_up_task, "delay", lambda ids: parts.append(ids))
    job = _rescore(owner, no_sending, capture)
    assert job.done == len(in_home) + len(in_other) + len(in_third)
    # Two games a club, at most 3 a part: each part is one club's two games, in club order.
    assert parts == [sorted(stale[club.pk]) for club in sorted((home, other, third), key=_pk)]
    for part in parts:
        with capture(execute=True):
            assert stats_follow_up_task(part) == 2
    followed = _stats_rows()
    stats.stats_rebuild(ratings=False)
    assert _stats_rows() == followed


def _pk(club: Club) -> int:
    return club.pk
