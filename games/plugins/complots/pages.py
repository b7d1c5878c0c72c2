"""Complots' pieces of the game page: the table (coins, influences, face-up cards), what the
turn entry offers at each step, the ranking with its tie-breaks, the K4 counts and the turns
played in words; and the player page's section."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.plugins.complots import GAME_TYPE
from games.plugins.complots.table import (
    Table,
    allowed_actions,
    block_characters,
    blocked_by_target_only,
    claim_of,
    game_characters,
    is_blockable,
    is_targeted,
)
from games.plugins.complots.turns import (
    MAX_LOSSES,
    NO,
    STEP_ACTION,
    STEP_DETAILS,
    YES,
    TurnForm,
)
from games.plugins.complots.words import (
    ACTION_LABELS,
    CHALLENGE_QUESTIONS,
    CLAIM_NOTES,
    CLAIM_SHOWN,
    LAST_STANDING,
    OUT_LABELS,
    action_label,
    character_label,
    entry_detail,
    seat_words,
    standing_words,
    stat_label,
    turn_words,
)
from games.records.models import Game, Player
from games.web import present
from scoring.engine import get_engine
from scoring.engine.complots.rules import (
    ACTION_CODES,
    ACTION_NAMES,
    FORCED_COUP_COINS,
    TIEBREAK_COINS,
    TIEBREAK_LOSS_ORDER,
    TIEBREAK_SHARED,
)

# --- The turn entry's choices -------------------------------------------------------------------


def _choice(form: TurnForm, field: str, value: str, label: str, detail: str = "") -> dict[str, Any]:
    current = form[field].value() if form.is_bound else form.initial.get(field)
    return {
        "id": f"{field}-{value or 'none'}",
        "name": field,
        "value": value,
        "label": label,
        "detail": detail,
        "checked": str(current or "") == value,
    }


def turn_context(form: TurnForm, table: Table, names: list[str]) -> dict[str, Any]:
    """What the turn entry shows: the seat to act, the allowed actions and targets, then the
    challenge, block and loss rows the chosen action can have."""
    actor = table.current
    assert actor is not None
    me = table.players[actor]
    variant = table.variant
    others = table.live_others(actor)
    actions = [
        _choice(form, "action", a, action_label(a, variant), str(ACTION_LABELS[a][1]))
        for a in allowed_actions(me["coins"], variant)
    ]
    targets = [
        _choice(form, "target", str(p["seat"]), names[p["seat"]], seat_words(p)) for p in others
    ]
    context: dict[str, Any] = {
        "actor": me,
        "actor_name": names[actor],
        "forced_coup": me["coins"] >= FORCED_COUP_COINS,
        "stage": form.stage,
        "actions": actions,
        "targets": targets,
        "targeted_actions": present.names_joined(
            [
                action_label(a, variant)
                for a in ACTION_NAMES
                if is_targeted(a) and (a != "inquire" or variant == "inquisitor")
            ]
        ),
    }
    action = (form["action"].value() or "") if form.is_bound else ""
    if form.stage != STEP_DETAILS or action not in ACTION_CODES:
        context["stage"] = STEP_ACTION
        return context
    target = form["target"].value() if is_targeted(action) else ""
    target_seat = int(target) if str(target or "").isdigit() else None
    claim = claim_of(action, variant)
    target_name = names[target_seat] if target_seat is not None and target_seat < len(names) else ""
    summary = {
        "actor": names[actor],
        "action": action_label(action, variant),
        "target": target_name,
    }
    context.update(
        {
            # The action chosen, above its details: "Ada: Captain on Cy".
            "summary": _("%(actor)s: %(action)s on %(target)s") % summary
            if target_name
            else _("%(actor)s: %(action)s") % summary,
            "action": action,
            "action_label": action_label(action, variant),
            "target": target or "",
            "target_name": target_name,
            "claim": character_label(claim) if claim else None,
            "claim_note": str(CLAIM_NOTES[claim]) if claim else "",
            "challenge_question": str(CHALLENGE_QUESTIONS[claim]) if claim else "",
            "inquire": action == "inquire",
        }
    )
    if claim:
        context["challengers"] = [_choice(form, "challenge_by", "", _("No one"))] + [
            _choice(form, "challenge_by", str(p["seat"]), names[p["seat"]]) for p in others
        ]
        context["claim_truth"] = [
            _choice(
                form,
                "challenge_truthful",
                YES,
                str(CLAIM_SHOWN[claim]) % {"name": names[actor]},
            ),
            _choice(
                form,
                "challenge_truthful",
                NO,
                _("False: %(name)s was bluffing") % {"name": names[actor]},
            ),
        ]
    if is_blockable(action):
        if blocked_by_target_only(action):
            blockers = [p for p in others if p["seat"] == target_seat]
        else:
            blockers = others
        characters = block_characters(action, variant)
        context["blockers"] = [_choice(form, "block_by", "", _("No one"))] + [
            _choice(form, "block_by", str(p["seat"]), names[p["seat"]]) for p in blockers
        ]
        context["block_characters"] = [
            _choice(form, "block_as", c, character_label(c)) for c in characters
        ]
        if len(characters) == 1 and not form["block_as"].value():
            context["block_characters"][0]["checked"] = True
        block_challengers = [
            p
            for p in table.players
            if p["alive"] and (len(blockers) != 1 or p["seat"] != blockers[0]["seat"])
        ]
        context["block_challengers"] = [_choice(form, "block_challenge_by", "", _("No one"))] + [
            _choice(form, "block_challenge_by", str(p["seat"]), names[p["seat"]])
            for p in block_challengers
        ]
        context["block_truth"] = [
            _choice(form, "block_challenge_truthful", YES, _("True: the blocker showed the card")),
            _choice(form, "block_challenge_truthful", NO, _("False: the blocker was bluffing")),
        ]
    # A coup can only take the target's influence: its row is known before anything else.
    if (
        action == "coup"
        and target_seat is not None
        and not any(form[f"loss_{i}_seat"].value() for i in range(MAX_LOSSES))
    ):
        form.data = form.data.copy()
        form.data["loss_0_seat"] = str(target_seat)
    context["loss_rows"] = [
        {"index": i, "seat": form[f"loss_{i}_seat"], "card": form[f"loss_{i}_card"]}
        for i in range(MAX_LOSSES)
    ]
    context["loss_seat_choices"] = [("", "—")] + [
        (str(p["seat"]), names[p["seat"]]) for p in table.players if p["alive"]
    ]
    context["loss_card_choices"] = [("", "—")] + [
        (c, character_label(c)) for c in game_characters(variant)
    ]
    return context


# --- The game page ------------------------------------------------------------------------------


def seat_rows(players: Sequence[Mapping[str, Any]], current: int | None) -> list[dict[str, Any]]:
    """Every player's coins, hidden influences and face-up cards, the seat to act marked."""
    return [
        {
            **p,
            "current": p["seat"] == current,
            "face_up_labels": [character_label(c) for c in p["face_up"] or ()],
            "hidden_marks": range(p["influences"] or 0),
        }
        for p in players
    ]


