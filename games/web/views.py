"""The web scorepad: server-rendered pages for the table, for every game recorded here. Views
check who asks, read through selectors (and ``present``), and write through services; what is
game-shaped (the entry form, the table, the finish) comes from the game's plugin
(``present.web_part``). An engine error is shown next to what caused it."""

from __future__ import annotations

from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.formats import date_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from games.api import conditional
from games.api.permissions import may_change, may_remove, page_rate
from games.exchange import exports
from games.records import access, selectors, services
from games.records.errors import RecordError
from games.records.game_types import GamePlugin, UnknownGameType, plugin_for, plugins
from games.records.models import Game, GameEvent
from games.web import charts, present, qr, refusals, results
from games.web.clubs import current_club, recording_club
from games.web.confirm import Question, asks_first
from games.web.forms import NewGameForm, PlayersForm, RescoreForm
from scoring import jobs
from scoring.engine import LogError
from scoring.jobs import selectors as job_selectors
from scoring.models import Job
from scoring.stats import selectors as scoring_selectors


def _can_write(user: Any, game: Game) -> bool:
    return may_change(user, game)


def _posted(request: HttpRequest) -> Any:
    # An empty POST is still a submitted form (``request.POST or None`` would drop it).
    return request.POST if request.method == "POST" else None


def _plugin(game_type: str | None) -> GamePlugin:
    """The plugin of a game type named in a URL or form. Raises ``Http404``."""
    try:
        return plugin_for(game_type or "")
    except UnknownGameType as exc:
        raise Http404(str(exc)) from None


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """The current club's evening: games in progress, the last finished, its leaderboards, and
    the signed-in person's own games when their account is linked to one of its players."""
    club = current_club(request)
    if club is None:
        return render(request, "web/no_club.html")
    me = selectors.player_id_of(request.user, club.pk)
    context = {
        "club": club,
        "can_record": access.may(request.user, club.pk, access.Can.RECORD),
        "me": me,
        "mine": present.labelled(selectors.games_of_player(me)[:10]) if me else [],
        "in_progress": present.labelled(selectors.games_in_progress(club)[:20]),
        "recent": present.labelled(selectors.games_finished(club)[:10]),
        "leaderboards": present.leaderboards(club),
    }
    return render(request, "web/home.html", context)


# --- New games -----------------------------------------------------------------------------------


def _header_error(form: PlayersForm, exc: LogError | RecordError) -> None:
    """Put an engine or record error on the player row it names (or the location or notes it is
    about), else on the whole form."""
    field = f"player_{exc.seat}" if exc.seat is not None and exc.seat < form.max_players else None
    if getattr(exc, "path", None) in ("location", "notes"):
        field = exc.path  # type: ignore[union-attr]
    names = (getattr(form, "cleaned_data", None) or {}).get("names") or []
    form.add_error(field, refusals.sentence(exc, names, refusals.for_game(form.plugin.game_type)))


def _refusal(exc: LogError | RecordError, game: Game, entry_name: str | None = None) -> str:
    """An engine or record refusal about a stored game in the players' words (``refusals``),
    with the entry it is about when there is one."""
    words = refusals.sentence(exc, _names(game), refusals.for_game(game.game_type))
    if entry_name and exc.round is not None:
        return present.entry_text(game.game_type, "refusal", number=exc.round, refusal=words)
    return words


def _chosen_game(request: HttpRequest, game_type: str | None) -> str | None:
    """The game a new-game page is for: in its URL, the form, or ``?game=``."""
    return game_type or request.POST.get("game_type") or request.GET.get("game")


def _game_chooser(
    request: HttpRequest, games: list[GamePlugin], title: str, url: str
) -> HttpResponse:
    choices = [
        {"label": p.label, "url": reverse(url, args=[p.game_type]), "plugin": p} for p in games
    ]
    return render(request, "web/game_choose.html", {"choices": choices, "title": title})


