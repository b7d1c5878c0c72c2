"""Every page in a pseudo-locale (tests/i18n/pseudo.py): a text a person reads that the
pseudo-locale did not wrap was never marked for translation, and a marked text the catalogues
do not translate would show in English on an Italian or Portuguese page.

The pages are reached as a table reaches them: every route of the web scorepad (a new route
fails the coverage check until it is visited here), each game of the three kinds in progress
at several points, with all its entries played, and finished; the entry forms with an
impossible entry refused next to its field, and the review of a possible one; the forms'
own errors; the player, job, deck and edition pages."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils import translation

from games.records import access, clubs, services
from games.records.models import (
    BoardGame,
    Club,
    Edition,
    Game,
    GameShare,
    Invitation,
    Membership,
    Player,
)
from games.web import offline_app
from games.web import urls as web_urls
from potdevin_site import messages as catalogues
from scoring.engine.bruges.simulate import PERSON_NAMES
from scoring.engine.bruges.simulate import simulate as bruges_simulate
from scoring.engine.complots.simulate import simulate as complots_simulate
from scoring.engine.potdevin.simulate import simulate as potdevin_simulate
from scoring.models import Job
from tests.accounts import PASSWORD, first_club, make_user
from tests.i18n import pseudo
from tests.web.test_web_complots import turn_post
from tests.web.test_web_pages import round_post

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

NAMES = ["Ada", "Bea", "Cy", "Dov", "Eli", "Fay"]
# Texts that are the same in every language: the brand, the games' names, each language's
# name in itself, the test users' names.
SAME_EVERYWHERE = [
    "potdevin",
    "Pot de Vin",
    "Complots",
    "Bruges",
    "English",
    "Italiano",
    "Português (Brasil)",
    "alice",
    "carol",
    # The clubs' names (the first club renamed below) and the users of the club pages.
    "Zetaclub",
    "Bravoclub",
    "nina",
    "zed",
    "lone",
]
NUMBER_INPUT_VALUE = re.compile(r'<input type="number"[^>]*?\svalue="([^"]*)"')
IMPORT_FILES = Path(__file__).resolve().parent.parent / "exchange" / "imports" / "files"
PLAIN_NUMBER = re.compile(r"-?\d*(\.\d+)?")
# Routes that only take a POST; each is posted below.
POST_ONLY = {
    "logout",
    "language",
    "round-undo",
    "game-finish",
    "game-reopen",
    "game-delete",
    "job-resume",
    "share-create",
    "share-revoke",
    "password-change",
    "club-switch",
    "club-member-role",
    "club-member-player",
    "club-member-remove",
    "club-invitation-revoke",
    "import-confirm",
    "import-discard",
}


class Pages:
    """A signed-in client whose every page is checked for unmarked text."""

    def __init__(self, client: Client, allowed: list[str]) -> None:
        self.client = client
        self.allowed = allowed
        self.visited: set[str] = set()
        self.problems: dict[str, list[str]] = {}

    def _check(self, url: str, response: Any) -> Any:
        assert response.status_code < 500, (url, response.status_code)
        shown = response.status_code < 300 or response.status_code == 400
        if shown and "text/html" in response.get("Content-Type", ""):
            page = response.content.decode()
            found = pseudo.unmarked(page, self.allowed)
            # Italian writes 12,5; a number input must still get 12.5 (or it shows empty).
            found += [
                f"number input value {value!r}"
                for value in NUMBER_INPUT_VALUE.findall(page)
                if not PLAIN_NUMBER.fullmatch(value)
            ]
            if found:
                self.problems.setdefault(url, []).extend(found)
        match = web_route(url)
        if match:
            self.visited.add(match)
        return response

    def get(self, url: str) -> Any:
        return self._check(url, self.client.get(url, HTTP_ACCEPT_LANGUAGE="it"))

    def post(self, url: str, data: dict[str, Any] | None = None) -> Any:
        return self._check(url, self.client.post(url, data or {}, HTTP_ACCEPT_LANGUAGE="it"))


def web_route(url: str) -> str | None:
    from django.urls import resolve

    try:
        match = resolve(url.split("?")[0])
    except Exception:
        return None
    return match.url_name if match.namespace == "web" else None


def web_route_names() -> set[str]:
    return {p.name for p in web_urls.urlpatterns if isinstance(p, URLPattern) and p.name}


@pytest.fixture
def pseudo_locale() -> Iterator[pseudo.PseudoTranslation]:
    with pseudo.installed() as installed:
        yield installed
    translation.activate("en")


def _import(owner: Any, log: dict[str, Any]) -> Game:
    (game,) = services.game_import(club=first_club(), owner=owner, documents=[log])
    return game


def _entries_key(log: dict[str, Any]) -> str:
    return "turns" if "turns" in log else "rounds"


def _in_progress(owner: Any, log: dict[str, Any], entries: int) -> Game:
    key = _entries_key(log)
    partial = {k: v for k, v in log.items() if k not in (key, "final")}
    partial[key] = log[key][:entries]
    return _import(owner, partial)


def _all_played(owner: Any, log: dict[str, Any]) -> Game:
    """Every entry stored, the game not finished yet (the finish form shows)."""
    game = _in_progress(owner, log, 0)
    for number, entry in enumerate(log[_entries_key(log)], start=1):
        services.round_append(game=game, round_data=entry, number=number)
    game.refresh_from_db()
    return game


def _logs() -> dict[str, dict[str, Any]]:
    return {
        "pot-de-vin": potdevin_simulate(4, seed=7, teams=True, names=NAMES[:4]),
        "pot-de-vin-3": potdevin_simulate(3, seed=8, record_deal=False, names=NAMES[:3]),
        "complots": complots_simulate(4, seed=3, variant="inquisitor", names=NAMES[:4]),
        "complots-ambassador": complots_simulate(3, seed=5, names=NAMES[:3]),
        "bruges": bruges_simulate(3, seed=11, names=NAMES[:3]),
    }


def test_every_page_shows_only_marked_text_and_every_marked_text_is_translated(
    staff_user: Any, user: Any, pseudo_locale: pseudo.PseudoTranslation
) -> None:
    services.editions_ensure_builtin()
    Club.objects.filter(pk=first_club().pk).update(name="Zetaclub")
    client = Client()
    client.force_login(staff_user)
    # Bruges persons are named as the table typed them (the simulator's Italian names).
    allowed = [
        *NAMES,
        *SAME_EVERYWHERE,
        *PERSON_NAMES,
        *Edition.objects.values_list("key", flat=True),
        *_imported_names(),
    ]
    pages = Pages(client, allowed)

    # Signed out: the sign-in page, with and without an error.
    anonymous = Pages(Client(), allowed)
    anonymous.get(reverse("web:login"))
    anonymous.post(reverse("web:login"), {"username": "nobody", "password": "wrong"})
    pages.visited |= anonymous.visited
    pages.problems.update(anonymous.problems)

    for name in ("home", "game-new", "scorepad-new", "players", "rescore", "account"):
        pages.get(reverse(f"web:{name}"))
    pages.post(reverse("web:account"), {"language": "xx"})  # not a language: the form's error
    pages.post(reverse("web:password-change"), {"old_password": "wrong"})  # its errors
    for game_type in ("pot-de-vin", "complots", "bruges"):
        pages.get(reverse("web:game-new-of", args=[game_type]))
        pages.post(reverse("web:game-new-of", args=[game_type]), {"game_type": game_type})
    pages.get(reverse("web:scorepad-new-of", args=["pot-de-vin"]))
    pages.post(reverse("web:scorepad-new-of", args=["pot-de-vin"]), {"game_type": "pot-de-vin"})

    for key, log in _logs().items():
        entries = log[_entries_key(log)]
        for upto in sorted({0, 1, len(entries) // 2, len(entries) - 1}):
            game = _in_progress(staff_user, log, upto)
            pages.get(reverse("web:game", args=[game.pk]))
            if key.startswith("pot-de-vin"):
                url = reverse("web:round-append", args=[game.pk])
                entered = {k: v for k, v in round_post(entries[upto], upto + 1).items()}
                entered.pop("review")
                pages.post(url, entered)  # the review
                pages.post(url, {"number": str(upto + 1), "trump": "Z9"})  # refused
            elif key.startswith("complots"):
                url = reverse("web:round-append", args=[game.pk])
                pages.post(url, turn_post(entries[upto], upto + 1, review=""))  # the review
                pages.post(url, {"number": str(upto + 1), "actor": "0", "action": "coup",
                                 "target": "0", "step": "details"})  # fmt: skip
        played = _all_played(staff_user, log)
        pages.get(reverse("web:game", args=[played.pk]))
        pages.post(reverse("web:round-undo", args=[played.pk]))
        pages.post(reverse("web:game-delete", args=[played.pk]))  # its question
        finished = _import(staff_user, log)
        pages.get(reverse("web:game", args=[finished.pk]))
        pages.post(reverse("web:game-reopen", args=[finished.pk]))
        pages.get(reverse("web:game", args=[finished.pk]))
        pages.post(reverse("web:game-finish", args=[finished.pk]))

    # The home page of an account linked to a player: its own games.
    Player.objects.filter(name=NAMES[0]).update(user=staff_user)
    pages.get(reverse("web:home"))
    # A share link: made, listed on the game's page, opened by someone signed out, stopped.
    pages.post(reverse("web:share-create", args=[finished.pk]))
    pages.get(reverse("web:game", args=[finished.pk]))
    pages.get(reverse("web:game-live", args=[finished.pk]))
    pages.get(reverse("web:game-offline", args=[finished.pk]))  # what changed last, in words
    token = GameShare.objects.get(game=finished).token
    table = Pages(Client(), allowed)
    table.get(reverse("web:shared", args=[token]))
    table.get(reverse("web:shared-live", args=[token]))  # as static/js/live.js asks for it
    pages.visited |= table.visited
    pages.problems.update(table.problems)
    pages.post(reverse("web:share-revoke", args=[finished.pk, token]))  # asks first
    pages.post(reverse("web:share-revoke", args=[finished.pk, token]), {"confirmed": "yes"})

    for player in Player.objects.filter(name__in=NAMES):
        pages.get(reverse("web:player", args=[player.pk]))
    job = Job.objects.create(kind=Job.Kind.RESCORE, total=10, created_by=staff_user)
    pages.get(reverse("web:job", args=[job.pk]))
    pages.post(reverse("web:job-resume", args=[job.pk]))
    pages.post(reverse("web:rescore"), {"game_type": "nothing"})

    pages.get(reverse("web:decks"))
    pages.get(reverse("web:deck-new"))
    pages.post(reverse("web:deck-new"), {})
    pages.get(reverse("web:deck", args=["standard"]))
    pages.get(reverse("web:bruges-editions"))
    pages.get(reverse("web:bruges-edition-new"))
    pages.post(reverse("web:bruges-edition-new"), {})
    pages.get(reverse("web:bruges-edition", args=["standard"]))
    # The rules engine for the browser: files, no words of a page.
    engine = json.loads(pages.get(reverse("web:engine-manifest")).content)
    pages.get(engine["pyodide"] + "pyodide-lock.json")
    pages.get(engine["engine.zip"])
    # The app as phones install it, its service worker, and what a phone keeps for offline.
    pages.get(reverse("web:manifest"))
    pages.get(reverse("web:service-worker"))
    pages.get(reverse("web:engine-app", args=[offline_app.built_app().digest]))
    pages.get(reverse("web:new-play-offline"))  # what a new play's pages read offline

    _club_pages(pages, staff_user, allowed)
    _every_play_pages(pages)

    pages.post(reverse("web:language"), {"language": "pt-br", "next": "/"})
    pages.post(reverse("web:logout"))

    assert web_route_names() - POST_ONLY <= pages.visited, "routes no check visits"
    assert pages.visited >= POST_ONLY, "routes no check posts to"
    assert not pages.problems, "text not marked for translation:\n" + "\n".join(
        f"{url}: {text!r}" for url, texts in pages.problems.items() for text in dict.fromkeys(texts)
    )

    # Every marked text the pages asked for is translated in every catalogue (Django's own
    # texts, such as a form field's "This field is required.", come with Django).
    ours = {key for key in pseudo_locale.seen if key not in _third_party_keys()}
    for locale in catalogues.LOCALES:
        catalog = catalogues.read_catalog(catalogues.po_path(locale, "django"), locale)
        untranslated = sorted(
            (context or "", msgid)
            for context, msgid in ours
            if not _translated(catalog, context, msgid)
        )
        assert not untranslated, f"{locale}: shown on the pages, not translated: {untranslated}"


def _imported_names() -> list[str]:
    """What the import's file names (games, players, locations; the file itself) and the named
    games made here: shown as typed."""
    export = json.loads((IMPORT_FILES / "club-export.json").read_text(encoding="utf-8"))
    names = [item["name"] for key in ("games", "players", "locations") for item in export[key]]
    return [*names, "Azul", "Go", "BoardGameGeek", "BGStatsExport.json"]


def _every_play_pages(pages: Pages) -> None:
    """Bruges by its score sheet and Complots by its result (refused, then recorded), another
    game's play and the club's named games, an import's dry run, confirmation and report, the
    BG Stats export."""

    def url(name: str, *args: Any) -> str:
        return reverse(f"web:{name}", args=args)

    bruges = {"game_type": "bruges", "edition": "standard", "player_0": NAMES[0],
              "player_1": NAMES[1], "s0_track": "12", "s0_houses": "3", "s0_step": "4",
              "s0_florins": "2", "s1_track": "9", "s1_p6": "1", "s1_houses": "2",
              "s1_statues": ["7"], "s1_florins": "5"}  # fmt: skip
    sheet = url("scorepad-new-of", "bruges")
    pages.get(sheet)
    pages.post(sheet, {**bruges, "s0_majorities": "9"})  # refused, next to its box
    bruges_game = pages.post(sheet, bruges)
    assert bruges_game.status_code == 302
    pages.get(bruges_game["Location"])

    result = url("scorepad-new-of", "complots")
    complots = {"game_type": "complots", "variant": "ambassador", "player_0": NAMES[0],
                "player_1": NAMES[1], "player_2": NAMES[2], "out_1": "2", "out_2": "0",
                "c1_claims_made": "3"}  # fmt: skip
    pages.get(result)
    pages.post(result, {**complots, "out_2": "2"})  # refused: a seat out twice
    complots_game = pages.post(result, complots)
    assert complots_game.status_code == 302
    pages.get(complots_game["Location"])

    pages.get(url("board-games"))
    pages.post(url("board-games"), {"name": "", "win": "highest"})  # refused
    pages.post(url("board-games"), {"name": "Azul", "bgg_id": "230802", "win": "highest"})
    azul = BoardGame.objects.get(name="Azul")
    pages.get(url("board-game", azul.pk))
    pages.post(url("board-game", azul.pk), {"name": "Azul", "bgg_id": "-5", "win": "lowest"})
    # The page posts its new game's way to win, unused when a named game is picked.
    play = {"game_type": "other", "board_game": str(azul.pk), "new_win": "highest",
            "player_0": NAMES[0], "player_1": NAMES[1], "score_0": "30", "score_1": "20",
            "duration": "40"}  # fmt: skip
    pages.get(url("play-new"))
    pages.post(url("play-new"), {**play, "rank_0": "2"})  # refused: the rank disagrees
    other_game = pages.post(url("play-new"), play)
    assert other_game.status_code == 302, other_game.context["form"].errors
    pages.get(other_game["Location"])
    pages.get(url("board-game", azul.pk))
    pages.post(url("board-games"), {"name": "Go", "win": "manual"})
    pages.post(url("board-game-delete", BoardGame.objects.get(name="Go").pk))

    pages.get(url("imports"))
    pages.post(url("imports"), {"file": io.BytesIO(b'{"hello": 1}')})  # no format we read
    upload = io.BytesIO((IMPORT_FILES / "club-export.json").read_bytes())
    upload.name = "BGStatsExport.json"
    assert pages.post(url("imports"), {"file": upload}).status_code == 302
    job = Job.objects.filter(kind=Job.Kind.IMPORT).latest("id")
    pages.get(url("import", job.pk))  # the dry run, waiting for a yes
    pages.post(url("import-discard", job.pk))  # its question, then no: it is confirmed
    pages.post(url("import-confirm", job.pk))
    pages.get(url("import", job.pk))  # its progress and report
    pages.get(url("club-export-bgstats", first_club().slug))


def _as(user: Any, allowed: list[str]) -> Pages:
    client = Client()
    if user is not None:
        client.force_login(user)
    return Pages(client, allowed)


def _club_pages(pages: Pages, staff_user: Any, allowed: list[str]) -> None:
    """The club pages, as an admin (``pages``, staff), a new person with an invitation, a user
    of another club who joins and leaves, and a user in no club; each page with its forms'
    errors and the messages of what was done."""
    club = first_club()
    others: list[Pages] = []
    cache.clear()  # the invitation page's rate limit, counted by earlier tests' posts

    def url(name: str, *args: Any) -> str:
        return reverse(f"web:{name}", args=args)

    # Another club started (its owner lands on its invitations), then the switcher back.
    pages.get(url("club-new"))
    pages.post(url("club-new"), {"name": "x" * 81})  # refused at the field
    pages.post(url("club-new"), {"name": "Bravoclub"})
    bravo = access.clubs(staff_user).get(name="Bravoclub")
    pages.get(url("club-invitations", bravo.slug))
    pages.post(url("club-switch"), {"club": club.slug})
    pages.get(url("home"))

    # Members and roles: a role changed, a role refused.
    pages.get(url("club-members", club.slug))
    assert (
        pages.post(url("club-member-role", club.slug, "alice"), {"role": "member"}).status_code
        == 302
    )
    pages.get(url("club-members", club.slug))
    pages.post(url("club-member-role", club.slug, "alice"), {"role": "nope"})
    pages.get(url("club-members", club.slug))
    # A member linked to the club's player who is that person, and a player of no such id.
    bea = Player.objects.get(club=club, name=NAMES[1])
    pages.post(url("club-member-player", club.slug, "alice"), {"player": str(bea.pk)})
    assert (
        Player.objects.get(pk=bea.pk).user_id
        == Membership.objects.get(club=club, user__username="alice").user_id
    )
    pages.get(url("club-members", club.slug))
    pages.post(url("club-member-player", club.slug, "alice"), {"player": "999999"})
    pages.get(url("club-members", club.slug))

    # Invitations: the form's errors, one made, listed, revoked.
    pages.get(url("club-invitations", club.slug))
    assert (
        pages.post(url("club-invitations", club.slug), {"role": "owner", "days": "99"}).status_code
        == 400
    )
    pages.post(url("club-invitations", club.slug), {"role": "recorder", "days": "3"})
    pages.get(url("club-invitations", club.slug))
    made = Invitation.objects.open().get(club=club)
    pages.post(url("club-invitation-revoke", club.slug, made.pk))  # asks first
    pages.post(url("club-invitation-revoke", club.slug, made.pk), {"confirmed": "yes"})
    pages.get(url("club-invitations", club.slug))

    # The club's settings: refused, saved, its results public to anyone.
    # The club's name, given by its owner (Home asks while it has the fresh server's name).
    pages.get(url("club-name", club.slug))
    assert pages.post(url("club-name", club.slug), {"name": ""}).status_code == 400
    pages.get(url("club-settings", club.slug))
    assert pages.post(url("club-settings", club.slug), {"name": ""}).status_code == 400
    pages.post(url("club-settings", club.slug), {"name": club.name, "public_results": "on"})
    pages.get(url("club-settings", club.slug))
    pages.get(url("club-results", club.slug))
    anonymous = _as(None, allowed)
    assert anonymous.get(url("club-results", club.slug)).status_code == 200
    others.append(anonymous)

    # An invitation link: a new person's sign-up, refused then done; they land at home.
    newcomer = _as(None, allowed)
    link = clubs.invitation_create(club=club, role="recorder", by=staff_user).get_absolute_url()
    newcomer.get(link)
    # Too common (Django's Italian lacks its "too short" of 5.2: test_web_clubs.py says so).
    newcomer.post(link, {"username": "nina", "password1": "password1", "password2": "password1"})
    newcomer.post(link, {"username": "nina", "password1": PASSWORD, "password2": "other"})
    newcomer.post(link, {"username": "nina", "password1": PASSWORD, "password2": PASSWORD})
    assert Membership.objects.filter(club=club, user__username="nina").exists()
    newcomer.get(url("home"))
    others.append(newcomer)

    # A user of another club joins with one button, and leaves.
    zed = make_user("zed", club=bravo, role="member")
    joining = _as(zed, allowed)
    link = clubs.invitation_create(club=club, role="member", by=staff_user).get_absolute_url()
    joining.get(link)
    joining.post(link)
    assert Membership.objects.filter(club=club, user=zed).exists()
    joining.get(url("home"))
    joining.post(url("club-member-remove", club.slug, "zed"))  # asks first
    joining.post(url("club-member-remove", club.slug, "zed"), {"confirmed": "yes"})
    assert not Membership.objects.filter(club=club, user=zed).exists()
    joining.get(url("home"))
    others.append(joining)

    # An admin removes a member.
    pages.post(url("club-member-remove", club.slug, "nina"))  # asks first
    pages.post(url("club-member-remove", club.slug, "nina"), {"confirmed": "yes"})
    assert not Membership.objects.filter(club=club, user__username="nina").exists()
    pages.get(url("club-members", club.slug))

    # A user in no club: the page that says so, and a club refused without a name.
    lone = _as(make_user("lone", role=None), allowed)
    assert 'id="no-club"' in lone.get(url("home")).content.decode()
    lone.post(url("club-new"), {"name": ""})
    lone.get(url("home"))
    others.append(lone)

    for other in others:
        pages.visited |= other.visited
        for page_url, texts in other.problems.items():
            pages.problems.setdefault(page_url, []).extend(texts)


def _third_party_keys() -> set[tuple[str | None, str]]:
    """The texts Django and the installed apps translate themselves (their Italian catalogues
    stand for every language here)."""
    import gettext
    from pathlib import Path

    import django
    from django.apps import apps

    folders = [Path(django.__file__).parent / "conf" / "locale"]
    folders += [Path(app.path) / "locale" for app in apps.get_app_configs()]
    keys: set[tuple[str | None, str]] = set()
    for folder in folders:
        compiled = folder / "it" / "LC_MESSAGES" / "django.mo"
        if compiled.exists():
            with compiled.open("rb") as f:
                for key in gettext.GNUTranslations(f)._catalog:  # type: ignore[attr-defined]
                    text = key[0] if isinstance(key, tuple) else key
                    context, _, msgid = text.rpartition("\x04")
                    keys.add((context or None, msgid))
    return keys


def _translated(catalog: Any, context: str | None, msgid: str) -> bool:
    message = catalog.get(msgid, context)
    if message is None:
        return False
    strings = message.string if isinstance(message.string, tuple | list) else [message.string]
    return bool(strings) and all(strings) and not message.fuzzy
