"""Bruges's pieces of the web scorepad (found through ``plugin_for("bruges")``; the generic
pages in ``games/web/`` never import this module by name): the edition of a new game, the round
entry (``entry.py``), the running table of every seat, the end of the game with its laurel
points, the score sheet as in the rulebook's example (``sheet.py``), a finished game entered by
its final score sheet (``scorepad.py``), the player page's section and the edition pages
(``edition_pages.py``). Every number comes from the engine: its result
document (docs/bruges-engine.md) or, while a round is entered, its state part-way through the
round (``scoring.engine.bruges.table``).

The engine cannot tell when a game is over (draws are not logged): the table says so with
*Finish*, offered after any round beside the next round's entry, with each laurel person's
points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import (
    gettext_lazy,
    ngettext,
    npgettext_lazy,
    pgettext,
    pgettext_lazy,
)

from games.plugins.bruges import edition_pages, sheet, words
from games.plugins.bruges.entry import (
    DICE,
    DRAW,
    MORE,
    PASS,
    PHASE2,
    SAVE,
    TURN,
    EntryTable,
    RoundForm,
    person_label,
    refusal_words,
)
from games.plugins.bruges.scorepad import ScorepadSheet as ScorepadSheet  # scorepad page
from games.records import services
from games.records.errors import RecordError
from games.records.models import Edition, Game, Player, Seat
from games.records.selectors import engine_state
from games.web import present, refusals
from scoring.engine import LogError, get_engine
from scoring.engine.bruges.rules import ACTIONS, COLORS
from scoring.engine.bruges.table import Table, read_table

GAME_TYPE = "bruges"
# The words of the log's keys for the generic pages' refusals (``games.web.refusals``; the round
# entry words its own with ``entry.refusal_words``, which also names persons and houses).
REFUSAL_VOCABULARY = refusals.Vocabulary(words=words.LOG_KEY_WORDS)


# The generic pages' sentences about a round (``present.ENTRY_TEXTS``), Bruges' own: the Italian
# rulebook calls a round "turno" (and the other games' rounds are "round").
ENTRY_TEXTS = {
    "first_player_help": pgettext_lazy(
        "bruges round", "Who starts round 1 (chosen at random at the table)."
    ),
    # Translators: a refusal about one round of a game; %(refusal)s is a whole sentence.
    "refusal": pgettext_lazy("bruges round", "Round %(number)s: %(refusal)s"),
    # Translators: %(refusal)s is the reason, a whole sentence.
    "no_replay": pgettext_lazy("bruges round", "The stored rounds no longer replay. %(refusal)s"),
    "no_more": pgettext_lazy("bruges round", "This game takes no more rounds."),
    "ended_after": pgettext_lazy("bruges round", "The game ended after round %(number)s."),
    "taken": npgettext_lazy(
        "bruges round",
        "Round %(number)s cannot be entered: the game has %(stored)s round, so the next "
        "is %(next)s.",
        "Round %(number)s cannot be entered: the game has %(stored)s rounds, so the next "
        "is %(next)s.",
        "stored",
    ),
    "undone": pgettext_lazy("bruges round", "The last round was undone."),
    "reopened": pgettext_lazy(
        "bruges round", "Game reopened: rounds can be undone or added again."
    ),
    "next": pgettext_lazy("bruges round", "The next round"),
    "undo": pgettext_lazy("bruges round", "Undo round %(number)s"),
    "save": pgettext_lazy("bruges round", "Save round %(number)s"),
    "scorepad_help": pgettext_lazy(
        "bruges round",
        "For a game played without logging rounds: type each player's final sheet, and the "
        "engine scores it with the same rules and tie-breaks.",
    ),
    "history_added": pgettext_lazy("bruges round", "Round %(number)s entered"),
    "history_corrected": pgettext_lazy("bruges round", "Round %(number)s corrected"),
    "history_undone": pgettext_lazy("bruges round", "Round %(number)s undone"),
}

# The labels of the engine's statistics (``info.stats``) on the pages.
STAT_LABELS = {
    "points": gettext_lazy("Points"),
    "points_track": gettext_lazy("Score track points"),
    "points_persons": gettext_lazy("Person points"),
    "points_houses": gettext_lazy("House points"),
    "points_laurels": gettext_lazy("Laurel points"),
    "points_majorities": gettext_lazy("Majority points"),
    "points_canals": gettext_lazy("Canal (3rd space) points"),
    "points_statues": gettext_lazy("Statue points"),
    "points_prestige": gettext_lazy("Prestige points"),
    "statues_taken": gettext_lazy("Statues taken"),
    "majorities_flipped": gettext_lazy("Majority tiles flipped"),
    "cards_played": gettext_lazy("Cards played"),
    "penalties_blue": gettext_lazy("Blue penalties"),
    "penalties_brown": gettext_lazy("Brown penalties"),
    "penalties_red": gettext_lazy("Red penalties"),
    "penalties_purple": gettext_lazy("Purple penalties"),
    "penalties_yellow": gettext_lazy("Yellow penalties"),
    "hired_nobles": pgettext_lazy("bruges statistic", "Nobles hired"),
    "hired_bureaucrats": pgettext_lazy("bruges statistic", "Bureaucrats hired"),
    "hired_entertainers": pgettext_lazy("bruges statistic", "Entertainers hired"),
    "hired_merchants": pgettext_lazy("bruges statistic", "Merchants hired"),
    "hired_craftsmen": pgettext_lazy("bruges statistic", "Craftsmen hired"),
    "hired_courtiers": pgettext_lazy("bruges statistic", "Courtiers hired"),
    "hired_clergy": pgettext_lazy("bruges statistic", "Clergy hired"),
    "hired_artists": pgettext_lazy("bruges statistic", "Artists hired"),
    "hired_defenders": pgettext_lazy("bruges statistic", "Defenders hired"),
    "hired_underworld": pgettext_lazy("bruges statistic", "Underworld hired"),
    "hired_scholars": pgettext_lazy("bruges statistic", "Scholars hired"),
}


# --- Reads ------------------------------------------------------------------------------------


def table_state(game: Game) -> EntryTable:
    """The table before the game's next round. Raises ``LogError`` if the stored rounds no
    longer replay (an edition or rules change)."""
    state = engine_state(game)
    names = [s.player.name for s in game.seats.all()]
    return EntryTable(
        number=state.round_no + 1,
        over=False,
        state=state,
        view=read_table(state),
        names=names,
        rounds_played=state.round_no,
    )


def edition_unverified(game: Game) -> bool:
    return game.edition is not None and not game.edition.verified


# --- New game: the edition ----------------------------------------------------------------------


def _edition_label(edition: Edition) -> str:
    if edition.verified:
        return edition.key
    # Translators: no rulebook word: the board's printed numbers kept as data (Italian chosen
    # "edizione del tabellone", Portuguese "edição do tabuleiro").
    return _("%(key)s (not verified against the printed board)") % {"key": edition.key}


class NewGameOptions(forms.Form):
    """Bruges's own options of a new game: the board's edition (rules B1)."""

    template = "web/bruges/new_game_options.html"

    edition = forms.ChoiceField(
        choices=[],
        label=gettext_lazy("Board edition"),
        help_text=gettext_lazy("The prestige points and canal spaces of the board (rules B1)."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        default = services.edition_default(GAME_TYPE)
        kwargs["initial"].setdefault("edition", default.key if default else None)
        super().__init__(*args, **kwargs)
        self.editions = services.editions_by_key(GAME_TYPE)
        self.fields["edition"].choices = [  # type: ignore[attr-defined]
            (key, _edition_label(e)) for key, e in sorted(self.editions.items())
        ]

    def check(self, players: int) -> bool:
        return True

    def game_kwargs(self) -> dict[str, Any]:
        return {"edition": self.editions[self.cleaned_data["edition"]]}


# --- The round entry ----------------------------------------------------------------------------


def entry_form(game: Game, table: EntryTable, names: list[str], data: Any = None) -> RoundForm:
    return RoundForm(data, initial={"number": table.number}, table=table)


def _flips(result: dict[str, Any], number: int, names: list[str]) -> str:
    """The majority tiles flipped in round ``number``, in words ("" when none)."""
    rounds = result.get("rounds") or []
    if number > len(rounds):
        return ""
    return "; ".join(
        _("%(name)s flipped %(tiles)s")
        % {
            "name": names[s["seat"]],
            "tiles": present_list([str(words.MAJORITY_LABELS.get(m, m)) for m in s["flipped"]]),
        }
        for s in sheet.round_seats(rounds[number - 1], len(names))
        if s["flipped"]
    )


def entry_saved(result: dict[str, Any], number: int, names: list[str]) -> str:
    flips = _flips(result, number, names)
    if flips:
        return _("Round %(number)s saved. Majorities: %(flips)s.") % {
            "number": number,
            "flips": flips,
        }
    # Translators: a round of Bruges (Italian rulebook: "turno"; Portuguese: "rodada").
    return _("Round %(number)s saved.") % {"number": number}


def entry_review(
    result: dict[str, Any], number: int, names: list[str], form: RoundForm
) -> dict[str, Any]:
    """The whole round in words before it is saved (``result``: the game as it would stand
    with it, nothing stored): the effects at the draw, the dice, the penalties, the effects
    after the dice, prestige, the effects after prestige, every turn, then the majorities and
    the standings. "Change" opens the last turn again with all its steps; nothing is lost."""
    view = form.reading.view
    persons = _person_names(view)

    def person_name(pid: str) -> str:
        return persons.get(pid, pid)

    review = review_context(form, person_name)
    lines = [_("At the draw: %(what)s.") % {"what": w} for w in review["draw"]]
    lines.append(
        _("Dice: %(dice)s (threat tokens: %(threats)s).")
        % {"dice": review["dice"], "threats": review["threats"]}
    )
    lines.extend(_("Penalty: %(what)s.") % {"what": w} for w in review["penalties"])
    lines.extend(_("After the dice: %(what)s.") % {"what": w} for w in review["after_dice"])
    lines.append(_("Prestige: %(who)s.") % {"who": review["prestige"]})
    lines.extend(_("After prestige: %(what)s.") % {"what": w} for w in review["after_prestige"])
    for k, turn in enumerate(form.current.turns, start=1):
        seat = turn.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        lines.append(
            _("Turn %(number)s, %(name)s: %(what)s.")
            % {"number": k, "name": who, "what": words.turn_words(turn, names, person_name)}
        )
    after = []
    flips = _flips(result, number, names)
    if flips:
        after.append(_("Majorities: %(flips)s.") % {"flips": flips})
    standing = sheet.standings(result)
    scores = "; ".join(f"{p.get('name')} {p.get('score')}" for p in standing if isinstance(p, dict))
    if scores:
        after.append(_("Scores after it: %(scores)s.") % {"scores": scores})
    return {
        "title": pgettext("bruges round", "Round %(number)s: check it before saving")
        % {"number": number},
        "number": number,
        "lines": lines,
        "after": " ".join(after),
        "change": ("step", "change"),
    }


def present_list(items: Sequence[str]) -> str:
    return present.names_joined(list(items))


def _person_names(view: Table) -> dict[str, str]:
    """Persons by name, with what tells apart cards of the same name."""
    return words.person_names(view.persons)


def _choice(form: RoundForm, name: str, value: str, label: str, **extra: Any) -> dict[str, Any]:
    current = form.value(name)
    return {
        "id": f"{name}-{value}".replace(":", "-"),
        "name": name,
        "value": value,
        "label": label,
        "checked": str(current or "") == value,
        **extra,
    }


def round_context(form: RoundForm) -> dict[str, Any]:
    """What the round entry shows at the step it is at."""
    table = form.table
    draft = form.current
    reading = form.reading
    view = reading.view
    names = table.names
    persons = _person_names(view)

    def person_name(pid: str) -> str:
        return persons.get(pid, pid)

    stage = form.stage
    context: dict[str, Any] = {
        "stage": stage,
        "round_number": table.number,
        "first_name": names[table.view.first_player],
        "draft_json": draft.dump(),
        "draft_started": bool(draft.upkeep or draft.drawn or draft.dice is not None),
        "notice": form.notice,
        "turns_total": form.total,
        "entered_turns": [
            {
                "number": k + 1,
                "name": words.seat_name(t.get("seat"), names),
                "words": words.turn_words(t, names, person_name),
                "error": form.turn_errors.get(k + 1, ""),
            }
            for k, t in enumerate(draft.turns)
            if isinstance(t, dict)
        ],
    }
    context["draw_words"] = upkeep_words(form, person_name, ("draw",))
    if draft.dice is not None:
        context["dice_words"] = [
            {"color": c, "value": draft.dice.get(c), "label": words.COLOR_LABELS[c]} for c in COLORS
        ]
    if stage == DRAW:
        context.update(_draw_context(form, view))
        return context
    if stage == DICE:
        context["dice_rows"] = [
            {
                "color": c,
                "label": words.COLOR_LABELS[c],
                "field": form[f"dice_{c}"],
                "choices": [_choice(form, f"dice_{c}", str(v), str(v)) for v in range(1, 7)],
            }
            for c in COLORS
        ]
        return context
    if stage == PHASE2:
        context.update(_phase2_context(form, person_name))
        return context
    if stage == TURN:
        context.update(_turn_context(form, view, person_name))
    if stage == SAVE:
        context["complete"] = True
        context["round_review"] = review_context(form, person_name)
    return context


def dice_words(dice: dict[str, Any]) -> str:
    """ "blue 3, brown 5, ..."."""
    return ", ".join(f"{words.COLOR_NAMES[c]} {dice.get(c)}" for c in COLORS)


def review_context(form: RoundForm, person_name: Any) -> dict[str, Any]:
    """The whole round as it will be saved, in words, before it is stored."""
    draft = form.current
    names = form.names
    dice = draft.dice or {}
    threats = [c for c in COLORS if dice.get(c, 0) >= 5]
    by_at: dict[str, list[str]] = {"draw": [], "dice": [], "prestige": []}
    for u in draft.upkeep:
        if not isinstance(u, dict):
            continue
        at = u.get("at") if u.get("at") in by_at else "dice"
        if isinstance(u.get("penalty"), dict):
            by_at[at].append(words.penalty_words(u["penalty"], names, person_name))
        elif "effect" in u:
            who = words.seat_name(u.get("seat"), names)
            by_at[at].append(
                words.effect_words(person_name(str(u.get("effect"))), u.get("gain"), who)
            )
    return {
        "dice": dice_words(dice),
        "threats": present_list([str(words.COLOR_NAMES[c]) for c in threats])
        if threats
        # Translators: no threat tokens.
        else pgettext("bruges threat tokens", "none"),
        "draw": by_at["draw"],
        "penalties": [
            words.penalty_words(p, names, person_name)
            for p in draft.penalties
            if isinstance(p, dict)
        ],
        "after_dice": by_at["dice"],
        "prestige": present_list([names[s] for s in draft.prestige if 0 <= s < len(names)])
        if draft.prestige
        else _("no one"),
        "after_prestige": by_at["prestige"],
    }


def upkeep_words(form: RoundForm, person_name: Any, moments: Sequence[str]) -> list[str]:
    """The automatic effects of ``moments`` entered so far, in words, each followed by the
    penalty it caused."""
    names = form.names
    out = []
    for u in form.current.upkeep:
        if not isinstance(u, dict) or (u.get("at") or "dice") not in moments:
            continue
        if isinstance(u.get("penalty"), dict):
            out.append(words.penalty_words(u["penalty"], names, person_name))
        elif "effect" in u:
            who = words.seat_name(u.get("seat"), names)
            person = person_name(str(u.get("effect")))
            if tuple(moments) == ("draw",):
                out.append(words.effect_words(person, u.get("gain"), who))
                continue
            out.append(
                _("%(player)s's %(person)s, %(when)s: %(gain)s")
                % {
                    "player": who,
                    "person": person,
                    "when": words.AT_LABELS.get(u.get("at")),
                    "gain": words.gain_words(u.get("gain")),
                }
            )
    return out


def _upkeep_question(form: RoundForm) -> dict[str, Any] | None:
    question = form.upkeep_question()
    if question is None:
        return None
    return {
        **question,
        "choices": [_choice(form, "t_choice", v, label) for v, label in question["options"]],
    }


def _draw_context(form: RoundForm, view: Table) -> dict[str, Any]:
    """The draw step: the automatic effects at the draw, before the dice are rolled."""
    names = form.names
    return {
        "upkeep_question": _upkeep_question(form),
        "draw_persons": [
            (f"{p.seat}:{p.id}", words.whose(names[p.seat], person_label(view, p.id)))
            for p in view.persons
            if p.status == "in_play" and p.icon == "infinity"
        ],
        "gain_fields": _gain_fields(form),
    }


def _phase2_context(form: RoundForm, person_name: Any) -> dict[str, Any]:
    questions = form.phase2_questions()
    names = form.names
    penalties = []
    for q in questions["penalties"]:
        penalties.append(
            {
                **q,
                "field_obj": form[q["field"]],
                "choices": [_choice(form, q["field"], v, label) for v, label in q["options"]],
                "single": q["options"][0][1] if len(q["options"]) == 1 else "",
                "single_value": q["options"][0][0] if len(q["options"]) == 1 else "",
                "order": form[q["order_field"]] if q["order_field"] else None,
                "order_checked": bool(q["order_field"]) and form._ticked(q["order_field"]),
            }
        )
    threats = questions["threats"]
    question = _upkeep_question(form)
    upkeep_persons = [
        (f"{p.seat}:{p.id}", words.whose(names[p.seat], person_label(questions["view"], p.id)))
        for p in questions["view"].persons
        if p.status == "in_play" and p.icon == "infinity"
    ]
    return {
        "threat_colors": [words.COLOR_LABELS[c] for c in threats],
        "threat_words": (
            _("Everyone gets a threat token of each: %(colours)s.")
            % {"colours": present_list([str(words.COLOR_NAMES[c]) for c in threats])}
            if threats
            else _("No die shows 5 or 6: no threat tokens.")
        ),
        "penalties": penalties,
        "penalties_waiting": questions["waiting"],
        "upkeep_question": question,
        "prestige_cost": questions["cost"],
        "climbers": [{**c, "field_obj": form[c["field"]]} for c in questions["climbers"]],
        "upkeep_persons": upkeep_persons,
        "upkeep_entries": upkeep_words(form, person_name, ("dice", "prestige")),
        "gain_fields": _gain_fields(form),
        "at_choices": [_choice(form, "u_at", a, words.AT_LABELS[a]) for a in ("dice", "prestige")],
    }


def _gain_fields(form: RoundForm) -> dict[str, Any]:
    return {
        "numbers": [form["g_florins"], form["g_points"], form["g_prestige"]],
        "workers": [
            {
                "color": c,
                "label": words.COLOR_LABELS[c],
                "field": form[f"g_w_{c}"],
                "threat": form[f"g_t_{c}"],
            }
            for c in COLORS
        ],
        "plays": form["g_plays"],
    }


def _turn_context(form: RoundForm, view: Table, person_name: Any) -> dict[str, Any]:
    draft = form.current
    names = form.names
    seat = form.turn_seat
    me = view.seats[seat]
    dice = draft.dice or {}
    number = form.turn_index + 1
    question = form.pending_question()
    context: dict[str, Any] = {
        "turn_number": number,
        "turn_seat": seat,
        "turn_name": names[seat],
        "turn_in_round": (form.turn_index // len(names)) + 1,
        "open_steps": [words.step_words(s, names, person_name) for s in draft.open],
        "can_pass": form.can_pass(),
        "cards_round": form.cards_this_round()[seat],
        "question": None,
        "next_name": names[view.turn_seat(form.turn_index + 1)] if number < form.total else "",
        "last_turn": number == form.total,
    }
    if question is not None:
        context["question"] = {
            **question,
            "choices": [_choice(form, "t_choice", v, label) for v, label in question["options"]],
        }
        return context
    context["card_choices"] = [
        _choice(form, "card", c, str(words.COLOR_LABELS[c]), die=dice.get(c), color=c)
        for c in COLORS
    ]
    context["actions"] = action_choices(form, view, me)
    # Persons: the ones met in this game, by name (a hire remembers their details).
    context["known_persons"] = [
        {
            "name": p.name,
            "price": p.price,
            "group": p.group,
            "icon": p.icon,
            "worker": p.worker or "",
        }
        for p in _unique_by_name(view)
    ]
    context["back_in_hand"] = [
        (p.id, person_label(view, p.id))
        for p in view.persons
        if p.status == "hand" and p.seat == seat
    ]
    context["person_fields"] = [
        _select(form, name) for name in ("p_name", "p_price", "p_group", "p_icon")
    ]
    context["worker_select"] = _select(form, "p_worker")
    context["when_select"] = _select(form, "e_when")
    context["effect_persons"] = effect_choices(form, view, seat)
    context["gain_fields"] = _gain_fields(form)
    context["effect_open"] = bool(
        form.value("e_person") or form.errors.get("gain") or form.errors.get("e_person")
    )
    context["buttons"] = {"turn": TURN, "more": MORE, "pass": PASS}
    return context


def _select(form: RoundForm, name: str) -> dict[str, Any]:
    """A list of choices as the template writes it (its options, the one chosen marked)."""
    bound = form[name]
    current = form.value(name)
    current = "" if current is None else str(current)
    choices = getattr(bound.field, "choices", [])
    if not current and bound.field.initial:
        current = str(bound.field.initial)
    return {
        "field": bound,
        "name": name,
        "id": f"id_{name}",
        "label": bound.label,
        "options": [(str(v), label, str(v) == current) for v, label in choices],
    }


def _unique_by_name(view: Table) -> list[Any]:
    seen: dict[str, Any] = {}
    for p in view.persons:
        seen[p.name.casefold()] = p
    return sorted(seen.values(), key=lambda p: p.name.casefold())


def action_choices(form: RoundForm, view: Table, me: Any) -> list[dict[str, Any]]:
    """The six actions, each offered only where the seat can afford it: a threat token only of
    a colour held, a house only with a worker of the card's colour, a canal space only with its
    cost in florins (and its colour where the edition knows it), a person only into an empty
    house. ``colors``: the card colours the action takes (the script disables the others)."""
    dice = form.current.dice or {}
    out = [
        _choice(
            form,
            "action",
            "workers",
            _("Workers"),
            detail=_("+2 of the card's colour"),
        ),
        _choice(
            form,
            "action",
            "florins",
            _("Florins"),
            detail=_("the die of the card's colour: %(dice)s") % {"dice": dice_words(dice)},
        ),
    ]
    held = [c for c in COLORS if me.threats[c] > 0]
    if held:
        tokens = ", ".join(f"{words.COLOR_NAMES[c]} {me.threats[c]}" for c in held)
        out.append(
            _choice(
                form,
                "action",
                "threat",
                _("Return a threat token"),
                detail=_("+1 point; tokens held: %(tokens)s") % {"tokens": tokens},
                colors=" ".join(held),
            )
        )
    for space in me.next_spaces:
        if me.florins < space.cost:
            continue
        params = {"space": space.space, "count": space.cost}
        if space.color:
            params["colour"] = words.colour(words.COLOR_F, space.color)
            detail = ngettext(
                "space %(space)s: %(count)s florin, a %(colour)s card",
                "space %(space)s: %(count)s florins, a %(colour)s card",
                space.cost,
            )
        else:
            detail = ngettext(
                "space %(space)s: %(count)s florin, any card",
                "space %(space)s: %(count)s florins, any card",
                space.cost,
            )
        out.append(
            _choice(
                form,
                "action",
                f"canal:{space.section}",
                _("Canal, %(section)s")
                % {"section": words.colour(words.SECTION_LABELS, space.section)},
                detail=detail % params,
                colors=space.color or "",
            )
        )
    workers = [c for c in COLORS if me.workers[c] > 0]
    if workers:
        held_workers = ", ".join(f"{words.COLOR_NAMES[c]} {me.workers[c]}" for c in workers)
        out.append(
            _choice(
                form,
                "action",
                "house",
                _("House"),
                detail=_("pays a worker of the card's colour; held: %(workers)s")
                % {"workers": held_workers},
                colors=" ".join(workers),
            )
        )
    for house in me.empty_houses:
        out.append(
            _choice(
                form,
                "action",
                f"person:{house.index}",
                _("Person into house %(number)s") % {"number": house.index + 1},
                detail=ngettext(
                    "a %(colour)s house; pays the person's price (%(count)s florin held)",
                    "a %(colour)s house; pays the person's price (%(count)s florins held)",
                    me.florins,
                )
                % {"colour": words.colour(words.COLOR_F, house.color), "count": me.florins},
                person=True,
            )
        )
    assert {c["value"].partition(":")[0] for c in out} <= set(ACTIONS)
    return out


def effect_choices(form: RoundForm, view: Table, seat: int) -> list[tuple[str, str]]:
    """The persons whose effect can be entered in this turn: the seat's own worker (not used
    this round) and infinity persons, its arrow person right after the hire, the person hired
    with this card, and the other seats' infinity persons."""
    names = form.names
    last = form.current.open[-1] if form.current.open else {}
    just_hired = None
    if isinstance(last, dict) and last.get("action") == "person":
        given = last.get("person")
        just_hired = given.get("id") if isinstance(given, dict) else given
    out: list[tuple[str, str]] = [
        ("", _("— no effect —")),
        ("new", _("The person hired with this card")),
    ]
    for p in view.persons:
        if p.status != "in_play":
            continue
        if p.seat == seat:
            label = person_label(view, p.id)
            if p.icon == "worker" and not p.used or p.icon == "infinity":
                out.append((p.id, label))
            elif p.icon == "arrow" and p.id == just_hired:
                out.append((p.id, _("%(person)s, just hired") % {"person": label}))
        elif p.icon == "infinity":
            out.append((f"{p.seat}:{p.id}", words.whose(names[p.seat], person_label(view, p.id))))
    return out