@login_required
def game_new(request: HttpRequest, game_type: str | None = None) -> HttpResponse:
    """A new game: first the game, then its players in seat order, who starts, and the game's
    own options (the plugin's ``NewGameOptions``)."""
    club = recording_club(request)
    chosen = _chosen_game(request, game_type)
    if chosen is None:
        games = list(plugins().values())
        if len(games) != 1:
            return _game_chooser(request, games, _("New game"), "web:game-new-of")
        chosen = games[0].game_type
    plugin = _plugin(chosen)
    web = plugin.part("web")
    if not plugin.engine.info.logged:  # an "other game": a play is recorded by its scores
        return redirect(web.new_play_url())
    form = NewGameForm(_posted(request), plugin=plugin)
    options = web.NewGameOptions(_posted(request))
    if request.method == "POST":
        valid = form.is_valid() & options.is_valid()  # both, to show every error at once
        if valid and options.check(len(form.cleaned_data["names"])):
            data = form.cleaned_data
            try:
                with transaction.atomic():  # a refused game keeps no player created for it
                    game = services.game_create(
                        club=club,
                        owner=request.user,
                        players=services.players_resolve(
                            data["names"], club=club, created_by=request.user
                        ),
                        first_player=data["first_player"],
                        game_type=plugin.game_type,
                        played_on=data.get("played_on"),
                        location=data.get("location") or "",
                        notes=data.get("notes") or "",
                        **options.game_kwargs(),
                    )
            except (LogError, RecordError) as exc:
                _header_error(form, exc)
            else:
                messages.success(request, _("Game #%(number)s started.") % {"number": game.pk})
                return redirect("web:game", pk=game.pk)
    context = {
        "form": form,
        "options": options,
        "plugin": plugin,
        "club": club,
        "known_players": selectors.known_player_names(club),
        "other_games": len(plugins()) > 1,
    }
    # Here after a post only when it was refused: said beside its fields, nothing stored.
    return render(
        request, "web/game_new.html", context, status=400 if request.method == "POST" else 200
    )


@login_required
def scorepad_new(request: HttpRequest, game_type: str | None = None) -> HttpResponse:
    """A finished game known by its final sheet only, for the games that have one."""
    club = recording_club(request)
    games = present.scorepad_games()
    chosen = _chosen_game(request, game_type)
    if chosen is None:
        if len(games) != 1:
            return _game_chooser(request, games, _("Scorepad entry"), "web:scorepad-new-of")
        chosen = games[0].game_type
    plugin = _plugin(chosen)
    if plugin not in games:
        raise Http404(f"{plugin.label} games are recorded entry by entry")
    web = plugin.part("web")
    form = PlayersForm(_posted(request), plugin=plugin)
    options = web.NewGameOptions(_posted(request))
    sheet = web.ScorepadSheet(_posted(request), seats=form.max_players)
    if request.method == "POST":
        valid = form.is_valid() & options.is_valid() & sheet.is_valid()
        if valid and options.check(len(form.cleaned_data["names"])):
            data = form.cleaned_data
            try:
                with transaction.atomic():  # a refused game keeps no player created for it
                    game = services.scorepad_game_create(
                        club=club,
                        owner=request.user,
                        players=services.players_resolve(
                            data["names"], club=club, created_by=request.user
                        ),
                        game_type=plugin.game_type,
                        sheet=sheet.sheet(len(data["names"])),
                        played_on=data.get("played_on"),
                        location=data.get("location") or "",
                        notes=data.get("notes") or "",
                        **options.game_kwargs(),
                    )
            except (LogError, RecordError) as exc:
                if not sheet.engine_error(exc):
                    _header_error(form, exc)
            else:
                messages.success(
                    request, _("Game #%(number)s recorded from its scorepad.") % {"number": game.pk}
                )
                return redirect("web:game", pk=game.pk)
    context = {
        "form": form,
        "options": options,
        "sheet": sheet,
        "sheet_rows": sheet.rows(form),
        "plugin": plugin,
        "intro": present.entry_text(plugin.game_type, "scorepad_help"),
        "club": club,
        "known_players": selectors.known_player_names(club),
    }
    # Here after a post only when it was refused: said beside its fields, nothing stored.
    return render(
        request, "web/scorepad_new.html", context, status=400 if request.method == "POST" else 200
    )


# --- A game --------------------------------------------------------------------------------------


def _game(request: HttpRequest, pk: int) -> Game:
    """The game ``pk`` if the user may read it (404 alike for missing and not theirs)."""
    return get_object_or_404(access.games(request.user, selectors.game_detail_queryset()), pk=pk)


