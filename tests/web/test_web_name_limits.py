"""Names over their limit are refused at their field, with the limit said, and never cut: a
player's name (80 characters) on every form that takes one, a named game's (120), a game's
location (120). Nothing is stored for a refusal; a name at the limit is stored whole. The
inputs carry no maxlength: a browser stops there and cuts a pasted name silently, mid-word."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from games.records.models import MAX_GAME_NAME_LENGTH, MAX_LOCATION_LENGTH, BoardGame, Game, Player
from games.records.names import MAX_NAME_LENGTH
from tests.web.test_web_pages import new_game_data

pytestmark = pytest.mark.django_db

# Long names of real words: a cut would fall in the middle of one.
WORDS = "Anne-Sophie Marie-Thérèse de la Tour d'Auvergne-Lauraguais du Plessis-Praslin " * 4


def name_of(length: int) -> str:
    name = WORDS[:length]
    return name[:-1] + "x" if name.endswith(" ") else name


def stored() -> tuple[int, int, int]:
    return Player.objects.count(), Game.objects.count(), BoardGame.objects.count()


class _Fields(HTMLParser):
    """Each field's errors (the ``p.error`` after it, in its ``.field`` box) and inputs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inputs: dict[str, dict[str, str | None]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("input", "textarea") and values.get("name"):
            self.inputs[str(values["name"])] = values


def inputs(response: Any) -> dict[str, dict[str, str | None]]:
    parser = _Fields()
    parser.feed(response.content.decode())
    return parser.inputs


def error_after(response: Any, field_id: str) -> list[str]:
    """The error messages shown in the box of the field ``field_id`` (up to the next field)."""
    html = response.content.decode()
    start = html.index(f'id="{field_id}"')
    end = html.find('<div class="field', start)
    end = html.find('class="play-seat', start) if end == -1 else end
    box = html[start : end if end != -1 else None]
    return [re.sub(r"\s+", " ", e).strip() for e in re.findall(r'class="error"[^>]*>([^<]+)<', box)]


def test_a_new_game_refuses_a_player_name_over_80_at_its_seat(
    web: Client, standard_deck: Any
) -> None:
    before = stored()
    response = web.post("/games/new/", new_game_data(player_1=name_of(MAX_NAME_LENGTH + 1)))
    assert response.status_code != 302
    assert stored() == before
    said = error_after(response, "id_player_1")
    assert len(said) == 1 and f"at most {MAX_NAME_LENGTH} characters" in said[0], said
    # The refused seat is named: no "gap" is reported there or after it.
    assert error_after(response, "id_player_2") == []
    assert "maxlength" not in inputs(response)["player_1"]
    assert inputs(response)["player_1"]["value"] == name_of(81)  # given back whole, to fix
    response = web.post("/games/new/", new_game_data(player_1=name_of(MAX_NAME_LENGTH)))
    assert response.status_code == 302
    assert Player.objects.filter(name=name_of(80)).exists()


def test_a_scorepad_game_refuses_a_player_name_over_80(web: Client) -> None:
    before = stored()
    data = {"game_type": "complots", "player_0": "Ada", "player_1": name_of(81)}
    response = web.post("/games/scorepad/complots/", data)
    assert response.status_code != 302 and stored() == before
    said = error_after(response, "id_player_1")
    assert any(f"at most {MAX_NAME_LENGTH} characters" in s for s in said), said


def test_a_location_over_120_is_refused_at_its_field(web: Client, standard_deck: Any) -> None:
    before = stored()
    location = name_of(MAX_LOCATION_LENGTH + 1)
    response = web.post("/games/new/", new_game_data(location=location))
    assert response.status_code != 302 and stored() == before
    said = error_after(response, "id_location")
    assert said and f"at most {MAX_LOCATION_LENGTH} characters" in said[0], said
    assert "maxlength" not in inputs(response)["location"]
    response = web.post("/games/new/", new_game_data(location=name_of(MAX_LOCATION_LENGTH)))
    assert response.status_code == 302
    assert Game.objects.get().location == name_of(MAX_LOCATION_LENGTH)


def play(**fields: Any) -> dict[str, Any]:
    base = {"game_type": "other", "new_win": "highest", "new_name": "Go", "player_0": "Ada"}
    return {**base, "player_1": "Bea", "score_0": "3", "score_1": "5", **fields}


def test_a_play_refuses_a_player_name_over_80_at_its_row(web: Client) -> None:
    before = stored()
    response = web.post("/plays/new/", play(player_1=name_of(81)))
    assert response.status_code == 400 and stored() == before
    said = error_after(response, "id_player_1")
    assert len(said) == 1 and f"at most {MAX_NAME_LENGTH} characters" in said[0], said
    assert "maxlength" not in inputs(response)["player_1"]
    assert web.post("/plays/new/", play(player_1=name_of(80))).status_code == 302
    assert Player.objects.filter(name=name_of(80)).exists()


def test_a_named_game_over_120_is_refused_on_the_play_and_its_own_form(web: Client) -> None:
    before = stored()
    long = name_of(MAX_GAME_NAME_LENGTH + 1)
    for url, data, field in [
        ("/plays/new/", play(new_name=long), "id_new_name"),
        ("/board-games/", {"name": long, "win": "highest"}, "id_name"),
        ("/board-games/", {"name": long * 5, "win": "highest"}, "id_name"),
    ]:
        response = web.post(url, data)
        assert response.status_code == 400 and stored() == before
        said = error_after(response, field)
        assert said == [f"A name has at most 120 characters, not {len(data.get('name', long))}."]
        assert "maxlength" not in inputs(response)[field.removeprefix("id_")]
    assert web.post("/plays/new/", play(new_name=name_of(120))).status_code == 302
    assert BoardGame.objects.get().name == name_of(MAX_GAME_NAME_LENGTH)
