"""The pages of "other games": the club's named games (list, add, change, delete) and a play
recorded by its final scores on a phone (per player a score, a rank and a winner mark, teams,
a cooperative game's outcome, who started, how long it lasted). A play's page is the generic
one of plays known by their final scores (``games.web.results``). What a play allows is the
scorer's to say; its refusals come back next to the player they are about."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_POST

from games.plugins.other import GAME_TYPE
from games.records import access, board_games, selectors, services
from games.records.errors import RecordError
from games.records.game_types import plugin_for
from games.records.models import BoardGame, Player
from games.web import present, refusals, results
from games.web.clubs import current_club, recording_club
from games.web.forms import PlayersForm, uncut
from scoring.engine import LogError
from scoring.stats.games import stats_key

MENU = [(gettext_lazy("Other games"), "web:board-games")]
STAT_LABELS: dict[str, Any] = {}
SEATS_SHOWN = 6  # seat rows open at first; the others fold away under "more players"
SCORE_LIMIT = 2**31 - 1  # a seat's score column (the service says so too)

WIN_CHOICES = [
    ("highest", pgettext_lazy("how a game is won", "Highest score wins")),
    ("lowest", pgettext_lazy("how a game is won", "Lowest score wins")),
    ("manual", pgettext_lazy("how a game is won", "Winners marked by hand")),
    ("cooperative", pgettext_lazy("how a game is won", "Cooperative")),
]
assert [w for w, _label in WIN_CHOICES] == list(BoardGame.Win.values)


def game_page(**kwargs: Any) -> dict[str, Any]:
    """The pieces of a play's page: those of every play known by its final scores."""
    return results.game_page(label=plugin_for(GAME_TYPE).label, **kwargs)


def player_section(player: Player, stats: dict[str, Any]) -> dict[str, Any]:
    return {"template": "web/other/player_section.html", "stats": stats}


def new_play_url() -> str:
    return reverse("web:play-new")


def _game_name_field(**kwargs: Any) -> forms.Field:
    """A named game's name: the name rule (``board_games.clean_game_name``) refuses it past
    ``MAX_GAME_NAME_LENGTH`` characters, at the field, with its limit, never cutting it. The
    field sets no length of its own (white space runs and compatibility forms shrink in the
    rule, and its words would name another limit); its input has no maxlength (a browser would
    cut a pasted name silently). A request's size bounds what is read."""
    return uncut(forms.CharField(strip=False, **kwargs))


