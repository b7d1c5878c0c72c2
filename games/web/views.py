"""The web scorepad: server-rendered pages for the table. Views check who asks, read through
selectors and write through services; an engine error is shown next to what caused it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from games import selectors, services
from games.errors import RecordError
from games.models import Deck, Game, Player
from games.web import charts, present
from games.web.forms import (
    MAX_SEATS,
    DeckForm,
    JokersForm,
    NewGameForm,
    RescoreForm,
    RoundForm,
    ScorepadForm,
)
from scoring import jobs
from scoring import selectors as stats_selectors
from scoring.engine import LogError
from scoring.models import Job

LEADERBOARD_SIZE = 10
# Round errors without a seat that are about the round as a whole rather than its trump card.
ROUND_WIDE_CODES = {"too_many_rounds", "round_conflict", "malformed"}


def _can_write(user: Any, game: Game) -> bool:
    return bool(user.is_staff or game.owner_id == user.pk)


def _require_staff(request: HttpRequest) -> None:
    if not request.user.is_staff:
        raise PermissionDenied("staff only")


def _posted(request: HttpRequest) -> Any:
    # An empty POST is still a submitted form (``request.POST or None`` would drop it).
    return request.POST if request.method == "POST" else None


def _known_players() -> list[str]:
    return list(Player.objects.order_by("name").values_list("name", flat=True)[:500])


@login_required
def home(request: HttpRequest) -> HttpResponse:
    ratings = list(stats_selectors.leaderboard()[:LEADERBOARD_SIZE])
    context = {
        "in_progress": selectors.games_in_progress()[:20],
        "recent": selectors.games_finished()[:10],
        "leaderboard": stats_selectors.leaderboard_entries(ratings, start=1),
    }
    return render(request, "web/home.html", context)


def _header_error(form: Any, exc: LogError | RecordError) -> None:
    """Put an engine or record error on the player row it names, else on the whole form."""
    field = f"player_{exc.seat}" if exc.seat is not None and exc.seat < MAX_SEATS else None
    form.add_error(field, exc.message)


def _player_form_context(form: Any) -> dict[str, Any]:
    return {"form": form, "known_players": _known_players()}


def _new_game_page(
    request: HttpRequest,
    form_class: type[NewGameForm | ScorepadForm],
    template: str,
    create: Callable[..., Game],
    done: str,
) -> HttpResponse:
    """A page that records a game from a form: refused by the engine, the form shows why."""
    form = form_class(_posted(request), initial={"deck": services.deck_default().key})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():  # a refused game keeps no player created for it
                game = create(
                    data,
                    owner=request.user,
                    players=services.players_resolve(data["names"], created_by=request.user),
                    deck=data["deck"],
                    teams=data["team_list"],
                    played_on=data.get("played_on"),
                    location=data.get("location") or "",
                    game_type=data["game_type"],
                )
        except (LogError, RecordError) as exc:
            _header_error(form, exc)
        else:
            messages.success(request, done.format(id=game.pk))
            return redirect("web:game", pk=game.pk)
    return render(request, template, _player_form_context(form))


@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    def create(data: dict[str, Any], **common: Any) -> Game:
        return services.game_create(first_player=data["first_player"], **common)

    return _new_game_page(request, NewGameForm, "web/game_new.html", create, "Game #{id} started.")


@login_required
def scorepad_new(request: HttpRequest) -> HttpResponse:
    def create(data: dict[str, Any], **common: Any) -> Game:
        return services.scorepad_game_create(tableaux=data["tableaux"], **common)

    done = "Game #{id} recorded from its scorepad."
    return _new_game_page(request, ScorepadForm, "web/scorepad_new.html", create, done)


def _game(pk: int) -> Game:
    return get_object_or_404(selectors.game_detail_queryset(), pk=pk)


def _round_context(
    game: Game, state: selectors.TableState, form: RoundForm, names: list[str]
) -> dict[str, Any]:
    """The round entry: a card picker for the trump, then one per seat in turn order."""
    data = form.data if form.is_bound else {}
    trump_checked = data.get("trump")
    slots = []
    for i, seat in enumerate(state.order):
        field = form[f"play_{i}"]
        checked = data.get(f"play_{i}")
        allowed = state.hands[seat] if state.hands is not None else None
        gems = state.gems_in_hand[seat]
        slots.append(
            {
                "index": i,
                "seat": seat,
                "name": names[seat],
                "field": field,
                "starter": i == 0,
                "cards": state.cards_in_hand[seat],
                "gems": gems,
                "can_pass": i > 0 and gems > 0,
                "passed": checked == "pass",
                "grid": present.card_grid(
                    name=f"play_{i}",
                    prefix=f"play{i}",
                    blocked=state.blocked,
                    allowed=allowed,
                    checked=checked,
                ),
            }
        )
    return {
        "form": form,
        "state": state,
        "trump_grid": present.card_grid(
            name="trump",
            prefix="trump",
            blocked=(),
            allowed=state.trump_choices,
            checked=trump_checked,
        ),
        "slots": slots,
    }


def _render_game(
    request: HttpRequest,
    game: Game,
    *,
    form: RoundForm | None = None,
    jokers_form: JokersForm | None = None,
    status: int = 200,
) -> HttpResponse:
    result = game.result or {}
    seats = list(game.seats.all())
    names = [s.player.name for s in seats]
    can_write = _can_write(request.user, game)
    context: dict[str, Any] = {
        "game": game,
        "seats": seats,
        "result": result,
        "can_write": can_write,
        "standings": present.standings(result) if result else [],
        "rounds": [
            {**r, "winner_name": names[r["winner"]], "starter_name": names[r["starter"]]}
            for r in result.get("rounds") or []
        ],
        "violations": [{**v, "name": names[v["seat"]]} for v in result.get("violations") or []],
        "team_play": bool(game.teams),
    }
    in_progress = game.status == Game.Status.IN_PROGRESS
    if game.mode == Game.Mode.ROUNDS and in_progress:
        try:
            state = selectors.table_state(game)
        except LogError as exc:  # e.g. rounds stored before a rules correction
            messages.error(request, f"The stored rounds no longer replay: {exc.message}")
            context["tableau"] = present.tableau_table(result)
            return render(request, "web/game.html", context, status=status)
        context["state"] = state
        current = state.order[0] if state.order else None
        context["tableau"] = present.tableau_table(result, current=current)
        if can_write and state.over:
            context["jokers_form"] = jokers_form or JokersForm(
                choices=present.joker_choices(result)
            )
        if can_write and not state.over:
            if form is None:
                form = RoundForm(initial={"number": state.number}, order=state.order, names=names)
            context.update(_round_context(game, state, form, names))
    else:
        context["tableau"] = (
            present.tableau_table(result) if game.mode == Game.Mode.ROUNDS else None
        )
        context["breakdown"] = present.breakdown_table(result)
    return render(request, "web/game.html", context, status=status)


@login_required
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _render_game(request, _game(pk))


def _writable(request: HttpRequest, pk: int) -> Game:
    game = _game(pk)
    if not _can_write(request.user, game):
        raise PermissionDenied("only the game's owner or staff change it")
    return game


def _round_error(form: RoundForm, order: list[int], exc: LogError | RecordError) -> None:
    """Show the engine's error next to the action that caused it: the seat's action, or the
    trump card when the error names no seat."""
    text = exc.message
    if exc.seat is not None and exc.seat in order:
        form.add_error(f"play_{order.index(exc.seat)}", text)
    elif exc.code in ROUND_WIDE_CODES or isinstance(exc, RecordError):
        form.add_error(None, text)
    else:
        form.add_error("trump", text)


@login_required
@require_POST
def round_append(request: HttpRequest, pk: int) -> HttpResponse:
    game = _writable(request, pk)
    if game.mode != Game.Mode.ROUNDS or game.status != Game.Status.IN_PROGRESS:
        messages.error(request, "This game takes no more rounds.")
        return redirect("web:game", pk=pk)
    state = selectors.table_state(game)
    if state.over:
        messages.error(request, f"The game ended after round {state.number - 1}.")
        return redirect("web:game", pk=pk)
    names = [s.player.name for s in game.seats.all()]
    form = RoundForm(request.POST, order=state.order, names=names)
    if form.is_valid():
        try:
            game, stored = services.round_append(
                game=game, round_data=form.round_data(), number=form.cleaned_data["number"]
            )
        except (LogError, RecordError) as exc:
            _round_error(form, state.order, exc)
        else:
            summary = (game.result or {}).get("rounds", [])[stored.number - 1]
            messages.success(
                request,
                f"Round {stored.number} saved: {names[summary['winner']]} wins it with "
                f"{summary['winning_card']}.",
            )
            return redirect(reverse("web:game", args=[pk]) + "#round-entry")
    return _render_game(request, _game(pk), form=form, status=400)


def _game_action(
    request: HttpRequest, pk: int, action: Callable[..., Any], done: str
) -> HttpResponse:
    """A button on the game page: run the service, say what happened, back to the game."""
    game = _writable(request, pk)
    try:
        action(game=game)
    except (LogError, RecordError) as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect("web:game", pk=pk)


@login_required
@require_POST
def round_undo(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_action(request, pk, services.round_undo, "The last round was undone.")


@login_required
@require_POST
def game_finish(request: HttpRequest, pk: int) -> HttpResponse:
    """Finish the game, with the Jokers where the form put them (the engine's best placement
    unless someone moved them)."""
    game = _writable(request, pk)
    form = JokersForm(request.POST, choices=present.joker_choices(game.result or {}))
    if form.is_valid():
        try:
            services.game_finish(game=game, jokers=form.placement())
        except (LogError, RecordError) as exc:
            # A refusal that names a player's Jokers stays on the form; any other is a message.
            if not (isinstance(exc, LogError) and form.engine_error(exc)):
                messages.error(request, exc.message)
                return redirect("web:game", pk=pk)
        else:
            messages.success(request, "Game finished.")
            return redirect("web:game", pk=pk)
    return _render_game(request, _game(pk), jokers_form=form, status=400)


@login_required
@require_POST
def game_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    done = "Game reopened: rounds can be undone or added again."
    return _game_action(request, pk, services.game_reopen, done)


@login_required
def player_list(request: HttpRequest) -> HttpResponse:
    query = (request.GET.get("q") or "").strip()
    players = Player.objects.annotate(games=Count("seats")).order_by("name")
    if query:
        players = players.filter(name__icontains=query)
    return render(request, "web/players.html", {"players": players[:200], "q": query})


@login_required
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    stats = stats_selectors.player_stats(player=player)
    ratings = list(stats_selectors.rating_history(player=player))
    scores = selectors.player_score_history(player)
    rating_points = [(h.played_on.isoformat(), h.ordinal) for h in ratings]
    score_points = [
        (f"{s.game.played_on.isoformat()} #{s.game_id}", float(s.score))
        for s in scores
        if s.score is not None
    ]
    habits = selectors.player_guild_habits(player)
    negative = stats["negative_columns"]
    for row in habits["guilds"]:
        row["negative"] = negative.get(row["guild"], 0)
        row["label"] = present.GUILD_LABELS[row["guild"]]
    by_count = [{"players": n, **b} for n, b in stats["by_player_count"].items() if b["games"]]
    context = {
        "player": player,
        "stats": stats,
        "by_count": by_count,
        "rating_chart": charts.line_chart(
            rating_points, title=f"Rating (ordinal) of {player.name} after each game"
        ),
        "score_chart": charts.line_chart(
            score_points, title=f"Score of {player.name} in each finished game", zero_line=True
        ),
        "ratings": ratings[-20:],
        "scores": scores[-20:],
        "habits": habits,
    }
    return render(request, "web/player.html", context)


@login_required
def deck_list(request: HttpRequest) -> HttpResponse:
    services.decks_by_key()  # the built-in decks are stored on first use
    decks = Deck.objects.annotate(game_count=Count("games")).order_by("key")
    return render(request, "web/decks.html", {"decks": decks})


@login_required
def deck_detail(request: HttpRequest, key: str) -> HttpResponse:
    deck = get_object_or_404(Deck, key=key)
    if request.method == "POST":
        _require_staff(request)
        verified = request.POST.get("verified") == "1"
        services.deck_mark_verified(deck=deck, verified=verified)
        messages.success(
            request, f"Deck {deck.key} marked {'verified' if verified else 'not verified'}."
        )
        return redirect("web:deck", key=deck.key)
    rows = []
    for letter, row in zip("APEU", present.card_grid(name="", prefix=""), strict=True):
        rows.append(
            {
                "name": row["name"],
                "letter": letter,
                "cards": [
                    {"card": c["card"], "symbols": deck.cards.get(c["card"], [])}
                    for c in row["cells"]
                    if c["card"] in deck.cards
                ],
            }
        )
    games = deck.games.count()
    return render(request, "web/deck.html", {"deck": deck, "rows": rows, "games": games})


@login_required
def deck_new(request: HttpRequest) -> HttpResponse:
    source_key = request.GET.get("from") or services.DEFAULT_DECK_KEY
    services.decks_by_key()
    source = get_object_or_404(Deck, key=source_key)
    form = DeckForm(
        _posted(request),
        cards=source.cards,
        initial={"key": f"{source.key}-v2", "description": f"Corrected from {source.key}."},
    )
    if request.method == "POST" and form.is_valid():
        try:
            deck = services.deck_create(
                key=form.cleaned_data["key"],
                cards=form.cards(),
                description=form.cleaned_data["description"],
                verified=False,  # staff mark it verified once checked
                created_by=request.user,
            )
        except RecordError as exc:
            form.add_error("key", exc.message)
        except LogError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Deck {deck.key} created.")
            return redirect("web:deck", key=deck.key)
    return render(request, "web/deck_new.html", {"form": form, "source": source})


@login_required
def rescore(request: HttpRequest) -> HttpResponse:
    form = RescoreForm(_posted(request))
    if request.method == "POST":
        _require_staff(request)
        if form.is_valid():
            try:
                job = jobs.rescore_start(created_by=request.user, **form.job_params())
            except jobs.QueueUnavailable as exc:
                messages.error(request, f"The job queue is unavailable: {exc}")
                job = Job.objects.filter(created_by=request.user).order_by("-id").first()
                if job is None:
                    return redirect("web:rescore")
            return redirect("web:job", pk=job.pk)
    visible = Job.objects.filter(kind=Job.Kind.RESCORE)
    if not request.user.is_staff:
        visible = visible.filter(created_by=request.user)
    return render(request, "web/rescore.html", {"form": form, "jobs": visible[:20]})


def _rescore_job(request: HttpRequest, pk: int) -> Job:
    job = get_object_or_404(Job, Q(pk=pk) & Q(kind=Job.Kind.RESCORE))
    if not (request.user.is_staff or job.created_by_id == request.user.pk):
        raise PermissionDenied("not your job")
    return job


@login_required
def job_detail(request: HttpRequest, pk: int) -> HttpResponse:
    job = _rescore_job(request, pk)
    progress = jobs.job_progress(job)
    return render(
        request,
        "web/job.html",
        {"job": job, "progress": progress, "api_url": f"/api/rescore/{job.pk}/"},
    )


@login_required
@require_POST
def job_resume(request: HttpRequest, pk: int) -> HttpResponse:
    _require_staff(request)  # as starting a re-score
    job = _rescore_job(request, pk)
    try:
        sent = jobs.job_resume(job.pk)
    except jobs.CannotResume as exc:
        messages.info(request, exc.message)
    except jobs.QueueUnavailable as exc:
        messages.error(request, f"The job queue is unavailable: {exc}")
    else:
        games = "1 game" if sent == 1 else f"{sent} games"
        messages.success(request, f"Sent again: {games} not re-scored yet.")
    return redirect("web:job", pk=job.pk)


def _signin_rate() -> str:
    """The API's sign-in rate ("20/min") in django-ratelimit's form ("20/m")."""
    count, period = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["signin"].split("/")
    return f"{count}/{period[0]}"


@method_decorator(
    ratelimit(key="ip", rate=lambda group, request: _signin_rate(), method="POST", block=False),
    name="post",
)
class SignInView(auth_views.LoginView):
    """Django's sign-in, with sign-in attempts per address limited like the API's token."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if getattr(request, "limited", False):
            form = self.get_form()
            form.add_error(None, "Too many sign-in attempts from here; wait a minute.")
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)
