"""The web scorepad's pages through Django's test client: sign-in, every page renders, forms
check what is typed, the engine's errors land next to what caused them, staff-only actions are
refused to others, and the pages show the engine's own numbers."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.records import services
from games.records.game_types import plugin_for
from games.records.models import Edition, Game, Player, Round
from scoring.engine import get_engine
from scoring.engine.potdevin.simulate import simulate
from scoring.jobs import tasks
from scoring.models import Job
from tests.accounts import PASSWORD, first_club

pytestmark = pytest.mark.django_db

# A 3-player game without the deal, seat 1 starting (the README's example), worked by hand
# with the D1 deck: round 1, E5 revealed; seat 1 leads A7, seat 2 pays a gem, seat 0 plays A9
# and wins (no Enzo card played): seat 0 takes A7 (workmen), A9 (assassins), E5 (workmen) and
# the gem: workmen 2 symbols = 3, assassins 1 = 1, 1 gem = 1 -> 5 points.
# Posted as the review's "Save" sends it.
ROUND_1 = {
    "number": "1",
    "trump": "E5",
    "play_0": "A7",
    "play_1": "pass",
    "play_2": "A9",
    "review": "save",
}


def make_game(owner: Any, names: tuple[str, ...] = ("Ada", "Bea", "Cy"), **kw: Any) -> Game:
    kw.setdefault("first_player", 1)
    setup = {k: kw.pop(k) for k in ("hands", "trump_pile") if k in kw}
    return services.game_create(
        club=first_club(),
        owner=owner,
        players=services.players_resolve(club=first_club(), refs=list(names), created_by=owner),
        game_type="pot-de-vin",
        setup=setup or None,
        **kw,
    )


def round_post(log_round: dict[str, Any], number: int) -> dict[str, str]:
    """The round-entry form's fields for one round of a log, as the review's "Save" sends them."""
    data = {"number": str(number), "trump": log_round["trump"], "review": "save"}
    for i, play in enumerate(log_round["plays"]):
        data[f"play_{i}"] = "pass" if play.get("pass") else play["card"]
    return data


def cell(html: str, unit: int, key: str) -> str:
    """The text of a scorepad cell (``data-unit``/``data-key``), tags stripped."""
    match = re.search(rf'<td data-unit="{unit}" data-key="{key}">(.*?)</td>', html, re.S)
    assert match, f"no cell {unit}/{key}"
    return re.sub(r"<[^>]+>", " ", match.group(1)).split()


PAGES = [
    ("web:home", {}),
    ("web:game-new", {}),
    ("web:scorepad-new", {}),
    ("web:players", {}),
    ("web:decks", {}),
    ("web:deck-new", {}),
    ("web:rescore", {}),
]


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_every_page_needs_a_signed_in_user(client: Client, name: str, kwargs: Any) -> None:
    url = reverse(name, kwargs=kwargs)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("web:login"))


def test_game_player_deck_and_job_pages_need_a_signed_in_user(
    client: Client, user: Any, standard_deck: Edition
) -> None:
    game = make_game(user)
    player = Player.objects.first()
    assert player is not None
    job = Job.objects.create(kind=Job.Kind.RESCORE, total=0, created_by=user)
    for url in (
        reverse("web:game", args=[game.pk]),
        reverse("web:player", args=[player.pk]),
        reverse("web:deck", args=["standard"]),
        reverse("web:job", args=[job.pk]),
    ):
        assert client.get(url).status_code == 302
    # Writes too: nothing changes.
    assert client.post(reverse("web:round-append", args=[game.pk]), ROUND_1).status_code == 302
    assert not Round.objects.exists()


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_every_page_renders_for_a_signed_in_user(
    web: Client, standard_deck: Edition, name: str, kwargs: Any
) -> None:
    response = web.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<link rel="stylesheet" href="/static/css/app.css">' in html
    assert "https://" not in html.replace("https://www.w3.org", "")  # nothing from a CDN


def test_static_files_are_served_by_the_project() -> None:
    from django.contrib.staticfiles import finders

    for path in ("css/app.css", "js/round.js", "js/turn.js", "js/players.js", "js/job.js"):
        assert finders.find(path), path


def test_sign_in_and_out(client: Client, user: Any) -> None:
    page = client.get(reverse("web:login"))
    assert page.status_code == 200
    assert b'for="id_username"' in page.content and b'for="id_password"' in page.content
    bad = client.post(reverse("web:login"), {"username": "alice", "password": "wrong"})
    assert bad.status_code == 200 and b"correct username and password" in bad.content
    good = client.post(reverse("web:login"), {"username": "alice", "password": PASSWORD})
    assert good.status_code == 302 and good["Location"] == reverse("web:home")
    assert client.get(reverse("web:home")).status_code == 200
    out = client.post(reverse("web:logout"))
    assert out.status_code == 302
    assert client.get(reverse("web:home")).status_code == 302


def test_every_form_control_has_a_label(web: Client, standard_deck: Edition, user: Any) -> None:
    game = make_game(user)
    for url in [reverse(n) for n, _ in PAGES] + [reverse("web:game", args=[game.pk])]:
        html = web.get(url).content.decode()
        labelled = set(re.findall(r'<label[^>]*\bfor="([^"]+)"', html))
        for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", html):
            if re.search(r'type="(hidden|submit)"', tag):
                continue
            control_id = re.search(r'\bid="([^"]+)"', tag)
            assert control_id and (control_id.group(1) in labelled or "aria-label" in tag), (
                url,
                tag,
            )


# --- New game ----------------------------------------------------------------------------


def new_game_data(**fields: Any) -> dict[str, Any]:
    data = {
        "player_0": "Ada",
        "player_1": "Bea",
        "player_2": "Cy",
        "first_player": "1",
        "teams": "",
        "deck": "standard",
        "location": "Club night",
        "game_type": "pot-de-vin",
    }
    data.update(fields)
    return data


def test_new_game_creates_players_seats_and_first_player(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    Player.objects.create(club=first_club(), name="Ada")
    response = web.post(reverse("web:game-new"), new_game_data(player_0="ada"))
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("web:game", args=[game.pk])
    assert game.owner == user and game.first_player == 1 and game.location == "Club night"
    assert [s.player.name for s in game.seats.order_by("seat")] == ["Ada", "Bea", "Cy"]
    assert Player.objects.count() == 3  # "ada" picked the known Ada


def test_new_game_with_teams(web: Client, standard_deck: Edition) -> None:
    data = new_game_data(player_3="Dev", teams="0,2;1,3", first_player="3")
    assert web.post(reverse("web:game-new"), data).status_code == 302
    game = Game.objects.get()
    assert game.teams == [[0, 2], [1, 3]]
    assert [s.team for s in game.seats.order_by("seat")] == [0, 1, 0, 1]


@pytest.mark.parametrize("game_type", ["pot-de-vin", "complots"])
def test_new_game_keeps_its_notes_in_the_header_and_the_log(
    web: Client, user: Any, standard_deck: Edition, game_type: str
) -> None:
    notes = "Rematch after dinner.\nBea arrived late."
    data = new_game_data(game_type=game_type, notes=notes, variant="ambassador")
    form = web.get(reverse("web:game-new-of", args=[game_type])).content.decode()
    assert 'name="notes"' in form and '<label for="id_notes">Notes</label>' in form
    response = web.post(reverse("web:game-new-of", args=[game_type]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get()
    assert (game.game_type, game.notes, game.location) == (game_type, notes, "Club night")
    assert services.game_export_log(game=game)["notes"] == notes
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "Rematch after dinner.<br>Bea arrived late." in html


def test_notes_past_their_length_are_a_form_error(web: Client, standard_deck: Edition) -> None:
    response = web.post(reverse("web:game-new"), new_game_data(notes="x" * 5001))
    assert response.status_code == 400  # refused: said beside its fields
    assert "at most 5000 characters" in " ".join(response.context["form"].errors["notes"])
    assert not Game.objects.exists()


def test_a_scorepad_entry_keeps_its_notes(web: Client, standard_deck: Edition) -> None:
    data = scorepad_data([{"nobles": 1, "cards": 1}, {}, {}], notes="From the paper sheet.")
    assert web.post(reverse("web:scorepad-new"), data).status_code == 302
    assert Game.objects.get().notes == "From the paper sheet."


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"player_2": ""}, "player_0", "3 to 6 players"),
        ({"player_1": "", "player_3": "Dev"}, "player_1", "no gap"),
        ({"player_2": "ADA"}, "player_2", "already has a seat"),
        ({"first_player": "4"}, "first_player", "must be one of the seats"),
        ({"teams": "0,2;1,3"}, "teams", "for 4 players"),
        ({"player_3": "Dev", "player_4": "Eli", "teams": "0,2;1,3"}, "teams", "for 4 players"),
        ({"deck": "nope"}, "deck", "Select a valid choice"),
    ],
)
def test_new_game_form_errors(
    web: Client, standard_deck: Edition, fields: dict[str, str], field: str, message: str
) -> None:
    response = web.post(reverse("web:game-new"), new_game_data(**fields))
    assert response.status_code == 400  # refused: said beside its fields
    # The players' form, and the game's own options (teams, deck).
    errors = {**response.context["form"].errors, **response.context["options"].errors}
    assert message in " ".join(errors.get(field, [])), errors
    assert not Game.objects.exists()


def test_new_game_refused_by_the_engine_keeps_no_new_player(
    web: Client, standard_deck: Edition, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scoring.engine import LogError

    def refuse(**kwargs: Any) -> Game:
        raise LogError("bad_first_player", "'first_player' must be a seat", seat=None)

    monkeypatch.setattr(services, "game_create", refuse)
    response = web.post(reverse("web:game-new"), new_game_data())
    assert response.status_code == 400  # refused: said beside its fields
    assert "must be a seat" in response.content.decode()
    assert not Player.objects.exists()


# --- Round entry --------------------------------------------------------------------------


def test_round_entry_shows_seats_in_turn_order_with_the_pickers(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game = make_game(user)
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    # Seat 1 starts: slots Bea, Cy, Ada; the starter cannot pass; the others show their gems.
    names = re.findall(r'<span class="slot-name">([^<]+)</span>', html)
    assert names == ["Trump card revealed", "Bea", "Cy", "Ada"]
    assert re.search(r'id="play0-pass"[^>]* disabled', html)
    assert "Pass (4 gems left)" in html
    assert html.count('type="radio"') == 52 * 4 + 3  # the trump and three seats, and Pass
    assert 'id="trump-E5"' in html and 'aria-label="Aldo"' in html


def test_a_round_is_stored_and_played_cards_are_disabled_after(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game = make_game(user)
    response = web.post(reverse("web:round-append", args=[game.pk]), ROUND_1)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.rounds.count() == 1
    assert game.result["players"][0]["score"] == 5  # worked by hand above
    page = web.get(reverse("web:game", args=[game.pk]))
    html = page.content.decode()
    assert "Round 1 saved: Ada wins it with A9." in html
    # Ada won: she starts round 2. A7, A9 and E5 are disabled in every picker.
    assert re.findall(r'<span class="slot-name">([^<]+)</span>', html)[1] == "Ada"
    for card in ("A7", "A9", "E5"):
        assert re.search(rf'id="play0-{card}" value="{card}" disabled', html)
        assert re.search(rf'id="trump-{card}" value="{card}" disabled', html)
    assert "Pass (3 gems left)" in html  # Cy paid a gem
    # The running tableau and the standings.
    assert 'id="tableau-table"' in html
    assert "Standings after 1 of 16 rounds" in html


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


def test_a_round_is_reviewed_in_words_before_it_is_saved(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game = make_game(user)
    url = reverse("web:round-append", args=[game.pk])
    entered = {k: v for k, v in ROUND_1.items() if k != "review"}  # as the entry sends it
    response = web.post(url, entered)
    assert response.status_code == 200 and not game.rounds.exists()  # nothing stored yet
    html = response.content.decode()
    assert "Round 1: check it before saving" in html
    lines = re.findall(r"<li>([^<]*)</li>", html.split('id="review-lines"')[1].split("</ul>")[0])
    assert lines == [
        "Trump revealed: E5 (Enzo is trump).",
        "Bea leads A7.",
        "Cy passes and pays a gem.",
        "Ada plays A9.",
    ]
    assert "Ada wins the round with A9: 3 cards and 1 gem." in html
    fields = review_fields(html)
    assert fields["trump"] == ["E5"] and fields["play_1"] == ["pass"]
    # "Change": the entry again, every choice kept, nothing stored.
    back = web.post(url, {**fields, "review": "change"}).content.decode()
    assert 'id="round-entry"' in back and 'id="entry-review"' not in back
    assert re.search(r'id="trump-E5" value="E5" checked', back)
    assert re.search(r'id="play0-A7" value="A7" checked', back)
    assert re.search(r'id="play1-pass"[^>]* checked', back)
    assert not game.rounds.exists()
    # "Save": stored, and the game stands as the engine's replay of the same log.
    assert web.post(url, {**fields, "review": "save"}).status_code == 302
    game.refresh_from_db()
    log = {"format": "potdevin-log/1", "players": ["Ada", "Bea", "Cy"], "first_player": 1}
    first = {
        "trump": "E5",
        "plays": [{"seat": 1, "card": "A7"}, {"seat": 2, "pass": True}, {"seat": 0, "card": "A9"}],
    }
    assert list(game.rounds.values_list("data", flat=True)) == [first]
    assert game.result == get_engine("pot-de-vin").replay({**log, "rounds": [first]})


def test_an_illegal_card_shows_the_engine_error_next_to_the_seat_and_stores_nothing(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game = make_game(user)
    web.post(reverse("web:round-append", args=[game.pk]), ROUND_1)
    # Round 2: Ada starts; Bea plays A9, which Ada played in round 1.
    data = {"number": "2", "trump": "U4", "play_0": "P5", "play_1": "A9", "play_2": "P8"}
    response = web.post(reverse("web:round-append", args=[game.pk]), data)
    assert response.status_code == 400
    html = response.content.decode()
    slot = re.search(r'<fieldset[^>]*id="slot-1".*?</fieldset>', html, re.S)
    assert slot and "A9 was already played" in slot.group(0)
    assert 'id="play_1-error"' in slot.group(0)
    # The entered actions are kept.
    assert re.search(r'id="trump-U4" value="U4" checked', html)
    assert re.search(r'id="play0-P5" value="P5" checked', html)
    assert game.rounds.count() == 1


def test_a_trump_error_shows_next_to_the_trump(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game = make_game(user)
    web.post(reverse("web:round-append", args=[game.pk]), ROUND_1)
    data = {"number": "2", "trump": "E5", "play_0": "P5", "play_1": "P6", "play_2": "P8"}
    response = web.post(reverse("web:round-append", args=[game.pk]), data)
    html = response.content.decode()
    assert response.status_code == 400
    assert re.search(r'id="trump-error">[^<]*E5 was already revealed', html)


def test_a_missing_action_is_a_form_error(web: Client, user: Any, standard_deck: Edition) -> None:
    game = make_game(user)
    data = {**ROUND_1, "play_2": ""}
    response = web.post(reverse("web:round-append", args=[game.pk]), data)
    assert response.status_code == 400
    assert "Choose a card for Ada, or pass." in response.content.decode()
    assert not game.rounds.exists()


def test_a_stale_round_number_is_refused(web: Client, user: Any, standard_deck: Edition) -> None:
    """Sent again (Back, a second phone): nothing stored twice, and the game as it is now."""
    game = make_game(user)
    web.post(reverse("web:round-append", args=[game.pk]), ROUND_1)
    response = web.post(reverse("web:round-append", args=[game.pk]), ROUND_1, follow=True)
    assert response.status_code == 200 and game.rounds.count() == 1
    assert (
        "Round 1 was already saved from another page or phone: here is the game as it is now; "
        "enter round 2."
    ) in response.content.decode()


def test_undo_the_last_round(web: Client, user: Any, standard_deck: Edition) -> None:
    game = make_game(user)
    web.post(reverse("web:round-append", args=[game.pk]), ROUND_1)
    assert 'id="undo-round"' in web.get(reverse("web:game", args=[game.pk])).content.decode()
    undo = {"number": "1", "confirmed": "yes"}  # the question's "Yes"
    response = web.post(reverse("web:round-undo", args=[game.pk]), undo, follow=True)
    assert "The last round was undone." in response.content.decode()
    assert not game.rounds.exists()
    again = web.post(reverse("web:round-undo", args=[game.pk]), undo, follow=True)
    assert "Round 1 was already undone" in again.content.decode()


def test_only_the_owner_or_staff_write_a_game(
    web: Client, other_web: Client, staff_web: Client, user: Any, standard_deck: Edition
) -> None:
    game = make_game(user)
    page = other_web.get(reverse("web:game", args=[game.pk]))
    assert page.status_code == 200 and b'id="round-entry"' not in page.content
    for name in ("web:round-append", "web:round-undo", "web:game-finish", "web:game-reopen"):
        assert other_web.post(reverse(name, args=[game.pk]), ROUND_1).status_code == 403
    assert not game.rounds.exists()
    assert staff_web.post(reverse("web:round-append", args=[game.pk]), ROUND_1).status_code == 302
    assert game.rounds.count() == 1
    # Its address loaded again (a language switch, a reload after Back) shows the game.
    for name in ("web:round-append", "web:game-finish"):
        again = web.get(reverse(name, args=[game.pk]))
        assert again.status_code == 302 and again["Location"] == f"/games/{game.pk}/"


def test_finish_refused_before_the_end(web: Client, user: Any, standard_deck: Edition) -> None:
    game = make_game(user)
    response = web.post(reverse("web:game-finish", args=[game.pk]), follow=True)
    assert "The game is not over" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS


def _play_through_pages(web: Client, game: Game, log: dict[str, Any]) -> None:
    for number, log_round in enumerate(log["rounds"], start=1):
        response = web.post(
            reverse("web:round-append", args=[game.pk]), round_post(log_round, number)
        )
        assert response.status_code == 302, response.content.decode()[:2000]


@pytest.mark.parametrize(("players", "teams", "seed"), [(3, False, 11), (4, True, 5)])
def test_a_whole_game_through_the_pages_scores_like_the_engine(
    web: Client, user: Any, standard_deck: Edition, players: int, teams: bool, seed: int
) -> None:
    log = simulate(players, seed=seed, teams=teams, record_deal=False)
    expected = get_engine("pot-de-vin").replay(log)
    game = make_game(
        user, tuple(log["players"]), first_player=log["first_player"], teams=log["teams"]
    )
    _play_through_pages(web, game, log)
    page = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "All rounds are played" in page and 'id="round-entry"' not in page
    web.post(reverse("web:game-finish", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    units = expected["teams"] or expected["players"]
    for i, unit in enumerate(units):
        assert cell(html, i, "total") == [str(unit["score"])]
        assert cell(html, i, "rank") == [str(unit["rank"])]
        breakdown = unit["breakdown"]
        for guild, entry in breakdown["guilds"].items():
            assert cell(html, i, guild)[-1] == str(entry["points"])
        assert cell(html, i, "pot_de_vin")[-1] == str(breakdown["pot_de_vin"]["points"])
        assert cell(html, i, "gems") == [
            str(breakdown["gems"]["count"]),
            "×",
            str(breakdown["gems"]["points"]),
        ]
    # Reopen: the round entry is back, nothing else changed.
    web.post(reverse("web:game-reopen", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.rounds.count() == len(log["rounds"])


def _played_out(owner: Any, log: dict[str, Any]) -> Game:
    """A game with every round of the log appended, not finished yet."""
    game = make_game(
        owner, tuple(log["players"]), first_player=log["first_player"], teams=log["teams"]
    )
    for number, log_round in enumerate(log["rounds"], start=1):
        services.round_append(game=game, round_data=log_round, number=number)
    game.refresh_from_db()
    return game


def _checked(html: str, field: str) -> list[str]:
    return re.findall(rf'<input type="checkbox" name="{field}" value="(\w+)"[^>]*checked', html)


def test_the_jokers_are_placed_where_the_finish_form_says(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    """Rules D5: the engine's placement (the one that scores most) is offered; moved by hand,
    the game is scored with the Joker where it went at the table.

    3 players, seed 0, worked by hand with the printed table: Ada ends with one Joker and real
    symbols in four columns (nobles 1, workmen 1, knights 3, assassins 4). On nobles it makes
    2 symbols: 1 -> 3 points (+2), the best gain. Moved to knights, nobles falls back to 1 point
    (-2) and knights goes from 3 symbols (6) to 4 (-1): 9 points fewer."""
    log = simulate(3, seed=0, record_deal=False)
    game = _played_out(user, log)
    page = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert '<fieldset class="jokers" id="jokers_0">' in page
    assert _checked(page, "jokers_0") == ["nobles"]
    assert re.findall(r'name="jokers_0" value="(\w+)"', page) == [
        "nobles",
        "workmen",
        "knights",
        "assassins",
    ]
    best = get_engine("pot-de-vin").replay(log)["players"][0]["score"]
    assert game.result is not None and game.result["players"][0]["score"] == best

    # Two boxes for one Joker: refused, nothing stored.
    too_many = web.post(
        reverse("web:game-finish", args=[game.pk]), {"jokers_0": ["knights", "workmen"]}
    )
    assert too_many.status_code == 400
    assert "Place exactly 1 Joker." in too_many.content.decode()
    game.refresh_from_db()
    assert (game.status, game.finish) == (Game.Status.IN_PROGRESS, None)

    # The others keep the engine's choice: only what moved is stated.
    keep = {"jokers_1": ["traders"], "jokers_2": ["nobles", "traders"]}
    response = web.post(
        reverse("web:game-finish", args=[game.pk]), {"jokers_0": ["knights"], **keep}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.finish) == (Game.Status.FINISHED, {"jokers": {"0": ["knights"]}})
    assert game.result["players"][0]["score"] == best - 9
    assert game.result["players"][0]["breakdown"]["jokers"]["placed"] == ["knights"]
    # The same as the engine given the placement in the log.
    assert game.result == get_engine("pot-de-vin").replay({**log, "jokers": {"0": ["knights"]}})


def test_a_team_states_its_pooled_jokers_under_its_first_seat(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    """Rules D5 and D8: 4 players in teams, seed 0. Ada & Cy hold one Joker; their counted
    columns are nobles 3, artists 1, traders 1, workmen 2, knights 2, assassins 5. On workmen
    (2 -> 3 symbols: 3 -> 6 points, +3) it gains most; on artists (1 -> 2: 1 -> 3, +2) one
    point less."""
    log = simulate(4, seed=0, teams=True, record_deal=False)
    game = _played_out(user, log)
    best = get_engine("pot-de-vin").replay(log)["teams"][0]["score"]
    page = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "Jokers of Ada &amp; Cy" in page
    assert _checked(page, "jokers_0") == ["workmen"]

    form = {"jokers_0": ["artists"], "jokers_1": ["artists", "workmen", "knights"]}
    assert web.post(reverse("web:game-finish", args=[game.pk]), form).status_code == 302
    game.refresh_from_db()
    assert game.finish == {"jokers": {"0": ["artists"]}}
    assert game.result["teams"][0]["score"] == best - 1
    assert game.result == get_engine("pot-de-vin").replay({**log, "jokers": {"0": ["artists"]}})


# --- Scorepad mode ------------------------------------------------------------------------


def scorepad_data(tableaux: list[dict[str, int]], **fields: Any) -> dict[str, Any]:
    data = {"teams": "", "deck": "standard", "game_type": "pot-de-vin"}
    names = fields.pop("names", ["Ada", "Bea", "Cy"])
    for seat, name in enumerate(names):
        data[f"player_{seat}"] = name
    for seat, counts in enumerate(tableaux):
        for key, value in counts.items():
            data[f"t{seat}_{key}"] = str(value)
    data.update(fields)
    return data


def test_scorepad_entry_scores_like_the_rules(web: Client, standard_deck: Edition) -> None:
    # Worked by hand (rules: scoring table, D5, Pot de Vin table, gems):
    # Ada: nobles 2 + the Joker = 3 symbols -> 6, artists 1 -> 1, +2 card -> 2, one Pot de Vin
    #      -> -1, 3 gems -> 3: 11. (The Joker on artists would make 3 + 3 = 6 < 7 guild points.)
    # Bea: traders 4 -> -1, a -2 card -> -2: -3.  Cy: knights 1 -> 1, 1 gem -> 1: 2.
    tableaux = [
        {
            "nobles": 2,
            "artists": 1,
            "jokers": 1,
            "bonus": 1,
            "pot_de_vin": 1,
            "gems": 3,
            "cards": 6,
        },
        {"traders": 4, "malus": 1, "cards": 3},
        {"knights": 1, "gems": 1, "cards": 1},
    ]
    response = web.post(reverse("web:scorepad-new"), scorepad_data(tableaux))
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get()
    assert game.mode == Game.Mode.SCOREPAD and game.status == Game.Status.FINISHED
    assert [(s.score, s.rank) for s in game.seats.order_by("seat")] == [(11, 1), (-3, 3), (2, 2)]
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert cell(html, 0, "nobles") == ["2", "+", "Joker", "6"]
    assert cell(html, 0, "jokers") == ["1", "held", "on", "Nobles"]
    assert cell(html, 0, "total") == ["11"]
    assert cell(html, 1, "traders") == ["4", "-1"]
    assert cell(html, 2, "rank") == ["2"]


def test_scorepad_tie_break_in_words(web: Client, standard_deck: Edition) -> None:
    # Ada and Bea both have a two-symbol column (3 points); Bea won 2 cards, Ada 1 (D7).
    tableaux = [{"nobles": 2, "cards": 1}, {"artists": 2, "cards": 2}, {}]
    assert web.post(reverse("web:scorepad-new"), scorepad_data(tableaux)).status_code == 302
    game = Game.objects.get()
    assert [s.rank for s in game.seats.order_by("seat")] == [2, 1, 3]
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "Tied on 3 points with Ada; more cards won decided it: 2 against 1." in html
    assert "Tied on 3 points with Bea; more cards won decided it: 1 against 2." in html


def test_scorepad_refused_tableau_shows_the_engine_error(
    web: Client, standard_deck: Edition
) -> None:
    tableaux = [{"nobles": 2, "cards": 9}, {}, {}]
    response = web.post(reverse("web:scorepad-new"), scorepad_data(tableaux))
    assert response.status_code == 400  # refused: said beside its fields
    assert "make 1 to 2 cards, not 9" in response.content.decode()
    assert not Game.objects.exists() and not Player.objects.exists()


def test_scorepad_form_checks_counts(web: Client, standard_deck: Edition) -> None:
    response = web.post(reverse("web:scorepad-new"), scorepad_data([{"nobles": -1}, {}, {}]))
    assert response.status_code == 400  # refused: said beside its fields
    assert response.context["sheet"].errors["t0_nobles"]  # the scorepad sheet's own form


# --- Players ------------------------------------------------------------------------------


def test_player_page_shows_statistics_charts_and_habits(
    web: Client, user: Any, standard_deck: Edition, django_capture_on_commit_callbacks: Any
) -> None:
    for seed in (1, 2):
        log = simulate(3, seed=seed, record_deal=False)
        with django_capture_on_commit_callbacks(execute=True):  # ratings follow the commit
            services.game_import(club=first_club(), owner=user, documents=[log])
    ada = Player.objects.get(name="Ada")
    listing = web.get(reverse("web:players"), {"q": "ad"}).content.decode()
    assert f'href="{reverse("web:player", args=[ada.pk])}"' in listing
    html = web.get(reverse("web:player", args=[ada.pk])).content.decode()
    assert "Statistics" in html and "<dt>Games</dt><dd>2</dd>" in html
    assert html.count('<svg class="chart"') == 2  # rating and score history
    assert 'id="habits"' in html
    assert html.count("<polyline") == 2


def test_player_page_of_a_player_without_games(web: Client) -> None:
    player = Player.objects.create(club=first_club(), name="Nobody")
    html = web.get(reverse("web:player", args=[player.pk])).content.decode()
    assert "No finished game yet." in html and "no data yet" in html


def test_home_lists_games_and_the_leaderboard(
    web: Client, user: Any, standard_deck: Edition, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # ratings follow the commit
        (finished,) = services.game_import(
            club=first_club(), owner=user, documents=[simulate(3, seed=4, record_deal=False)]
        )
    running = make_game(user, ("Dee", "Eve", "Fay"))
    html = web.get(reverse("web:home")).content.decode()
    assert f'href="{reverse("web:game", args=[running.pk])}"' in html
    assert f'href="{reverse("web:game", args=[finished.pk])}"' in html
    board = html.split('id="h-board"')[1]
    for name in ("Ada", "Bea", "Cy"):  # every rated player, with a link to their page
        player = Player.objects.get(name=name)
        assert f'href="{reverse("web:player", args=[player.pk])}">{name}</a>' in board


def test_the_main_menu_links_to_the_pages_each_game_has_of_its_own(web: Client) -> None:
    nav = web.get(reverse("web:home")).content.decode().split('aria-label="Main"')[1]
    nav = nav.split("</nav>")[0]
    assert f'<a href="{reverse("web:decks")}">Decks</a>' in nav  # Pot de Vin
    assert f'<a href="{reverse("web:bruges-editions")}">Bruges editions</a>' in nav
    assert nav.index("Decks") < nav.index("Bruges editions")  # in the plugins' order


# --- Decks --------------------------------------------------------------------------------


def test_deck_pages_and_a_new_version(web: Client, user: Any, standard_deck: Edition) -> None:
    assert b"not verified" in web.get(reverse("web:decks")).content
    detail = web.get(reverse("web:deck", args=["standard"])).content.decode()
    assert "A10" in detail and "Mark verified" not in detail  # not staff
    form = web.get(reverse("web:deck-new"), {"from": "standard"})
    assert form.status_code == 200
    initial = {k: v for k, v in form.context["form"].initial.items()}
    data = {name: field.initial for name, field in form.context["form"].fields.items()}
    data.update(initial)
    data.update({"key": "corrected", "A4_1": "knights", "A4_2": "artists"})
    response = web.post(reverse("web:deck-new") + "?from=standard", data)
    assert response.status_code == 302 and response["Location"] == reverse(
        "web:deck", args=["corrected"]
    )
    deck = Edition.objects.get(game_type="pot-de-vin", key="corrected")
    assert deck.data["A4"] == ["knights", "artists"] and not deck.verified
    assert deck.data["U12"] == standard_deck.data["U12"]
    again = web.post(reverse("web:deck-new") + "?from=standard", data)
    assert again.status_code == 200 and "exists" in again.content.decode()


def test_marking_a_deck_verified_is_for_staff(
    web: Client, staff_web: Client, standard_deck: Edition
) -> None:
    url = reverse("web:deck", args=["standard"])
    assert web.post(url, {"verified": "1"}).status_code == 403
    standard_deck.refresh_from_db()
    assert not standard_deck.verified
    assert b"Mark verified" in staff_web.get(url).content
    assert staff_web.post(url, {"verified": "1"}).status_code == 302
    standard_deck.refresh_from_db()
    assert standard_deck.verified
    assert b"Mark not verified" in staff_web.get(url).content


# --- Re-score jobs ------------------------------------------------------------------------


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.rescore_batch, "delay", lambda *a: calls.append(a))
    return calls


def test_rescore_is_started_by_staff_only(
    web: Client,
    staff_web: Client,
    user: Any,
    standard_deck: Edition,
    sent: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    services.game_import(
        club=first_club(), owner=user, documents=[simulate(3, seed=4, record_deal=False)]
    )
    page = web.get(reverse("web:rescore")).content.decode()
    assert "Only the club’s admins and owners start a re-score of its games." in page
    assert web.post(reverse("web:rescore"), {}).status_code == 403
    assert not Job.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):  # the batches are sent on commit
        response = staff_web.post(reverse("web:rescore"), {"new_edition": "pot-de-vin:standard"})
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("web:job", args=[job.pk])
    assert job.params["new_edition"] == "standard" and job.total == 1 and len(sent) == 1
    html = staff_web.get(response["Location"]).content.decode()
    assert '<progress id="job-progress" max="1" value="0">' in html
    assert 'data-api="/api/rescore/' in html and 'http-equiv="refresh"' in html
    assert '<time id="job-progressed">none yet</time>' in html
    # The job runs (here, in the test process): the page shows it done.
    tasks.rescore_batch.run(*sent[0])
    html = staff_web.get(response["Location"]).content.decode()
    assert '<progress id="job-progress" max="1" value="1">' in html
    progressed = Job.objects.get().progressed_at
    assert progressed is not None
    clock = progressed.astimezone(dt.UTC).strftime("%H:%M:%S")
    stamp = f'datetime="{progressed.isoformat()}">{clock} UTC</time>'
    assert f'<time id="job-progressed" {stamp}' in html
    assert ">done<" in html and 'http-equiv="refresh"' not in html
    # A club's re-score jobs are its admins' business: a recorder does not see them.
    assert web.get(response["Location"]).status_code == 404


def test_a_job_that_stopped_moving_is_resumed_from_its_page(
    web: Client,
    staff_web: Client,
    user: Any,
    standard_deck: Edition,
    sent: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    services.game_import(
        club=first_club(), owner=user, documents=[simulate(4, seed=k) for k in range(2)]
    )
    with django_capture_on_commit_callbacks(execute=True):
        staff_web.post(reverse("web:rescore"), {})
    job = Job.objects.get()
    page = reverse("web:job", args=[job.pk])
    resume = reverse("web:job-resume", args=[job.pk])
    assert f'action="{resume}"' in staff_web.get(page).content.decode()
    # The batch was lost (its worker killed on the folder queue): staff send it again. A
    # recorder does not even see the club's re-score jobs.
    assert web.post(resume).status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_web.post(resume, follow=True)
    assert response.redirect_chain == [(page, 302)]
    assert "Sent again: 2 games not re-scored yet." in response.content.decode()
    assert sent == [sent[0], sent[0]]

    tasks.rescore_batch.run(*sent[1])
    html = staff_web.get(page).content.decode()
    assert ">done<" in html and f'action="{resume}"' not in html
    again = staff_web.post(resume, follow=True).content.decode()
    assert f"job {job.pk} is done: there is nothing to resume" in again
    assert len(sent) == 2


def test_the_api_the_job_page_polls_answers_the_session(
    staff_web: Client, standard_deck: Edition, sent: list[Any]
) -> None:
    response = staff_web.post(reverse("web:rescore"), {})
    assert response.status_code == 302, response.content.decode()[:3000]
    job = Job.objects.get()
    body = staff_web.get(f"/api/rescore/{job.pk}/").json()
    assert body["id"] == job.pk and body["status"] == "done" and body["total"] == 0


# --- The table state the round entry reads --------------------------------------------------


def test_table_state_with_a_recorded_pile_offers_only_the_next_trump(
    user: Any, standard_deck: Edition
) -> None:
    table_state = plugin_for("pot-de-vin").part("web").table_state
    log = simulate(3, seed=8)
    game = make_game(
        user,
        tuple(log["players"]),
        first_player=log["first_player"],
        hands=log["hands"],
        trump_pile=log["trump_pile"],
    )
    state = table_state(game)
    assert state.trump_choices == [log["trump_pile"][0]]
    assert state.order[0] == log["first_player"]
    assert state.hands is not None and sorted(state.hands[0]) == sorted(log["hands"]["0"])
    services.round_append(game=game, round_data=log["rounds"][0])
    state = table_state(game)
    assert state.trump_choices == [log["trump_pile"][1]] and state.number == 2


def test_table_state_of_six_players_reuses_the_four_trumps(
    user: Any, standard_deck: Edition
) -> None:
    table_state = plugin_for("pot-de-vin").part("web").table_state
    log = simulate(6, seed=3, record_deal=False)
    game = make_game(user, tuple(log["players"]), first_player=log["first_player"])
    for log_round in log["rounds"][:4]:
        services.round_append(game=game, round_data=log_round)
    state = table_state(game)
    assert sorted(state.trump_choices) == sorted(r["trump"] for r in log["rounds"][:4])
    services.round_append(game=game, round_data=log["rounds"][4])
    state = table_state(game)
    assert log["rounds"][4]["trump"] not in state.trump_choices and len(state.trump_choices) == 3


def test_no_round_after_the_end(web: Client, user: Any, standard_deck: Edition) -> None:
    log = simulate(3, seed=11, record_deal=False)
    game = make_game(user, tuple(log["players"]), first_player=log["first_player"])
    for log_round in log["rounds"]:
        services.round_append(game=game, round_data=log_round)
    extra = {"number": str(len(log["rounds"]) + 1), "trump": "A1", "play_0": "A2"}
    response = web.post(reverse("web:round-append", args=[game.pk]), extra, follow=True)
    assert f"The game ended after round {len(log['rounds'])}." in response.content.decode()
    assert game.rounds.count() == len(log["rounds"])


def test_sign_in_attempts_are_limited_per_address(client: Any, settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "signin": "3/min",
        },
    }
    wrong = {"username": "nobody", "password": "wrong"}
    statuses = [client.post("/accounts/login/", wrong).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert "Too many sign-in attempts" in client.post("/accounts/login/", wrong).content.decode()
    cache.clear()