def _names(game: Game) -> list[str]:
    return [s.player.name for s in game.seats.all()]


def render_game(
    request: HttpRequest,
    game: Game,
    *,
    entry_form: Any = None,
    finish_form: Any = None,
    review: dict[str, Any] | None = None,
    status: int = 200,
    shared: bool = False,
    live_url: str | None = None,
    live: bool = False,
) -> HttpResponse:
    """The game's page; ``shared``: as its share link shows it to anyone, read-only, without
    who entered what or the game's share links. ``live_url``: where ``static/js/live.js``
    asks whether the game changed (the member's page's own by default); ``live``: the page as
    that script takes it (``game_live``), saying what changed last."""
    plugin = _plugin(game.game_type)
    web = plugin.part("web")
    info = plugin.engine.info
    result = game.result or {}
    seats = list(game.seats.all())
    names = [s.player.name for s in seats]
    can_write = not shared and _can_write(request.user, game)
    in_progress = game.mode == Game.Mode.ROUNDS and game.status == Game.Status.IN_PROGRESS
    table = None
    if in_progress:
        try:
            table = web.table_state(game)
        except LogError as exc:  # e.g. entries stored before a rules correction
            words = _refusal(exc, game, info.entry_name)
            messages.error(request, present.entry_text(game.game_type, "no_replay", refusal=words))
    if table is not None and can_write:
        if table.over and finish_form is None:
            finish_form = web.finish_form(result)
        elif not table.over and entry_form is None:
            entry_form = web.entry_form(game, table, names)
    if table is None or table.over:
        entry_form = None
    version = _version(game) if can_write else ""
    context: dict[str, Any] = {
        "game": game,
        "label": plugin.label,
        "info": info,
        "seats": seats,
        "result": result,
        "can_write": can_write,
        "in_progress": in_progress,
        "table": table,
        "entry_form": entry_form,
        "finish_form": finish_form,
        "entries": present.entry_count(game),
        "review": review if entry_form is not None else None,
        "entry_words": _entry_words(game, entries=present.entry_count(game), review=review),
        "game_history": (
            present.history(game)
            if not shared and access.may(request.user, game.club_id, access.Can.READ)
            else []
        ),
        "shared": shared,
        # What the finish form saw of the game: finishing from a page the game has left since
        # (an entry undone or added, the game finished and reopened) is refused.
        "version": version,
        # The recorder who entered the game, or an admin of its club (``may_remove``).
        "can_delete": not shared and may_remove(request.user, game),
        # A finished game's result, for a player to put into BG Stats (and on to BGG) in a tap.
        "bgstats_url": exports.bgstats_url(game=game),
        "source": selectors.game_source(game),
        # Not on a page for live.js, which never swaps them (their QR codes are half its cost).
        "shares": _shares(request, game) if can_write and not live else [],
        # What static/js/live.js needs: where to ask, the page's tag, what changed last, and
        # the entry area's form (the entry it is for, or the finish it would send).
        "live_url": live_url or reverse("web:game-live", args=[game.pk]),
        "live_tag": live_tag(game.pk, selectors.version_of(game), shared=shared),
        "live_news": present.live_news(game) if live else "",
        "live_entry": _live_entry(table, entry_form, version),
    }
    if game.mode == Game.Mode.RESULT:  # known by its final scores: the same page for any game
        context.update(results.game_page(game=game, result=result, names=names, label=plugin.label))
    else:
        context.update(
            web.game_page(
                game=game,
                result=result,
                names=names,
                table=table,
                entry_form=entry_form,
                finish_form=finish_form,
                can_write=can_write,
            )
        )
    return render(request, "web/game.html", context, status=status)


def _shares(request: HttpRequest, game: Game) -> list[dict[str, Any]]:
    """The game's share links, each whole and as a QR code (``templates/web/_link.html``)."""
    shown = []
    for number, share in enumerate(selectors.game_shares(game=game), start=1):
        url = request.build_absolute_uri(share.get_absolute_url())
        shown.append(
            {
                "token": share.token,
                "field_id": f"share-{number}",
                "url": url,
                "qr": qr.qr_svg(url, _("QR code of the share link")),
                "created_at": share.created_at,
            }
        )
    return shown


