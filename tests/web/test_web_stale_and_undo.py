"""Pages the game has left, undo that asks first, and deleting a game from its page.

A form posted for a state the game has left (Back after a save, a second tab, a second phone) is
answered with the game as it is now (a redirect to its page, whose entry form is fresh for the
next entry) and a notice saying what happened, never a page stuck on the old entry. "Undo round
N" asks first, names the round it undoes, and undoes nothing when that round is no longer the
last. "Delete this game" asks first, deletes the game and keeps its history."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.records import board_games, services
from games.records.models import Club, Edition, Game, GameEvent, Membership, Round
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import make_user, signed_in
from tests.web import test_web_bruges as bruges
from tests.web import test_web_complots as complots
from tests.web.test_web_pages import make_game, round_post

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    """The page's words: tags removed, entities read, spaces folded."""
    words = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html_lib.unescape(words).split())


def hidden_fields(html: str, form_id: str) -> dict[str, list[str]]:
    """The hidden fields of a form of the page, as a browser sends them back."""
    form = re.search(rf'<form[^>]*id="{form_id}".*?</form>', html, re.S)
    assert form, f"no form {form_id}"
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(0)
    ):
        if name != "csrfmiddlewaretoken":
            fields.setdefault(name, []).append(html_lib.unescape(value))
    return fields


def undo_form(html: str) -> dict[str, str]:
    """The undo button's form: its hidden number, as the page gives it."""
    form = re.search(r'<form[^>]*action="[^"]*/rounds/undo/"[^>]*>(.*?)</form>', html, re.S)
    assert form, "no undo form"
    assert 'id="undo-round"' in form.group(1)
    number = re.search(r'<input type="hidden" name="number" value="(\d+)">', form.group(1))
    assert number, "the undo form names no entry"
    return {"number": number.group(1)}


def game_url(game: Game) -> str:
    return reverse("web:game", args=[game.pk])


def pdv_log() -> dict[str, Any]:
    """A 3-player Pot de Vin game (Ada, Bea, Cy) the engine played, without the deal."""
    return simulate(3, seed=1, record_deal=False)


def pdv_game(user: Any, log: dict[str, Any]) -> Game:
    return make_game(user, tuple(log["players"]), first_player=log["first_player"])


# --- Back after a save: the game as it is now, and the next entry at once --------------------


