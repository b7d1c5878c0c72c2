"""Complots through the web scorepad's pages (Django's test client): a new game with its
variant, the turn entry offering only what the rules allow (rules K2, the forced coup, costs),
the loss rows filled in with the seats the rules require, the engine's refusals next to the
field that caused them with nothing stored, undo, and the finish page showing the engine's
ranking, K4 counts and tie-breaks in words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.records import services
from games.records.models import Edition, Game, Player, Round
from scoring.engine import get_engine
from scoring.engine.complots.simulate import simulate
from tests.accounts import first_club

pytestmark = pytest.mark.django_db

ENGINE = get_engine("complots")


def make_game(
    owner: Any,
    names: tuple[str, ...] = ("Ada", "Bea", "Cy"),
    *,
    first_player: int = 0,
    variant: str = "ambassador",
) -> Game:
    return services.game_create(
        club=first_club(),
        owner=owner,
        players=services.players_resolve(club=first_club(), refs=list(names), created_by=owner),
        game_type="complots",
        first_player=first_player,
        variant=variant,
    )


def played(owner: Any, log: dict[str, Any], upto: int | None = None) -> Game:
    """A game with the log's turns (the first ``upto``) stored through the services."""
    game = make_game(
        owner,
        tuple(log["players"]),
        first_player=log["first_player"],
        variant=log.get("variant") or "ambassador",
    )
    for number, turn in enumerate(log["turns"][:upto], start=1):
        services.round_append(game=game, round_data=turn, number=number)
    game.refresh_from_db()
    return game


def turn_post(
    turn: dict[str, Any], number: int, *, step: str = "save", review: str = "save"
) -> dict[str, str]:
    """The turn-entry form's fields for one turn of a log, all in one post; by default as the
    review's "Save" sends them (``review=""``: as the entry sends them, for the review)."""
    data = {
        "number": str(number),
        "actor": str(turn["actor"]),
        "action": turn["action"],
        "step": step,
        "review": review,
    }
    if turn.get("target") is not None:
        data["target"] = str(turn["target"])
    challenge = turn.get("challenge")
    if challenge:
        data["challenge_by"] = str(challenge["by"])
        data["challenge_truthful"] = "yes" if challenge["truthful"] else "no"
    block = turn.get("block")
    if block:
        data["block_by"] = str(block["by"])
        data["block_as"] = block["as"]
        inner = block.get("challenge")
        if inner:
            data["block_challenge_by"] = str(inner["by"])
            data["block_challenge_truthful"] = "yes" if inner["truthful"] else "no"
    if turn.get("forced_swap"):
        data["forced_swap"] = "on"
    for i, loss in enumerate(turn.get("losses") or []):
        data[f"loss_{i}_seat"] = str(loss["seat"])
        data[f"loss_{i}_card"] = loss["card"]
    return data


def append(web: Client, game: Game, data: dict[str, str], **kw: Any) -> Any:
    return web.post(reverse("web:round-append", args=[game.pk]), data, **kw)


def radios(html: str, name: str) -> list[str]:
    return re.findall(rf'<input type="radio" name="{name}" id="[^"]+" value="([^"]*)"', html)


def error_of(html: str, field: str) -> str:
    found = re.search(rf'<p class="error" role="alert" id="{field}-error">([^<]*)</p>', html)
    assert found, f"no error beside {field}"
    return found.group(1)


# --- Choosing the game and starting one -------------------------------------------------------


def test_a_new_game_starts_by_choosing_the_game(web: Client) -> None:
    html = web.get(reverse("web:game-new")).content.decode()
    assert f'href="{reverse("web:game-new-of", args=["pot-de-vin"])}"' in html
    assert f'href="{reverse("web:game-new-of", args=["complots"])}"' in html
    page = web.get(reverse("web:game-new-of", args=["complots"])).content.decode()
    assert "New Complots game" in page
    assert 'id="id_player_7"' in page and 'id="id_player_8"' not in page  # 2 to 8 players
    assert radios(page, "variant") == [] and 'value="inquisitor"' in page
    assert 'name="deck"' not in page and 'name="teams"' not in page
    assert web.get(reverse("web:game-new-of", args=["chess"])).status_code == 404


