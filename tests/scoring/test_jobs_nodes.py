"""A re-score job spread over two Celery workers with node names of their own, as on two
machines: separate processes on the test database and the test Redis, each taking batches from
the same queue. Every game is scored exactly once, and both nodes do some of the work; when one
node is killed in a batch, the other finishes the job, that batch included.

The worker machinery comes from test_jobs_worker.py (Redis required as there: skipped locally
without it, failed in CI).
"""

from __future__ import annotations

import base64
import copy
import json
import re
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.records import services
from games.records.models import Game
from potdevin_site.celery import app as celery_app
from scoring import jobs
from scoring.engine.complots.simulate import simulate as simulate_complots
from scoring.models import JobItem
from tests.accounts import first_club
from tests.scoring import test_jobs_worker as one_worker
from tests.scoring.test_jobs_worker import REDIS_URL, Worker, WorkerPool, _games, _wait_done

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# The fixtures of the one-worker tests: a queue of the test's own, its workers, a staff client.
redis_broker = one_worker.redis_broker
workers = one_worker.workers
staff = one_worker.staff

BATCH = 100  # the smallest batch a job makes (scoring.jobs.batch_size)
TASK = "scoring.rescore_batch"
# Each worker's own setting decides when it takes back a batch a dead worker held, whatever
# the environment the tests run in.
WORKER_ENV = {"CELERY_VISIBILITY_TIMEOUT": "4"}


def _stored_games() -> dict[int, dict[str, Any]]:
    """300 Pot de Vin and 200 Complots games (5 batches) whose stored results say an older
    engine scored them, so that the job rewrites every one; by id, the result it should write."""
    _games(300, seed=70_000)
    owner = get_user_model().objects.get(username="owner")
    logs = [
        simulate_complots(2 + k % 7, seed=70_000 + k, variant=("ambassador", "inquisitor")[k % 2])
        for k in range(200)
    ]
    services.game_import(club=first_club(), owner=owner, documents=logs)
    games = list(Game.objects.only("id", "result"))
    expected = {g.pk: copy.deepcopy(g.result) for g in games}
    for game in games:
        game.result["engine_version"] = "stale"
    Game.objects.bulk_update(games, ["result"], batch_size=BATCH)
    return expected


def _start_nodes(pool: WorkerPool, *names: str) -> dict[str, Worker]:
    """Workers named ``NAME-<test>@host``, by full node name, once each answers a ping: a node
    that has not started yet would leave every batch to the other. (The queue's suffix keeps the
    names apart from those of a run beside this one on the same Redis.)"""
    suffix = pool.queue.rsplit("-", 1)[-1]
    host = socket.gethostname()
    started = {
        f"{name}-{suffix}@{host}": pool.start(f"{name}-{suffix}", env=WORKER_ENV) for name in names
    }
    deadline = time.monotonic() + 30
    while True:
        answered = celery_app.control.ping(destination=list(started), timeout=0.5)
        if {node for reply in answered for node in reply} == set(started):
            return started
        assert time.monotonic() < deadline, f"workers not ready: {answered}"


def _tasks_done(nodes: list[str]) -> dict[str, int]:
    """How many re-score batches each node has taken, as the nodes themselves count them."""
    stats = celery_app.control.inspect(destination=nodes, timeout=2).stats() or {}
    return {node: stats.get(node, {}).get("total", {}).get(TASK, 0) for node in nodes}


def _assert_scored_once(job: dict[str, Any], results: dict[int, dict[str, Any]]) -> None:
    """Done without failures, one item per game (none twice, none missing), and each game's
    result written again as its engine scores it."""
    assert (job["status"], job["total"], job["done"], job["failures"]) == (
        "done",
        len(results),
        len(results),
        [],
    )
    keys = list(JobItem.objects.filter(job_id=job["id"]).values_list("key", flat=True))
    assert sorted(keys) == sorted(results)
    assert dict(Game.objects.values_list("pk", "result")) == results


