"""Job services called directly (the worker tests run them through Celery on Redis)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from kombu.exceptions import OperationalError as BrokerError
from rest_framework.test import APIClient

from games import services
from games.models import Deck, Game, Seat
from scoring import jobs, tasks
from scoring.engine import get_engine
from scoring.engine.potdevin import deck_from_dict
from scoring.engine.potdevin.decks import standard_layout
from scoring.engine.potdevin.simulate import simulate
from scoring.models import Job, JobInput, JobItem

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Any:
    return get_user_model().objects.create_user("owner", is_staff=True)


@pytest.fixture
def no_sending(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """Batches are run by the test itself: record what would have been queued."""
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(tasks.rescore_batch, "delay", lambda *a: sent.append(("rescore", a)))
    monkeypatch.setattr(tasks.import_batch, "delay", lambda *a: sent.append(("import", a)))
    return sent


def _swapped_deck() -> dict[str, list[str]]:
    layout = standard_layout()
    layout["A10"], layout["P10"] = layout["P10"], layout["A10"]
    return layout


def test_a_batch_run_twice_scores_each_game_once(owner: Any, no_sending: list[Any]) -> None:
    games = services.game_import(owner=owner, documents=[simulate(4, seed=k) for k in range(120)])
    before = {g.pk: _stored_scores(g.pk) for g in games}
    Deck.objects.create(key="swapped", cards=_swapped_deck())
    job = jobs.rescore_start(created_by=owner, new_deck=Deck.objects.get(key="swapped"))
    ids = [g.pk for g in games]
    assert job.total == 120

    assert jobs.rescore_batch(job_id=job.pk, game_ids=ids[:100]) == 100
    assert jobs.rescore_batch(job_id=job.pk, game_ids=ids[:100]) == 0  # delivered again
    assert Job.objects.get(pk=job.pk).status == Job.Status.RUNNING
    assert jobs.rescore_batch(job_id=job.pk, game_ids=ids[100:]) == 20
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE
    assert JobItem.objects.filter(job=job).count() == 120

    deck = deck_from_dict({"id": "swapped", "cards": _swapped_deck()})
    changed = 0
    for game in games:
        stored = Game.objects.get(pk=game.pk)
        log = services.game_export_log(game=stored)
        expected = get_engine("pot-de-vin").replay(log, deck=deck)
        assert stored.result == expected
        assert (stored.deck.key, stored.engine_version) == ("swapped", expected["engine_version"])
        assert stored.updated_at > game.updated_at
        # The seats follow the new result (statistics read them).
        scores = [(p["score"], p["rank"]) for p in expected["players"]]
        assert _stored_scores(game.pk) == scores
        changed += scores != before[game.pk]
    assert changed  # the swapped cards moved some scores: the seats were rewritten


def _stored_scores(game_id: int) -> list[tuple[int | None, int | None]]:
    return list(Seat.objects.filter(game_id=game_id).order_by("seat").values_list("score", "rank"))


def test_batches_hold_at_least_100_games(settings: Any) -> None:
    settings.POTDEVIN_JOB_BATCH_SIZE = 10  # asked for less: the floor holds
    assert jobs.batch_size() == 100
    assert [len(c) for c in jobs._chunks(list(range(250)), jobs.batch_size())] == [100, 100, 50]
    settings.POTDEVIN_JOB_BATCH_SIZE = 250
    assert jobs.batch_size() == 250


def test_a_job_with_no_games_is_done_at_once(owner: Any, no_sending: list[Any]) -> None:
    job = jobs.rescore_start(created_by=owner, game_type="pot-de-vin")
    assert (job.status, job.total) == (Job.Status.DONE, 0)


def test_an_unexpected_error_is_recorded_and_the_job_still_ends(
    owner: Any, no_sending: list[Any]
) -> None:
    games = services.game_import(owner=owner, documents=[simulate(5, seed=k) for k in range(3)])
    job = jobs.rescore_start(created_by=owner)
    ids = [g.pk for g in games]
    jobs.rescore_batch(job_id=job.pk, game_ids=ids[:1])
    jobs.batch_failed(job_id=job.pk, keys=ids, error=RuntimeError("boom"))
    progress = jobs.job_progress(Job.objects.get(pk=job.pk))
    assert (progress["status"], progress["done"]) == ("done", 3)
    assert [(f["key"], f["code"]) for f in progress["failures"]] == [
        (ids[1], "internal_error"),
        (ids[2], "internal_error"),
    ]
    assert "RuntimeError: boom" in progress["failures"][0]["message"]


def test_import_batch_skips_documents_already_imported(owner: Any, no_sending: list[Any]) -> None:
    docs = [simulate(3, seed=k) for k in range(4)]
    docs[2]["first_player"] = 9
    job = jobs.import_start(created_by=owner, documents=docs)
    assert JobInput.objects.filter(job=job).count() == 4
    assert jobs.import_batch(job_id=job.pk, keys=[0, 1, 2, 3]) == 4
    assert jobs.import_batch(job_id=job.pk, keys=[0, 1, 2, 3]) == 0
    progress = jobs.job_progress(Job.objects.get(pk=job.pk))
    assert progress["status"] == "done"
    assert [(f["key"], f["code"]) for f in progress["failures"]] == [(2, "bad_first_player")]
    assert Game.objects.count() == 3
    assert JobInput.objects.filter(job=job).count() == 0  # read, then dropped


@pytest.mark.django_db(transaction=True)
def test_an_unreachable_broker_fails_the_job_with_503(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> None:
        raise BrokerError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")

    monkeypatch.setattr(tasks.rescore_batch, "delay", refuse)
    staff = get_user_model().objects.create_user("root", is_staff=True)
    services.game_import(owner=staff, documents=[simulate(3, seed=1)])
    client = APIClient()
    client.force_authenticate(staff)

    response = client.post("/api/rescore/", {}, format="json")

    assert response.status_code == 503
    assert response.json()["code"] == "queue_unavailable"
    job = Job.objects.get()
    assert job.status == Job.Status.FAILED
    assert "Connection refused" in job.error


def test_rescore_needs_staff(owner: Any, no_sending: list[Any]) -> None:
    user = get_user_model().objects.create_user("player")
    client = APIClient()
    client.force_authenticate(user)
    assert client.post("/api/rescore/", {}, format="json").status_code == 403
    client.force_authenticate(None)
    assert client.post("/api/rescore/", {}, format="json").status_code == 401


def test_an_import_job_refuses_documents_that_are_not_objects(owner: Any) -> None:
    client = APIClient()
    client.force_authenticate(owner)
    for body in ([None], [simulate(3, seed=1), "log"], []):
        response = client.post("/api/imports/", body, format="json")
        assert response.status_code == 400, body
        assert response.json()["code"] == "invalid"
    assert Job.objects.count() == 0