def test_a_complots_game_with_its_variant_and_first_player(web: Client, user: Any) -> None:
    data = {
        "game_type": "complots",
        "player_0": "Ada",
        "player_1": "Bea",
        "first_player": "1",
        "variant": "inquisitor",
        "location": "Club",
    }
    response = web.post(reverse("web:game-new-of", args=["complots"]), data)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "web:game", args=[game.pk]
    )
    assert (game.game_type, game.variant, game.first_player, game.edition) == (
        "complots",
        "inquisitor",
        1,
        None,
    )
    assert [s.player.name for s in game.seats.order_by("seat")] == ["Ada", "Bea"]
    # 2 players: the first player starts with 1 coin (rules: setup).
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "Turn 1: Bea to act" in html
    assert re.search(r'<tr id="seat-1" data-seat="1" data-influences="2" class="current"', html)
    assert re.search(r'id="seat-1".*?data-key="coins">1<', html, re.S)


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"player_1": ""}, "player_0", "2 to 8 players"),
        ({"first_player": "3"}, "first_player", "must be one of the seats"),
        ({"variant": "bishop"}, "variant", "Select a valid choice"),
    ],
)
def test_new_complots_game_form_errors(
    web: Client, fields: dict[str, str], field: str, message: str
) -> None:
    data = {"game_type": "complots", "player_0": "Ada", "player_1": "Bea", "first_player": "0"}
    data.update({"variant": "ambassador", **fields})
    response = web.post(reverse("web:game-new-of", args=["complots"]), data)
    assert response.status_code == 400  # refused: said beside its fields
    errors = {**response.context["form"].errors, **response.context["options"].errors}
    assert message in " ".join(errors.get(field, [])), errors
    assert not Game.objects.exists() and not Player.objects.exists()


# --- The turn entry ---------------------------------------------------------------------------


def test_the_turn_entry_offers_only_what_the_rules_allow(web: Client, user: Any) -> None:
    game = make_game(user, variant="ambassador")
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    # Ada acts with 2 coins: no coup (7), no assassination (3), no inquiry (ambassador game).
    assert radios(html, "action") == [
        "income",
        "foreign_aid",
        "duchess",
        "captain",
        "exchange",
    ]
    assert radios(html, "target") == ["1", "2"]  # the live players other than Ada
    assert "Ambassador: exchange" in html
    # Every player's coins and influences, the seat to act marked.
    assert re.search(
        r'<tr id="seat-0" data-seat="0" data-influences="2" class="current" aria-current="true"',
        html,
    )
    assert html.count('data-key="coins">2<') == 3
    inquisitor = make_game(user, ("Dee", "Eve", "Fay"), first_player=2, variant="inquisitor")
    page = web.get(reverse("web:game", args=[inquisitor.pk])).content.decode()
    assert "inquire" in radios(page, "action") and "Inquisitor: exchange" in page
    assert "Turn 1: Fay to act" in page


def test_ten_coins_offer_only_the_coup(web: Client, user: Any) -> None:
    # Ada takes the duchess's 3 coins each turn, the others take income: 2 + 3 + 3 + 3 = 11.
    turns = []
    for _ in range(3):
        turns += [
            {"actor": 0, "action": "duchess"},
            {"actor": 1, "action": "income"},
            {"actor": 2, "action": "income"},
        ]
    game = played(user, {"players": ["Ada", "Bea", "Cy"], "first_player": 0, "turns": turns})
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert radios(html, "action") == ["coup"]
    assert "a coup is the only action" in html
    # Posted anyway (a stale page), another action is refused by the engine, beside the action.
    response = append(web, game, {"number": "10", "actor": "0", "action": "income"})
    assert response.status_code == 400
    assert "must coup" in error_of(response.content.decode(), "action")
    assert game.rounds.count() == 9


def review_fields(html: str) -> dict[str, list[str]]:
    """The hidden fields of the review's form, as a browser sends them back."""
    form = re.search(r'<form[^>]*id="entry-review".*?</form>', html, re.S)
    assert form, "no review"
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(0)
    ):
        fields.setdefault(name, []).append(value)
    return fields


def button(html: str, id_: str) -> tuple[str, str]:
    found = re.search(rf'<button type="submit" name="([^"]+)" value="([^"]*)"[^>]*id="{id_}"', html)
    assert found, id_
    return found.group(1), found.group(2)


