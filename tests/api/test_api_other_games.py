"""A club's named games (/api/board-games/) and plays known by their final scores only
(POST /api/games/result/): what is stored, what is refused (with its code and seat, nothing
stored), hostile input, another club's named games, and the game representation."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.records import services
from games.records.errors import GameConflict
from games.records.models import BoardGame, Club, Game, GameEvent, Membership, Player
from tests.accounts import first_club, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def carcassonne(api: APIClient) -> dict[str, Any]:
    r = api.post(
        "/api/board-games/",
        {"name": "Carcassonne", "bgg_id": 822, "win": "highest"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    return dict(r.json())


def play(api: APIClient, body: dict[str, Any]) -> Any:
    return api.post("/api/games/result/", body, format="json")


def counts() -> tuple[int, int, int, int]:
    return (
        Game.objects.count(),
        Player.objects.count(),
        BoardGame.objects.count(),
        GameEvent.objects.count(),
    )


# --- Named games --------------------------------------------------------------------------------


def test_a_named_game_is_created_listed_changed_and_deleted(
    api: APIClient, carcassonne: dict[str, Any]
) -> None:
    assert carcassonne["name"] == "Carcassonne"
    assert carcassonne["bgg_id"] == 822
    assert carcassonne["win"] == "highest"
    assert carcassonne["club"] == first_club().slug
    assert carcassonne["plays"] == 0
    listed = api.get("/api/board-games/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [b["name"] for b in rows] == ["Carcassonne"]
    pk = carcassonne["id"]
    r = api.patch(f"/api/board-games/{pk}/", {"name": "  Carcassonne  II ", "bgg_id": None})
    assert r.status_code == 200, r.json()
    assert (r.json()["name"], r.json()["bgg_id"]) == ("Carcassonne II", None)
    assert api.delete(f"/api/board-games/{pk}/").status_code == 204
    assert not BoardGame.objects.exists()


def test_a_name_is_unique_per_club_folded_like_player_names(
    api: APIClient, carcassonne: dict[str, Any]
) -> None:
    r = api.post("/api/board-games/", {"name": "CARCASSONNE"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "board_game_exists"
    # Another club may have its own Carcassonne.
    other = Club.objects.create(name="B", slug="b")
    owner = make_user("bea", club=other, role=Membership.Role.OWNER)
    client = APIClient()
    client.force_authenticate(owner)
    r = client.post("/api/board-games/", {"name": "Carcassonne", "club": "b"}, format="json")
    assert r.status_code == 201


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": ""}, "blank_name"),
        ({"name": "   "}, "blank_name"),
        ({"name": "Go\x00"}, "invalid_text"),
        ({"name": "x" * 121}, "too_long"),
        ({"name": "Go", "bgg_id": 0}, "bad_bgg_id"),
        ({"name": "Go", "bgg_id": 2**31}, "bad_bgg_id"),
        ({"name": "Go", "bgg_id": 2**64}, "out_of_range"),  # the request gate's, past 64 bits
        ({"name": "Go", "win": "most"}, "bad_win"),
    ],
)
def test_a_bad_named_game_is_refused(api: APIClient, body: dict[str, Any], code: str) -> None:
    r = api.post("/api/board-games/", body, format="json")
    assert r.status_code == 400, r.json()
    assert r.json()["code"] == code
    assert not BoardGame.objects.exists()


def test_a_lone_surrogate_in_a_name_is_refused(api: APIClient) -> None:
    raw = b'{"name": "Go\\ud800"}'
    r = api.post("/api/board-games/", raw, content_type="application/json")
    assert r.status_code == 400
    assert not BoardGame.objects.exists()


def test_a_named_game_with_plays_is_not_deleted(
    api: APIClient, carcassonne: dict[str, Any]
) -> None:
    body = {
        "game_type": "other",
        "board_game": carcassonne["id"],
        "players": ["Ada", "Bea"],
        "sheet": [{"score": 3}, {"score": 5}],
    }
    assert play(api, body).status_code == 201
    r = api.delete(f"/api/board-games/{carcassonne['id']}/")
    assert r.status_code == 409 and r.json()["code"] == "board_game_has_plays"
    assert api.get(f"/api/board-games/{carcassonne['id']}/").json()["plays"] == 1


def test_a_member_reads_named_games_but_changes_none(
    api: APIClient, other_api: APIClient, carcassonne: dict[str, Any]
) -> None:
    pk = carcassonne["id"]
    assert other_api.get(f"/api/board-games/{pk}/").status_code == 200
    assert other_api.post("/api/board-games/", {"name": "Go"}, format="json").status_code == 403
    assert other_api.patch(f"/api/board-games/{pk}/", {"name": "Go"}).status_code == 403
    assert other_api.delete(f"/api/board-games/{pk}/").status_code == 403


def test_another_clubs_named_game_is_not_found(api: APIClient) -> None:
    other = Club.objects.create(name="B", slug="b")
    theirs = BoardGame.objects.create(club=other, name="Go")
    missing = theirs.pk + 1000
    for pk in (theirs.pk, missing):
        assert api.get(f"/api/board-games/{pk}/").status_code == 404
        assert api.patch(f"/api/board-games/{pk}/", {"name": "X"}).status_code == 404
        assert api.delete(f"/api/board-games/{pk}/").status_code == 404
    # As the named game of a play: 400 alike for theirs and none.
    for pk in (theirs.pk, missing):
        r = play(
            api,
            {
                "game_type": "other",
                "board_game": pk,
                "players": ["Ada", "Bea"],
                "sheet": [{"score": 1}, {"score": 2}],
            },
        )
        assert r.status_code == 400 and r.json()["code"] == "unknown_board_game"
    assert not Game.objects.exists()
    assert BoardGame.objects.get(pk=theirs.pk).name == "Go"


def test_anonymous_visitors_read_no_named_game(anon_api: APIClient) -> None:
    BoardGame.objects.create(club=first_club(), name="Go")
    assert anon_api.get("/api/board-games/").status_code == 401


# --- Plays ----------------------------------------------------------------------------------------


def test_a_play_of_a_named_game_is_stored_ranked_and_shown(
    api: APIClient, carcassonne: dict[str, Any]
) -> None:
    r = play(
        api,
        {
            "game_type": "other",
            "board_game": carcassonne["id"],
            "players": ["Ada", "Bea", "Cy"],
            # Ada and Cy tie on 84 behind Bea's 91: ranks 2, 1, 2 (O3).
            "sheet": [{"score": 84}, {"score": 91, "winner": True}, {"score": 84}],
            "first_player": 2,
            "duration": 45,
            "location": "Café",
            "notes": "windy",
        },
    )
    assert r.status_code == 201, r.json()
    game = r.json()
    assert game["mode"] == "result" and game["status"] == "finished"
    assert game["game_type"] == "other"
    assert game["board_game"] == {
        "id": carcassonne["id"],
        "name": "Carcassonne",
        "bgg_id": 822,
        "win": "highest",
    }
    assert game["duration"] == 45 and game["first_player"] == 2
    assert [s["rank"] for s in game["seats"]] == [2, 1, 2]
    assert [s["score"] for s in game["seats"]] == [84, 91, 84]
    assert game["winners"] == [1]
    assert game["result"]["format"] == "scores-result/1"
    assert game["sheet"][1] == {"score": 91, "rank": None, "winner": True}
    stored = Game.objects.get(pk=game["id"])
    assert stored.sheet == {
        "win": "highest",
        "won": None,
        "sheet": [
            {"score": 84, "rank": None, "winner": None},
            {"score": 91, "rank": None, "winner": True},
            {"score": 84, "rank": None, "winner": None},
        ],
    }
    assert list(GameEvent.objects.filter(game_id=stored.pk).values_list("action", flat=True)) == [
        "created"
    ]
    # The list shows it, and filters by named game.
    listed = api.get(f"/api/games/?board_game={carcassonne['id']}").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [g["id"] for g in rows] == [stored.pk]
    assert rows[0]["board_game"]["name"] == "Carcassonne" and rows[0]["duration"] == 45
    listed = api.get(f"/api/games/?board_game={carcassonne['id'] + 1}").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert rows == []


def test_a_cooperative_play_is_one_team(api: APIClient) -> None:
    pk = api.post("/api/board-games/", {"name": "Hanabi", "win": "cooperative"}).json()["id"]
    r = play(
        api,
        {
            "game_type": "other",
            "board_game": pk,
            "players": ["Ada", "Bea", "Cy"],
            "sheet": [{"score": 21}, {}, {}],
            "won": False,
        },
    )
    assert r.status_code == 201, r.json()
    game = r.json()
    assert game["teams"] == [[0, 1, 2]]
    assert [s["team"] for s in game["seats"]] == [0, 0, 0]
    assert [s["rank"] for s in game["seats"]] == [2, 2, 2]  # lost: behind the game (O5)
    assert game["winners"] == [] and game["won"] is False


def test_a_play_of_bruges_by_its_final_scores(api: APIClient) -> None:
    r = play(
        api,
        {
            "game_type": "bruges",
            "players": ["Ada", "Bea", "Cy"],
            "sheet": [{"score": 40}, {"score": 52}, {"score": 47}],
        },
    )
    assert r.status_code == 201, r.json()
    game = r.json()
    assert game["mode"] == "result" and game["board_game"] is None
    assert game["edition"] == "standard"  # the default, though the scores do not depend on it
    assert [s["rank"] for s in game["seats"]] == [3, 1, 2]
    # Complots has no scores: its plays are won by the ranks given (manual).
    r = play(
        api,
        {
            "game_type": "complots",
            "players": ["Ada", "Bea"],
            "sheet": [{"rank": 2}, {"rank": 1}],
        },
    )
    assert r.status_code == 201, r.json()
    assert [s["rank"] for s in r.json()["seats"]] == [2, 1]
    # An entry cannot be added to a play known by its final scores, nor can it be reopened.
    stored = Game.objects.get(pk=game["id"])
    with pytest.raises(GameConflict):
        services.round_append(game=stored, round_data={"dice": {}, "turns": []})
    assert api.post(f"/api/games/{game['id']}/reopen/").status_code == 409


@pytest.mark.parametrize(
    ("change", "code", "seat"),
    [
        ({"sheet": [{"score": 30, "rank": 2}, {"score": 20}]}, "rank_disagrees", 0),
        ({"sheet": [{"score": 3, "winner": True}, {"score": 5}]}, "winner_disagrees", 0),
        ({"sheet": [{}, {}]}, "result_undecided", None),
        ({"sheet": [{"score": 1}, {"score": 2}], "won": True}, "bad_won", None),
        ({"sheet": [{"score": 1}, {"score": 2}], "teams": [[0]]}, "bad_teams", 1),
        ({"sheet": [{"score": 1}]}, "malformed", None),
        ({"sheet": [{"score": 2**31}, {"score": 2}]}, "out_of_range", 0),
        ({"sheet": [{"score": 2**64}, {"score": 2}]}, "out_of_range", None),
        ({"players": ["Ada", "ada"]}, "player_twice", 1),
        ({"first_player": 5}, "bad_first_player", None),
        ({"duration": -1}, "bad_duration", None),
        ({"location": "a\x00b"}, "invalid_text", None),
        ({"board_game": None}, "board_game_required", None),
    ],
)
def test_a_refused_play_stores_nothing(
    api: APIClient, carcassonne: dict[str, Any], change: dict[str, Any], code: str, seat: Any
) -> None:
    body = {
        "game_type": "other",
        "board_game": carcassonne["id"],
        "players": ["Ada", "Bea"],
        "sheet": [{"score": 1}, {"score": 2}],
        **change,
    }
    before = counts()
    r = play(api, body)
    assert r.status_code == 400, r.json()
    assert r.json()["code"] == code, r.json()
    if seat is not None:
        assert r.json()["seat"] == seat
    assert counts() == before


@pytest.mark.parametrize(
    "change",
    [
        {"sheet": [None, {"score": 2}]},
        {"sheet": None},
        {"players": ["Ada", None]},
        {"teams": [[0, None], [1]]},
        {"teams": [None]},
        {"sheet": [{"score": "many"}, {"score": 2}]},
        {"sheet": [{"rank": 0}, {"score": 2}]},
        {"board_game": 2**64},
        {"players": "Ada, Bea"},
        {"game_type": "chess"},
    ],
)
def test_hostile_shapes_are_400_and_store_nothing(
    api: APIClient, carcassonne: dict[str, Any], change: dict[str, Any]
) -> None:
    body = {
        "game_type": "other",
        "board_game": carcassonne["id"],
        "players": ["Ada", "Bea"],
        "sheet": [{"score": 1}, {"score": 2}],
        **change,
    }
    before = counts()
    r = play(api, body)
    assert r.status_code == 400, r.json()
    assert "code" in r.json()
    assert counts() == before


def test_our_games_refuse_a_named_game_and_another_way_to_win(
    api: APIClient, carcassonne: dict[str, Any]
) -> None:
    r = play(
        api,
        {
            "game_type": "bruges",
            "board_game": carcassonne["id"],
            "players": ["Ada", "Bea"],
            "sheet": [{"score": 1}, {"score": 2}],
        },
    )
    assert r.status_code == 400 and r.json()["code"] == "board_game_not_allowed"
    r = play(
        api,
        {"game_type": "bruges", "players": ["Ada"], "sheet": [{"score": 1}]},
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_player_count"
    assert not Game.objects.exists()


def test_other_games_are_not_played_entry_by_entry(api: APIClient) -> None:
    r = api.post(
        "/api/games/", {"game_type": "other", "players": ["Ada"], "first_player": 0}, format="json"
    )
    assert r.status_code == 409 and r.json()["code"] == "result_only"
    r = api.post("/api/games/import/", {"format": "other-log/1", "players": ["Ada"]}, format="json")
    assert r.status_code == 400
    assert not Game.objects.exists()


def test_a_member_records_no_play(other_api: APIClient, carcassonne: dict[str, Any]) -> None:
    r = play(
        other_api,
        {
            "game_type": "other",
            "board_game": carcassonne["id"],
            "players": ["Ada", "Bea"],
            "sheet": [{"score": 1}, {"score": 2}],
        },
    )
    assert r.status_code == 403
    assert not Game.objects.exists()


def test_changing_how_a_game_is_won_rescores_its_plays_all_or_none(
    api: APIClient, carcassonne: dict[str, Any]
) -> None:
    pk = carcassonne["id"]
    first = play(
        api,
        {"game_type": "other", "board_game": pk, "players": ["Ada", "Bea"],
         "sheet": [{"score": 3}, {"score": 5}]},
    ).json()  # fmt: skip
    assert [s["rank"] for s in first["seats"]] == [2, 1]
    r = api.patch(f"/api/board-games/{pk}/", {"win": "lowest"}, format="json")
    assert r.status_code == 200, r.json()
    game = api.get(f"/api/games/{first['id']}/").json()
    assert [s["rank"] for s in game["seats"]] == [1, 2]  # golf now: 3 beats 5
    assert game["result"]["win"] == "lowest"
    # A play with scores only cannot be scored by hand-marked winners: nothing changes.
    r = api.patch(f"/api/board-games/{pk}/", {"win": "manual"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "win_refused"
    assert BoardGame.objects.get(pk=pk).win == "lowest"
    game = api.get(f"/api/games/{first['id']}/").json()
    assert [s["rank"] for s in game["seats"]] == [1, 2]


def test_game_types_list_other(api: APIClient) -> None:
    rows = {t["game_type"]: t for t in api.get("/api/game-types/").json()}
    assert rows["other"]["logged"] is False and rows["other"]["result_win"] is None
    assert rows["bruges"]["result_win"] == "highest"
    assert rows["complots"]["result_win"] == "manual"


def test_a_club_deleted_takes_its_named_games_and_their_plays(
    api: APIClient, carcassonne: dict[str, Any]
) -> None:
    from games.records import clubs

    body = {
        "game_type": "other",
        "board_game": carcassonne["id"],
        "players": ["Ada", "Bea"],
        "sheet": [{"score": 3}, {"score": 5}],
    }
    assert play(api, body).status_code == 201
    clubs.club_delete(club=first_club())
    assert not BoardGame.objects.exists() and not Game.objects.exists()
