"""Another app's plays imported by a job (``scoring.jobs.import_plays_start``): each play alone
(a play refused leaves nothing behind, the others are stored), a report of every play skipped
and why, batches delivered twice, and a planned job waiting for its confirmation."""

from __future__ import annotations

from typing import Any

import pytest

from games.exchange.formats.plays import PlayFile, Skipped
from games.records import board_games
from games.records.errors import RecordError
from games.records.models import Game, Player
from scoring import jobs
from scoring.models import Job, JobInput, JobItem
from tests.exchange.imports.conftest import AZUL, COUP, play, seat

pytestmark = pytest.mark.django_db


def run(sent: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any) -> None:
    for job_id, keys in sent:
        jobs.import_batch(job_id=job_id, keys=keys)


FILE = PlayFile(
    app="bgstats",
    plays=[
        play("a", AZUL, seat("Ada", 5), seat("Bea", 3)),
        play("b", AZUL, seat("Ada", 1), incomplete=True),  # skipped by the plan
        play("c", COUP, seat("Ada", rank=1), seat("Zed", rank=2)),  # refused at store (below)
        play("d", AZUL, seat("Cy", 2), seat("Bea", 9)),
    ],
    skipped=[Skipped("e", "unknown_game", "the play's game is not in the file")],
    kind="bgstats-export",
)


def test_each_play_stands_alone_and_the_report_says_every_skip(
    club: Any,
    recorder: Any,
    sent: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from games.records import services

    real = services.scorepad_game_create

    def refused(**kwargs: Any) -> Game:
        real(**kwargs)  # stores the game and a new player, Zed: rolled back with the play
        raise RecordError("refused_here", "refused for the test")

    monkeypatch.setattr(services, "scorepad_game_create", refused)
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.import_plays_start(
            club=club, created_by=recorder, play_file=FILE, format="bgstats-export"
        )
    assert (job.status, job.total) == (Job.Status.RUNNING, 4)
    assert job.params["plan"]["created"]["games"] == 3  # planned: a, c and d
    assert [k for _, k in sent] == [[0, 1, 2, 3]]
    with django_capture_on_commit_callbacks(execute=True):
        run(sent, django_capture_on_commit_callbacks)
    job.refresh_from_db()
    progress = jobs.job_progress(job)
    assert (progress["status"], progress["done"]) == ("done", 4)
    report = progress["report"]
    assert report["format"] == "bgstats-export"
    assert report["plays"] == 5
    assert (report["created"]["games"], report["updated"], report["unchanged"]) == (2, 0, 0)
    assert [(s["play"], s["code"]) for s in report["skipped"]] == [
        ("e", "unknown_game"),
        ("b", "incomplete"),
        ("c", "refused_here"),
    ]
    assert sorted(Game.objects.values_list("source__external_id", flat=True)) == ["a", "d"]
    assert not Player.objects.filter(name="Zed").exists()  # nothing of play c is left
    assert set(progress["games"]) == set(Game.objects.values_list("id", flat=True))
    assert dict(JobItem.objects.filter(job=job).values_list("key", "outcome")) == {
        0: "created",
        1: "skipped",
        2: "skipped",
        3: "created",
    }
    assert not JobInput.objects.filter(job=job).exists()


def test_a_batch_delivered_twice_and_a_second_import_store_nothing_new(
    club: Any, recorder: Any, sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        jobs.import_plays_start(
            club=club, created_by=recorder, play_file=FILE, format="bgstats-export"
        )
    (job_id, keys), *_ = sent
    assert jobs.import_batch(job_id=job_id, keys=keys) == 4
    assert jobs.import_batch(job_id=job_id, keys=keys) == 0
    games = Game.objects.count()
    assert games == 3
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        again = jobs.import_plays_start(
            club=club, created_by=recorder, play_file=FILE, format="bgstats-export"
        )
    assert again.params["plan"]["unchanged"] == 3
    run(sent, django_capture_on_commit_callbacks)
    report = jobs.job_progress(Job.objects.get(pk=again.pk))["report"]
    assert (report["created"]["games"], report["unchanged"]) == (0, 3)
    assert Game.objects.count() == games


def test_a_planned_import_waits_for_its_confirmation(
    club: Any, recorder: Any, sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = jobs.import_plays_start(
            club=club, created_by=recorder, play_file=FILE, format="x", confirmed=False
        )
        planned = jobs.import_plays_start(
            club=club, created_by=recorder, play_file=FILE, format="x", confirmed=False
        )
    assert not Job.objects.filter(pk=first.pk).exists()  # the earlier plan is dropped
    assert (planned.status, sent) == (Job.Status.PLANNED, [])
    progress = jobs.job_progress(planned)
    assert progress["report"]["created"]["games"] == 3
    assert [s["code"] for s in progress["report"]["skipped"]] == ["unknown_game", "incomplete"]
    with pytest.raises(jobs.CannotResume) as refused:
        jobs.job_resume(planned.pk)
    assert refused.value.code == "job_not_confirmed"
    assert Game.objects.count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        jobs.import_confirm(planned.pk)
    assert Job.objects.get(pk=planned.pk).status == Job.Status.RUNNING
    run(sent, django_capture_on_commit_callbacks)
    assert Job.objects.get(pk=planned.pk).status == Job.Status.DONE
    assert Game.objects.count() == 3
    with pytest.raises(jobs.CannotResume) as again:
        jobs.import_confirm(planned.pk)
    assert again.value.code == "job_not_planned"


def test_an_empty_file_makes_a_job_done_at_once(club: Any, recorder: Any, sent: list[Any]) -> None:
    job = jobs.import_plays_start(
        club=club,
        created_by=recorder,
        play_file=PlayFile(app="bgg", skipped=[Skipped("1", "no_players", "none")]),
        format="bgg-xml",
    )
    assert (job.status, job.total, sent) == (Job.Status.DONE, 0, [])
    assert jobs.job_progress(job)["report"]["skipped"] == [
        {"play": "1", "code": "no_players", "message": "none"}
    ]


def test_a_named_game_refused_is_reported_not_raised(
    club: Any,
    recorder: Any,
    sent: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    def refused(**kwargs: Any) -> Any:
        raise RecordError("board_game_exists", "taken meanwhile")

    monkeypatch.setattr(board_games, "board_game_create", refused)
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.import_plays_start(club=club, created_by=recorder, play_file=FILE, format="x")
    run(sent, django_capture_on_commit_callbacks)
    failures = jobs.job_progress(Job.objects.get(pk=job.pk))["failures"]
    assert [(f["key"], f["play"], f["code"]) for f in failures] == [
        (0, "a", "board_game_exists"),
        (1, "b", "incomplete"),
        (3, "d", "board_game_exists"),
    ]