def test_a_simple_turn_is_reviewed_then_saved(web: Client, user: Any) -> None:
    game = make_game(user)
    response = append(
        web, game, {"number": "1", "actor": "0", "action": "income", "step": "details"}
    )
    assert response.status_code == 200 and not game.rounds.exists()  # nothing stored yet
    html = response.content.decode()
    assert "Turn 1: check it before saving" in html
    assert "<li>Ada: Income.</li>" in html
    assert "After it: Ada 3 coins, 2 influences." in html
    fields = review_fields(html)
    assert button(html, "review-save") == ("review", "save")
    # "Change": back to the action, income still chosen, nothing stored.
    name, value = button(html, "review-change")
    back = append(web, game, {**fields, name: value}).content.decode()
    assert re.search(r'id="action-income" value="income" checked', back)
    assert 'id="entry-review"' not in back and not game.rounds.exists()
    # "Save": the turn as reviewed is stored.
    response = append(web, game, {**fields, "review": "save"})
    assert response.status_code == 302
    assert list(game.rounds.values_list("data", flat=True)) == [{"actor": 0, "action": "income"}]
    page = web.get(response["Location"]).content.decode()
    assert "Turn 1 saved: Ada: Income." in page and "Turn 2: Bea to act" in page


def test_a_challenged_turn_is_reviewed_in_words_and_change_keeps_every_answer(
    web: Client, user: Any
) -> None:
    game = make_game(user)
    turn = {
        "actor": 0,
        "action": "duchess",
        "challenge": {"by": 1, "truthful": True},
        "losses": [{"seat": 1, "card": "captain"}],
    }
    html = append(web, game, turn_post(turn, 1, review="")).content.decode()
    assert "<li>Ada: Duchess. Bea turned up Captain.</li>" in html
    assert "<li>Bea challenged: the claim was true.</li>" in html
    assert "After it: Ada 5 coins, 2 influences; Bea 2 coins, 1 influence." in html
    fields = review_fields(html)
    name, value = button(html, "review-change")
    assert (name, value) == ("step", "details")
    back = append(web, game, {**fields, name: value}).content.decode()
    assert re.search(r'id="challenge_by-1" value="1" checked', back)
    assert re.search(r'id="challenge_truthful-yes" value="yes" checked', back)
    card = r'name="loss_0_card" id="id_loss_0_card">.*?value="captain" selected'
    assert re.search(card, back, re.S)
    assert not game.rounds.exists()
    assert append(web, game, {**fields, "review": "save"}).status_code == 302
    stored = game.rounds.get().data
    game.refresh_from_db()
    expected = ENGINE.replay({**_log(game), "turns": [turn]})
    assert stored == turn and game.result == expected


def test_a_refused_turn_is_shown_at_the_entry_not_in_review(web: Client, user: Any) -> None:
    game = make_game(user)
    turn = {"actor": 0, "action": "duchess", "challenge": {"by": 1, "truthful": False},
            "losses": [{"seat": 0, "card": "duchess"}]}  # fmt: skip
    response = append(web, game, turn_post(turn, 1, review=""))
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="entry-review"' not in html
    assert error_of(html, "loss_0_card") == (
        "Ada was caught bluffing the duchess: it cannot turn one up."
    )
    assert not game.rounds.exists()


def test_a_review_left_open_while_another_turn_was_saved_is_not_saved(
    web: Client, user: Any
) -> None:
    game = make_game(user)
    html = append(web, game, turn_post({"actor": 0, "action": "income"}, 1, review="")).content
    fields = review_fields(html.decode())
    assert append(web, game, {**fields, "review": "save"}).status_code == 302
    # Sent again from another page (Back on this one is answered as its save was).
    again = append(web, game, {**fields, "review": "save", "idempotency_key": "other"}, follow=True)
    assert again.status_code == 200 and game.rounds.count() == 1
    # Said in the players' words: a turn, not a round of the log; the game as it is now.
    said = "Turn 1 was already saved from another page or phone: here is the game as it is now"
    assert said in again.content.decode()
    # The entry of a page left open is not even reviewed: it says which turn comes next.
    stale = append(web, game, turn_post({"actor": 0, "action": "income"}, 1, review=""))
    assert stale.status_code == 302
    html = web.get(stale["Location"]).content.decode()
    assert 'id="entry-review"' not in html and said in html and "enter turn 2." in html
    assert game.rounds.count() == 1


