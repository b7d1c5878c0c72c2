"""The re-score job on plays known by their final scores (mode `result`): scored again by the
generic scorer from their stored sheet, whatever their edition, each once; one whose stored
sheet no longer scores is reported, never retried (rules O1, O6)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.records import board_games, services
from games.records.models import Game, Seat
from scoring import jobs
from scoring.engine.potdevin.decks import standard_layout
from scoring.jobs import tasks
from scoring.models import Job, JobItem
from tests.accounts import first_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Any:
    return get_user_model().objects.create_user("owner", is_staff=True)


@pytest.fixture
def no_sending(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.rescore_batch, "delay", lambda *a: sent.append(a))
    return sent


def play(owner: Any, game_type: str, lines: list[dict[str, Any]], **kwargs: Any) -> Game:
    club = first_club()
    names = ["Ada", "Bea", "Cy"][: len(lines)]
    return board_games.result_game_create(
        club=club,
        owner=owner,
        players=services.players_resolve(names, club=club, created_by=owner),
        game_type=game_type,
        sheet=lines,
        **kwargs,
    )


def test_a_new_deck_rescores_a_result_play_of_pot_de_vin_to_the_same_ranks(
    owner: Any, no_sending: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    services.editions_ensure_builtin()
    # 12, 20, 12: Bea first, Ada and Cy share the second place, whatever the deck.
    game = play(owner, "pot-de-vin", [{"score": 12}, {"score": 20}, {"score": 12}])
    before = Game.objects.get(pk=game.pk).result
    layout = standard_layout()
    layout["A10"], layout["P10"] = layout["P10"], layout["A10"]
    swapped = services.edition_create(
        game_type="pot-de-vin", key="swapped", data=layout, created_by=owner
    )
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.rescore_start(created_by=owner, new_edition=swapped)
    assert job.total == 1
    assert jobs.rescore_batch(job_id=job.pk, game_ids=[game.pk]) == 1
    assert jobs.rescore_batch(job_id=job.pk, game_ids=[game.pk]) == 0  # delivered again
    stored = Game.objects.get(pk=game.pk)
    assert stored.edition_id == swapped.pk
    assert stored.result == before
    assert [s.rank for s in Seat.objects.filter(game=stored).order_by("seat")] == [2, 1, 2]
    item = JobItem.objects.get(job=job)
    assert (item.ok, item.winners_before, item.winners_after) == (True, [1], [1])
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE


def test_a_stored_sheet_that_no_longer_scores_is_reported(
    owner: Any, no_sending: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    azul = board_games.board_game_create(club=first_club(), name="Azul")
    good = play(owner, "other", [{"score": 3}, {"score": 5}], board_game=azul)
    broken = play(owner, "other", [{"score": 7}, {"score": 5}], board_game=azul)
    # A stored sheet changed behind the services' back: Ada's 7 now says she came second.
    Game.objects.filter(pk=broken.pk).update(
        sheet={"win": "highest", "won": None, "sheet": [{"score": 7, "rank": 2}, {"score": 5}]}
    )
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.rescore_start(created_by=owner, game_type="other")
    assert job.total == 2
    assert jobs.rescore_batch(job_id=job.pk, game_ids=[good.pk, broken.pk]) == 2
    items = {i.key: i for i in JobItem.objects.filter(job=job)}
    assert items[good.pk].ok and items[good.pk].winners_after == [1]
    assert not items[broken.pk].ok
    assert (items[broken.pk].error["code"], items[broken.pk].error["seat"]) == (
        "rank_disagrees",
        0,
    )
    # The broken play keeps its last result.
    assert Game.objects.get(pk=broken.pk).result["winners"] == [0]
