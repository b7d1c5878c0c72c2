"""``POST /api/imports/file/``: a file as a multipart upload or as the body, a dry run answering
the plan and writing nothing, the import as a job whose report lists every play skipped and why,
and every file refused with a 4xx naming what is wrong, nothing stored."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.records.models import Club, Game, PlaySource
from scoring import jobs
from scoring.engine.complots.simulate import simulate as simulate_complots
from tests.accounts import make_user
from tests.exchange.imports.test_imports_plan import every_table

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parent / "files"
URL = "/api/imports/file/"


@pytest.fixture
def api(recorder: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(recorder)
    return client


def upload(api: APIClient, name: str, query: str = "") -> Any:
    with (FILES / name).open("rb") as handle:
        return api.post(f"{URL}{query}", {"file": handle}, format="multipart")


def raw(api: APIClient, body: bytes, query: str = "", content_type: str = "") -> Any:
    return api.post(
        f"{URL}{query}", data=body, content_type=content_type or "application/octet-stream"
    )


def test_a_dry_run_answers_the_plan_and_writes_nothing(club: Club, api: APIClient) -> None:
    before = every_table()
    response = upload(api, "club-export.zip", "?dry_run=true")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert every_table() == before
    assert body["format"] == "bgstats-export"
    assert body["created"] == {"games": 10, "players": 4, "board_games": 4, "locations": 2}
    assert [s["code"] for s in body["skipped"]] == ["deleted", "incomplete"]
    details = body["details"]
    assert len(details["plays"]) == 11  # the reader's skip is not a play of the plan
    assert {p["name"]: p["match"] for p in details["players"]} == {
        "Ada": "new",
        "Bea": "new",
        "Cy": "new",
        "Dan": "new",
    }
    coup = next(p for p in details["plays"] if p["play"].endswith("0003"))
    assert (coup["game_type"], coup["mode"], coup["action"]) == ("complots", "scorepad", "create")


def test_an_import_runs_as_a_job_with_its_report(
    club: Club, api: APIClient, sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = raw(api, (FILES / "club-export.json").read_bytes(), "?club=" + club.slug)
    assert response.status_code == 202, response.json()
    job = response.json()
    assert (job["kind"], job["status"], job["total"]) == ("import", "running", 11)
    # The plan is in the report, not repeated in the params of a job polled for its progress.
    assert set(job["params"]) == {"input", "app", "format", "filename"}
    assert job["report"]["created"]["games"] == 0  # none done yet
    for job_id, keys in sent:
        jobs.import_batch(job_id=job_id, keys=keys)
    done = api.get(f"/api/imports/{job['id']}/").json()
    assert (done["status"], done["done"]) == ("done", 11)
    report = done["report"]
    assert (report["created"]["games"], report["unchanged"]) == (10, 0)
    assert [(s["code"]) for s in report["skipped"]] == ["deleted", "incomplete"]
    assert [f["code"] for f in done["failures"]] == ["incomplete"]
    assert done["failures"][0]["play"].endswith("0010")
    assert sorted(done["games"]) == sorted(Game.objects.values_list("id", flat=True))
    assert PlaySource.objects.count() == 10
    # Each game says where it came from; a game recorded here says nothing.
    source = PlaySource.objects.order_by("id").first()
    shown = api.get(f"/api/games/{source.game_id}/").json()["source"]
    assert (shown["app"], shown["external_id"]) == ("bgstats", source.external_id)
    assert len(source.external_id) == 36  # the app's uuid, as the file wrote it


def test_bgg_xml_and_our_own_logs_as_the_body(
    club: Club, api: APIClient, sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    response = raw(api, (FILES / "plays.xml").read_bytes(), "?dry_run=1", "application/xml")
    assert response.status_code == 200
    assert (response.json()["format"], response.json()["created"]["games"]) == ("bgg-xml", 4)
    logs = json.dumps([simulate_complots(3, seed=5), simulate_complots(4, seed=6)]).encode()
    dry = raw(api, logs, "?dry_run=1", "application/json")
    assert dry.status_code == 200
    assert (dry.json()["format"], dry.json()["created"]["games"]) == ("log", 2)
    with django_capture_on_commit_callbacks(execute=True):
        started = raw(api, logs, "", "application/json")
    assert started.status_code == 202
    assert started.json()["report"] is None  # logs: the log import's failures say it all
    for job_id, keys in sent:
        jobs.import_batch(job_id=job_id, keys=keys)
    assert Game.objects.filter(game_type="complots", mode="rounds").count() == 2


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return out.getvalue()


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"", 400, "no_file"),  # no body: nothing was sent
        (b"\x00\x01 not a file", 400, "malformed"),
        (b'{"hello": "world"}', 400, "unknown_format"),
        (b"[" * 200 + b"]" * 200, 400, "too_deep"),
        (b'{"plays": [], "games": 3}', 400, "malformed"),
        (b'{"format": "complots-log/7", "players": ["a", "b"]}', 400, "unknown_version"),
        (b'<!DOCTYPE x [<!ENTITY a "aaaa">]><plays>&a;</plays>', 400, "forbidden_xml"),
        (_zip({f"{n}.json": b"{}" for n in range(9)}), 400, "too_many_files"),
        # A zip bomb: 30 MB of zeros unpack past the reader's limit.
        (_zip({"BGStatsExport.json": b"0" * (30 * 1024 * 1024)}), 413, "too_large"),
    ],
)
def test_a_hostile_file_is_refused_with_the_readers_code(
    club: Club, api: APIClient, body: bytes, status: int, code: str
) -> None:
    before = every_table()
    response = raw(api, body)
    assert response.status_code == status, response.content
    assert response.json()["code"] == code
    assert response.json()["message"]
    assert every_table() == before


def test_a_file_past_the_size_limit_is_refused_before_it_is_read(
    club: Club, api: APIClient, settings: Any
) -> None:
    settings.POTDEVIN_MAX_BODY_BYTES = 1000
    before = every_table()
    response = raw(api, b"{" + b" " * 2000 + b"}")
    assert (response.status_code, response.json()["code"]) == (413, "too_large")
    response = api.post(URL, {"file": io.BytesIO(b" " * 2000)}, format="multipart")
    assert (response.status_code, response.json()["code"]) == (413, "too_large")
    assert every_table() == before


def test_a_form_without_its_file_or_with_an_empty_one(club: Club, api: APIClient) -> None:
    response = api.post(URL, {"other": "x"}, format="multipart")
    assert (response.status_code, response.json()["code"]) == (400, "no_file")
    empty = io.BytesIO(b"")
    empty.name = "BGStatsExport.json"
    response = api.post(URL, {"file": empty}, format="multipart")
    assert (response.status_code, response.json()["code"]) == (400, "empty")


def test_only_the_clubs_recorders_import(club: Club) -> None:
    member = APIClient()
    member.force_authenticate(make_user("mo", club=club, role="member"))
    response = raw(member, (FILES / "plays.xml").read_bytes(), "?dry_run=1")
    assert response.status_code == 403
    anonymous = raw(APIClient(), (FILES / "plays.xml").read_bytes())
    assert anonymous.status_code == 401
    assert not Game.objects.exists()
