"""The import pages (``games.web.imports``): a recorder uploads a file, sees what the import
would do with nothing stored, confirms, and reads the job's report; a refused file is said next
to the field; members and other people's imports are kept apart."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.records.models import Club, Game, Player, PlaySource
from scoring import jobs
from scoring.models import Job
from tests.accounts import make_user
from tests.exchange.imports.test_imports_plan import every_table

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parent / "files"
MODELS_OF_A_PLANNED_JOB = {"scoring.Job", "scoring.JobInput"}


@pytest.fixture
def web(recorder: Any) -> Client:
    client = Client()
    client.force_login(recorder)
    return client


def upload(web: Client, name: str) -> Any:
    with (FILES / name).open("rb") as handle:
        return web.post("/imports/", {"file": handle})


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_upload_see_the_plan_confirm_and_read_the_report(
    club: Club,
    web: Client,
    sent: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    page = web.get("/imports/")
    assert page.status_code == 200
    assert 'enctype="multipart/form-data"' in page.content.decode()
    before = every_table()
    response = upload(web, "club-export.json")
    assert response.status_code == 302
    job = Job.objects.get()
    assert response["Location"] == f"/imports/{job.pk}/"
    changed = {k for k, v in every_table().items() if before[k] != v}
    assert changed == MODELS_OF_A_PLANNED_JOB  # the plays wait in the job: no game, no player
    plan = web.get(response["Location"])
    shown = text(plan)
    assert "Nothing is stored yet" in shown
    assert 'id="count-created">10<' in plan.content.decode()
    assert 'data-code="incomplete"' in plan.content.decode()
    assert 'data-code="deleted"' in plan.content.decode()
    assert "Import these plays" in shown
    assert not Game.objects.exists() and not Player.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):
        confirmed = web.post(f"/imports/{job.pk}/confirm/")
    assert confirmed.status_code == 302
    for job_id, keys in sent:
        jobs.import_batch(job_id=job_id, keys=keys)
    report = web.get(f"/imports/{job.pk}/")
    assert 'id="count-created">10<' in report.content.decode()
    assert "Nothing is stored yet" not in text(report)
    assert PlaySource.objects.count() == 10
    # Every game it made is marked as brought in from the app.
    for game_id in PlaySource.objects.values_list("game_id", flat=True):
        assert "imported from BG Stats" in text(web.get(f"/games/{game_id}/"))
    # Confirming again starts nothing more.
    again = web.post(f"/imports/{job.pk}/confirm/", follow=True)
    assert "already started" in text(again)
    assert PlaySource.objects.count() == 10


def test_a_refused_file_is_said_next_to_the_field(club: Club, web: Client) -> None:
    before = every_table()
    response = web.post("/imports/", {"file": io.BytesIO(b'{"hello": 1}')})
    assert response.status_code == 400
    assert "is not a file this import reads" in text(response)
    assert every_table() == before


def test_a_file_past_the_limit_is_refused(club: Club, web: Client, settings: Any) -> None:
    settings.POTDEVIN_MAX_BODY_BYTES = 100
    big = io.BytesIO(b" " * 10_000)
    big.name = "big.json"
    response = web.post("/imports/", {"file": big})
    assert response.status_code == 413
    assert not Job.objects.exists()


def test_members_read_and_other_peoples_plans_stay_theirs(club: Club, web: Client) -> None:
    upload(web, "plays.xml")
    job = Job.objects.get()
    member = Client()
    member.force_login(make_user("mo", club=club, role="member"))
    page = member.get("/imports/")
    assert page.status_code == 200
    assert "Only the club’s recorders" in text(page)
    assert 'name="file"' not in page.content.decode()
    with (FILES / "plays.xml").open("rb") as handle:
        assert member.post("/imports/", {"file": handle}).status_code == 403
    # Another recorder does not see the plan (only who started it and the admins do).
    other = Client()
    other.force_login(make_user("ro", club=club, role="recorder"))
    assert other.get(f"/imports/{job.pk}/").status_code == 404
    assert other.post(f"/imports/{job.pk}/confirm/").status_code == 404
    admin = Client()
    admin.force_login(make_user("ad", club=club, role="admin"))
    assert admin.get(f"/imports/{job.pk}/").status_code == 200
    assert Job.objects.get().status == Job.Status.PLANNED


def test_our_own_logs_through_the_page(
    club: Club, web: Client, sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    from scoring.engine.complots.simulate import simulate

    logs = json.dumps([simulate(3, seed=7), simulate(5, seed=8)]).encode()
    upload = io.BytesIO(logs)
    upload.name = "logs.json"
    response = web.post("/imports/", {"file": upload})
    assert response.status_code == 302
    job = Job.objects.get()
    plan = web.get(response["Location"])
    assert 'id="count-created">2<' in plan.content.decode()
    assert "Game logs" in text(plan)
    assert not Game.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        web.post(f"/imports/{job.pk}/confirm/")
    for job_id, keys in sent:
        jobs.import_batch(job_id=job_id, keys=keys)
    assert Game.objects.filter(game_type="complots", mode="rounds").count() == 2
    assert Job.objects.get().status == Job.Status.DONE