class BoardGameForm(forms.Form):
    name = _game_name_field(
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("As the club calls it, e.g. Carcassonne."),
    )
    bgg_id = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=board_games.MAX_BGG_ID,
        label=gettext_lazy("BoardGameGeek id"),
        help_text=gettext_lazy("The number in the game's BoardGameGeek address, if you know it."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    win = forms.ChoiceField(
        choices=WIN_CHOICES,
        initial="highest",
        label=gettext_lazy("How is it won?"),
        widget=forms.RadioSelect,
    )


def _board_game(request: HttpRequest, pk: int) -> BoardGame:
    """A named game of the user's clubs (404 alike for missing and another club's)."""
    found = board_games.board_games(request.user).select_related("club").filter(pk=pk).first()
    if found is None:
        raise Http404("no such game")
    return found


def _form_error(form: forms.Form, exc: RecordError, field: str = "name") -> None:
    target = {"bad_bgg_id": "bgg_id", "bad_win": "win", "win_refused": "win"}.get(exc.code, field)
    # As a sentence ("A name has at most 120 characters, not 121."), beside its field.
    words = exc.message[:1].upper() + exc.message[1:]
    words += "" if words.endswith((".", "!", "?")) else "."
    form.add_error(target if target in form.fields else None, words)


@login_required
def board_game_list(request: HttpRequest) -> HttpResponse:
    """The current club's named games, each with its plays, and (for its recorders) a form to
    add one."""
    club = current_club(request)
    if club is None:
        return render(request, "web/no_club.html")
    can_record = access.may(request.user, club.pk, access.Can.RECORD)
    form = BoardGameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if not can_record:
            raise PermissionDenied("only the club's recorders add its games")
        if form.is_valid():
            data = form.cleaned_data
            try:
                made = board_games.board_game_create(
                    club=club, name=data["name"], bgg_id=data["bgg_id"], win=data["win"],
                    by=request.user,
                )  # fmt: skip
            except RecordError as exc:
                _form_error(form, exc)
            else:
                messages.success(request, _("%(name)s added.") % {"name": made.name})
                return redirect("web:board-game", pk=made.pk)
    games = (
        BoardGame.objects.filter(club=club).annotate(plays=Count("games")).order_by("name", "id")
    )
    context = {"club": club, "games": games, "form": form, "can_record": can_record}
    status = 400 if form.errors else 200
    return render(request, "web/other/board_games.html", context, status=status)


@login_required
def board_game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A named game: its plays, and (for the club's recorders) its name, BoardGameGeek id and
    way to win to change (a new way re-scores its plays, all or none)."""
    board_game = _board_game(request, pk)
    can_record = access.may(request.user, board_game.club_id, access.Can.RECORD)
    initial = {"name": board_game.name, "bgg_id": board_game.bgg_id, "win": board_game.win}
    form = BoardGameForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST":
        if not can_record:
            raise PermissionDenied("only the club's recorders change its games")
        if form.is_valid():
            data = form.cleaned_data
            try:
                board_games.board_game_update(
                    board_game=board_game, name=data["name"], bgg_id=data["bgg_id"],
                    win=data["win"], by=request.user,
                )  # fmt: skip
            except RecordError as exc:
                _form_error(form, exc)
            else:
                messages.success(request, _("%(name)s saved.") % {"name": board_game.name})
                return redirect("web:board-game", pk=board_game.pk)
    plays = present.labelled(selectors.game_list().filter(board_game=board_game)[:50])
    context = {
        "board_game": board_game,
        "form": form,
        "can_record": can_record,
        "plays": plays,
        "stats_key": stats_key(GAME_TYPE, board_game.pk),
    }
    status = 400 if form.errors else 200
    return render(request, "web/other/board_game.html", context, status=status)


@login_required
@require_POST
def board_game_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a named game without plays: the one who added it, or an admin."""
    board_game = _board_game(request, pk)
    made_it = board_game.created_by_id == request.user.pk or request.user.is_staff
    needed = access.Can.RECORD if made_it else access.Can.ADMIN
    if not access.may(request.user, board_game.club_id, needed):
        raise PermissionDenied("only the one who added it, or an admin, deletes a game")
    try:
        board_games.board_game_delete(board_game=board_game)
    except RecordError as exc:
        messages.error(request, exc.message)
        return redirect("web:board-game", pk=board_game.pk)
    messages.success(request, _("%(name)s deleted.") % {"name": board_game.name})
    return redirect("web:board-games")


# --- A play ---------------------------------------------------------------------------------


class PlayForm(PlayersForm):
    """A play of a named game by its final scores: the game (one of the club's, or a new one),
    the players in seat order with each one's score, rank, team and winner mark, the
    cooperative outcome, who started and how long it lasted."""

    board_game = forms.ChoiceField(choices=[], required=False, label=gettext_lazy("Game"))
    new_name = _game_name_field(required=False, label=gettext_lazy("Or a new game: its name"))
    new_bgg_id = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=board_games.MAX_BGG_ID,
        label=gettext_lazy("BoardGameGeek id"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    new_win = forms.ChoiceField(
        choices=WIN_CHOICES, initial="highest", label=gettext_lazy("How is it won?")
    )
    won = forms.ChoiceField(
        choices=[
            ("", gettext_lazy("not cooperative")),
            ("won", gettext_lazy("we won")),
            ("lost", gettext_lazy("we lost")),
        ],  # fmt: skip
        required=False,
        label=gettext_lazy("Cooperative game"),
        widget=forms.RadioSelect,
    )
    first_player = forms.TypedChoiceField(
        choices=[], coerce=int, required=False, empty_value=None, label=gettext_lazy("Started")
    )
    duration = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=board_games.MAX_DURATION,
        label=gettext_lazy("Duration (minutes)"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, club: Any, **kwargs: Any) -> None:
        super().__init__(*args, plugin=plugin_for(GAME_TYPE), **kwargs)
        self.club = club
        games = BoardGame.objects.filter(club=club).order_by("name", "id")
        self.fields["board_game"].choices = [  # type: ignore[attr-defined]
            ("", _("(a new game, below)")),
            *((str(g.pk), g.name) for g in games),
        ]
        self.fields["first_player"].choices = [  # type: ignore[attr-defined]
            ("", _("not noted")),
            *((s, _("Seat %(number)s") % {"number": s + 1}) for s in range(self.max_players)),
        ]
        for seat in range(self.max_players):
            self.fields[f"player_{seat}"].label = _("Player %(number)s") % {"number": seat + 1}
            self.fields[f"score_{seat}"] = forms.IntegerField(
                required=False,
                min_value=-SCORE_LIMIT,
                max_value=SCORE_LIMIT,
                label=_("Score"),
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num-input"}),
            )
            self.fields[f"rank_{seat}"] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=self.max_players,
                label=_("Rank"),
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num-input"}),
            )
            self.fields[f"team_{seat}"] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=self.max_players,
                label=_("Team"),
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num-input"}),
            )
            self.fields[f"winner_{seat}"] = forms.BooleanField(required=False, label=_("Won"))

    def seat_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat,
                "player": self[f"player_{seat}"],
                "score": self[f"score_{seat}"],
                "rank": self[f"rank_{seat}"],
                "team": self[f"team_{seat}"],
                "winner": self[f"winner_{seat}"],
                "folded": seat >= SEATS_SHOWN,
            }
            for seat in range(self.max_players)
        ]

    def folded_open(self) -> bool:
        """Whether a seat row past the first ones holds something (or an error): shown open."""
        return any(
            self.data.get(f"{part}_{seat}") or self[f"player_{seat}"].errors
            for seat in range(SEATS_SHOWN, self.max_players)
            for part in ("player", "score", "rank", "team")
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = data.get("board_game") or ""
        if chosen:
            found = BoardGame.objects.filter(club=self.club, pk=int(chosen)).first()
            if found is None:  # another club's, or deleted meanwhile
                self.add_error("board_game", _("Pick one of the club's games."))
            data["chosen_game"] = found
        elif not (data.get("new_name") or "").strip():
            self.add_error("board_game", _("Pick a game, or name a new one."))
        names = data.get("names") or []
        first = data.get("first_player")
        if first is not None and first >= len(names):
            self.add_error("first_player", _("The first player must be one of the seats named."))
        return data

    def sheet(self) -> list[dict[str, Any]]:
        data = self.cleaned_data
        return [
            {
                "score": data.get(f"score_{seat}"),
                "rank": data.get(f"rank_{seat}"),
                "winner": True if data.get(f"winner_{seat}") else None,
            }
            for seat in range(len(data["names"]))
        ]

    def teams(self) -> list[list[int]] | None:
        """Seats by the team numbers typed (in order of first appearance), or None when no
        team is given. A seat left without one, with others in teams, is the scorer's to
        refuse (with its name)."""
        data = self.cleaned_data
        numbers = [data.get(f"team_{seat}") for seat in range(len(data["names"]))]
        if all(n is None for n in numbers):
            return None
        groups: dict[Any, list[int]] = {}
        for seat, number in enumerate(numbers):
            if number is not None:
                groups.setdefault(number, []).append(seat)
        return list(groups.values())

    def outcome(self) -> bool | None:
        """A cooperative game's outcome: True won, False lost, None not cooperative."""
        return {"won": True, "lost": False}.get(self.cleaned_data.get("won") or "")

    def refusal(self, exc: LogError | RecordError) -> None:
        """Put a refusal next to what it is about: the seat's row, else the form."""
        names = self.cleaned_data.get("names") or []
        words = refusals.sentence(exc, names, refusals.for_game(GAME_TYPE))
        field = None
        if exc.seat is not None and 0 <= exc.seat < self.max_players:
            field = f"player_{exc.seat}"
        elif exc.code in ("bad_won",):
            field = "won"
        elif exc.code in ("bad_first_player",):
            field = "first_player"
        elif exc.code in ("bad_duration",):
            field = "duration"
        elif getattr(exc, "path", None) in ("location", "notes"):
            field = exc.path  # type: ignore[union-attr]
        elif exc.code in ("board_game_exists", "invalid_text", "too_long", "blank_name"):
            field = "new_name"
        self.add_error(field, words)


@login_required
def play_new(request: HttpRequest) -> HttpResponse:
    """Record a play of one of the club's named games (or of a new one) by its final scores."""
    club = recording_club(request)
    posted = request.POST if request.method == "POST" else None
    initial = {}
    wanted = request.GET.get("game")
    if wanted and wanted.isdigit():
        initial["board_game"] = wanted
    form = PlayForm(posted, club=club, initial=initial)
    if posted is not None and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():  # a refused play keeps no new player, no new game
                board_game = data.get("chosen_game") or board_games.board_game_create(
                    club=club,
                    name=data["new_name"],
                    bgg_id=data.get("new_bgg_id"),
                    win=data["new_win"],
                    by=request.user,
                )
                game = board_games.result_game_create(
                    club=club,
                    owner=request.user,
                    players=services.players_resolve(
                        data["names"], club=club, created_by=request.user
                    ),
                    game_type=GAME_TYPE,
                    board_game=board_game,
                    sheet=form.sheet(),
                    teams=form.teams(),
                    won=form.outcome(),
                    first_player=data.get("first_player"),
                    duration=data.get("duration"),
                    played_on=data.get("played_on"),
                    location=data.get("location") or "",
                    notes=data.get("notes") or "",
                )
        except (LogError, RecordError) as exc:
            form.refusal(exc)
        else:
            messages.success(
                request,
                _("%(game)s: play #%(number)s recorded.")
                % {"game": board_game.name, "number": game.pk},
            )
            return redirect("web:game", pk=game.pk)
    context = {
        "form": form,
        "club": club,
        "known_players": selectors.known_player_names(club),
        "rows": form.seat_rows(),
        "folded_open": posted is not None and form.folded_open(),
        "seats_shown": SEATS_SHOWN,
    }
    return render(request, "web/other/play_new.html", context, status=400 if form.errors else 200)


urlpatterns = [
    path("board-games/", board_game_list, name="board-games"),
    path("board-games/<int:pk>/", board_game_detail, name="board-game"),
    path("board-games/<int:pk>/delete/", board_game_remove, name="board-game-delete"),
    path("plays/new/", play_new, name="play-new"),
]
