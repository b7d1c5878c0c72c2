"""A role is checked when the action happens, not when it was planned: who planned an import
while a recorder confirms or resumes it only while still a recorder; a re-score's starter only
while still an admin (``access.owner_or_admin`` with ``Job.role_to_start``)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.records import clubs
from games.records.models import Club, Game, Membership
from scoring import jobs
from scoring.models import Job
from tests.accounts import make_user, signed_in
from tests.exchange.imports.test_imports_web import upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(club: Club) -> Any:
    return make_user("olga", club=club, role=Membership.Role.OWNER)


def set_role(club: Club, user: Any, role: str, by: Any) -> None:
    clubs.member_role_set(club=club, user_id=user.pk, role=role, by=by)


def test_a_recorder_demoted_to_member_cannot_confirm_the_import_they_planned(
    club: Club,
    recorder: Any,
    owner: Any,
    sent: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    page = signed_in(recorder)
    assert upload(page, "club-export.json").status_code == 302
    job = Job.objects.get()
    assert job.status == Job.Status.PLANNED
    set_role(club, recorder, Membership.Role.MEMBER, owner)

    with django_capture_on_commit_callbacks(execute=True):
        refused = page.post(f"/imports/{job.pk}/confirm/")
    assert refused.status_code == 403
    job.refresh_from_db()
    assert job.status == Job.Status.PLANNED
    assert sent == [] and not Game.objects.exists()
    # The plan still shows, without its button.
    shown = page.get(f"/imports/{job.pk}/").content.decode()
    assert "Import these plays" not in shown
    # The API's resume of it is refused alike.
    api = APIClient()
    api.force_authenticate(recorder)
    assert api.post(f"/api/imports/{job.pk}/resume/").status_code == 403

    # Made a recorder again, they confirm it: the check is of now, both ways.
    set_role(club, recorder, Membership.Role.RECORDER, owner)
    with django_capture_on_commit_callbacks(execute=True):
        assert page.post(f"/imports/{job.pk}/confirm/").status_code == 302
    for job_id, keys in sent:
        jobs.import_batch(job_id=job_id, keys=keys)
    assert Game.objects.count() == 10


def test_an_admin_confirms_a_planned_import_of_a_demoted_recorder(
    club: Club, recorder: Any, owner: Any, sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    assert upload(signed_in(recorder), "club-export.json").status_code == 302
    job = Job.objects.get()
    set_role(club, recorder, Membership.Role.MEMBER, owner)
    with django_capture_on_commit_callbacks(execute=True):
        assert signed_in(owner).post(f"/imports/{job.pk}/confirm/").status_code == 302
    job.refresh_from_db()
    assert job.status == Job.Status.RUNNING and sent


def test_an_admin_demoted_to_recorder_cannot_resume_the_rescore_they_started(
    club: Club, owner: Any
) -> None:
    adam = make_user("adam", club=club, role=Membership.Role.ADMIN)
    job = Job.objects.create(kind=Job.Kind.RESCORE, club=club, created_by=adam)
    api = APIClient()
    api.force_authenticate(adam)
    set_role(club, adam, Membership.Role.RECORDER, owner)
    # They still see the job they started (a member of its club), but no longer act on it.
    assert api.get(f"/api/rescore/{job.pk}/").status_code == 200
    assert api.post(f"/api/rescore/{job.pk}/resume/").json()["code"] == "forbidden"
    page = signed_in(adam)
    assert page.post(f"/jobs/rescore/{job.pk}/resume/").status_code == 403
    assert "Resume" not in page.get(f"/jobs/rescore/{job.pk}/").content.decode()


def test_discarding_a_planned_import_asks_first_and_checks_the_role_then(
    club: Club, recorder: Any, owner: Any
) -> None:
    page = signed_in(recorder)
    assert upload(page, "club-export.json").status_code == 302
    job = Job.objects.get()
    url = f"/imports/{job.pk}/discard/"
    asked = page.post(url)
    assert asked.status_code == 200
    assert "Discard the import of club-export.json?" in asked.content.decode()
    assert Job.objects.filter(pk=job.pk).exists()  # nothing dropped before "Yes"

    set_role(club, recorder, Membership.Role.MEMBER, owner)
    assert page.post(url, {"confirmed": "yes"}).status_code == 403
    assert Job.objects.filter(pk=job.pk).exists()

    # Someone in no club of the job's finds it not found, like a job never made.
    outsider = make_user("otto", role=None)
    assert signed_in(outsider).post(url, {"confirmed": "yes"}).status_code == 404
    assert signed_in(outsider).post("/imports/999999/discard/").status_code == 404

    set_role(club, recorder, Membership.Role.RECORDER, owner)
    done = page.post(url, {"confirmed": "yes"})
    assert done.status_code == 302 and done["Location"] == "/imports/"
    assert not Job.objects.exists() and not Game.objects.exists()
