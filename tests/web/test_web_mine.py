"""A member whose account is linked to a player finds their own games and statistics on the home
page; an account without a player sees no such section."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client
from django.urls import reverse

from games.records import services
from games.records.models import Player
from tests.accounts import first_club
from tests.builders import complots_game


def test_the_home_page_shows_my_games_and_statistics(
    web: Client, user: Any, other_user: Any
) -> None:
    mine = [complots_game(user), complots_game(other_user)]  # Ada sits at both
    services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(
            club=first_club(), refs=["Bea", "Cy", "Dev"], created_by=user
        ),
        first_player=0,
        game_type="complots",
    )
    ada = Player.objects.get(name="Ada")
    ada.user = user
    ada.save()
    html = web.get(reverse("web:home")).content.decode()
    section = re.search(r'<section aria-labelledby="h-mine".*?</section>', html, re.S)
    assert section, "no section of my games"
    linked = [int(n) for n in re.findall(r'href="/games/(\d+)/"', section.group(0))]
    assert sorted(linked) == sorted(g.pk for g in mine)
    assert f'href="/players/{ada.pk}/" id="my-statistics"' in section.group(0)


def test_an_account_without_a_player_has_no_section_of_its_own(web: Client, user: Any) -> None:
    complots_game(user)
    assert 'id="h-mine"' not in web.get(reverse("web:home")).content.decode()
