"""A play's game as storing it would make it (unsaved), checked by the same rules as the
records' services without writing (``check_play``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.exchange.formats.plays import Problem
from games.exchange.imports.plans import OTHER, PlayPlan, SeatPlan, _place_sheet
from games.records import adapters, board_games, services, stored_json
from games.records.errors import RecordError
from games.records.models import BoardGame, Club, Game
from scoring.engine import LogError
from scoring.engine.errors import check_first_player


def _teams(seats: Sequence[SeatPlan]) -> list[list[int]] | None:
    """Teams as seat lists, in order of first appearance; a seat with no team plays alone."""
    if not any(s.team is not None for s in seats):
        return None
    teams: dict[Any, list[int]] = {}
    for index, seat in enumerate(seats):
        key = ("team", seat.team) if seat.team is not None else ("alone", index)
        teams.setdefault(key, []).append(index)
    return list(teams.values())


def _first_player(seats: Sequence[SeatPlan]) -> int | None:
    return next((i for i, s in enumerate(seats) if s.start_player), None)


def _win_rule(plan: PlayPlan) -> str:
    """How the play's game is won here: one of ours as its engine says, a named game as the
    club's says (a new one: as the file's)."""
    assert plan.game is not None
    if plan.game.game_type != OTHER:
        return services._game_info(plan.game.game_type).result_win_rule()
    return plan.game.win


def _built(plan: PlayPlan, club: Club, names: list[str]) -> tuple[Game, dict[str, Any]]:
    """The play's game as it would be stored (unsaved) and its result: the checks of
    ``board_games.result_game_create`` (a game known by its result) and of
    ``services.scorepad_game_create`` (the sheet its places make), without writing. Raises
    ``LogError`` and ``RecordError`` as they do."""
    assert plan.game is not None
    game_type = plan.game.game_type
    info = services._game_info(game_type)
    n = len(names)
    location, notes = services._clean_notes(plan.location, plan.play.comments)
    first = _first_player(plan.seats)
    game = Game(
        club=club,
        game_type=game_type,
        edition=services._edition_for(info, None),
        variant=info.default_variant or "",
        status=Game.Status.FINISHED,
        player_count=n,
        first_player=first,
        played_on=plan.play.played_on,
        location=location,
        notes=notes,
        duration=board_games._clean_duration(plan.play.duration),
        finished_at=timezone.now(),
    )
    board_games.check_player_count(info, n)
    if first is not None:
        check_first_player(first, n)
    places = plan.places()
    if plan.mode() == Game.Mode.SCOREPAD and places is not None:
        game.mode = Game.Mode.SCOREPAD
        game.sheet = stored_json.clean(_place_sheet(game_type, places), path="sheet")
        return game, adapters.score_sheet(game, names, game.sheet, None)
    teams = _teams(plan.seats)
    if teams is not None and info.logged and n not in info.team_counts:
        raise RecordError(
            "bad_teams",
            _("%(game)s has no teams with %(count)s players") % {"game": info.label, "count": n},
        )
    game.mode = Game.Mode.RESULT
    game.teams = stored_json.clean(teams, path="teams")
    lines = board_games._clean_sheet(plan.sheet_lines(), n)
    rule = _win_rule(plan)
    won = plan.play.cooperative_won if rule == BoardGame.Win.COOPERATIVE else None
    game.sheet = {"win": rule, "sheet": lines, "won": won}
    result = adapters.score_final(game, names)
    if result["teams"] is not None:  # a cooperative game is one team, however it came
        game.teams = [t["seats"] for t in result["teams"]]
    return game, result


def check_play(plan: PlayPlan, club: Club) -> None:
    """Check the play's game as storing it would, without writing: raises the ``LogError``
    or ``RecordError`` the store would. Winners marked by hand against the scores keep the
    winners and leave the scores out (``scores_left_out``)."""
    names = [s.name for s in plan.seats]
    try:
        _built(plan, club, names)
    except LogError as exc:
        if not plan.play.manual_winner or exc.code not in ("winner_disagrees", "rank_disagrees"):
            raise
        plan.scores_left_out = True
        _built(plan, club, names)
        plan.problems.append(
            Problem(
                "scores_left_out",
                _("the winners were marked by hand against the scores: the scores are left out"),
            )
        )
