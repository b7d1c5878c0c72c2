"""Job services called directly (the worker tests run them through Celery on Redis)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from kombu.exceptions import OperationalError as BrokerError
from rest_framework.test import APIClient

from games.records import services
from games.records.errors import RecordError
from games.records.models import MAX_ENTRIES, Edition, Game, Round, Seat
from scoring import jobs
from scoring.engine import LogError, get_engine
from scoring.engine.complots.simulate import simulate as simulate_complots
from scoring.engine.potdevin import deck_from_dict
from scoring.engine.potdevin.decks import standard_layout
from scoring.engine.potdevin.simulate import simulate
from scoring.jobs import tasks
from scoring.models import Job, JobInput, JobItem
from tests.accounts import first_club, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Any:
    """Staff, who record in the first club: made again if a transactional test's flush took
    it (the API then finds no club to record in)."""
    first_club()
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
    games = services.game_import(
        club=first_club(), owner=owner, documents=[simulate(4, seed=k) for k in range(120)]
    )
    before = {g.pk: _stored_scores(g.pk) for g in games}
    swapped = services.edition_create(
        game_type="pot-de-vin", key="swapped", data=_swapped_deck(), created_by=owner
    )
    job = jobs.rescore_start(created_by=owner, new_edition=swapped)
    ids = [g.pk for g in games]
    assert (job.total, job.progressed_at) == (120, None)

    assert jobs.rescore_batch(job_id=job.pk, game_ids=ids[:100]) == 100
    first_batch = Job.objects.get(pk=job.pk).progressed_at
    assert first_batch is not None and first_batch >= job.created_at
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
        expected = get_engine("pot-de-vin").replay(log, edition=deck)
        assert stored.result == expected
        assert (stored.edition.key, stored.engine_version) == (
            "swapped",
            expected["engine_version"],
        )
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
    assert [len(c) for c in jobs.chunks(list(range(250)), jobs.batch_size())] == [100, 100, 50]
    settings.POTDEVIN_JOB_BATCH_SIZE = 250
    assert jobs.batch_size() == 250


def test_a_job_with_no_games_is_done_at_once(owner: Any, no_sending: list[Any]) -> None:
    job = jobs.rescore_start(created_by=owner, game_type="pot-de-vin")
    assert (job.status, job.total) == (Job.Status.DONE, 0)


def test_an_unexpected_error_is_recorded_and_the_job_still_ends(
    owner: Any, no_sending: list[Any]
) -> None:
    games = services.game_import(
        club=first_club(), owner=owner, documents=[simulate(5, seed=k) for k in range(3)]
    )
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
    job = jobs.import_start(club=first_club(), created_by=owner, documents=docs)
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
    services.game_import(club=first_club(), owner=staff, documents=[simulate(3, seed=1)])
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


def _keys_in(value: Any) -> set[str]:
    """Every object key anywhere in ``value``."""
    if isinstance(value, dict):
        return set(value).union(*(_keys_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys_in(v) for v in value))
    return set()


def test_an_import_job_stores_its_documents_as_sent_and_its_batches_clean_them(
    owner: Any, no_sending: list[Any]
) -> None:
    """``import_start`` only checks the documents against the gate of stored JSON and stores
    them: the keys a format does not define are dropped by the batch, on a worker, and a
    document the engine refuses gets the item error its cleaned form gets."""
    good = simulate_complots(3, seed=21)
    good["zz"] = {"dropped": "by the batch"}
    good["turns"][0]["zz"] = 1
    bad = simulate_complots(3, seed=22)
    bad["turns"][2]["action"] = "bribe"
    bad["turns"][1]["zz"] = 1
    job = jobs.import_start(club=first_club(), created_by=owner, documents=[good, bad])
    stored = dict(JobInput.objects.filter(job=job).values_list("key", "document"))
    assert stored == {0: good, 1: bad}  # as sent: nothing dropped by the caller's process

    assert jobs.import_batch(job_id=job.pk, keys=[0, 1]) == 2

    item = JobItem.objects.get(job=job, ok=True)
    game = Game.objects.get(pk=item.game_id)
    rounds = Round.objects.filter(game=game).order_by("number")
    entries = list(rounds.values_list("data", flat=True))
    assert "zz" not in _keys_in(entries)
    assert "zz" not in _keys_in(Game.objects.filter(pk=game.pk).values("setup", "finish")[0])
    clean = services.log_document_clean(good)
    assert entries == clean["turns"]
    assert game.result == get_engine("complots").replay(clean)
    with pytest.raises(LogError) as refused:
        get_engine("complots").replay(services.log_document_clean(bad))
    (failure,) = jobs.job_progress(Job.objects.get(pk=job.pk))["failures"]
    assert {k: v for k, v in failure.items() if k not in ("key", "game")} == refused.value.as_dict()
    assert (failure["key"], failure["code"], failure["round"]) == (1, "unknown_action", 3)


def test_an_import_job_refuses_at_once_what_the_gate_refuses(
    owner: Any, no_sending: list[Any]
) -> None:
    """What no database may store refuses the whole request, naming the document, before
    anything is stored or queued, as when ``import_start`` cleaned every document itself."""
    nul = [simulate(3, seed=1), simulate(3, seed=2)]
    nul[1]["notes"] = "a\x00b"
    huge = simulate(3, seed=3)
    huge["rounds"][0]["plays"][0]["zz"] = 2**64
    long_game = simulate_complots(3, seed=4)
    long_game["turns"] = long_game["turns"] * (MAX_ENTRIES // len(long_game["turns"]) + 1)
    cases = [
        (nul, "invalid_text", 1),
        ([huge], "out_of_range", 0),
        ([simulate(3, seed=5), long_game], "too_many_entries", 1),
    ]
    for documents, code, index in cases:
        with pytest.raises(RecordError) as refused:
            jobs.import_start(club=first_club(), created_by=owner, documents=documents)
        assert (refused.value.code, refused.value.index) == (code, index)
    assert not Job.objects.exists() and not JobInput.objects.exists()
    assert no_sending == []


# --- Complots games beside Pot de Vin games -------------------------------------------------


def _complots_logs(count: int, seed: int = 0) -> list[dict[str, Any]]:
    """Complete and unfinished games of 2 to 8 players, both variants."""
    return [
        simulate_complots(
            2 + k % 7,
            seed=seed + k,
            variant=("ambassador", "inquisitor")[k % 2],
            complete=k % 3 != 2,
        )
        for k in range(count)
    ]


def _sent_batches(sent: list[tuple[str, tuple[Any, ...]]], job: Job) -> list[list[int]]:
    return [keys for _, (job_id, keys) in sent if job_id == job.pk]


def test_a_rescore_of_complots_games_scores_each_once_as_a_replay(
    owner: Any, no_sending: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    games = services.game_import(club=first_club(), owner=owner, documents=_complots_logs(150))
    pot_de_vin = services.game_import(
        club=first_club(), owner=owner, documents=[simulate(3, seed=1)]
    )[0]
    ids = [g.pk for g in games]
    finished = [g.pk for g in games if g.status == Game.Status.FINISHED]
    assert 0 < len(finished) < len(ids)
    # A stale record (as after an engine correction): an old version and no ranks on the seats.
    Game.objects.filter(pk__in=ids).update(engine_version="0.9.0")
    Seat.objects.filter(game_id__in=ids).update(rank=None)
    untouched = Game.objects.get(pk=pot_de_vin.pk).updated_at

    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.rescore_start(created_by=owner, game_type="complots")
    assert (job.total, job.params["game_type"], job.params["new_edition"]) == (
        150,
        "complots",
        None,
    )
    batches = _sent_batches(no_sending, job)
    assert sorted(k for batch in batches for k in batch) == sorted(ids)
    for batch in batches:
        assert jobs.rescore_batch(job_id=job.pk, game_ids=batch) == len(batch)
    for batch in batches:  # delivered again: nothing is scored twice
        assert jobs.rescore_batch(job_id=job.pk, game_ids=batch) == 0
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert sorted(JobItem.objects.filter(job=job).values_list("key", flat=True)) == sorted(ids)
    assert not JobItem.objects.filter(job=job, ok=False).exists()

    engine = get_engine("complots")
    for game in games:
        stored = Game.objects.get(pk=game.pk)
        expected = engine.replay(services.game_export_log(game=stored))
        assert stored.result == expected == game.result
        assert (stored.engine_version, stored.edition_id) == (engine.version, None)
        ranks = [(None, p["rank"] if game.pk in finished else None) for p in expected["players"]]
        assert _stored_scores(game.pk) == ranks
    assert jobs.job_progress(job)["winners_changed"] == []
    assert Game.objects.get(pk=pot_de_vin.pk).updated_at == untouched
    assert not JobItem.objects.filter(job=job, key=pot_de_vin.pk).exists()


def test_a_new_deck_rescores_only_the_pot_de_vin_games(
    owner: Any, no_sending: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    logs = [simulate(4, seed=k) for k in range(4)]
    pot_de_vin = services.game_import(club=first_club(), owner=owner, documents=logs)
    complots = services.game_import(
        club=first_club(), owner=owner, documents=_complots_logs(3, seed=40)
    )
    before = {g.pk: Game.objects.get(pk=g.pk) for g in complots}
    swapped = services.edition_create(
        game_type="pot-de-vin", key="swapped", data=_swapped_deck(), created_by=owner
    )

    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.rescore_start(created_by=owner, new_edition=swapped)
    assert (job.total, job.params["game_type"], job.params["new_edition"]) == (
        4,
        "pot-de-vin",
        "swapped",
    )
    (batch,) = _sent_batches(no_sending, job)
    assert batch == [g.pk for g in pot_de_vin]
    assert jobs.rescore_batch(job_id=job.pk, game_ids=batch) == 4
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE

    deck = deck_from_dict({"id": "swapped", "cards": _swapped_deck()})
    for game, log in zip(pot_de_vin, logs, strict=True):
        stored = Game.objects.get(pk=game.pk)
        assert stored.edition_id == swapped.pk
        assert stored.result == get_engine("pot-de-vin").replay(log, edition=deck)
    for pk, game in before.items():
        stored = Game.objects.get(pk=pk)
        assert (stored.edition_id, stored.variant) == (None, game.variant)
        assert (stored.result, stored.updated_at) == (game.result, game.updated_at)
    assert not JobItem.objects.filter(job=job, key__in=list(before)).exists()


def test_an_import_job_of_complots_logs(owner: Any, no_sending: list[Any]) -> None:
    docs = _complots_logs(6, seed=70)
    docs.append(simulate(5, seed=3))
    # Document 1: turn 4 is claimed by the seat after the one whose turn it is.
    wrong = docs[1]["turns"][3]
    wrong["actor"] = (wrong["actor"] + 1) % len(docs[1]["players"])
    # Document 4: a turn after the game is won.
    assert get_engine("complots").replay(docs[4])["complete"]
    docs[4]["turns"].append({"actor": 0, "action": "income"})
    job = jobs.import_start(club=first_club(), created_by=owner, documents=docs)
    assert jobs.import_batch(job_id=job.pk, keys=list(range(7))) == 7

    progress = jobs.job_progress(Job.objects.get(pk=job.pk))
    assert (progress["status"], progress["done"]) == ("done", 7)
    failures = [(f["key"], f["code"], f["round"], f.get("turn")) for f in progress["failures"]]
    last = len(docs[4]["turns"])
    assert failures == [(1, "out_of_turn", 4, 4), (4, "game_over", last, last)]
    assert progress["failures"][0]["seat"] == wrong["actor"]
    made = dict(JobItem.objects.filter(job=job, ok=True).values_list("key", "game_id"))
    assert sorted(made) == [0, 2, 3, 5, 6]
    for key, game_id in made.items():
        game = Game.objects.get(pk=game_id)
        engine = get_engine(game.game_type)
        assert engine.log_format == docs[key]["format"]
        assert game.result == engine.replay(docs[key])
        entries = docs[key].get("turns", docs[key].get("rounds"))
        assert list(Round.objects.filter(game=game).values_list("data", flat=True)) == entries
    assert Game.objects.filter(game_type="complots").count() == 4
    assert Edition.objects.filter(games__game_type="complots").count() == 0


def test_an_import_job_over_the_api_names_the_turn_that_broke(
    owner: Any, no_sending: list[Any]
) -> None:
    """A Complots engine error carries the turn (LogError.turn); the job's failures keep it, as
    the API's own error body does for a direct import."""
    doc = simulate_complots(3, seed=11)
    doc["turns"][4]["action"] = "bribe"
    client = APIClient()
    client.force_authenticate(owner)
    started = client.post("/api/imports/", [doc], format="json")
    assert started.status_code == 202, started.content
    jobs.import_batch(job_id=started.json()["id"], keys=[0])

    (failure,) = client.get(f"/api/imports/{started.json()['id']}/").json()["failures"]
    assert (failure["key"], failure["code"], failure["round"]) == (0, "unknown_action", 5)
    assert failure.get("turn") == 5