def _live_entry(table: Any, entry_form: Any, version: str) -> str:
    """What the entry area's form is for, as static/js/live.js compares it with the game as it
    is now: the entry it enters (``entry-5``), the finish it sends (``finish-<version>``), or
    nothing (no form there)."""
    if table is None:
        return ""
    if entry_form is not None:
        return f"entry-{table.number}"
    return f"finish-{version}" if table.over and version else ""


def _version(game: Game) -> str:
    """The game's state as a page saw it (``selectors.version_of``)."""
    return str(selectors.version_of(game))


def _entry_words(game: Game, *, entries: int, review: dict[str, Any] | None) -> dict[str, str]:
    """The game page's words about its entries: the entry section's label, the undo button
    (the last entry's number), the review's save button (the reviewed entry's number)."""
    words = {
        "next": present.entry_text(game.game_type, "next"),
        "undo": present.entry_text(game.game_type, "undo", number=entries),
    }
    if review is not None:
        words["save"] = present.entry_text(game.game_type, "save", number=review["number"])
    return words


def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A game's page: for its club's members, and for anyone when it is a finished game of a
    club with public results. Another visitor signs in first (whether or not it exists)."""
    try:
        game = _game(request, pk)
    except Http404:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise
    return render_game(request, game)


def live_tag(game_id: int, version: int, *, shared: bool = False) -> str:
    """The ``ETag`` of a game's page as ``static/js/live.js`` follows it: the game's version
    and the page's language (and whether it is the share link's page)."""
    variant = [get_language(), "shared"] if shared else [get_language()]
    return conditional.etag(game_id, version, *variant, weak=True)


def not_modified(request: HttpRequest, current: str) -> HttpResponse | None:
    """304 when the script's page shows the game as it is now (``If-None-Match``), else None."""
    if not conditional.unchanged(request, current):
        return None
    return conditional.tagged(HttpResponseNotModified(), current)


def live_page(request: HttpRequest, response: HttpResponse, current: str) -> HttpResponse:
    """The page the script takes the game's parts from: tagged, and the messages waiting for
    the person left for the page they see next (a notice said while rendering this one goes)."""
    storage = messages.get_messages(request)
    storage.used = storage.added_new = False
    return conditional.tagged(response, current)


