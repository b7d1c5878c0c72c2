"""The round entry's steps on the page (the form itself is ``entry.RoundForm``): the
table before the next round, then at each step what it shows and offers: the effects at the draw,
the dice, the penalties and prestige, each turn's card, action and person's effect, and the
whole round once complete."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.plugins.bruges import words
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
)
from games.plugins.bruges.web.round_review import (
    _person_names,
    dice_words,
    present_list,
    review_context,
    upkeep_words,
)
from games.records.models import Game
from games.records.selectors import engine_state
from scoring.engine.bruges.rules import ACTIONS, COLORS
from scoring.engine.bruges.table import Table, read_table


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


def entry_form(game: Game, table: EntryTable, names: list[str], data: Any = None) -> RoundForm:
    return RoundForm(data, initial={"number": table.number}, table=table)


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