def test_the_second_step_offers_only_the_allowed_challengers_blockers_and_characters(
    web: Client, user: Any
) -> None:
    game = make_game(user, variant="inquisitor")
    step = {"number": "1", "actor": "0", "action": "captain", "target": "2", "step": "details"}
    response = append(web, game, step)
    assert response.status_code == 200 and not game.rounds.exists()
    html = response.content.decode()
    assert 'id="turn-summary">Ada: Captain on Cy <span' in html
    assert radios(html, "challenge_by") == ["", "1", "2"]
    assert radios(html, "block_by") == ["", "2"]  # a captain is blocked by its target only (K2)
    assert radios(html, "block_as") == ["captain", "inquisitor"]
    assert radios(html, "block_challenge_by") == ["", "0", "1"]  # anyone but the blocker
    assert 'type="hidden" name="action" value="captain"' in html
    # Foreign aid: blocked by anyone else, as the duchess only; no claim to challenge.
    aid = {"number": "1", "actor": "0", "action": "foreign_aid", "step": "details"}
    html = append(web, game, aid).content.decode()
    assert radios(html, "challenge_by") == []
    assert radios(html, "block_by") == ["", "1", "2"]
    assert radios(html, "block_as") == ["duchess"]
    # "Change the action": back to the first step, the choice kept.
    back = append(web, game, {**step, "step": "action"}).content.decode()
    assert re.search(r'id="action-captain" value="captain" checked', back)


def test_the_losses_are_asked_for_the_seats_the_rules_require(web: Client, user: Any) -> None:
    # Bea challenges Ada's duchess, which was a bluff: Ada must turn up a card.
    game = make_game(user)
    data = {
        "number": "1",
        "actor": "0",
        "action": "duchess",
        "challenge_by": "1",
        "challenge_truthful": "no",
        "step": "save",
    }
    response = append(web, game, data)
    assert response.status_code == 400 and not game.rounds.exists()
    html = response.content.decode()
    assert error_of(html, "loss_0_card") == "Which card did Ada turn up?"
    assert re.search(r'name="loss_0_seat" id="id_loss_0_seat">.*?value="0" selected', html, re.S)
    assert re.search(r'id="challenge_by-1" value="1" checked', html)  # the answers are kept
    # The card chosen, the turn is reviewed, then stored.
    chosen = {**data, "loss_0_seat": "0", "loss_0_card": "captain"}
    review = append(web, game, chosen)
    assert review.status_code == 200 and not game.rounds.exists()
    words = "Ada: Duchess, a bluff caught: cancelled. Ada turned up Captain."
    assert words in review.content.decode()
    response = append(web, game, {**chosen, "review": "save"})
    assert response.status_code == 302
    turn = game.rounds.get().data
    assert turn["losses"] == [{"seat": 0, "card": "captain"}]
    assert turn["challenge"] == {"by": 1, "truthful": False}


def test_a_coup_row_is_filled_with_its_target(web: Client, user: Any) -> None:
    turns = [{"actor": s, "action": "income"} for s in (0, 1, 2)] * 5  # Ada has 7 coins
    game = played(user, {"players": ["Ada", "Bea", "Cy"], "first_player": 0, "turns": turns})
    step = {"number": "16", "actor": "0", "action": "coup", "target": "2", "step": "details"}
    html = append(web, game, step).content.decode()
    assert re.search(r'name="loss_0_seat" id="id_loss_0_seat">.*?value="2" selected', html, re.S)
    assert radios(html, "challenge_by") == [] and radios(html, "block_by") == []


