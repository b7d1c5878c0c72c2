"""Conditional reads of a game (games/api/conditional.py): every read of a game (its detail, its
entries and one entry, its log, its version) carries the game's ETag, ``"g<id>-v<version>"``;
``If-None-Match`` naming it (or ``*``, or a list holding it, weak or strong) is 304 without a
body, found with one query before the game is read. Every change of what the reads show moves
it: an entry added, undone or corrected, a finish, a reopening, an edit, a player renamed, the
edition checked. Another club's game is 404 with or without the header; a ``since`` that is
no version is 400."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.records import selectors, services
from games.records.models import Club, Game
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import client_for, first_club, make_user
from tests.api.conftest import ROUND_1, ROUND_2, ROUND_3, GameFactory

pytestmark = pytest.mark.django_db

READS = ["/api/games/{id}/", "/api/games/{id}/rounds/", "/api/games/{id}/log/"]


def tag_of(game: Game) -> str:
    game.refresh_from_db()
    return f'"g{game.pk}-v{selectors.version_of(game)}"'


def read(client: APIClient, path: str, tag: str | None = None) -> Any:
    headers = {} if tag is None else {"HTTP_IF_NONE_MATCH": tag}
    return client.get(path, **headers)


def test_every_read_of_a_game_has_its_tag_and_is_304_while_it_is_unchanged(
    api: APIClient, make_game: GameFactory
) -> None:
    game = make_game(rounds=[ROUND_1])
    tag = tag_of(game)
    for path in [*READS, "/api/games/{id}/rounds/1/", "/api/games/{id}/version/"]:
        url = path.format(id=game.pk)
        first = read(api, url)
        assert first.status_code == 200, (url, first.content)
        assert first["ETag"] == tag, url
        assert first["Cache-Control"] == "private, no-cache"
        again = read(api, url, tag)
        assert again.status_code == 304, url
        assert again.content == b"" and again["ETag"] == tag
        assert "Content-Type" not in again
    # RFC 9110: "*", a list holding the tag, the tag weak: all name it.
    url = f"/api/games/{game.pk}/"
    for header in ("*", f'"g{game.pk}-v1", {tag}', f"W/{tag}", f" {tag} "):
        assert read(api, url, header).status_code == 304, header
    # Another tag, or what is no list of tags: the game again.
    for header in (f'"g{game.pk}-v1"', tag.strip('"'), "W/", "\x00", '"' * 300, "a, b"):
        assert read(api, url, header).status_code == 200, header


def test_a_304_is_one_query_and_reads_nothing_of_the_game(
    api: APIClient, make_game: GameFactory
) -> None:
    game = make_game(rounds=[ROUND_1, ROUND_2])
    tag = tag_of(game)
    for path in [*READS, "/api/games/{id}/version/"]:
        with CaptureQueriesContext(connection) as queries:
            assert read(api, path.format(id=game.pk), tag).status_code == 304
        game_reads = [q["sql"] for q in queries if "games_game" in q["sql"]]
        assert len(game_reads) == 1, game_reads
        assert len(queries) <= 3, [q["sql"] for q in queries]  # the token, the clubs, the game


@pytest.mark.parametrize("turns", [False, True])
def test_every_change_moves_the_tag(
    api: APIClient,
    user: Any,
    make_game: GameFactory,
    make_complots: GameFactory,
    plot: Any,
    turns: bool,
) -> None:
    game = make_complots(turns=plot.turns[:2]) if turns else make_game(rounds=[ROUND_1])
    entries = f"/api/games/{game.pk}/{'turns' if turns else 'rounds'}/"
    seen = {tag_of(game)}

    def changed(what: str) -> None:
        tag = tag_of(game)
        assert tag not in seen, what
        seen.add(tag)
        for path in (f"/api/games/{game.pk}/", entries):
            for old in seen - {tag}:
                answer = read(api, path, old)
                assert answer.status_code == 200 and answer["ETag"] == tag, (what, path)
            assert read(api, path, tag).status_code == 304, (what, path)

    more = plot.turns[2] if turns else ROUND_2
    assert api.post(entries, more, format="json").status_code == 201
    changed("an entry added")
    assert api.delete(f"{entries}last/").status_code == 200
    changed("an entry undone")
    first = plot.turns[0] if turns else ROUND_1
    assert api.put(f"{entries}1/", first, format="json").status_code == 200
    changed("an entry corrected (the same, written again)")
    assert api.patch(f"/api/games/{game.pk}/", {"notes": "Club night"}).status_code == 200
    changed("an edit")
    services.player_update(player=game.seats.get(seat=0).player, name="Adelheid")
    changed("a player renamed")
    assert "Adelheid" in read(api, f"/api/games/{game.pk}/").content.decode()
    if game.edition is not None:  # Pot de Vin's deck: its detail says whether it is checked
        services.edition_mark_verified(edition=game.edition, verified=not game.edition.verified)
        changed("its edition checked")


def test_finishing_and_reopening_move_the_tag(api: APIClient, user: Any) -> None:
    (game,) = services.game_import(club=first_club(), owner=user, documents=[simulate(3, seed=7)])
    finished = tag_of(game)
    assert api.post(f"/api/games/{game.pk}/reopen/").status_code == 200
    reopened = tag_of(game)
    assert read(api, f"/api/games/{game.pk}/", finished).status_code == 200
    assert api.post(f"/api/games/{game.pk}/finish/", {}, format="json").status_code == 200
    again = tag_of(game)
    assert len({finished, reopened, again}) == 3
    assert read(api, f"/api/games/{game.pk}/", reopened)["ETag"] == again


def test_the_version_read(api: APIClient, make_game: GameFactory) -> None:
    game = make_game(rounds=[ROUND_1])
    url = f"/api/games/{game.pk}/version/"
    body = api.get(url).json()
    assert body == {"version": selectors.version_of(game), "changed": True}
    version = body["version"]
    assert api.get(url, {"since": version}).json() == {"version": version, "changed": False}
    assert api.get(url, {"since": version - 1}).json()["changed"] is True
    assert api.post(f"/api/games/{game.pk}/rounds/", ROUND_2, format="json").status_code == 201
    moved = api.get(url, {"since": version}).json()
    assert moved["changed"] is True and moved["version"] != version
    # The detail's tag polls the version: 304 while the game stays as the detail was read.
    detail = api.get(f"/api/games/{game.pk}/")
    assert read(api, url, detail["ETag"]).status_code == 304
    assert api.post(f"/api/games/{game.pk}/rounds/", ROUND_3, format="json").status_code == 201
    assert read(api, url, detail["ETag"]).status_code == 200


@pytest.mark.parametrize(
    "since",
    ["-1", "abc", "1" + "0" * 25, str(2**64), str(2**63), "\x00", "1\x00", "1.0", " 5", "٣"],
)
def test_a_since_that_is_no_version_is_400(
    api: APIClient, make_game: GameFactory, since: str
) -> None:
    game = make_game()  # (an empty ``since=`` is as none: DRF reads a query as a form)
    answer = api.get(f"/api/games/{game.pk}/version/", {"since": since})
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid" and set(body["fields"]) == {"since"}


def test_another_clubs_game_is_not_found_with_or_without_a_tag(
    api: APIClient, anon_api: APIClient, make_game: GameFactory
) -> None:
    theirs = Club.objects.create(name="Quokka Society", slug="quokka-society")
    stranger = client_for(make_user("zed", club=theirs))
    game = make_game(rounds=[ROUND_1])
    mine = tag_of(game)
    game.club = theirs
    game.save(update_fields=["club"])
    tag = tag_of(game)
    for path in [*READS, "/api/games/{id}/rounds/1/", "/api/games/{id}/version/"]:
        url = path.format(id=game.pk)
        for header in (None, tag, mine, "*"):
            assert read(api, url, header).status_code == 404, (url, header)
            assert read(anon_api, url, header).status_code == 401, (url, header)
        assert read(stranger, url, tag).status_code == 304, url  # its own club's members
    # Nor an id no game has, nor one past what the database stores.
    for pk in (game.pk + 1000, 2**63 - 1):
        assert read(api, f"/api/games/{pk}/version/", "*").status_code == 404
    assert read(api, f"/api/games/{2**64}/version/", "*").status_code in (400, 404)


def test_an_entry_the_game_has_not_is_404_whatever_the_tag(
    api: APIClient, make_game: GameFactory
) -> None:
    game = make_game(rounds=[ROUND_1])
    assert read(api, f"/api/games/{game.pk}/rounds/2/", "*").status_code == 404
    assert read(api, f"/api/games/{game.pk}/rounds/2/", tag_of(game)).status_code == 404
