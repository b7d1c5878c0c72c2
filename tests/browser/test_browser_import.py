"""Bringing a club's plays in on a phone, in a real headless Chromium at 390 px
(tests/browser/pages.py): a recorder picks a BG Stats export with the longest names the service
takes, reads the dry run (what would be created, matched, skipped, and why) with nothing
stored, confirms, and reads the import's report; every page fits the phone, with no word cut,
in each language of the pages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.records.models import BoardGame, Game, Player
from scoring import jobs
from scoring.jobs import tasks
from scoring.models import Job
from tests.accounts import first_club, make_user
from tests.browser.pages import LANGUAGES, sign_in, use_language
from tests.browser.test_browser_layout import long_names, reads_on_a_phone
from tests.paths import ROOT

EXPORT = ROOT / "tests" / "exchange" / "imports" / "files" / "club-export.json"
# A named game's longest name (120 characters), in long words.
LONG_GAME = (
    "Die Legenden von Andor Erweiterung Neue Helden und Schwarze Herrschaft der Nebelkriege"
    " Sammlerausgabe Jubilaumsbox Vollstandig"
)[:120]


def long_export(tmp_path: Path) -> Path:
    """The club export of the import tests with every person, the named games and the places
    named as long as the service allows."""
    export = json.loads(EXPORT.read_text())
    names = iter(long_names(len(export["players"])))
    for player in export["players"]:
        player["name"] = next(names)
    for game in export["games"]:
        if game["name"] == "Azul":
            game["name"] = LONG_GAME
    for place in export["locations"]:
        place["name"] = ("Ludoteca " + place["name"] + " ") * 6
    path = tmp_path / "BGStatsExport-of-the-Ludoteca-Centrale-club-2026.json"
    path.write_text(json.dumps(export))
    return path


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.django_db(transaction=True)
def test_a_recorder_imports_a_bg_stats_export_on_a_phone(
    live_server: Any,
    browser: Any,
    tmp_path: Path,
    language: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No worker here: a batch runs in the server's thread once its job is committed.
    monkeypatch.setattr(
        tasks.import_batch,
        "delay",
        lambda job_id, keys: jobs.import_batch(job_id=job_id, keys=keys),
    )
    make_user("rita", club=first_club(), role="recorder")
    base = live_server.url
    use_language(browser, base, language)
    page = browser.new_page()
    sign_in(page, base, "rita")
    page.goto(f"{base}/imports/")
    assert page.locator('header a[href="/imports/"]').count() == 1
    reads_on_a_phone(page, f"import-upload-{language}")

    # The dry run: nothing stored, the plan on the page.
    page.set_input_files("#id_file", str(long_export(tmp_path)))
    with page.expect_navigation():
        page.click('#import-upload button[type="submit"]')
    job = Job.objects.get()
    assert page.url == f"{base}/imports/{job.pk}/"
    assert page.locator("#import-dry-run").is_visible()
    assert page.inner_text("#count-created") == "10"
    assert page.inner_text("#count-skipped") == "2"
    assert page.inner_text("#count-new-players") == "4"
    assert page.locator("#import-players li").count() == 4
    assert page.locator("#import-skipped li").count() == 2
    assert LONG_GAME in page.inner_text("#import-games")
    assert not Game.objects.exists() and not Player.objects.exists()
    reads_on_a_phone(page, f"import-dry-run-{language}")

    # Confirmed: the import runs, and its page gives the report.
    with page.expect_navigation():
        page.click('#import-confirm button[type="submit"]')
    assert page.url == f"{base}/imports/{job.pk}/"
    assert Job.objects.get().status == Job.Status.DONE
    page.reload()
    assert page.inner_text("#count-created") == "10"
    assert page.locator("#import-confirm").count() == 0
    assert page.locator("#import-made li a").count() == 10
    assert Game.objects.count() == 10
    assert BoardGame.objects.filter(name=LONG_GAME).exists()
    reads_on_a_phone(page, f"import-report-{language}")
