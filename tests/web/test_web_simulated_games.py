"""Every simulated game can be entered through the pages, as a person without JavaScript
would: the plain forms (Django's test client), entry by entry, each through the review before
it is saved, then finished; what is stored is compared with the engine's replay of the same
log (rows and result).

The games are generated (scoring/engine/*/simulate.py): Complots for every player count from
2 to 8 in both variants, Pot de Vin for every player count from 3 to 6, with and without teams
(4 and 6 players) and with and without the deal recorded. Some tables have names as long as
the service accepts (80 characters), with characters HTML escapes. The seeds come from a
generated range (``SEED_BASE`` moves it). A game whose deal is recorded is started through the
services (the new-game page takes no deal); every other game is started on the new-game page."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.records import services
from games.records.models import Game, Round
from scoring.engine import get_engine
from scoring.engine.complots.simulate import simulate as complots_simulate
from scoring.engine.potdevin.simulate import simulate as potdevin_simulate
from tests.accounts import first_club
from tests.web.test_web_complots import turn_post

pytestmark = [pytest.mark.django_db, pytest.mark.slow, pytest.mark.one_database]

SEED_BASE = 1000
LONG = 80  # the longest name the service accepts


def table_names(players: int, seed: int) -> list[str] | None:
    """Every third table: names of 80 characters, with an apostrophe, an ampersand and accents
    (what the pages escape and wrap); the others keep the simulation's names."""
    if seed % 3:
        return None
    heads = ["Ada O'Brien & Co", "Béatrice", "Cy <Zed>", "Dev", "Eli", "Fay", "Gus", "Hal"]
    long = [(f"{heads[s]} " + "de-la-Montagne-Sainte-Geneviève " * 3)[: LONG - 1] + str(s)
            for s in range(players)]  # fmt: skip
    assert all(len(name) == LONG for name in long)
    return long


def complots_cases() -> list[tuple[int, str, int]]:
    cases = []
    for i, players in enumerate(range(2, 9)):
        for k, variant in enumerate(("ambassador", "inquisitor")):
            cases.append((players, variant, SEED_BASE + 2 * i + k))
    return cases


def potdevin_cases() -> list[tuple[int, bool, bool, int]]:
    cases = []
    seed = SEED_BASE
    for players in range(3, 7):
        for teams in (False, True) if players in (4, 6) else (False,):
            for deal in (False, True):
                cases.append((players, teams, deal, seed))
                seed += 1
    return cases


COMPLOTS_CASES = complots_cases()
POTDEVIN_CASES = potdevin_cases()


def hidden_fields(page: str, form_id: str) -> dict[str, list[str]]:
    form = re.search(rf'<form[^>]*id="{form_id}".*?</form>', page, re.S)
    assert form, f"no form {form_id}"
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">',
                                  form.group(0)):  # fmt: skip
        fields.setdefault(name, []).append(html_lib.unescape(value))
    return fields


def save_from_review(web: Client, game: Game, page: str, number: int) -> None:
    """The review's "Save": its hidden fields sent back as they are. Nothing was stored
    before."""
    assert Round.objects.filter(game=game).count() == number - 1
    assert re.search(r'id="h-review"[^>]*>\w+ \d+: check it before saving<', page), page[:3000]
    fields = hidden_fields(page, "entry-review")
    response = web.post(reverse("web:round-append", args=[game.pk]), {**fields, "review": "save"})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Round.objects.filter(game=game).count() == number


def start_on_the_page(web: Client, game_type: str, log: dict[str, Any], **options: str) -> Game:
    data = {"game_type": game_type, "first_player": str(log["first_player"]), **options}
    for seat, name in enumerate(log["players"]):
        data[f"player_{seat}"] = name
    response = web.post(reverse("web:game-new-of", args=[game_type]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Game.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))


# --- Complots ---------------------------------------------------------------------------------


