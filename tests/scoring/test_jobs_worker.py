"""Batch jobs with a real Celery worker process on Redis (not eager mode).

The worker is a separate process reading the same test database; tasks travel through the
local Redis. Without Redis these tests skip locally and fail in CI (POTDEVIN_REQUIRE_SERVICES).
"""

from __future__ import annotations

import base64
import copy
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from rest_framework.test import APIClient

from games.records import services
from games.records.models import Edition, Game, Round
from potdevin_site.celery import app as celery_app
from potdevin_site.env import broker_folders, celery_broker
from scoring.engine import get_engine
from scoring.engine.complots.simulate import simulate as simulate_complots
from scoring.engine.potdevin import deck_from_dict
from scoring.engine.potdevin.decks import standard_layout
from scoring.engine.potdevin.simulate import simulate
from scoring.models import Job, JobItem
from tests.accounts import first_club

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = str(celery_app.conf.broker_url)  # `make test` points it at a test Redis database
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

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
    def __init__(self, queue: str, broker_url: str = REDIS_URL) -> None:
        self.queue = queue
        self.broker_url = broker_url
        self.started: list[Worker] = []

    def start(self, name: str, *, beat: bool = False, env: dict[str, str] | None = None) -> Worker:
        worker = Worker(name, self.queue, self.broker_url, beat=beat, env=env)
        self.started.append(worker)
        return worker

    def stop(self) -> None:
        for worker in self.started:
            worker.stop()
            # Captured output: pytest shows it only when the test failed.
            lines = Path(worker.log.name).read_text(errors="replace").splitlines()
            print(f"--- {worker.log.name}, last lines ---", *lines[-40:], sep="\n")


class Worker:
    """A `celery worker` process on the test database, consuming the test's queue."""

    def __init__(
        self,
        name: str,
        queue: str,
        broker_url: str,
        *,
        beat: bool = False,
        env: dict[str, str] | None = None,
    ) -> None:
        environment = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": broker_url,
            # The ratings that follow a job are computed in the worker, as in the test process,
            # instead of queued where no worker of the test listens.
            "POTDEVIN_RATINGS_SYNC": "1",
            **(env or {}),
        }
        self.log = open(ROOT / "var" / f"{queue}-{name}.log", "w")  # noqa: SIM115
        options = "worker -l info --concurrency 1 --without-gossip --without-mingle"
        if beat:  # the periodic tasks too, as `make run` starts it (its schedule file apart)
            schedule = ROOT / "var" / f"celerybeat-{queue}-{name}"
            options += f" --beat --schedule {schedule}"
        command = [sys.executable, "-m", "celery", "-A", "potdevin_site", *options.split()]
        self.process = subprocess.Popen(
            [*command, "--without-heartbeat", "-Q", queue, "-n", f"{name}@%h"],
            cwd=ROOT,
            env=environment,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill() reaches the pool child too
        )

    def send(self, signum: int) -> None:
        """Signal the worker's process group: the parent and its pool child."""
        os.killpg(self.process.pid, signum)

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
    pool.stop()