# --- The running table --------------------------------------------------------------------------


def seat_rows(view: Table, names: Sequence[str], current: int | None) -> list[dict[str, Any]]:
    """Every seat's florins, points, prestige, workers and threats per colour, houses, canals,
    statues and majority tiles, the seat to act marked."""
    persons = _person_names(view)
    rows = []
    for me in view.seats:
        rows.append(
            {
                "seat": me.seat,
                "name": names[me.seat],
                "current": me.seat == current,
                "first": me.seat == view.first_player,
                "florins": me.florins,
                "points": me.points,
                "step": me.step,
                "colors": [
                    {
                        "color": c,
                        "label": words.COLOR_NAMES[c],
                        "workers": me.workers[c],
                        "threats": me.threats[c],
                        "marks": range(me.threats[c]),
                    }
                    for c in COLORS
                ],
                "houses": [
                    {
                        "color": h.color,
                        "colour": words.colour(words.COLOR_F, h.color),
                        "person": persons.get(h.person, h.person) if h.person else "",
                    }
                    for h in me.houses
                ],
                "canals": me.canals,
                "statues": me.statues,
                "majorities": me.majorities,
                "majority_words": words.majorities_joined(me.majorities),
            }
        )
    return rows


# --- Finish: the laurel points ------------------------------------------------------------------


