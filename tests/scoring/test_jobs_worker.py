"""Batch jobs with a real Celery worker process on Redis (not eager mode).

The worker is a separate process reading the same test database; tasks travel through the
local Redis. Without Redis these tests skip locally and fail in CI (POTDEVIN_REQUIRE_SERVICES).
"""

from __future__ import annotations

import copy
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from games import services
from games.models import Deck, Game, Round
from potdevin_site.celery import app as celery_app
from scoring.engine import get_engine
from scoring.engine.potdevin import deck_from_dict
from scoring.engine.potdevin.decks import standard_layout
from scoring.engine.potdevin.simulate import simulate
from scoring.models import JobItem

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = str(celery_app.conf.broker_url)  # `make test` points it at a test Redis database
pytestmark = pytest.mark.django_db(transaction=True)

# A corrected deck: two cards change guild, so some games change winners.
CORRECTED = standard_layout()
CORRECTED["A10"] = ["artists", "artists"]
CORRECTED["P5"] = ["nobles"]
CORRECTED["E12"] = ["knights", "traders"]


def _database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/"
        f"{db['NAME']}"
    )


class WorkerPool:
    def __init__(self, queue: str) -> None:
        self.queue = queue
        self.started: list[Worker] = []

    def start(self, name: str) -> Worker:
        worker = Worker(name, self.queue)
        self.started.append(worker)
        return worker


class Worker:
    """A `celery worker` process on the test database, consuming the test's queue."""

    def __init__(self, name: str, queue: str) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": REDIS_URL,
        }
        self.log = open(ROOT / "var" / f"{queue}-{name}.log", "w")  # noqa: SIM115
        options = "worker -l info --concurrency 1 --without-gossip --without-mingle"
        command = [sys.executable, "-m", "celery", "-A", "potdevin_site", *options.split()]
        self.process = subprocess.Popen(
            [*command, "--without-heartbeat", "-Q", queue, "-n", f"{name}@%h"],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill() reaches the pool child too
        )

    def kill(self) -> None:
        """Kill -9, parent and pool child: no warm shutdown, nothing acknowledged."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


@pytest.fixture
def redis_broker(
    require_service: Callable[[str, str], None], skip_or_fail: Callable[[str], None]
) -> Iterator[str]:
    """A queue of this test's own on the test Redis: runs side by side never take each other's
    tasks."""
    if not REDIS_URL.startswith("redis://"):
        skip_or_fail(f"the job tests need CELERY_BROKER_URL=redis://... (make test): {REDIS_URL}")
    require_service("Redis", REDIS_URL)
    queue = f"test-jobs-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    saved = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    yield queue
    celery_app.conf.task_default_queue = saved
    import redis

    redis.Redis.from_url(REDIS_URL).delete(queue)


@pytest.fixture
def workers(redis_broker: str) -> Iterator[WorkerPool]:
    pool = WorkerPool(redis_broker)
    yield pool
    for worker in pool.started:
        worker.stop()


@pytest.fixture
def staff() -> APIClient:
    user = get_user_model().objects.create_user("root", is_staff=True)
    client = APIClient()
    client.force_authenticate(user)
    return client


def _games(count: int, seed: int = 0) -> list[Game]:
    owner = get_user_model().objects.get_or_create(username="owner")[0]
    logs = [simulate(3 + k % 4, seed=seed + k, teams=k % 8 == 1) for k in range(count)]
    return services.game_import(owner=owner, documents=logs)


def _wait_done(client: APIClient, path: str, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(path).json()
        if body["status"] != "running":
            return body
        time.sleep(0.2)
    raise AssertionError(f"job not done in {timeout} s: {body['done']}/{body['total']}")


def _replay_stored(game: Game, cards: dict[str, list[str]]) -> dict[str, Any]:
    """The game's stored log replayed here, in this process, with the given deck layout."""
    log = services.game_export_log(game=game)
    return get_engine("pot-de-vin").replay(
        log, deck=deck_from_dict({"id": "corrected", "cards": cards})
    )