def enter_turn(web: Client, game: Game, turn: dict[str, Any], number: int) -> None:
    """A turn as a person enters it without JavaScript: the action and target ("Next"); then
    the challenge and block answers with the loss rows left empty ("Review"), the page filling
    in whose cards and asking which; the cards; then the review's "Save"."""
    url = reverse("web:round-append", args=[game.pk])
    data = {"number": str(number), "actor": str(turn["actor"]), "action": turn["action"]}
    if turn.get("target") is not None:
        data["target"] = str(turn["target"])
    page = web.post(url, {**data, "step": "details"}).content.decode()
    if 'id="entry-review"' not in page:
        # The challenge and block answers as the form takes them; the loss rows left empty.
        answers = turn_post(turn, number, step="save", review="")
        data = {k: v for k, v in answers.items() if not k.startswith("loss_")}
        del data["step"], data["review"]
        response = web.post(url, {**data, "step": "save"})
        page = response.content.decode()
        losses = turn.get("losses") or []
        if losses:
            # The page asks for the cards of the seats the rules require: the log's seats.
            assert response.status_code == 400, page[:3000]
            for i, loss in enumerate(losses):
                row = re.search(rf'name="loss_{i}_seat" id="id_loss_{i}_seat">(.*?)</select>',
                                page, re.S)  # fmt: skip
                assert row and f'value="{loss["seat"]}" selected' in row.group(1), (number, i)
                data[f"loss_{i}_seat"] = str(loss["seat"])
                data[f"loss_{i}_card"] = loss["card"]
            page = web.post(url, {**data, "step": "save"}).content.decode()
    save_from_review(web, game, page, number)


@pytest.mark.parametrize(("players", "variant", "seed"), COMPLOTS_CASES)
def test_every_simulated_complots_game_is_entered_through_the_plain_pages(
    web: Client, user: Any, players: int, variant: str, seed: int
) -> None:
    log = complots_simulate(players, seed=seed, variant=variant, names=table_names(players, seed))
    expected = get_engine("complots").replay(log)
    game = start_on_the_page(web, "complots", log, variant=variant)
    for number, turn in enumerate(log["turns"], start=1):
        enter_turn(web, game, turn, number)
    assert web.post(reverse("web:game-finish", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    # The page's checkbox says only "had to swap" (rules: ``forced_swap`` is optional); the
    # simulation writes false or leaves it out: the same turn.
    assert [r.data for r in game.rounds.order_by("number")] == [
        {k: v for k, v in t.items() if (k, v) != ("forced_swap", False)} for t in log["turns"]
    ]
    assert game.result == expected
    assert [s.rank for s in game.seats.order_by("seat")] == [p["rank"] for p in expected["players"]]


# --- Pot de Vin -------------------------------------------------------------------------------


def enter_round(web: Client, game: Game, log_round: dict[str, Any], number: int) -> None:
    """A round as a person enters it without JavaScript: every picker at once, "Review", then
    the review's "Save"."""
    url = reverse("web:round-append", args=[game.pk])
    data = {"number": str(number), "trump": log_round["trump"]}
    for i, play in enumerate(log_round["plays"]):
        data[f"play_{i}"] = "pass" if play.get("pass") else play["card"]
    response = web.post(url, data)
    page = response.content.decode()
    assert response.status_code == 200, page[:3000]
    save_from_review(web, game, page, number)


@pytest.mark.parametrize(("players", "teams", "deal", "seed"), POTDEVIN_CASES)
def test_every_simulated_pot_de_vin_game_is_entered_through_the_plain_pages(
    web: Client, user: Any, standard_deck: Any, players: int, teams: bool, deal: bool, seed: int
) -> None:
    log = potdevin_simulate(
        players, seed=seed, teams=teams, record_deal=deal, names=table_names(players, seed)
    )
    expected = get_engine("pot-de-vin").replay(log)
    if deal:  # the new-game page takes no deal: the header is stored through the services
        game = services.game_create(
            club=first_club(),
            owner=user,
            players=services.players_resolve(
                club=first_club(), refs=log["players"], created_by=user
            ),
            game_type="pot-de-vin",
            first_player=log["first_player"],
            teams=log["teams"],
            setup={"hands": log["hands"], "trump_pile": log["trump_pile"]},
        )
    else:
        teams_value = ";".join(",".join(str(s) for s in t) for t in log["teams"] or [])
        game = start_on_the_page(web, "pot-de-vin", log, teams=teams_value, deck="standard")
    for number, log_round in enumerate(log["rounds"], start=1):
        enter_round(web, game, log_round, number)
    page = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert 'id="round-entry"' not in page and 'id="game-finish"' in page
    assert web.post(reverse("web:game-finish", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert [r.data for r in game.rounds.order_by("number")] == log["rounds"]
    assert game.result == expected
    units = expected["players"]
    assert [s.score for s in game.seats.order_by("seat")] == [p["score"] for p in units]


def test_the_generated_games_cover_every_count_variant_team_and_deal() -> None:
    assert {(p, v) for p, v, _ in COMPLOTS_CASES} == {
        (p, v) for p in range(2, 9) for v in ("ambassador", "inquisitor")
    }
    assert {(p, t, d) for p, t, d, _ in POTDEVIN_CASES} == {
        (3, False, False), (3, False, True), (5, False, False), (5, False, True),
        *((p, t, d) for p in (4, 6) for t in (False, True) for d in (False, True)),
    }  # fmt: skip