@pytest.mark.parametrize(
    ("turn", "field", "words"),
    [
        # A caught bluffer cannot turn up the character it claimed.
        (
            {"actor": 0, "action": "duchess", "challenge": {"by": 1, "truthful": False},
             "losses": [{"seat": 0, "card": "duchess"}]},
            "loss_0_card",
            "cannot turn one up",
        ),
        # A loss by a seat the rules do not name there.
        (
            {"actor": 0, "action": "duchess", "challenge": {"by": 1, "truthful": True},
             "losses": [{"seat": 2, "card": "captain"}]},
            "loss_0_seat",
            "Cy: the loss at position 1 must be by Bea, not Cy.",
        ),
        # An assassination under 3 coins (a forged or stale page).
        ({"actor": 0, "action": "assassin", "target": 1}, "action", "costs 3 coins"),
        # Only the target blocks a captain (K2).
        (
            {"actor": 0, "action": "captain", "target": 1, "block": {"by": 2, "as": "captain"}},
            "block_by",
            "only the live target",
        ),
        # The countess does not block a captain.
        (
            {"actor": 0, "action": "captain", "target": 1, "block": {"by": 1, "as": "countess"}},
            "block_as",
            "does not block",
        ),
        # The actor cannot challenge its own claim.
        (
            {"actor": 0, "action": "captain", "target": 1, "challenge": {"by": 0, "truthful": True},
             "losses": [{"seat": 0, "card": "duchess"}]},
            "challenge_by",
            "other than the actor",
        ),
    ],
)  # fmt: skip
def test_the_engine_refusal_is_shown_beside_its_field_and_nothing_is_stored(
    web: Client, user: Any, turn: dict[str, Any], field: str, words: str
) -> None:
    game = make_game(user)
    response = append(web, game, turn_post(turn, 1))
    assert response.status_code == 400
    shown = error_of(response.content.decode(), field)
    assert words in shown
    # In the players' terms: a player's name first, no seat number, no engine code.
    assert shown.startswith(("Ada", "Bea", "Cy")) and not re.search(r"seat \d|_", shown), shown
    assert not game.rounds.exists()
    game.refresh_from_db()
    assert game.result == ENGINE.replay({**_log(game), "turns": []})


def _log(game: Game) -> dict[str, Any]:
    return {
        "format": "complots-log/1",
        "players": [s.player.name for s in game.seats.order_by("seat")],
        "variant": game.variant,
        "first_player": game.first_player,
    }


def test_a_refused_second_loss_of_one_player_is_put_on_its_own_row(web: Client, user: Any) -> None:
    """Rules: a target who wrongly challenges a true assassin loses two influences. Both rows
    name Cy and a duchess; with two duchesses already up, the first is the last copy and the
    second cannot be: the refusal goes to the second row, not the first."""
    log = {
        "players": ["Ada", "Bea", "Cy", "Dev"],
        "first_player": 0,
        "turns": [
            {"actor": 0, "action": "income"},
            {"actor": 1, "action": "duchess", "challenge": {"by": 3, "truthful": True},
             "losses": [{"seat": 3, "card": "duchess"}]},
            {"actor": 2, "action": "duchess", "challenge": {"by": 1, "truthful": True},
             "losses": [{"seat": 1, "card": "duchess"}]},
            {"actor": 3, "action": "income"},
        ],
    }  # fmt: skip
    game = played(user, log)  # two duchesses up; Ada has 3 coins
    turn = {
        "actor": 0,
        "action": "assassin",
        "target": 2,
        "challenge": {"by": 2, "truthful": True},
        "losses": [{"seat": 2, "card": "duchess"}, {"seat": 2, "card": "duchess"}],
    }
    response = append(web, game, turn_post(turn, 5))
    assert response.status_code == 400
    html = response.content.decode()
    assert "every duchess is already face up" in error_of(html, "loss_1_card")
    assert 'id="loss_0_card-error"' not in html
    assert game.rounds.count() == 4