def test_a_job_over_two_nodes_scores_every_game_once(
    workers: WorkerPool, staff: APIClient, settings: Any
) -> None:
    settings.POTDEVIN_JOB_BATCH_SIZE = BATCH
    results = _stored_games()
    nodes = list(_start_nodes(workers, "alpha", "beta"))

    started = staff.post("/api/rescore/", {}, format="json")
    assert started.status_code == 202, started.content
    job = _wait_done(staff, f"/api/rescore/{started.json()['id']}/", timeout=60)

    _assert_scored_once(job, results)
    batches = len(jobs.chunks(sorted(results), BATCH))
    taken = _tasks_done(nodes)
    assert all(taken.values()), f"a node did no batch: {taken}"
    assert sum(taken.values()) >= batches


def _held_batches(queue: str, job_id: int) -> dict[str, list[int]]:
    """The batches of this job that a worker has taken and not acknowledged, by task id
    (kombu's Redis transport keeps them in its `unacked` hash until they are)."""
    import redis

    held = {}
    for raw in redis.Redis.from_url(REDIS_URL).hvals("unacked"):
        message, _exchange, routing_key = json.loads(raw)
        args = json.loads(base64.b64decode(message["body"]))[0]
        if routing_key == queue and args[0] == job_id:
            held[message["headers"]["id"]] = args[1]
    return held


def _logged(worker: Worker, event: str) -> list[str]:
    """The ids of the re-score tasks the worker's log says were ``received`` or ``succeeded``."""
    log = Path(worker.log.name).read_text(errors="replace")
    return re.findall(rf"{re.escape(TASK)}\[([0-9a-f-]+)\] {event}", log)


def _kill_in_a_batch(worker: Worker, queue: str, job_id: int) -> tuple[str, list[int]]:
    """Kill -9 the node once it has done a batch and holds another whose games are not written
    yet; returns that batch's task id and games.

    A batch takes a few tens of milliseconds, so the node runs in slices of a few milliseconds,
    frozen (SIGSTOP) in between to look. With one process and a prefetch of one, a batch it has
    received and not finished is the only message it holds, and its games are written when it
    commits, all or none. (Killed between taking a message and recording it as taken, a worker
    would lose it, celery/celery#7950: waiting for `received` rules that out.)"""
    deadline = time.monotonic() + 40
    while True:
        worker.send(signal.SIGSTOP)
        finished = set(_logged(worker, "succeeded"))
        pending = [t for t in _logged(worker, "received") if t not in finished]
        held = _held_batches(queue, job_id)
        if finished and pending and pending[-1] in held:
            games = held[pending[-1]]
            if not JobItem.objects.filter(job_id=job_id, key__in=games).exists():
                worker.kill()
                return pending[-1], games
        worker.send(signal.SIGCONT)
        assert time.monotonic() < deadline, "the node was never seen inside a batch"
        time.sleep(0.002)


def test_a_node_killed_in_a_batch_leaves_the_job_to_the_other(
    workers: WorkerPool, staff: APIClient, settings: Any
) -> None:
    settings.POTDEVIN_JOB_BATCH_SIZE = BATCH
    results = _stored_games()
    nodes = _start_nodes(workers, "alpha", "beta")
    (doomed_node, doomed), (survivor_node, survivor) = nodes.items()

    # The survivor waits frozen while the doomed node does a batch and is killed in the next.
    survivor.send(signal.SIGSTOP)
    try:
        started = staff.post("/api/rescore/", {}, format="json")
        assert started.status_code == 202, started.content
        job_id = started.json()["id"]
        task_id, lost = _kill_in_a_batch(doomed, workers.queue, job_id)
        done_when_killed = JobItem.objects.filter(job_id=job_id).count()
    finally:
        survivor.send(signal.SIGCONT)
    assert 0 < done_when_killed < len(results)
    # After the visibility timeout the survivor takes back the batch the dead node held.
    job = _wait_done(staff, f"/api/rescore/{job_id}/", timeout=60)

    _assert_scored_once(job, results)
    deadline = time.monotonic() + 30
    while task_id not in _logged(survivor, "succeeded"):  # logged after the job's follow-up
        assert time.monotonic() < deadline, "the survivor never did the lost batch"
        time.sleep(0.1)
    assert JobItem.objects.filter(job_id=job_id, key__in=lost).count() == len(lost)
    assert _tasks_done([survivor_node])[survivor_node] >= 1
    assert _logged(doomed, "succeeded"), f"{doomed_node} did no batch before it died"