def test_back_to_a_saved_review_shows_the_game_now_and_the_next_round_goes_in(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    """The review of round 1, saved, then saved again from Back: nothing stored twice, the game
    page with a notice naming the round saved and the next one, a fresh form for round 2 whose
    post is stored at once (the old page kept refusing round 1 instead)."""
    log = pdv_log()
    game = pdv_game(user, log)
    url = reverse("web:round-append", args=[game.pk])
    review = web.post(url, {**round_post(log["rounds"][0], 1), "review": ""})
    assert review.status_code == 200 and 'id="entry-review"' in review.content.decode()
    fields = hidden_fields(review.content.decode(), "entry-review")
    assert fields["number"] == ["1"]
    assert web.post(url, {**fields, "review": "save"}).status_code == 302
    assert list(game.rounds.values_list("number", flat=True)) == [1]

    # "Save round 1" again from another page with the same review (Back on this very page is
    # answered as its save was: its form's key, test_web_idempotency).
    again = web.post(url, {**fields, "review": "save", "idempotency_key": "another-page"})
    assert again.status_code == 302
    assert again["Location"] == f"{game_url(game)}#entry"
    assert list(game.rounds.values_list("number", flat=True)) == [1]
    page = web.get(again["Location"])
    assert page.status_code == 200
    assert (
        "Round 1 was already saved from another page or phone: here is the game as it is now; "
        "enter round 2."
    ) in text(page)
    html = page.content.decode()
    assert "Review round 2" in html and 'name="number" value="2"' in html
    # "Change" from the old review, or its entry form: the same answer, nothing stored.
    change = web.post(url, {**fields, "review": "change"})
    assert change.status_code == 302 and game.rounds.count() == 1
    web.get(change["Location"])

    # The next round from the fresh form, at once.
    second = web.post(url, round_post(log["rounds"][1], 2))
    assert second.status_code == 302
    assert list(game.rounds.order_by("number").values_list("number", flat=True)) == [1, 2]
    assert list(game.rounds.order_by("number").values_list("data", flat=True)) == [
        log["rounds"][0],
        log["rounds"][1],
    ]


def test_a_round_undone_on_another_phone_says_so_and_nothing_is_stored(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    """A page open on round 2 while round 1 was undone elsewhere: its round 2 is not stored,
    and the game page asks for round 1 again."""
    log = pdv_log()
    game = pdv_game(user, log)
    services.round_append(game=game, round_data=log["rounds"][0], number=1)
    services.round_undo(game=game)
    response = web.post(
        reverse("web:round-append", args=[game.pk]), round_post(log["rounds"][1], 2)
    )
    assert response.status_code == 302 and not game.rounds.exists()
    page = web.get(response["Location"])
    assert (
        "Round 1 was undone from another page or phone: here is the game as it is now; "
        "enter round 1."
    ) in text(page)
    assert 'name="number" value="1"' in page.content.decode()


def test_a_complots_turn_saved_twice_shows_the_game_now_and_the_next_turn_goes_in(
    web: Client, user: Any
) -> None:
    """The review of turn 1 saved, then saved again from Back: the game page with a notice in
    the game's words (a turn), a fresh form for turn 2 (Bea to act, K3: turn order), stored at
    once from it."""
    game = complots.make_game(user)
    income = {"actor": 0, "action": "income"}
    review = complots.append(web, game, complots.turn_post(income, 1, review=""))
    fields = complots.review_fields(review.content.decode())
    assert complots.append(web, game, {**fields, "review": "save"}).status_code == 302
    again = complots.append(
        web, game, {**fields, "review": "save", "idempotency_key": "another-page"}
    )
    assert again.status_code == 302 and game.rounds.count() == 1
    page = web.get(again["Location"])
    assert (
        "Turn 1 was already saved from another page or phone: here is the game as it is now; "
        "enter turn 2."
    ) in text(page)
    assert "Turn 2: Bea to act" in text(page)
    assert 'name="number" value="2"' in page.content.decode()
    # The first step of the old turn's entry too (a second phone still on turn 1).
    step = complots.append(web, game, complots.turn_post(income, 1, step="action", review=""))
    assert step.status_code == 302 and game.rounds.count() == 1
    web.get(step["Location"])

    second = complots.append(web, game, complots.turn_post({"actor": 1, "action": "income"}, 2))
    assert second.status_code == 302
    assert list(game.rounds.order_by("number").values_list("data", flat=True)) == [
        income,
        {"actor": 1, "action": "income"},
    ]


def test_a_bruges_round_saved_twice_shows_the_game_now_and_the_next_round_goes_in(
    web: Client, user: Any
) -> None:
    """Bruges' round entry in steps: its review saved, then saved again from Back; a step
    posted from a second phone still on that round; both answered with the game page, a notice
    and the entry of round 2, which is entered and stored from it (the worked example of
    rules/bruges.md, then a quiet round: B8)."""
    services.editions_ensure_builtin()
    game = bruges.make_game(user)
    entry = bruges.Entry(web, game)
    persons: dict[str, dict[str, Any]] = {}
    entry.draw(bruges.EXAMPLE_ROUND)
    entry.dice(bruges.EXAMPLE_ROUND["dice"])
    entry.phase2(bruges.EXAMPLE_ROUND)
    for turn in bruges.EXAMPLE_ROUND["turns"]:
        entry.turn(turn, persons)
    fields = entry.review_fields()
    entry.confirm()
    assert Round.objects.filter(game=game).count() == 1

    url = reverse("web:round-append", args=[game.pk])
    again = web.post(url, {**fields, "review": "save", "idempotency_key": "another-page"})
    assert again.status_code == 302 and Round.objects.filter(game=game).count() == 1
    page = web.get(again["Location"])
    assert (
        "Round 1 was already saved from another page or phone: here is the game as it is now; "
        "enter round 2."
    ) in text(page)
    assert '<input type="hidden" name="number" value="2"' in page.content.decode()
    # A step of round 1 from a phone that was still entering it.
    step = web.post(url, {"number": "1", "draft": "", "step": "dice", "dice_blue": "3"})
    assert step.status_code == 302 and Round.objects.filter(game=game).count() == 1
    web.get(step["Location"])

    second = bruges.Entry(web, game)
    assert second.number == 2
    second.round(bruges.QUIET_ROUND, persons)
    assert list(Round.objects.filter(game=game).order_by("number").values_list("number")) == [
        (1,),
        (2,),
    ]


# --- The finish and reopen forms of a page the game has left ---------------------------------


def played_out(user: Any) -> tuple[Game, dict[str, Any]]:
    log = pdv_log()
    game = pdv_game(user, log)
    for number, log_round in enumerate(log["rounds"], start=1):
        services.round_append(game=game, round_data=log_round, number=number)
    game.refresh_from_db()
    return game, log


def test_finish_posted_twice_or_after_a_change_shows_the_game_now(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    """Pot de Vin ends after the round that used the last trump card (D3): the finish form,
    sent twice (Back), answers with the finished game and a notice; sent from a page shown
    before the last round was undone and entered again elsewhere, it finishes nothing."""
    game, log = played_out(user)
    html = web.get(game_url(game)).content.decode()
    finish = hidden_fields(html, "game-finish")
    assert finish["version"] and finish["version"][0]
    assert web.post(reverse("web:game-finish", args=[game.pk]), finish).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    events = GameEvent.objects.filter(game_id=game.pk, action="finished").count()

    another_page = {**finish, "idempotency_key": ["another-page"]}
    twice = web.post(reverse("web:game-finish", args=[game.pk]), another_page, follow=True)
    assert twice.status_code == 200
    assert (
        f"Game #{game.pk} was already finished from another page or phone: here it is as it is now."
    ) in text(twice)
    assert GameEvent.objects.filter(game_id=game.pk, action="finished").count() == events

    # Reopened, the last round undone and entered again on another phone: the old page's
    # finish (its Jokers as they were) is not taken.
    reopened = web.post(reverse("web:game-reopen", args=[game.pk]))
    assert reopened.status_code == 302
    services.round_undo(game=game)
    last = len(log["rounds"])
    services.round_append(game=game, round_data=log["rounds"][-1], number=last)
    stale = web.post(reverse("web:game-finish", args=[game.pk]), finish, follow=True)
    assert (
        "The game changed on another page or phone since this page was shown: nothing was "
        "finished. Here is the game as it is now."
    ) in text(stale)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    # The page as it is now finishes it.
    fresh = hidden_fields(web.get(game_url(game)).content.decode(), "game-finish")
    assert fresh["version"] != finish["version"]
    assert web.post(reverse("web:game-finish", args=[game.pk]), fresh).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_reopen_posted_twice_shows_the_game_now(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game, _ = played_out(user)
    services.game_finish(game=game)
    assert web.post(reverse("web:game-reopen", args=[game.pk])).status_code == 302
    twice = web.post(reverse("web:game-reopen", args=[game.pk]), follow=True)
    assert (
        f"Game #{game.pk} was already reopened from another page or phone: here it is as it is now."
    ) in text(twice)
    assert GameEvent.objects.filter(game_id=game.pk, action="reopened").count() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS


# --- Undo asks first, and names the round it undoes ------------------------------------------


def two_rounds(web: Client, user: Any) -> tuple[Game, dict[str, Any]]:
    log = pdv_log()
    game = pdv_game(user, log)
    for number in (1, 2):
        response = web.post(
            reverse("web:round-append", args=[game.pk]),
            round_post(log["rounds"][number - 1], number),
        )
        assert response.status_code == 302
    return game, log


def test_undo_asks_first_naming_the_round_and_stores_nothing(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game, _ = two_rounds(web, user)
    page = web.get(game_url(game)).content.decode()
    # Apart from the entry: after the standings, not right under "Review round 3".
    assert page.index('id="save-round"') < page.index('id="h-standings"') < page.index("undo-round")
    form = undo_form(page)
    assert form == {"number": "2"}
    asked = web.post(reverse("web:round-undo", args=[game.pk]), form)
    assert asked.status_code == 200
    words = text(asked)
    assert "Undo round 2?" in words
    assert "Round 2 is deleted with everything entered in it" in words
    assert "Round 2 entered by alice." in words
    html = asked.content.decode()
    assert 'id="confirm-yes"' in html and ">Undo round 2</button>" in html
    assert 'id="confirm-no">No, go back</a>' in html and f'href="{game_url(game)}"' in html
    assert list(game.rounds.values_list("number", flat=True).order_by("number")) == [1, 2]
    # The question sends the number again with its "Yes".
    yes = re.search(r'<form method="post" class="confirm-actions">(.*?)</form>', html, re.S)
    assert yes and '<input type="hidden" name="number" value="2">' in yes.group(1)


def test_undo_confirmed_removes_exactly_the_named_round(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game, log = two_rounds(web, user)
    form = undo_form(web.get(game_url(game)).content.decode())
    done = web.post(reverse("web:round-undo", args=[game.pk]), {**form, "confirmed": "yes"})
    assert done.status_code == 302
    assert list(game.rounds.values_list("number", flat=True)) == [1]
    assert game.rounds.get().data == log["rounds"][0]
    assert "The last round was undone." in text(web.get(done["Location"]))
    assert GameEvent.objects.filter(game_id=game.pk, action="undone", number=2).count() == 1

    # The same "Yes" again (Back to the question): round 1 is not undone in its place.
    again = web.post(reverse("web:round-undo", args=[game.pk]), {**form, "confirmed": "yes"})
    assert again.status_code == 302
    assert list(game.rounds.values_list("number", flat=True)) == [1]
    assert (
        "Round 2 was already undone from another page or phone: nothing more was undone. "
        "Here is the game as it is now."
    ) in text(web.get(again["Location"]))
    assert GameEvent.objects.filter(game_id=game.pk, action="undone").count() == 1


def test_undo_of_a_round_no_longer_the_last_removes_nothing(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    """An undo page shown at round 1, with round 2 saved since on another phone: neither the
    question nor its "Yes" undoes round 2."""
    log = pdv_log()
    game = pdv_game(user, log)
    url = reverse("web:round-append", args=[game.pk])
    assert web.post(url, round_post(log["rounds"][0], 1)).status_code == 302
    form = undo_form(web.get(game_url(game)).content.decode())
    assert form == {"number": "1"}
    services.round_append(game=game, round_data=log["rounds"][1], number=2)
    for data in (form, {**form, "confirmed": "yes"}):
        response = web.post(reverse("web:round-undo", args=[game.pk]), data)
        assert response.status_code == 302
        assert list(game.rounds.order_by("number").values_list("number", flat=True)) == [1, 2]
        assert (
            "Round 1 was not undone: it is no longer the last round, as round 2 was saved since "
            "from another page or phone. Here is the game as it is now."
        ) in text(web.get(response["Location"]))
    # Without the number (a page from before the question): nothing undone either.
    bare = web.post(reverse("web:round-undo", args=[game.pk]), {"confirmed": "yes"})
    assert bare.status_code == 302 and game.rounds.count() == 2
    assert not GameEvent.objects.filter(game_id=game.pk, action="undone").exists()


def test_undo_of_a_complots_turn_asks_in_the_games_words(web: Client, user: Any) -> None:
    game = complots.make_game(user)
    complots.append(web, game, complots.turn_post({"actor": 0, "action": "income"}, 1))
    form = undo_form(web.get(game_url(game)).content.decode())
    asked = web.post(reverse("web:round-undo", args=[game.pk]), form)
    assert "Undo turn 1?" in text(asked) and game.rounds.count() == 1
    done = web.post(reverse("web:round-undo", args=[game.pk]), {**form, "confirmed": "yes"})
    assert done.status_code == 302 and not game.rounds.exists()


def test_undo_keeps_the_round_being_entered_on_the_page(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    """The undo form is a form of its own: it sends none of the entry's fields, and the
    question's "No, go back" leads to the game page as it was."""
    game, _ = two_rounds(web, user)
    page = web.get(game_url(game)).content.decode()
    undo = re.search(r'<form[^>]*action="[^"]*/rounds/undo/"[^>]*>(.*?)</form>', page, re.S)
    assert undo and "trump" not in undo.group(1) and "play_0" not in undo.group(1)
    entry = re.search(r'<section id="entry".*?</section>', page, re.S)
    assert entry and "undo-round" not in entry.group(0)


# --- Deleting a game from its page -----------------------------------------------------------


def test_delete_asks_first_then_deletes_and_keeps_the_history(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game, _ = two_rounds(web, user)
    page = web.get(game_url(game)).content.decode()
    assert ">Delete this game</button>" in page
    # At the end of the page, after the history.
    assert page.index('id="h-history"') < page.index('id="game-delete"')
    url = reverse("web:game-delete", args=[game.pk])
    asked = web.post(url)
    assert asked.status_code == 200
    assert f"Delete game #{game.pk}?" in text(asked)
    assert "Its history is kept." in text(asked) and "Ada, Bea and Cy" in text(asked)
    assert f">Delete game #{game.pk}</button>" in asked.content.decode()
    assert Game.objects.filter(pk=game.pk).exists() and game.rounds.count() == 2

    done = web.post(url, {"confirmed": "yes"})
    assert done.status_code == 302 and done["Location"] == reverse("web:home")
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Round.objects.filter(game_id=game.pk).exists()
    assert f"Game #{game.pk} was deleted." in text(web.get(done["Location"]))
    history = list(
        GameEvent.objects.filter(game_id=game.pk).order_by("id").values_list("action", "number")
    )
    assert history == [("created", None), ("added", 1), ("added", 2), ("deleted", None)]
    assert GameEvent.objects.get(game_id=game.pk, action="deleted").username == "alice"
    assert web.get(game_url(game)).status_code == 404
    # Its "Yes" again (Back): Home with a notice, nothing else deleted.
    again = web.post(url, {"confirmed": "yes"})
    assert again.status_code == 302 and again["Location"] == reverse("web:home")
    assert f"Game #{game.pk} was already deleted." in text(web.get(again["Location"]))
    assert GameEvent.objects.filter(game_id=game.pk, action="deleted").count() == 1


def test_a_finished_game_and_a_play_known_by_its_scores_are_deleted_alike(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game, _ = played_out(user)
    services.game_finish(game=game)
    club = game.club
    azul = board_games.board_game_create(club=club, name="Azul")
    play = board_games.result_game_create(
        club=club,
        owner=user,
        players=services.players_resolve(["Ada", "Bea"], club=club, created_by=user),
        game_type="other",
        board_game=azul,
        sheet=[{"score": 10}, {"score": 7}],
    )
    for each in (game, play):
        assert 'id="game-delete"' in web.get(game_url(each)).content.decode()
        response = web.post(reverse("web:game-delete", args=[each.pk]), {"confirmed": "yes"})
        assert response.status_code == 302
        assert not Game.objects.filter(pk=each.pk).exists()
        assert GameEvent.objects.filter(game_id=each.pk, action="deleted").count() == 1


def test_delete_is_refused_to_a_member_and_to_a_recorder_on_anothers_game(
    user: Any, other_user: Any, standard_deck: Edition
) -> None:
    game = make_game(user)
    dave = make_user("dave")  # a recorder of the same club, who did not enter the game
    for who in (other_user, dave):
        client = signed_in(who)
        page = client.get(game_url(game))
        assert page.status_code == 200 and 'id="game-delete"' not in page.content.decode()
        url = reverse("web:game-delete", args=[game.pk])
        assert client.post(url).status_code == 403
        assert client.post(url, {"confirmed": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()
    assert not GameEvent.objects.filter(game_id=game.pk, action="deleted").exists()


def test_an_admin_deletes_any_game_of_the_club(user: Any, standard_deck: Edition) -> None:
    game = make_game(user)
    admin = make_user("erin", role=Membership.Role.ADMIN)
    client = signed_in(admin)
    assert 'id="game-delete"' in client.get(game_url(game)).content.decode()
    response = client.post(reverse("web:game-delete", args=[game.pk]), {"confirmed": "yes"})
    assert response.status_code == 302 and not Game.objects.filter(pk=game.pk).exists()
    assert GameEvent.objects.get(game_id=game.pk, action="deleted").username == "erin"


def test_another_clubs_game_is_not_found_alike_with_a_missing_one(
    user: Any, standard_deck: Edition
) -> None:
    other_club = Club.objects.create(name="Other club", slug="other-club")
    owner = make_user("frank", club=other_club, role=Membership.Role.OWNER)
    theirs = services.game_create(
        club=other_club,
        owner=owner,
        players=services.players_resolve(
            club=other_club, refs=["Xavier", "Yves", "Zoltan"], created_by=owner
        ),
        game_type="pot-de-vin",
        first_player=0,
    )
    client = signed_in(user)
    for pk in (theirs.pk, theirs.pk + 1000):
        url = reverse("web:game-delete", args=[pk])
        assert client.post(url).status_code == 404
        assert client.post(url, {"confirmed": "yes"}).status_code == 404
    assert Game.objects.filter(pk=theirs.pk).exists()


def test_the_shared_page_has_no_delete_nor_undo(
    web: Client, client: Client, user: Any, standard_deck: Edition
) -> None:
    game, _ = two_rounds(web, user)
    share = services.share_create(game=game, by=user)
    html = client.get(share.get_absolute_url()).content.decode()
    assert 'id="game-delete"' not in html and 'id="undo-round"' not in html