def test_a_stale_turn_number_is_refused(web: Client, user: Any) -> None:
    game = make_game(user)
    assert append(web, game, turn_post({"actor": 0, "action": "income"}, 1)).status_code == 302
    response = append(web, game, turn_post({"actor": 0, "action": "income"}, 1), follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert (
        "Turn 1 was already saved from another page or phone: here is the game as it is now; "
        "enter turn 2."
    ) in html
    assert "cannot be appended" not in html and "1 rounds" not in html
    assert game.rounds.count() == 1


def test_undo_the_last_turn(web: Client, user: Any) -> None:
    game = make_game(user)
    append(web, game, turn_post({"actor": 0, "action": "income"}, 1))
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "Undo turn 1" in html
    undo = {"number": "1", "confirmed": "yes"}  # the question's "Yes"
    response = web.post(reverse("web:round-undo", args=[game.pk]), undo, follow=True)
    html = response.content.decode()
    assert "The last turn was undone." in html and "Turn 1: Ada to act" in html
    assert not game.rounds.exists()


def test_only_the_owner_or_staff_enter_turns(
    other_web: Client, staff_web: Client, user: Any
) -> None:
    game = make_game(user)
    page = other_web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert 'id="turn-entry"' not in page and 'id="seats-table"' in page
    data = turn_post({"actor": 0, "action": "income"}, 1)
    assert other_web.post(reverse("web:round-append", args=[game.pk]), data).status_code == 403
    assert staff_web.post(reverse("web:round-append", args=[game.pk]), data).status_code == 302


def test_finish_is_refused_while_two_players_are_left(web: Client, user: Any) -> None:
    game = make_game(user)
    response = web.post(reverse("web:game-finish", args=[game.pk]), follow=True)
    assert "3 players are still in the game" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS


# --- A whole game through the pages -------------------------------------------------------------


def _ranking(html: str) -> list[tuple[int, int]]:
    """(seat, rank) of the ranking list, in its order."""
    return [
        (int(seat), int(rank))
        for seat, rank in re.findall(
            r'<li id="player-\d+" data-seat="(\d+)" data-rank="(\d+)"', html
        )
    ]


@pytest.mark.parametrize(
    ("players", "seed", "variant"),
    [(3, 36, "inquisitor"), (4, 31, "ambassador"), (5, 4, "inquisitor"), (2, 3, "ambassador")],
)
def test_a_whole_game_through_the_pages_ranks_like_the_engine(
    web: Client, user: Any, players: int, seed: int, variant: str
) -> None:
    log = simulate(players, seed=seed, variant=variant)
    expected = ENGINE.replay(log)
    game = make_game(user, tuple(log["players"]), first_player=log["first_player"], variant=variant)
    for number, turn in enumerate(log["turns"], start=1):
        response = append(web, game, turn_post(turn, number))
        assert response.status_code == 302, response.content.decode()[:3000]
    page = web.get(reverse("web:game", args=[game.pk])).content.decode()
    winner = log["players"][expected["winners"][0]]
    assert f"{winner} wins: one player is left" in page and 'id="turn-entry"' not in page
    response = web.post(reverse("web:game-finish", args=[game.pk]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result == expected
    assert [s.rank for s in game.seats.order_by("seat")] == [p["rank"] for p in expected["players"]]

    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    by_rank = sorted(expected["players"], key=lambda p: (p["rank"], p["seat"]))
    assert _ranking(html) == [(p["seat"], p["rank"]) for p in by_rank]
    wording = ENGINE.info.tiebreak_wording
    for p in expected["players"]:
        item = re.search(rf'<li id="player-{p["seat"]}".*?</li>', html, re.S)
        assert item
        if p["tiebreak"]:
            assert wording[p["tiebreak"]] in item.group(0)
        for stat in ENGINE.info.stats:
            cell = re.search(
                rf'<td class="num" data-seat="{p["seat"]}" data-key="{stat.name}">(\d+)</td>', html
            )
            assert cell and int(cell.group(1)) == p[stat.name], (p["name"], stat.name)
    assert html.count('class="badge win"') == 1
    assert len(re.findall(r"<li value=", html)) == len(log["turns"])  # every turn in words


def test_an_unfinished_game_shows_its_standings_and_tiebreaks(web: Client, user: Any) -> None:
    """K4: an unfinished game ranks its live players by influences, then coins; equal pairs
    share the rank. Everyone takes income once: Ada, Bea and Cy all have 3 coins and two
    influences, so they share the first place."""
    turns = [{"actor": s, "action": "income"} for s in (0, 1, 2)]
    game = played(user, {"players": ["Ada", "Bea", "Cy"], "first_player": 0, "turns": turns})
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "Standings after 3 turns" in html
    assert _ranking(html) == [(0, 1), (1, 1), (2, 1)]
    assert "Tie-break: " + ENGINE.info.tiebreak_wording["shared"] + " (with Bea and Cy)." in html


def test_the_player_page_shows_each_game_type_played(
    web: Client, user: Any, standard_deck: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from scoring.engine.potdevin.simulate import simulate as potdevin_simulate

    with django_capture_on_commit_callbacks(execute=True):
        services.game_import(
            club=first_club(),
            owner=user,
            documents=[
                potdevin_simulate(3, seed=1, record_deal=False),
                simulate(3, seed=36, variant="inquisitor"),
            ],
        )
    ada = Player.objects.get(name="Ada")
    html = web.get(reverse("web:player", args=[ada.pk])).content.decode()
    assert 'id="game-pot-de-vin"' in html and 'id="game-complots"' in html
    complots = html.split('id="game-complots"')[1]
    assert "<dt>Games</dt><dd>1</dd>" in complots
    assert 'id="counts-complots"' in complots and "Claims made" in complots
    assert "Score history" not in complots  # Complots has no scores
    home = web.get(reverse("web:home")).content.decode()
    assert 'id="board-pot-de-vin"' in home and 'id="board-complots"' in home
    assert "Complots #" in home


def test_every_complots_form_control_has_a_label(web: Client, user: Any) -> None:
    game = make_game(user, variant="inquisitor")
    pages = [
        web.get(reverse("web:game-new-of", args=["complots"])).content.decode(),
        web.get(reverse("web:game", args=[game.pk])).content.decode(),
        append(
            web,
            game,
            {"number": "1", "actor": "0", "action": "captain", "target": "1", "step": "details"},
        ).content.decode(),
        append(
            web,
            game,
            {"number": "1", "actor": "0", "action": "inquire", "target": "1", "step": "details"},
        ).content.decode(),
    ]
    for html in pages:
        labelled = set(re.findall(r'<label[^>]*\bfor="([^"]+)"', html))
        for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", html):
            if re.search(r'type="(hidden|submit)"', tag):
                continue
            control_id = re.search(r'\bid="([^"]+)"', tag)
            assert control_id and (control_id.group(1) in labelled or "aria-label" in tag), tag


def test_nothing_is_written_by_showing_a_page(web: Client, user: Any, standard_deck: Any) -> None:
    """Reads never write: Pot de Vin's built-in decks are stored at migrate, not on a GET."""
    game = make_game(user)
    counts = (Game.objects.count, Round.objects.count, Player.objects.count, Edition.objects.count)
    before = [count() for count in counts]
    for url in (
        reverse("web:decks"),
        reverse("web:deck-new"),
        reverse("web:deck", args=["standard"]),
        reverse("web:game-new-of", args=["pot-de-vin"]),
        reverse("web:scorepad-new"),
        reverse("web:home"),
        reverse("web:game-new"),
        reverse("web:game-new-of", args=["complots"]),
        reverse("web:game", args=[game.pk]),
        reverse("web:players"),
        reverse("web:rescore"),
    ):
        assert web.get(url).status_code == 200, url
    assert [count() for count in counts] == before


def test_a_forged_choice_is_a_form_error_where_it_was_typed(web: Client, user: Any) -> None:
    game = make_game(user)
    data = {**turn_post({"actor": 0, "action": "income"}, 1), "action": "steal"}
    html = append(web, game, data).content.decode()
    assert "Select a valid choice" in error_of(html, "action")
    data = turn_post({"actor": 0, "action": "duchess", "losses": [{"seat": 9, "card": "x"}]}, 1)
    response = append(web, game, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Select a valid choice" in error_of(html, "loss_0_seat")
    assert 'id="save-turn"' in html  # the second step, where the loss rows are
    missing = turn_post({"actor": 0, "action": "income"}, 1)
    del missing["number"]
    html = append(web, game, missing).content.decode()
    assert "Turn number: This field is required." in html
    assert not game.rounds.exists()


# --- A game known by its result (scorepad mode: the elimination order, K4) --------------------


def result_post(out: list[int], names: tuple[str, ...] = ("Ada", "Bea", "Cy"), **fields: str):
    """The result page's fields: the players, then the seat at each place of the elimination
    order (1st out first), then any count box (``c<seat>_<count>``) or other field."""
    data = {"game_type": "complots", "variant": "inquisitor"}
    data.update({f"player_{seat}": name for seat, name in enumerate(names)})
    data.update({f"out_{place}": str(seat) for place, seat in enumerate(out, start=1)})
    data.update(fields)
    return data


def post_result(web: Client, data: dict[str, str]) -> Any:
    return web.post(reverse("web:scorepad-new-of", args=["complots"]), data)


def test_the_scorepad_offers_complots_by_its_result(web: Client) -> None:
    html = web.get(reverse("web:scorepad-new")).content.decode()
    assert f'href="{reverse("web:scorepad-new-of", args=["complots"])}"' in html
    html = web.get(reverse("web:scorepad-new-of", args=["complots"])).content.decode()
    # A select per place, 1st to 7th out (8 players at most: the 8th is the winner).
    assert re.findall(r'<select name="out_(\d)"', html) == [str(p) for p in range(1, 8)]
    assert re.search(r'<details id="counts-entry">', html)  # folded away
    assert "the one left standing wins" in html  # Complots' own help, not a "final sheet"


def test_a_result_is_recorded_and_ranked_by_elimination(web: Client) -> None:
    # Cy went out first, then Ada: Bea won (K4: the one eliminated last is 2nd).
    data = result_post([2, 0], c1_claims_made="3", c1_bluffs_caught="1")
    response = post_result(web, data)
    assert response.status_code == 302, response.context["sheet"].errors
    game = Game.objects.get(game_type="complots")
    assert (game.mode, game.status, game.variant) == ("scorepad", "finished", "inquisitor")
    assert game.sheet == {
        "eliminated": [2, 0],
        "counts": [None, {"claims_made": 3, "bluffs_caught": 1}, None],
    }
    assert [s.rank for s in game.seats.order_by("seat")] == [2, 1, 3]
    assert game.result["winners"] == [1]
    html = web.get(response["Location"]).content.decode()
    ranking = re.findall(r'<li id="player-(\d)" data-seat="\d" data-rank="(\d)"', html)
    assert ranking == [("1", "1"), ("0", "2"), ("2", "3")]
    assert "last one standing" in html and "2nd out" in html and "1st out" in html
    # No table of coins and cards, no turns: they are not known.
    assert 'id="seats-table"' not in html and 'id="turns"' not in html
    assert 'data-seat="1" data-key="claims_made">3<' in html
    assert 'data-seat="0" data-key="claims_made"><span aria-hidden="true">—' in html


def test_a_result_without_counts_shows_no_counts(web: Client) -> None:
    response = post_result(web, result_post([0, 2]))
    html = web.get(response["Location"]).content.decode()
    assert 'id="counts-table"' not in html and 'id="ranking"' in html


@pytest.mark.parametrize(
    ("out", "fields", "field", "words"),
    [
        ([0, 0], {}, "out_2", "Ada is chosen twice."),
        ([0, 4], {}, "out_2", "Seat 5 has no player."),
        ([], {"out_2": "0"}, "out_1", "Fill the places in order"),
        ([1], {}, None, "every player but the winner, 2 players of 3"),
        ([0, 1, 2], {}, None, "One player is left standing, the winner"),
        ([0, 1], {"c2_claims_made": "-1"}, "c2_claims_made", "greater than or equal to 0"),
        ([0, 1], {"c0_coins_gained": "many"}, "c0_coins_gained", "Enter a whole number"),
    ],
)
def test_a_result_the_form_refuses_stores_nothing(
    web: Client, out: list[int], fields: dict[str, str], field: str | None, words: str
) -> None:
    response = post_result(web, result_post(out, **fields))
    assert response.status_code == 400  # refused: said beside its fields
    errors = response.context["sheet"].errors
    assert any(words in e for e in errors[field or "__all__"]), errors
    assert not Game.objects.exists() and not Player.objects.exists()
    if field and field.startswith("c"):  # a refused count unfolds the counts
        assert '<details id="counts-entry" open>' in response.content.decode()


def test_the_engines_refusal_is_shown_at_the_count_in_the_players_words(web: Client) -> None:
    # Ada made 1 challenge and won 2: impossible (a won challenge is one made).
    data = result_post([0, 1], c0_challenges_made="1", c0_challenges_won="2")
    response = post_result(web, data)
    assert response.status_code == 400  # refused: said beside its fields
    errors = response.context["sheet"].errors
    assert errors["c0_challenges_won"] == [
        "Ada has 2 challenges won, more than its 1 challenges made."
    ]
    assert not Game.objects.exists() and not Player.objects.exists()
    # Three players credited with three eliminations of a 3-player game (K5: two).
    data = result_post([0, 1], c0_players_eliminated="1", c2_players_eliminated="2")
    errors = post_result(web, data).context["sheet"].errors
    assert errors["__all__"] == [
        "The players eliminated add up to 3: a finished game of 3 players has 2 eliminated "
        "players, each credited to one player."
    ]
    assert not Game.objects.exists()