# The tie-breaks of the ranking (the engine's ``tiebreak_wording``), with and without the
# players the tie was with.
TIEBREAK_SENTENCES = {
    TIEBREAK_COINS: (
        gettext_lazy("Tie-break: placed by coins among players with as many influences left."),
        gettext_lazy(
            "Tie-break: placed by coins among players with as many influences left "
            "(with %(names)s)."
        ),
    ),
    TIEBREAK_SHARED: (
        gettext_lazy("Tie-break: shared: as many influences left and as many coins."),
        gettext_lazy(
            "Tie-break: shared: as many influences left and as many coins (with %(names)s)."
        ),
    ),
    TIEBREAK_LOSS_ORDER: (
        gettext_lazy(
            "Tie-break: eliminated in the same turn as another; the later loss ranks better."
        ),
        gettext_lazy(
            "Tie-break: eliminated in the same turn as another; the later loss ranks better "
            "(with %(names)s)."
        ),
    ),
}


def tiebreak_words(player: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> str:
    """The tie-break that placed ``player`` in words (the engine's ``tiebreak_wording``), with
    the players it was measured against."""
    code = player.get("tiebreak")
    if not code:
        return ""
    if code == "loss_order":
        others = [
            p["name"]
            for p in players
            if p is not player and p["eliminated_on_turn"] == player["eliminated_on_turn"]
        ]
    elif code == "shared":
        others = [
            p["name"]
            for p in players
            if p is not player and p["alive"] and p["rank"] == player["rank"]
        ]
    else:  # coins: the live players with as many influences left
        others = [
            p["name"]
            for p in players
            if p is not player and p["alive"] and p["influences"] == player["influences"]
        ]
    joined = present.names_joined(others)
    if code in TIEBREAK_SENTENCES:
        alone, along = TIEBREAK_SENTENCES[code]
        return str(along) % {"names": joined} if others else str(alone)
    # A tie-break the page does not know: the engine's words.
    wording = get_engine(GAME_TYPE).info.tiebreak_wording.get(code, code)
    tail = f" (with {joined})" if others else ""
    return f"Tie-break: {wording}{tail}."


def _result_standing(player: Mapping[str, Any], players: int) -> str:
    """How a player of a game known by its result stands: "1st out", ..., or the winner's
    "last one standing" (the rank says the place: the first out ranks last, K4)."""
    if player["alive"]:
        return str(LAST_STANDING)
    place = players + 1 - player["rank"]
    return str(OUT_LABELS.get(place, ""))


def ranking(result: Mapping[str, Any], *, by_result: bool = False) -> list[dict[str, Any]]:
    """The players in rank order, with their standing in words: a logged game's influences
    and coins or the turn they went out in; a game known by its result only (``by_result``),
    the place they went out in."""
    players = result.get("players") or []
    rows = [
        {
            **p,
            "rank_words": present.rank_words(p["rank"]),
            "winner": p["seat"] in (result.get("winners") or []),
            "tiebreak_words": tiebreak_words(p, players),
            "standing_words": (
                _result_standing(p, len(players)) if by_result else standing_words(p)
            ),
        }
        for p in players
    ]
    return sorted(rows, key=lambda p: (p["rank"], p["seat"]))


def counts_table(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """The K4 counts: one card per player (a phone reads eight players' cards one under the
    other), each a row per count; a count not kept (a game known by its result) is None, shown
    as a dash. None when no count at all is known."""
    players = result.get("players") or []
    stats = get_engine(GAME_TYPE).info.stats
    if all(p.get(s.name) is None for p in players for s in stats):
        return None
    return {
        "players": [
            {
                "seat": p["seat"],
                "name": p["name"],
                "rank_words": present.rank_words(p["rank"]),
                "rows": [
                    {"key": s.name, "label": stat_label(s), "value": p.get(s.name)} for s in stats
                ],
            }
            for p in players
        ],
    }


def _turn_history(game: Game, result: Mapping[str, Any], names: list[str]) -> list[dict[str, Any]]:
    entries = [r.data for r in game.rounds.all()]  # prefetched, in order
    variant = result.get("variant") or "ambassador"
    history = []
    for turn in result.get("turns") or []:
        entry = entries[turn["turn"] - 1] if turn["turn"] <= len(entries) else {}
        history.append(
            {
                "turn": turn["turn"],
                "words": turn_words(turn, names, variant),
                "detail": entry_detail(entry, names),
            }
        )
    return history


def game_page(
    *,
    game: Game,
    result: dict[str, Any],
    names: list[str],
    table: Table | None,
    entry_form: TurnForm | None,
    finish_form: None,
    can_write: bool,
) -> dict[str, Any]:
    """The context of Complots' pieces of the game page."""
    variant = result.get("variant") or game.variant or "ambassador"
    winners = result.get("winners") or []
    current = table.current if table is not None else None
    # A game known by its result only has no table to show: no turn, coin or card is known.
    by_result = game.mode == Game.Mode.SCOREPAD
    context: dict[str, Any] = {
        "meta_template": "web/complots/game_meta.html",
        "top_template": None if by_result else "web/complots/table.html",
        "by_result": by_result,
        "body_template": "web/complots/game_body.html",
        "over_heading": (
            _("%(name)s wins: one player is left") % {"name": names[winners[0]]}
            if winners
            else _("The game is won")
        ),
        "finish_button": _("Finish the game"),
        "scripts": ["js/turn.js"] if entry_form is not None else [],
        "variant_label": character_label(variant),
        "seat_rows": [] if by_result else seat_rows(result.get("players") or [], current),
        "treasury": result.get("treasury"),
        "turns_played": result.get("turns_played", 0),
        "ranking": ranking(result, by_result=by_result),
        "finished": game.status == Game.Status.FINISHED,
        "counts": counts_table(result) if game.status == Game.Status.FINISHED else None,
        "history": _turn_history(game, result, names),
    }
    if entry_form is not None and table is not None:
        context.update(turn_context(entry_form, table, names))
    return context


# --- The player page ----------------------------------------------------------------------------


def player_section(player: Player, stats: dict[str, Any]) -> dict[str, Any]:
    """What the player page shows of Complots: games, wins, survival and the K4 counts."""
    info = get_engine(GAME_TYPE).info
    counts = [
        {"name": s.name, "label": stat_label(s), "value": stats.get(s.name)} for s in info.stats
    ]
    return {"template": "web/complots/player_section.html", "stats": stats, "counts": counts}
