"""``manage.py import_plays FILE --club --user [--dry-run]``: the format found from the content,
a JSON summary printed, and a refused file a one-line error with nothing stored."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.records.models import Club, Game, Player
from scoring.engine.complots.simulate import simulate as simulate_complots
from scoring.engine.potdevin.simulate import simulate as simulate_potdevin
from tests.accounts import make_user
from tests.exchange.imports.test_imports_plan import every_table

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parent / "files"


def run(*args: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("import_plays", *args, stdout=out)
    summary: dict[str, Any] = json.loads(out.getvalue())
    return summary


def test_a_dry_run_prints_the_plan_and_writes_nothing(club: Club, recorder: Any) -> None:
    before = every_table()
    summary = run(
        str(FILES / "club-export.zip"), "--club", club.slug, "--user", "rita", "--dry-run"
    )
    assert every_table() == before
    assert summary["format"] == "bgstats-export"
    assert summary["created"] == {"games": 10, "players": 4, "board_games": 4, "locations": 2}
    assert [s["code"] for s in summary["skipped"]] == ["deleted", "incomplete"]
    assert set(summary) == {
        "format",
        "plays",
        "created",
        "matched",
        "updated",
        "unchanged",
        "game_types",
        "skipped",
        "problems",
    }


def test_an_import_then_the_same_file_again(club: Club, recorder: Any) -> None:
    first = run(str(FILES / "plays.xml"), "--club", club.slug, "--user", "rita")
    assert (first["format"], first["created"]["games"]) == ("bgg-xml", 4)
    assert Game.objects.count() == 4
    again = run(str(FILES / "plays.xml"), "--club", club.slug, "--user", "rita")
    assert (again["unchanged"], again["created"]["games"]) == (4, 0)
    assert Game.objects.count() == 4


def test_our_own_logs_go_through_the_log_import(
    club: Club, recorder: Any, tmp_path: Path, standard_deck: Any
) -> None:
    logs = [simulate_complots(4, seed=3), simulate_potdevin(3, seed=4)]
    path = tmp_path / "logs.json"
    path.write_text(json.dumps(logs))
    dry = run(str(path), "--club", club.slug, "--user", "rita", "--dry-run")
    assert (dry["format"], dry["created"]["games"], Game.objects.count()) == ("log", 2, 0)
    assert dry["game_types"] == {"complots": 1, "pot-de-vin": 1}
    done = run(str(path), "--club", club.slug, "--user", "rita")
    assert done["created"]["games"] == 2
    assert sorted(Game.objects.values_list("game_type", "mode")) == [
        ("complots", "rounds"),
        ("pot-de-vin", "rounds"),
    ]


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"", "empty"),
        (b"hello", "malformed"),
        (b'{"some": "json"}', "unknown_format"),
        (b"[" * 100 + b"]" * 100, "too_deep"),
        (b'{"format": "potdevin-log/9", "players": []}', "unknown_version"),
        (b"PK\x03\x04not really a zip", "malformed"),
    ],
)
def test_a_refused_file_is_one_line_and_nothing_is_stored(
    club: Club, recorder: Any, tmp_path: Path, content: bytes, code: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    before = every_table()
    with pytest.raises(CommandError) as refused:
        run(str(path), "--club", club.slug, "--user", "rita")
    message = str(refused.value)
    assert message.startswith(f"{code}: ") and "\n" not in message
    assert message.endswith("nothing was imported")
    assert every_table() == before


def test_a_play_the_records_refuse_in_a_log_refuses_the_whole_file(
    club: Club, recorder: Any, tmp_path: Path, standard_deck: Any
) -> None:
    bad = simulate_complots(3, seed=1)
    bad["turns"][0]["actor"] = 7  # no such seat
    path = tmp_path / "logs.json"
    path.write_text(json.dumps([simulate_complots(3, seed=2), bad]))
    with pytest.raises(CommandError) as refused:
        run(str(path), "--club", club.slug, "--user", "rita")
    assert "item 1" in str(refused.value)
    assert Game.objects.count() == 0


def test_who_imports_where_is_checked(club: Club, recorder: Any) -> None:
    make_user("mo", club=club, role="member")
    path = str(FILES / "plays.xml")
    for args, words in [
        (("--club", "nope", "--user", "rita"), "no club"),
        (("--club", club.slug, "--user", "nobody"), "no user"),
        (("--club", club.slug, "--user", "mo"), "may not record"),
    ]:
        with pytest.raises(CommandError, match=words):
            run(path, *args)
    with pytest.raises(CommandError, match="cannot read"):
        run("/no/such/file.json", "--club", club.slug, "--user", "rita")
    assert not Player.objects.exists()