def test_rescore_with_a_corrected_deck_on_a_real_worker(
    workers: WorkerPool, staff: APIClient
) -> None:
    games = _games(230)
    broken = games[5]
    # Corrupt one stored round behind the services' back: round 2 replays round 1's lead card.
    first = Round.objects.get(game=broken, number=1).plays[0]
    second = Round.objects.get(game=broken, number=2)
    second.plays = [{"seat": second.plays[0]["seat"], "card": first["card"]}, *second.plays[1:]]
    second.save()
    before = {g.pk: copy.deepcopy(Game.objects.get(pk=g.pk).result) for g in games}
    expected = {g.pk: _replay_stored(g, CORRECTED) for g in games if g.pk != broken.pk}
    Deck.objects.create(key="corrected", cards=CORRECTED)
    workers.start("a")

    started = staff.post("/api/rescore/", {"new_deck": "corrected"}, format="json")
    assert started.status_code == 202, started.content
    job = _wait_done(staff, f"/api/rescore/{started.json()['id']}/")

    assert (job["status"], job["total"], job["done"]) == ("done", 230, 230)
    assert [(f["game"], f["code"], f["round"]) for f in job["failures"]] == [
        (broken.pk, "duplicate_card", 2)
    ]
    for game_id, result in expected.items():
        assert Game.objects.get(pk=game_id).result == result
    changed = {
        g: (before[g]["winners"], r["winners"])
        for g, r in expected.items()
        if before[g]["winners"] != r["winners"]
    }
    assert changed, "the corrected deck should change some winners"
    assert {
        c["game"]: (c["winners_before"], c["winners_after"]) for c in job["winners_changed"]
    } == (changed)
    assert set(Game.objects.exclude(pk=broken.pk).values_list("deck__key", flat=True)) == {
        "corrected"
    }

    # The same job again stores the same results, and no winner changes this time.
    again = staff.post("/api/rescore/", {"new_deck": "corrected"}, format="json").json()
    job = _wait_done(staff, f"/api/rescore/{again['id']}/")
    assert (job["done"], job["winners_changed"]) == (230, [])
    for game_id, result in expected.items():
        assert Game.objects.get(pk=game_id).result == result


def test_a_killed_worker_leaves_every_game_scored_exactly_once(
    workers: WorkerPool, staff: APIClient, settings: Any
) -> None:
    settings.POTDEVIN_JOB_BATCH_SIZE = 100  # the smallest batches: 12 of them
    games = _games(1200, seed=10_000)
    expected = {g.pk: _replay_stored(g, CORRECTED) for g in games}
    Deck.objects.create(key="corrected", cards=CORRECTED)
    doomed = workers.start("doomed")
    job_id = staff.post("/api/rescore/", {"new_deck": "corrected"}, format="json").json()["id"]

    # Kill the worker in the middle of the job, then let another one finish it.
    deadline = time.monotonic() + 60
    while JobItem.objects.filter(job_id=job_id).count() == 0:
        assert time.monotonic() < deadline, "the first worker never started"
        time.sleep(0.05)
    doomed.kill()
    done_when_killed = JobItem.objects.filter(job_id=job_id).count()
    assert 0 < done_when_killed < 1200
    workers.start("rescuer")
    job = _wait_done(staff, f"/api/rescore/{job_id}/")

    assert (job["status"], job["done"], job["failures"]) == ("done", 1200, [])
    keys = list(JobItem.objects.filter(job_id=job_id).values_list("key", flat=True))
    assert sorted(keys) == sorted(expected)  # one item per game: none twice, none missing
    for game_id, result in expected.items():
        assert Game.objects.get(pk=game_id).result == result


def test_bulk_import_job_reports_each_impossible_document(
    workers: WorkerPool, staff: APIClient
) -> None:
    docs = [simulate(3 + k % 4, seed=50_000 + k) for k in range(240)]
    docs[17]["rounds"][1]["plays"][0] = {
        "seat": docs[17]["rounds"][1]["plays"][0]["seat"],
        "pass": True,
    }
    docs[201]["players"] = ["Solo"]
    workers.start("importer")

    started = staff.post("/api/imports/", docs, format="json")
    assert started.status_code == 202, started.content
    job = _wait_done(staff, f"/api/imports/{started.json()['id']}/")

    assert (job["status"], job["total"], job["done"]) == ("done", 240, 240)
    assert [(f["key"], f["code"], f["round"]) for f in job["failures"]] == [
        (17, "starter_passed", 2),
        (201, "bad_player_count", None),
    ]
    assert len(job["games"]) == 238
    for key, game_id in zip(
        [k for k in range(240) if k not in (17, 201)], sorted(job["games"]), strict=True
    ):
        stored = Game.objects.get(pk=game_id)
        assert stored.result == get_engine("pot-de-vin").replay(docs[key])