# --- Resuming a job whose batches were lost -------------------------------------------------


def test_resume_sends_only_the_games_not_done_yet(
    owner: Any, no_sending: list[Any], django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.POTDEVIN_JOB_BATCH_SIZE = 100
    games = services.game_import(
        club=first_club(), owner=owner, documents=[simulate(3, seed=k) for k in range(130)]
    )
    ids = [g.pk for g in games]
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.rescore_start(created_by=owner)
    assert no_sending == [("rescore", (job.pk, ids[:100])), ("rescore", (job.pk, ids[100:]))]
    # The first batch runs; the broker loses the second (its worker was killed).
    jobs.rescore_batch(job_id=job.pk, game_ids=ids[:100])
    no_sending.clear()

    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.job_resume(job.pk) == 30
    assert no_sending == [("rescore", (job.pk, ids[100:]))]
    assert jobs.rescore_batch(job_id=job.pk, game_ids=ids[100:]) == 30
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE
    assert sorted(JobItem.objects.filter(job=job).values_list("key", flat=True)) == sorted(ids)

    with pytest.raises(jobs.CannotResume) as refused:
        jobs.job_resume(job.pk)
    assert refused.value.code == "job_finished"


def test_resume_of_an_import_job_sends_the_documents_not_read_yet(
    owner: Any, no_sending: list[Any], django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.POTDEVIN_JOB_BATCH_SIZE = 100
    docs = [simulate(4, seed=k) for k in range(103)]
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.import_start(club=first_club(), created_by=owner, documents=docs)
    assert no_sending == [
        ("import", (job.pk, list(range(100)))),
        ("import", (job.pk, [100, 101, 102])),
    ]
    jobs.import_batch(job_id=job.pk, keys=[100, 101, 102])
    no_sending.clear()

    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.job_resume(job.pk) == 100
    assert no_sending == [("import", (job.pk, list(range(100))))]
    jobs.import_batch(job_id=job.pk, keys=list(range(100)))
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE
    assert Game.objects.count() == 103


def test_a_job_the_broker_refused_runs_when_resumed(
    owner: Any,
    no_sending: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    games = services.game_import(
        club=first_club(), owner=owner, documents=[simulate(5, seed=k) for k in range(3)]
    )
    sending = tasks.rescore_batch.delay

    def refuse(*args: Any) -> None:
        raise BrokerError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")

    monkeypatch.setattr(tasks.rescore_batch, "delay", refuse)
    with pytest.raises(jobs.QueueUnavailable), django_capture_on_commit_callbacks(execute=True):
        jobs.rescore_start(created_by=owner)
    job = Job.objects.get()
    assert job.status == Job.Status.FAILED and "Connection refused" in job.error

    monkeypatch.setattr(tasks.rescore_batch, "delay", sending)  # the broker is back
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.job_resume(job.pk) == 3
    job.refresh_from_db()
    assert (job.status, job.error) == (Job.Status.RUNNING, "")
    tasks.rescore_batch.run(*no_sending[0][1])
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE
    assert JobItem.objects.filter(job=job, ok=True).count() == len(games)


def test_resume_ends_a_job_whose_batches_all_ran(owner: Any, no_sending: list[Any]) -> None:
    """Every game has its item but the job was never marked done: resume sends nothing and
    marks it done."""
    games = services.game_import(club=first_club(), owner=owner, documents=[simulate(3, seed=7)])
    job = jobs.rescore_start(created_by=owner)
    jobs.rescore_batch(job_id=job.pk, game_ids=[games[0].pk])
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, finished_at=None)
    no_sending.clear()

    assert jobs.job_resume(job.pk) == 0
    assert no_sending == []
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE


def test_a_rescore_that_does_not_know_its_games_cannot_resume(owner: Any) -> None:
    job = Job.objects.create(kind=Job.Kind.RESCORE, total=5, created_by=owner)  # no JobKeys
    with pytest.raises(jobs.CannotResume) as refused:
        jobs.job_resume(job.pk)
    assert refused.value.code == "job_keys_missing"
    assert Job.objects.get(pk=job.pk).status == Job.Status.RUNNING


def test_resume_over_the_api(owner: Any, no_sending: list[Any]) -> None:
    services.game_import(
        club=first_club(), owner=owner, documents=[simulate(3, seed=k) for k in range(2)]
    )
    staff = APIClient()
    staff.force_authenticate(owner)
    job = staff.post("/api/rescore/", {}, format="json").json()
    player = make_user("player")  # a recorder of the club: staff's re-score is not theirs
    other = APIClient()
    other.force_authenticate(player)

    assert other.post(f"/api/rescore/{job['id']}/resume/").status_code == 404
    resumed = staff.post(f"/api/rescore/{job['id']}/resume/")
    assert resumed.status_code == 202
    assert (resumed.json()["status"], resumed.json()["total"]) == ("running", 2)
    assert staff.post("/api/rescore/999999/resume/").status_code == 404

    Job.objects.filter(pk=job["id"]).update(status=Job.Status.DONE)
    refused = staff.post(f"/api/rescore/{job['id']}/resume/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "job_finished"

    # An import job: its owner resumes it; someone else does not see it.
    mine = other.post("/api/imports/", [simulate(3, seed=9)], format="json").json()
    assert other.post(f"/api/imports/{mine['id']}/resume/").status_code == 202
    intruder = APIClient()
    intruder.force_authenticate(make_user("intruder", role="member"))
    assert intruder.post(f"/api/imports/{mine['id']}/resume/").status_code == 404


# --- Batches at the same time (PostgreSQL: SQLite runs one writer at a time) ---------------


def _overlapping(first: Callable[[], int], second: Callable[[], int]) -> list[int | BaseException]:
    """Run ``first`` in a transaction held open a moment after it returns, and ``second`` once
    ``first`` has taken its locks; each in a thread with a connection of its own."""
    first_done = threading.Event()
    outcomes: list[int | BaseException] = [0, 0]

    def run_first() -> None:
        try:
            with transaction.atomic():
                outcomes[0] = first()
                first_done.set()
                time.sleep(0.3)  # commits late: the second one runs into its locks
        except BaseException as exc:  # reported to the test
            outcomes[0] = exc
        finally:
            first_done.set()
            connection.close()

    def run_second() -> None:
        first_done.wait()
        try:
            outcomes[1] = second()
        except BaseException as exc:  # reported to the test
            outcomes[1] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time: batches cannot overlap there")


@pytest.mark.django_db(transaction=True)
def test_a_batch_delivered_twice_at_once_scores_its_games_once(no_sending: list[Any]) -> None:
    _postgresql_only()
    owner = get_user_model().objects.create_user("owner", is_staff=True)
    games = services.game_import(
        club=first_club(), owner=owner, documents=[simulate(4, seed=k) for k in range(100)]
    )
    ids = [g.pk for g in games]
    job = jobs.rescore_start(created_by=owner)

    def batch() -> int:
        return jobs.rescore_batch(job_id=job.pk, game_ids=ids)

    assert _overlapping(batch, batch) == [100, 0]
    assert JobItem.objects.filter(job=job).count() == 100
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE


@pytest.mark.django_db(transaction=True)
def test_an_import_batch_delivered_twice_at_once_makes_each_game_once(
    no_sending: list[Any],
) -> None:
    _postgresql_only()
    owner = get_user_model().objects.create_user("owner")
    job = jobs.import_start(
        club=first_club(), created_by=owner, documents=[simulate(3, seed=k) for k in range(100)]
    )

    def batch() -> int:
        return jobs.import_batch(job_id=job.pk, keys=list(range(100)))

    assert _overlapping(batch, batch) == [100, 0]
    assert Game.objects.count() == 100
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE


@pytest.mark.django_db(transaction=True)
def test_the_last_two_batches_finishing_together_end_the_job(no_sending: list[Any]) -> None:
    """Each counts the job's items: the later one must see the earlier one's, or the job stays
    running with every game done."""
    _postgresql_only()
    owner = get_user_model().objects.create_user("owner", is_staff=True)
    games = services.game_import(
        club=first_club(), owner=owner, documents=[simulate(3, seed=k) for k in range(200)]
    )
    ids = [g.pk for g in games]
    job = jobs.rescore_start(created_by=owner)

    outcomes = _overlapping(
        lambda: jobs.rescore_batch(job_id=job.pk, game_ids=ids[:100]),
        lambda: jobs.rescore_batch(job_id=job.pk, game_ids=ids[100:]),
    )

    assert outcomes == [100, 100]
    assert JobItem.objects.filter(job=job).count() == 200
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE


def test_jobs_without_progress_are_resumed_by_the_periodic_task(
    owner: Any,
    no_sending: list[Any],
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A job that lost a batch to its broker stops moving; the workers' beat resumes every
    running job with no batch finished for POTDEVIN_JOB_STALL_SECONDS, and no other."""
    import datetime

    from django.utils import timezone

    games = services.game_import(
        club=first_club(), owner=owner, documents=[simulate(3, seed=k) for k in range(250)]
    )
    ids = sorted(g.pk for g in games)
    settings.POTDEVIN_JOB_BATCH_SIZE = 100
    with django_capture_on_commit_callbacks(execute=True):
        lost = jobs.rescore_start(created_by=owner)  # 3 batches; one is "lost" below
        moving = jobs.rescore_start(created_by=owner)
    assert len(no_sending) == 6
    jobs.rescore_batch(job_id=lost.pk, game_ids=ids[:100])
    jobs.rescore_batch(job_id=lost.pk, game_ids=ids[100:200])
    jobs.rescore_batch(job_id=moving.pk, game_ids=ids[:100])
    long_ago = timezone.now() - datetime.timedelta(seconds=settings.POTDEVIN_JOB_STALL_SECONDS + 5)
    Job.objects.filter(pk=lost.pk).update(progressed_at=long_ago)
    no_sending.clear()

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.resume_stalled_jobs() == [lost.pk]
    # Only the batch of the games the lost job has not done is sent again.
    assert no_sending == [("rescore", (lost.pk, ids[200:]))]
    jobs.rescore_batch(job_id=lost.pk, game_ids=ids[200:])
    assert Job.objects.get(pk=lost.pk).status == Job.Status.DONE
    # A done job, or one that moved lately, is left alone.
    Job.objects.filter(pk=moving.pk).update(progressed_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.resume_stalled_jobs() == []