def game_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's page for ``static/js/live.js``, which asks for it every 1.5 s while the page
    is seen: 304 while the game is as the page shows it (one query by primary key), else the
    page, whose game parts the script swaps in. Who may not read the game: as its page."""
    version = selectors.game_version(access.games(request.user), pk)
    unchanged = None if version is None else not_modified(request, live_tag(pk, version))
    if unchanged is not None:
        return unchanged
    try:
        game = _game(request, pk)
    except Http404:
        if not request.user.is_authenticated:
            return redirect_to_login(reverse("web:game", args=[pk]))
        raise
    page = render_game(request, game, live=True)
    return live_page(request, page, live_tag(game.pk, selectors.version_of(game)))


def writable(request: HttpRequest, pk: int) -> Game:
    """The game ``pk`` if the user may change it (404 if they cannot see it, 403 if they see
    it but do not record in its club)."""
    game = _game(request, pk)
    if not _can_write(request.user, game):
        raise PermissionDenied("only the club's recorders change its games")
    return game


def _posted_here(view: Any) -> Any:
    """A view that takes a form's post and may answer it with a page (a step, a review, a
    refusal): loaded again without one (the language switch goes back to the page's address,
    so does a reload after Back), its address shows the game as it is now."""

    @wraps(view)
    def posted_here(request: HttpRequest, pk: int) -> HttpResponse:
        if request.method != "POST":
            return redirect("web:game", pk=pk)
        return view(request, pk)

    return posted_here


@login_required
@_posted_here
def round_append(request: HttpRequest, pk: int) -> HttpResponse:
    """The next entry (a Pot de Vin round, a Complots turn) from the game's entry form. A form
    with more to ask (``ready()`` False) comes back at its next step, nothing stored. A complete
    entry is checked by the engine and shown in words for review, nothing stored; it is saved
    only from the review's "Save" (``review=save``); its "Change" brings the form back."""
    game = writable(request, pk)
    plugin = _plugin(game.game_type)
    web = plugin.part("web")
    entry_name = plugin.engine.info.entry_name
    if game.mode != Game.Mode.ROUNDS or game.status != Game.Status.IN_PROGRESS:
        messages.error(request, present.entry_text(game.game_type, "no_more"))
        return redirect("web:game", pk=pk)
    try:
        table = web.table_state(game)
    except LogError as exc:
        words = _refusal(exc, game, entry_name)
        messages.error(request, present.entry_text(game.game_type, "no_replay", refusal=words))
        return redirect("web:game", pk=pk)
    if table.over:
        messages.error(
            request, present.entry_text(game.game_type, "ended_after", number=table.number - 1)
        )
        return redirect("web:game", pk=pk)
    # A page the game has left (Back after a save, a second tab or phone): the game as it is
    # now, with a fresh form for the next entry, whichever step or button was posted.
    posted = _posted_number(request)
    if posted is not None and posted != table.number:
        return _moved(request, game, posted, table.number)
    names = _names(game)
    form = web.entry_form(game, table, names, data=request.POST)
    if form.is_valid():
        if not form.ready():
            return render_game(request, game, entry_form=form)
        if form.cleaned_data["number"] != table.number:  # read otherwise than above: a guard
            return _moved(request, game, form.cleaned_data["number"], table.number)
        if request.POST.get("review") != "save":
            review = _review(web, game, form, names)
            if review is not None:
                return render_game(request, game, entry_form=form, review=review)
            return render_game(request, _game(request, pk), entry_form=form, status=400)
        try:
            game, stored = services.round_append(
                game=game,
                round_data=form.entry_data(),
                number=form.cleaned_data["number"],
                by=request.user,
            )
        except (LogError, RecordError) as exc:
            form.engine_error(exc)
        else:
            messages.success(request, web.entry_saved(game.result or {}, stored.number, names))
            return redirect(reverse("web:game", args=[pk]) + "#entry")
    return render_game(request, _game(request, pk), entry_form=form, status=400)


def _posted_number(request: HttpRequest, name: str = "number") -> int | None:
    """The entry number a form posted (as the entry forms read it), or None if it has none."""
    raw = request.POST.get(name, "")
    if len(raw) > 9:  # no game has that many entries: the form says what is wrong with it
        return None
    try:
        return forms.IntegerField(min_value=1).clean(raw)
    except ValidationError:
        return None


def _moved(request: HttpRequest, game: Game, posted: int, expected: int) -> HttpResponse:
    """A page posted entry ``posted`` while the game expects ``expected`` (its entries were
    saved or undone meanwhile, on this or another page or phone): nothing is stored, and the
    game is shown as it is now, its entry form fresh for the next entry, with a notice."""
    if posted < expected:
        text = present.entry_text(game.game_type, "moved_on", number=posted, next=expected)
    else:
        text = present.entry_text(game.game_type, "moved_back", number=posted - 1, next=expected)
    messages.warning(request, text)
    return redirect(reverse("web:game", args=[game.pk]) + "#entry")


def _review(web: Any, game: Game, form: Any, names: list[str]) -> dict[str, Any] | None:
    """The entry in words before it is saved, with the posted fields to send again; None when
    the engine refuses it (the refusal is then on the form)."""
    entry = form.entry_data()
    number = form.cleaned_data["number"]
    try:
        result = present.entry_preview(game, entry)
    except LogError as exc:
        form.engine_error(exc)
        return None
    review = web.entry_review(result, number, names, form)
    review["fields"] = present.review_fields(form.data)
    return review


def _game_action(request: HttpRequest, pk: int, action: Any, done: str) -> HttpResponse:
    """A button on the game page: run the service, say what happened, back to the game."""
    game = writable(request, pk)
    try:
        action(game=game, by=request.user)
    except (LogError, RecordError) as exc:
        messages.error(request, _refusal(exc, game))
    else:
        messages.success(request, done)
    return redirect("web:game", pk=pk)