@pytest.fixture
def folder_broker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The embedded folder queue (what `make run` uses), in a folder of this test's own, for
    this process and the workers it starts; yields the folder the messages wait in."""
    conf = celery_app.conf
    # Saved before the variable is set: Celery's broker_url reads the variable first.
    saved = conf.broker_url, conf.broker_transport_options
    url = f"filesystem://{tmp_path}"
    monkeypatch.setenv("CELERY_BROKER_URL", url)  # Celery reads it before its own setting
    _, options = celery_broker({"CELERY_BROKER_URL": url}, tmp_path)
    for folder in broker_folders(options):
        folder.mkdir(parents=True, exist_ok=True)
    conf.broker_url, conf.broker_transport_options = url, options
    _forget_producers()
    yield Path(options["data_folder_out"])
    conf.broker_url, conf.broker_transport_options = saved
    _forget_producers()


def _forget_producers() -> None:
    # Celery keeps a producer pool for the broker it first sent to (as after a fork, drop it).
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def staff() -> APIClient:
    """Staff of a one-club site (the club `migrate` makes, again after a flush)."""
    first_club()
    user = get_user_model().objects.create_user("root", is_staff=True)
    client = APIClient()
    client.force_authenticate(user)
    return client


def _games(count: int, seed: int = 0) -> list[Game]:
    owner = get_user_model().objects.get_or_create(username="owner")[0]
    logs = [simulate(3 + k % 4, seed=seed + k, teams=k % 8 == 1) for k in range(count)]
    return services.game_import(club=first_club(), owner=owner, documents=logs)


def _corrected_edition() -> Edition:
    return services.edition_create(
        game_type="pot-de-vin", key="corrected", data=CORRECTED, created_by=None
    )


def _wait_done(client: APIClient, path: str, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(path).json()
        if body["status"] != "running":
            return body
        time.sleep(0.2)
    raise AssertionError(f"job not done in {timeout} s: {body['done']}/{body['total']}")


def _assert_every_game_scored_once(
    job: dict[str, Any], job_id: int, expected: dict[int, dict[str, Any]]
) -> None:
    """The job is done without failures, one item per game (none twice, none missing), and
    every game holds the result expected of it."""
    assert (job["status"], job["done"], job["failures"]) == ("done", len(expected), [])
    keys = list(JobItem.objects.filter(job_id=job_id).values_list("key", flat=True))
    assert sorted(keys) == sorted(expected)
    for game_id, result in expected.items():
        assert Game.objects.get(pk=game_id).result == result


def _replay_stored(game: Game, cards: dict[str, list[str]]) -> dict[str, Any]:
    """The game's stored log replayed here, in this process, with the given deck layout."""
    log = services.game_export_log(game=game)
    return get_engine("pot-de-vin").replay(
        log, edition=deck_from_dict({"id": "corrected", "cards": cards})
    )