class LaurelsForm(forms.Form):
    """The end of the game (the table says the last round is played): each laurel person's
    points, as its card says (rules: "End and scoring"). The engine checks them."""

    template = "web/bruges/finish_laurels.html"

    def __init__(
        self,
        *args: Any,
        laurels: list[dict[str, Any]],
        names: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.laurels = laurels
        self.names = list(names)
        for item in laurels:
            self.fields[self.field_name(item)] = forms.IntegerField(
                min_value=0,
                max_value=999,
                initial=0,
                label=_("%(person)s (%(player)s's; %(details)s)")
                % {
                    "person": item["person_name"],
                    "player": item["name"],
                    "details": item["details"],
                },
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num-in"}),
            )

    @staticmethod
    def field_name(item: dict[str, Any]) -> str:
        return f"laurel_{item['seat']}_{item['person']}"

    def rows(self) -> list[dict[str, Any]]:
        return [{**item, "field": self[self.field_name(item)]} for item in self.laurels]

    def finish(self) -> dict[str, Any]:
        return {
            "final": {
                "laurels": [
                    {
                        "seat": item["seat"],
                        "person": item["person"],
                        "points": self.cleaned_data[self.field_name(item)],
                    }
                    for item in self.laurels
                ]
            }
        }

    def engine_error(self, exc: LogError | RecordError) -> bool:
        if isinstance(exc, RecordError):
            self.add_error(None, exc.message)
            return True
        text = refusal_words(exc, self.names, {i["person"]: i["person_name"] for i in self.laurels})
        if exc.seat is not None:
            for item in self.laurels:
                if item["seat"] == exc.seat and item["person"] in exc.message:
                    self.add_error(self.field_name(item), text)
                    return True
        self.add_error(None, text)
        return True


def laurel_persons(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The laurel persons in play, by seat, as the finish form asks their points (with what
    tells apart two cards of the same name: price, group, the house it sits in)."""
    from types import SimpleNamespace

    players = result.get("players") or []
    out = []
    for p in result.get("persons") or []:
        if p.get("icon") == "laurel" and p.get("status") == "in_play":
            seat = p["seat"]
            tableau = players[seat].get("tableau") or [] if seat < len(players) else []
            details = words.person_details(SimpleNamespace(**p))
            where = next(
                (
                    _("%(details)s; in house %(number)s, %(colour)s")
                    % {
                        "details": details,
                        "number": k + 1,
                        "colour": words.colour(words.COLOR_F, h.get("color")),
                    }
                    for k, h in enumerate(tableau)
                    if h.get("person") == p["id"]
                ),
                details,
            )
            out.append(
                {
                    "seat": seat,
                    "name": players[seat]["name"]
                    if seat < len(players)
                    else _("seat %(number)s") % {"number": seat},
                    "person": p["id"],
                    "person_name": p["name"],
                    "details": where,
                    "group": words.GROUP_LABELS.get(p["group"], p["group"]),
                }
            )
    return sorted(out, key=lambda item: (item["seat"], item["person_name"]))


def laurels_form(result: dict[str, Any], data: Any = None) -> LaurelsForm:
    players = sorted(result.get("players") or [], key=lambda p: p.get("seat", 0))
    names = [str(p.get("name", "")) for p in players]
    return LaurelsForm(data, laurels=laurel_persons(result), names=names)


finish_form = laurels_form  # the end-of-game choices: the laurel points


# --- The game page ------------------------------------------------------------------------------


def game_page(
    *,
    game: Game,
    result: dict[str, Any],
    names: list[str],
    table: EntryTable | None,
    entry_form: RoundForm | None,
    finish_form: LaurelsForm | None,
    can_write: bool,
) -> dict[str, Any]:
    """The context of Bruges's pieces of the game page."""
    finished = game.status == Game.Status.FINISHED
    unverified = edition_unverified(game)
    context: dict[str, Any] = {
        "meta_template": "web/bruges/game_meta.html",
        "top_template": "web/bruges/table.html",
        "body_template": "web/bruges/game_body.html",
        "over_heading": _("The game is over"),
        "finish_button": _("Finish and score the game"),
        "scripts": ["js/bruges.js"] if entry_form is not None else [],
        "finished": finished,
        "unverified": unverified,
        "unverified_words": words.UNVERIFIED,
        "edition_key": game.edition.key if game.edition else "standard",
        "rounds_played": result.get("rounds_played", 0),
        "history": sheet.round_history(result, names),
    }
    if finished:
        context["sheet"] = sheet.score_sheet(result, game)
        context["table_rows"] = None
        return context
    context["standings"] = sheet.standings(result)
    view = None
    current = None
    table_title = _("The table at the start")
    if entry_form is not None:
        view = entry_form.reading.view
        context.update(round_context(entry_form))
        stage = entry_form.stage
        if stage == TURN:
            current = entry_form.turn_seat
        draft = entry_form.current
        number = entry_form.table.number
        if draft.dice is None and draft.draw_entries():
            table_title = _("Round %(number)s after the effects at the draw") % {"number": number}
        elif draft.dice is None:
            table_title = _("The table before round %(number)s") % {
                "number": table.number if table else ""
            }
        elif draft.turns or draft.open:
            params = {"number": number, "turn": len(draft.turns)}
            if draft.open:
                table_title = (
                    _("Round %(number)s after turn %(turn)s (and the turn being entered)") % params
                )
            else:
                table_title = _("Round %(number)s after turn %(turn)s") % params
        elif draft.phase2:
            table_title = _("Round %(number)s after the penalties and prestige") % {
                "number": number
            }
        else:
            table_title = _("Round %(number)s after the dice") % {"number": number}
    elif table is not None:
        view = table.view
        table_title = _("The table before round %(number)s") % {"number": table.number}
    elif result:
        view = None
    if view is not None:
        context["table_rows"] = seat_rows(view, names, current)
        context["table_title"] = table_title
    if can_write and table is not None and table.rounds_played >= 1:
        context["laurels_form"] = finish_form if finish_form is not None else laurels_form(result)
    return context


# --- The player page ----------------------------------------------------------------------------


def player_section(player: Player, stats: dict[str, Any]) -> dict[str, Any]:
    """What the player page shows of Bruges: the generic figures, the engine's statistics
    (``info.stats``: points per category, majorities, statues, penalties, persons by group) and
    whether any of the scores comes from an edition not verified against the printed board."""
    info = get_engine(GAME_TYPE).info
    counts = [
        {"name": s.name, "label": STAT_LABELS.get(s.name, s.label), "value": stats.get(s.name)}
        for s in info.stats
        if stats.get(s.name) is not None
    ]
    unverified = (
        Seat.objects.filter(player=player, game__game_type=GAME_TYPE)
        .filter(Q(game__edition__verified=False))
        .exists()
    )
    return {
        "template": "web/bruges/player_section.html",
        "stats": stats,
        "counts": counts,
        "unverified": unverified,
        "unverified_words": words.UNVERIFIED,
    }


# Included by ``games/web/urls.py`` under the ``web`` namespace.
urlpatterns = edition_pages.urlpatterns

# Links of the main menu to pages of this game's own: (label, url name).
MENU = [(gettext_lazy("Bruges editions"), "web:bruges-editions")]