@login_required
@require_POST
def round_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo the game's last entry, the one the page names (``number``), after asking which
    (``asks_first``). A page the game has left (the entry undone already, or others saved
    after it) undoes nothing: the game as it is now, with a notice."""
    game = writable(request, pk)
    refused = _undo_refused(request, game, present.entry_count(game))
    if refused is not None:
        return refused
    return _round_undo_confirmed(request, pk)


def _undo_refused(request: HttpRequest, game: Game, last: int) -> HttpResponse | None:
    """Why the undo posted cannot be done on the game as it is (its last entry ``last``), said
    with the game as it is now; None when it can."""
    number = _posted_number(request)
    if game.mode == Game.Mode.ROUNDS and game.status == Game.Status.FINISHED:
        text = _(
            "Game #%(number)s is finished: nothing was undone. Reopen it to change it; here it is "
            "as it is now."
        ) % {"number": game.pk}
    elif number is None:
        text = _("Nothing was undone: the page was out of date. Here is the game as it is now.")
    elif number > last:
        text = present.entry_text(game.game_type, "undo_gone", number=number)
    elif number < last:
        text = present.entry_text(game.game_type, "undo_stale", number=number, last=last)
    else:
        return None
    messages.warning(request, text)
    return redirect(reverse("web:game", args=[game.pk]) + "#entry")


def _entered_by(game: Game, number: int) -> str:
    """Who entered entry ``number`` as the history says ("Round 2 entered by alice"), or ""."""
    event = (
        selectors.game_history(game=game)
        .filter(action=GameEvent.Action.ADDED, number=number)
        .exclude(username="")
        .last()
    )
    if event is None:
        return ""
    what = present.entry_text(game.game_type, "history_added", number=number)
    return _("%(what)s by %(user)s") % {"what": what, "user": event.username}


def _undo_question(request: HttpRequest, pk: int) -> Question:
    game = writable(request, pk)
    number = present.entry_count(game)  # the number posted, checked by ``round_undo``
    goes = present.entry_text(game.game_type, "undo_goes", number=number)
    who = _entered_by(game, number)
    return Question(
        title=present.entry_text(game.game_type, "undo_question", number=number),
        goes=f"{goes} {who}." if who else goes,
        button=present.entry_text(game.game_type, "undo", number=number),
        back=reverse("web:game", args=[pk]),
    )


@asks_first(_undo_question)
def _round_undo_confirmed(request: HttpRequest, pk: int) -> HttpResponse:
    game = writable(request, pk)
    try:
        with transaction.atomic():
            # The check and the undo under the game's lock: two posts of one page, or two
            # phones, never undo two entries.
            locked = Game.objects.select_for_update().get(pk=game.pk)
            refused = _undo_refused(request, locked, locked.rounds.count())
            if refused is not None:
                return refused
            services.round_undo(game=locked, by=request.user)
    except (LogError, RecordError) as exc:
        messages.error(request, _refusal(exc, game))
    else:
        messages.success(request, present.entry_text(game.game_type, "undone"))
    return redirect(reverse("web:game", args=[pk]) + "#entry")


@login_required
@_posted_here
def game_finish(request: HttpRequest, pk: int) -> HttpResponse:
    """Finish the game, with the end-of-game choices of the game's finish form, if it has one
    (Pot de Vin: the Jokers, the engine's best placement unless someone moved them)."""
    game = writable(request, pk)
    if game.mode == Game.Mode.ROUNDS and game.status == Game.Status.FINISHED:
        messages.warning(
            request,
            _(
                "Game #%(number)s was already finished from another page or phone: here it is "
                "as it is now."
            )
            % {"number": game.pk},
        )
        return redirect("web:game", pk=pk)
    seen = request.POST.get("version")
    if seen is not None and seen != _version(game):
        messages.warning(
            request,
            _(
                "The game changed on another page or phone since this page was shown: nothing "
                "was finished. Here is the game as it is now."
            ),
        )
        return redirect("web:game", pk=pk)
    web = _plugin(game.game_type).part("web")
    form = web.finish_form(game.result or {}, data=request.POST)
    if form is None or form.is_valid():
        try:
            services.game_finish(
                game=game, finish=form.finish() if form is not None else None, by=request.user
            )
        except (LogError, RecordError) as exc:
            # A refusal that names something on the form stays there; any other is a message.
            if form is None or not form.engine_error(exc):
                messages.error(request, _refusal(exc, game))
                return redirect("web:game", pk=pk)
        else:
            messages.success(request, _("Game finished."))
            return redirect("web:game", pk=pk)
    return render_game(request, _game(request, pk), finish_form=form, status=400)


@login_required
@require_POST
def game_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    game = writable(request, pk)
    if game.mode == Game.Mode.ROUNDS and game.status == Game.Status.IN_PROGRESS:
        messages.warning(
            request,
            _(
                "Game #%(number)s was already reopened from another page or phone: here it is "
                "as it is now."
            )
            % {"number": game.pk},
        )
        return redirect("web:game", pk=pk)
    done = present.entry_text(game.game_type, "reopened")
    return _game_action(request, pk, services.game_reopen, done)


# --- Deleting a game -----------------------------------------------------------------------------


def _removable(request: HttpRequest, pk: int) -> Game:
    """The game ``pk`` if the user may delete it (``may_remove``: the recorder who entered it,
    or an admin of its club): 404 if they cannot see it, 403 if they see it but may not."""
    game = _game(request, pk)
    if not may_remove(request.user, game):
        raise PermissionDenied("a game is deleted by the recorder who entered it or an admin")
    return game


def _delete_question(request: HttpRequest, pk: int) -> Question:
    game = _removable(request, pk)
    goes = _(
        "%(game)s of %(date)s with %(names)s: everything recorded in it is deleted, and it no "
        "longer counts in statistics and ratings. Its history is kept."
    ) % {
        "game": _plugin(game.game_type).label,
        "date": date_format(game.played_on),
        "names": present.names_joined(_names(game)),
    }
    return Question(
        title=_("Delete game #%(number)s?") % {"number": game.pk},
        goes=goes,
        button=_("Delete game #%(number)s") % {"number": game.pk},
        back=reverse("web:game", args=[pk]),
    )


@login_required
@require_POST
def game_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a game, after asking (``asks_first``); its history stays. Posted again (Back to
    the question) by whoever deleted it: Home, with a notice."""
    if GameEvent.objects.filter(
        game_id=pk, action=GameEvent.Action.DELETED, user_id=request.user.pk
    ).exists():
        messages.warning(request, _("Game #%(number)s was already deleted.") % {"number": pk})
        return redirect("web:home")
    return _game_delete_confirmed(request, pk)


@asks_first(_delete_question)
def _game_delete_confirmed(request: HttpRequest, pk: int) -> HttpResponse:
    game = _removable(request, pk)
    services.game_delete(game=game, by=request.user)
    messages.success(request, _("Game #%(number)s was deleted.") % {"number": pk})
    return redirect("web:home")


# --- Players -------------------------------------------------------------------------------------


@login_required
def player_list(request: HttpRequest) -> HttpResponse:
    club = current_club(request)
    if club is None:
        return render(request, "web/no_club.html")
    query = (request.GET.get("q") or "").strip()
    context = {"players": selectors.players_matching(club, query), "q": query, "club": club}
    return render(request, "web/players.html", context)


@login_required
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The player's statistics, rating and score history for each game type they play (the
    first game's, empty, for a player without games)."""
    player = selectors.player_or_none(request.user, pk)
    if player is None:
        raise Http404("no such player")
    # One section per statistics series: a game type, or one of the club's named games.
    series = scoring_selectors.player_stats_keys(player) or [
        (t, t, None) for t in present.game_types()[:1]
    ]
    sections = []
    for key, game_type, board_game in series:
        plugin = plugin_for(game_type)
        label = board_game.name if board_game is not None else plugin.label
        stats = scoring_selectors.player_stats(player=player, game_type=key)
        section = plugin.part("web").player_section(player, stats)
        ratings = list(scoring_selectors.rating_history(player=player, game_type=key))
        section.update(
            {
                "game_type": key,
                "label": label,
                "stats": stats,
                "cooperative": board_game is not None and board_game.win == "cooperative",
                "ratings": ratings[-20:],
                "rating_chart": charts.line_chart(
                    [(date_format(h.played_on, "SHORT_DATE_FORMAT"), h.ordinal) for h in ratings],
                    title=_("%(game)s rating of %(player)s after each game")
                    % {"game": label, "player": player.name},
                ),
            }
        )
        if plugin.engine.info.has_scores:
            scores = selectors.player_score_history(
                player, game_type, board_game_id=board_game.pk if board_game else None
            )
            points = [
                (
                    # Translators: a point of a score chart: the game's date and number.
                    _("%(date)s #%(number)s")
                    % {
                        "date": date_format(s.game.played_on, "SHORT_DATE_FORMAT"),
                        "number": s.game_id,
                    },
                    float(s.score),
                )
                for s in scores
                if s.score is not None
            ]
            section["scores"] = scores[-20:]
            section["score_chart"] = charts.line_chart(
                points,
                title=_("%(game)s score of %(player)s in each finished game")
                % {"game": label, "player": player.name},
                zero_line=True,
            )
        sections.append(section)
    return render(request, "web/player.html", {"player": player, "sections": sections})


# --- Re-score jobs -------------------------------------------------------------------------------


@login_required
def rescore(request: HttpRequest) -> HttpResponse:
    """Re-score the current club's games (its admins and owners)."""
    club = current_club(request)
    if club is None:
        return render(request, "web/no_club.html")
    form = RescoreForm(_posted(request))
    if request.method == "POST":
        if not access.may(request.user, club.pk, access.Can.ADMIN):
            raise PermissionDenied("only the club's admins re-score its games")
        if form.is_valid():
            try:
                job = jobs.rescore_start(created_by=request.user, club=club, **form.job_params())
            except jobs.QueueUnavailable as exc:
                messages.error(
                    request, _("The job queue is unavailable: %(error)s") % {"error": exc}
                )
                last = job_selectors.last_job_of(request.user)
                if last is None:
                    return redirect("web:rescore")
                job = last
            return redirect("web:job", pk=job.pk)
    jobs_shown = list(job_selectors.rescore_jobs(request.user))
    for job_shown in jobs_shown:
        job_shown.status_word = present.job_status_word(job_shown.status)  # type: ignore[attr-defined]
    context = {
        "form": form,
        "jobs": jobs_shown,
        "club": club,
        "can_rescore": access.may(request.user, club.pk, access.Can.ADMIN),
    }
    return render(request, "web/rescore.html", context)


def _rescore_job(request: HttpRequest, pk: int) -> Job:
    job = job_selectors.rescore_job(request.user, pk)
    if job is None:
        raise Http404("no such job")
    return job


@login_required
def job_detail(request: HttpRequest, pk: int) -> HttpResponse:
    job = _rescore_job(request, pk)
    progress = jobs.job_progress(job)
    return render(
        request,
        "web/job.html",
        {
            "job": job,
            "progress": progress,
            "status_word": present.job_status_word(progress["status"]),
            "can_resume": access.owner_or_admin(request.user, job),
            "api_url": f"/api/rescore/{job.pk}/",
        },
    )


@login_required
@require_POST
def job_resume(request: HttpRequest, pk: int) -> HttpResponse:
    job = _rescore_job(request, pk)
    if not access.owner_or_admin(request.user, job):
        raise PermissionDenied("only the club's admins resume its jobs")
    try:
        sent = jobs.job_resume(job.pk)
    except jobs.CannotResume as exc:
        messages.info(request, exc.message)
    except jobs.QueueUnavailable as exc:
        messages.error(request, _("The job queue is unavailable: %(error)s") % {"error": exc})
    else:
        text = ngettext(
            "Sent again: %(count)s game not re-scored yet.",
            "Sent again: %(count)s games not re-scored yet.",
            sent,
        )
        messages.success(request, text % {"count": sent})
    return redirect("web:job", pk=job.pk)


# --- Signing in ----------------------------------------------------------------------------------


@method_decorator(
    ratelimit(
        key="ip", rate=lambda group, request: page_rate("signin"), method="POST", block=False
    ),
    name="post",
)
class SignInView(auth_views.LoginView):
    """Django's sign-in, with sign-in attempts per address limited like the API's token."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if getattr(request, "limited", False):
            form = self.get_form()
            form.add_error(None, _("Too many sign-in attempts from here; wait a minute."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)