def test_rescore_with_a_corrected_deck_on_a_real_worker(
    workers: WorkerPool, staff: APIClient
) -> None:
    games = _games(230)
    broken = games[5]
    # Corrupt one stored round behind the services' back: round 2 replays round 1's lead card.
    first = Round.objects.get(game=broken, number=1).data["plays"][0]
    second = Round.objects.get(game=broken, number=2)
    plays = second.data["plays"]
    second.data = {
        **second.data,
        "plays": [{"seat": plays[0]["seat"], "card": first["card"]}, *plays[1:]],
    }
    second.save()
    before = {g.pk: copy.deepcopy(Game.objects.get(pk=g.pk).result) for g in games}
    expected = {g.pk: _replay_stored(g, CORRECTED) for g in games if g.pk != broken.pk}
    _corrected_edition()
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
    assert set(Game.objects.exclude(pk=broken.pk).values_list("edition__key", flat=True)) == {
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
    _corrected_edition()
    doomed = workers.start("doomed")
    job_id = staff.post("/api/rescore/", {"new_deck": "corrected"}, format="json").json()["id"]

    # Kill the worker in the middle of a batch, after some batches, then let another one
    # finish the job.
    _kill_inside_a_batch(doomed, job_id, workers.queue)
    done_when_killed = JobItem.objects.filter(job_id=job_id).count()
    assert 0 < done_when_killed < 1200
    assert done_when_killed % 100 == 0  # whole batches: the one killed wrote nothing
    workers.start("rescuer")
    job = _wait_done(staff, f"/api/rescore/{job_id}/")

    assert job["done"] == 1200
    _assert_every_game_scored_once(job, job_id, expected)


def _batches_taken(queue: str, job_id: int) -> list[list[int]]:
    """The game ids of this job's batches a worker has taken from the queue and not yet
    acknowledged (kombu's Redis transport keeps them in its `unacked` hash)."""
    import redis

    taken = []
    for raw in redis.Redis.from_url(REDIS_URL).hvals("unacked"):
        message, _exchange, routing_key = json.loads(raw)
        args = json.loads(base64.b64decode(message["body"]))[0]
        if routing_key == queue and args[0] == job_id:
            taken.append(args[1])
    return taken


def _kill_inside_a_batch(worker: Worker, job_id: int, queue: str) -> None:
    """Kill -9 the worker while it works on a batch, once it has done at least one.

    kombu's Redis transport pops a message, then records it as unacknowledged: a worker killed
    between the two loses that message (celery/celery#7950), and only a resume brings its batch
    back. That is not what this test is about, so the worker is frozen (SIGSTOP) and killed only
    when it holds a batch that is not done: with one process and a prefetch of one, it then has
    no other message on its way."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the worker was never seen inside a batch"
        worker.send(signal.SIGSTOP)
        done = set(JobItem.objects.filter(job_id=job_id).values_list("key", flat=True))
        if done and any(not done.issuperset(batch) for batch in _batches_taken(queue, job_id)):
            worker.kill()
            return
        worker.send(signal.SIGCONT)
        time.sleep(0.02)


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


def test_complots_games_beside_pot_de_vin_games_on_a_real_worker(
    workers: WorkerPool, staff: APIClient
) -> None:
    pot_de_vin = _games(20, seed=60_000)
    owner = get_user_model().objects.get(username="owner")
    logs = [
        simulate_complots(2 + k % 7, seed=k, variant=("ambassador", "inquisitor")[k % 2])
        for k in range(40)
    ]
    complots = services.game_import(club=first_club(), owner=owner, documents=logs)
    before = {g.pk: (g.result, Game.objects.get(pk=g.pk).updated_at) for g in complots}
    expected = {g.pk: _replay_stored(g, CORRECTED) for g in pot_de_vin}
    _corrected_edition()
    workers.start("mixed")

    # A new Pot de Vin edition, by its generic name: the Complots games are not touched.
    body = {"game_type": "pot-de-vin", "new_edition": "corrected"}
    started = staff.post("/api/rescore/", body, format="json")
    assert started.status_code == 202, started.content
    job = _wait_done(staff, f"/api/rescore/{started.json()['id']}/")
    assert (job["status"], job["total"], job["done"], job["failures"]) == ("done", 20, 20, [])
    for game_id, result in expected.items():
        stored = Game.objects.get(pk=game_id)
        assert (stored.result, stored.edition.key) == (result, "corrected")
    for game_id, (result, updated_at) in before.items():
        stored = Game.objects.get(pk=game_id)
        assert (stored.result, stored.updated_at, stored.edition_id) == (result, updated_at, None)

    # Every Complots game re-scored once, as a fresh replay: found unchanged, so not written.
    started = staff.post("/api/rescore/", {"game_type": "complots"}, format="json")
    job = _wait_done(staff, f"/api/rescore/{started.json()['id']}/")
    assert (job["status"], job["total"], job["done"], job["failures"]) == ("done", 40, 40, [])
    assert job["winners_changed"] == []
    assert JobItem.objects.filter(job_id=job["id"]).count() == 40
    for game, log in zip(complots, logs, strict=True):
        stored = Game.objects.get(pk=game.pk)
        assert stored.result == get_engine("complots").replay(log)
        assert stored.updated_at == before[game.pk][1]
    outcomes = set(JobItem.objects.filter(job_id=job["id"]).values_list("outcome", flat=True))
    assert outcomes == {"unchanged"}

    # An import job of Complots logs, one of them impossible.
    docs = [simulate_complots(3 + k % 5, seed=500 + k, complete=k % 2 == 0) for k in range(12)]
    docs[7]["turns"][0]["action"] = "bribe"
    started = staff.post("/api/imports/", docs, format="json")
    assert started.status_code == 202, started.content
    job = _wait_done(staff, f"/api/imports/{started.json()['id']}/")
    assert (job["status"], job["total"], job["done"]) == ("done", 12, 12)
    assert [(f["key"], f["code"], f["round"]) for f in job["failures"]] == [
        (7, "unknown_action", 1)
    ]
    for key, game_id in zip([k for k in range(12) if k != 7], sorted(job["games"]), strict=True):
        stored = Game.objects.get(pk=game_id)
        assert stored.game_type == "complots"
        assert stored.result == get_engine("complots").replay(docs[key])


@contextmanager
def _locked(game_ids: list[int]) -> Iterator[None]:
    """These games locked by another connection (on SQLite, the database's write lock), so that
    a worker whose batch holds one of them waits inside the batch."""
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():  # on SQLite, BEGIN IMMEDIATE: the write lock
                list(Game.objects.select_for_update().filter(pk__in=game_ids))
                taken.set()
                release.wait(60)
        finally:
            taken.set()
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait()
    try:
        yield
    finally:
        release.set()
        holder.join()


def _waiting(folder: Path) -> int:
    return len(list(folder.glob("*.msg")))


def _kill_a_folder_worker_in_a_batch(
    pool: WorkerPool, name: str, folder: Path, batches: list[list[int]]
) -> None:
    """A worker takes a batch (the folder queue hands them out in no set order) and, while it
    waits on a game of it, is killed: the batch it took is gone with it."""
    with _locked([batch[0] for batch in batches]):
        doomed = pool.start(name)
        deadline = time.monotonic() + 60
        while _waiting(folder) == len(batches):
            assert time.monotonic() < deadline, "the worker never took a batch"
            time.sleep(0.02)
        doomed.kill()


# The embedded queue's own loss: it is the default of `make run`, on SQLite (the SQLite pass).
@pytest.mark.one_database
def test_a_batch_the_folder_queue_lost_is_sent_again_on_resume(
    folder_broker: Path, staff: APIClient, settings: Any
) -> None:
    """The embedded folder queue drops a message once a worker takes it: a worker killed in a
    batch takes the batch with it, and the job would stay running for ever. Resuming sends the
    games not done yet again; every game ends scored exactly once."""
    settings.POTDEVIN_JOB_BATCH_SIZE = 100
    games = _games(400, seed=30_000)
    ids = [g.pk for g in games]
    expected = {g.pk: _replay_stored(g, CORRECTED) for g in games}
    _corrected_edition()
    pool = WorkerPool("celery", broker_url=f"filesystem://{folder_broker.parent}")
    try:
        job_id = staff.post("/api/rescore/", {"new_deck": "corrected"}, format="json").json()["id"]
        assert _waiting(folder_broker) == 4

        batches = [ids[k : k + 100] for k in range(0, 400, 100)]
        _kill_a_folder_worker_in_a_batch(pool, "folder-doomed", folder_broker, batches)
        assert JobItem.objects.filter(job_id=job_id).count() == 0

        # Another worker does the three batches left; one is gone with the killed worker.
        pool.start("folder-rescuer")
        deadline = time.monotonic() + 90
        while JobItem.objects.filter(job_id=job_id).count() < 300 or _waiting(folder_broker):
            assert time.monotonic() < deadline, "the rescuer did not do the batches left"
            time.sleep(0.1)
        time.sleep(1.5)  # nothing else comes
        assert JobItem.objects.filter(job_id=job_id).count() == 300
        assert Job.objects.get(pk=job_id).status == Job.Status.RUNNING
        done = set(JobItem.objects.filter(job_id=job_id).values_list("key", flat=True))
        assert [b for b in batches if not done & set(b)] == [sorted(set(ids) - done)]

        resumed = staff.post(f"/api/rescore/{job_id}/resume/")
        assert resumed.status_code == 202, resumed.content
        job = _wait_done(staff, f"/api/rescore/{job_id}/")
    finally:
        pool.stop()

    assert job["done"] == 400
    _assert_every_game_scored_once(job, job_id, expected)


# The embedded queue's own loss: it is the default of `make run`, on SQLite (the SQLite pass).
@pytest.mark.one_database
def test_a_batch_the_folder_queue_lost_is_resumed_by_the_workers_beat(
    folder_broker: Path, staff: APIClient, settings: Any
) -> None:
    """As above, but nobody presses resume: the worker `make run` starts runs a beat whose
    periodic task resumes a job with no batch finished for POTDEVIN_JOB_STALL_SECONDS."""
    settings.POTDEVIN_JOB_BATCH_SIZE = 100
    games = _games(300, seed=40_000)
    ids = [g.pk for g in games]
    expected = {g.pk: _replay_stored(g, CORRECTED) for g in games}
    _corrected_edition()
    pool = WorkerPool("celery", broker_url=f"filesystem://{folder_broker.parent}")
    try:
        job_id = staff.post("/api/rescore/", {"new_deck": "corrected"}, format="json").json()["id"]
        assert _waiting(folder_broker) == 3
        batches = [ids[k : k + 100] for k in range(0, 300, 100)]
        _kill_a_folder_worker_in_a_batch(pool, "folder-beat-doomed", folder_broker, batches)
        pool.start("folder-beat-rescuer", beat=True, env={"POTDEVIN_JOB_STALL_SECONDS": "3"})
        job = _wait_done(staff, f"/api/rescore/{job_id}/", timeout=120)
    finally:
        pool.stop()

    assert job["done"] == 300
    _assert_every_game_scored_once(job, job_id, expected)
