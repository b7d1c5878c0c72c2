"""The turns (phase 3): a turn's steps in order, and the actions its cards take (workers,
florins, a threat token, a canal tile, a house, a hire)."""

from __future__ import annotations

from typing import Any

from scoring.engine.bruges.effects import _effect
from scoring.engine.bruges.penalties import _missing_penalty, _read_penalty, _suffer, _take_pending
from scoring.engine.bruges.reading import _action_code, _as_dict, _color_code, _error, _malformed
from scoring.engine.bruges.rules import (
    ACTIONS,
    ARROW,
    CANAL,
    COLOR_CODES,
    COLORS,
    FLORINS,
    GROUP_CODES,
    GROUPS,
    HAND,
    HOUSE,
    ICON_CODES,
    ICONS,
    IN_HAND,
    IN_PLAY,
    MAX_PRICE,
    MAX_STATUES,
    PRICE_PER_POINT,
    SECTION_CODES,
    SECTIONS,
    SPACES,
    STATUES,
    THREAT,
    WORKER,
    WORKERS,
    WORKERS_PER_ACTION,
)
from scoring.engine.bruges.state import Person, Seat, State, _Round
from scoring.engine.errors import Code, said
from scoring.engine.errors import Seat as SeatNo


def _pay(ps: Seat, cost: int, seat: int, rnd: _Round) -> None:
    """A hire, a canal tile or a prestige step: the seat pays ``cost`` florins, or the log is
    refused."""
    if ps.florins < cost:
        raise _error(
            "not_enough_florins",
            said(
                "{seat} has {florins} florins, {cost} needed",
                seat=SeatNo(seat),
                florins=ps.florins,
                cost=cost,
            ),
            rnd,
            seat,
        )
    ps.florins -= cost


def _hire(st: State, ps: Seat, step: dict[str, Any], seat: int, rnd: _Round) -> int:
    """A ``person`` action; returns the index of the person hired."""
    house = step.get("house")
    tenants = ps.tenants
    if type(house) is not int or not 0 <= house < len(tenants) or tenants[house] >= 0:
        raise _error(
            "no_empty_house",
            said(
                "{seat} has no empty house {house!r} to hire into", seat=SeatNo(seat), house=house
            ),
            rnd,
            seat,
        )
    given = step.get("person")
    if type(given) is str:
        p = st.person_index.get(given, -1)
        if p < 0:
            raise _error(
                "unknown_person",
                said(
                    "no person {pid!r} was met in this game (give it whole the first time)",
                    pid=given,
                ),
                rnd,
                seat,
            )
        person = st.persons[p]
        if person.status != IN_HAND or person.owner != seat:
            raise _error(
                "person_gone",
                said("person {pid!r} is not back in {seat}'s hand", pid=given, seat=SeatNo(seat)),
                rnd,
                seat,
            )
    else:
        p = len(st.persons)
        person = _new_person(st, given, seat, rnd)
    price = person.price
    _pay(ps, price, seat, rnd)
    tenants[house] = p
    person.owner = seat
    person.status = IN_PLAY
    ps.in_play += 1
    ps.hired[person.group] = ps.hired[person.group] + 1
    ps.hires += 1
    return p


def _new_person(st: State, given: Any, seat: int, rnd: _Round) -> Person:
    """A person given whole, added to the persons met (in hand until the hire is paid)."""
    obj = _as_dict(given)
    if obj is None:
        raise _error(
            "bad_person",
            said("{key} is a person object, or the id of one met before", key=Code("person")),
            rnd,
            seat,
        )
    pid = obj.get("id")
    if type(pid) is not str or not pid:
        raise _error(
            "bad_person", said("a person's {key} is a non-empty string", key=Code("id")), rnd, seat
        )
    p = len(st.persons)
    if st.person_index.setdefault(pid, p) != p:
        raise _error(
            "bad_person",
            said("person {pid!r} was met before: hire it again by its id", pid=pid),
            rnd,
            seat,
        )
    name = obj.get("name")
    if type(name) is not str:
        raise _error(
            "bad_person", said("person {pid!r} needs a {key}", pid=pid, key=Code("name")), rnd, seat
        )
    price = obj.get("price")
    if type(price) is not int or not 0 <= price <= MAX_PRICE or price % PRICE_PER_POINT:
        raise _error(
            "bad_person",
            said("person {pid!r}: {key} is 0, 3, 6, 9 or 12 (B4)", pid=pid, key=Code("price")),
            rnd,
            seat,
        )
    group_name = obj.get("group")
    group = GROUP_CODES.get(group_name, -1) if type(group_name) is str else -1
    if group < 0:
        raise _error(
            "bad_person",
            said(
                "person {pid!r}: {key} is one of {groups}",
                pid=pid,
                key=Code("group"),
                groups=", ".join(GROUPS),
            ),
            rnd,
            seat,
        )
    icon_name = obj.get("icon")
    icon = ICON_CODES.get(icon_name, -1) if type(icon_name) is str else -1
    if icon < 0:
        raise _error(
            "bad_person",
            said(
                "person {pid!r}: {key} is one of {icons}",
                pid=pid,
                key=Code("icon"),
                icons=", ".join(ICONS),
            ),
            rnd,
            seat,
        )
    worker = -1
    if icon == WORKER:
        worker_name = obj.get("worker")
        worker = COLOR_CODES.get(worker_name, -1) if type(worker_name) is str else -1
        if worker < 0:
            raise _error(
                "bad_person",
                said(
                    "worker person {pid!r}: {key} is the colour its activation costs",
                    pid=pid,
                    key=Code("worker"),
                ),
                rnd,
                seat,
            )
    person = Person()
    person.id = pid
    person.name = name
    person.price = price
    person.group = group
    person.icon = icon
    person.worker = worker
    person.owner = seat
    person.status = IN_HAND
    person.used = 0
    st.persons.append(person)
    return person


def _canal(st: State, ps: Seat, step: dict[str, Any], seat: int, color: int, rnd: _Round) -> None:
    name = step.get("section")
    s = SECTION_CODES.get(name, -1) if type(name) is str else -1
    if s < 0:
        raise _error(
            "bad_section",
            said(
                "{key} is {left} or {right}, not {value!r}",
                key=Code("section"),
                left=Code("left"),
                right=Code("right"),
                value=name,
            ),
            rnd,
            seat,
        )
    canal = ps.canal
    k = canal[s]
    if k >= SPACES:
        raise _error(
            "canal_full",
            said(
                "{seat}'s {section} section is complete",
                seat=SeatNo(seat),
                section=Code(SECTIONS[s], quoted=False),
            ),
            rnd,
            seat,
        )
    ed = st.edition
    space = s * SPACES + k
    want = ed.canal_color[space]
    if want >= 0 and want != color:
        raise _error(
            "wrong_space_color",
            said(
                "space {space} of the {section} section takes a {color} card",
                space=k + 1,
                section=Code(SECTIONS[s], quoted=False),
                color=Code(COLORS[want], quoted=False),
            ),
            rnd,
            seat,
        )
    cost = ed.canal_cost[space]
    _pay(ps, cost, seat, rnd)
    canal[s] = k + 1
    ps.tiles += 1
    bit = 1 << s
    if k + 1 == SPACES and not ps.completed & bit:
        # B3: the first completion takes the top statue, if any is left and the seat has
        # fewer than two; a section completed again takes none.
        ps.completed |= bit
        if st.pile < len(STATUES) and len(ps.statues) < MAX_STATUES:
            value = STATUES[st.pile]
            st.pile += 1
            ps.statues.append(value)
            rnd.taken.append([seat, value])
            st.statues_taken.append(
                {"seat": seat, "section": SECTIONS[s], "value": value, "round": rnd.rno}
            )


def _card(
    st: State, ps: Seat, step: dict[str, Any], color_name: Any, seat: int, rnd: _Round
) -> int:
    """A card played for an action; returns the index of an arrow person it hired, else -1
    (an arrow person may act in the very next step, B6)."""
    color = _color_code(color_name)
    if color < 0:
        raise _error(
            "bad_card",
            said(
                "a card is one of {colors}, not {value!r}",
                colors=", ".join(COLORS),
                value=color_name,
            ),
            rnd,
            seat,
        )
    action_name = step.get("action")
    action = _action_code(action_name)
    if action < 0:
        raise _error(
            "unknown_action",
            said(
                "{key} is one of {actions}, not {value!r}",
                key=Code("action"),
                actions=", ".join(ACTIONS),
                value=action_name,
            ),
            rnd,
            seat,
        )
    ps.played += 1
    if action == WORKERS:
        workers = ps.workers
        workers[color] = workers[color] + WORKERS_PER_ACTION
        ps.gained_workers += WORKERS_PER_ACTION
    elif action == FLORINS:
        ps.florins += rnd.dice[color]
    elif action == THREAT:
        threats = ps.threats
        if threats[color] < 1:
            raise _error(
                "no_threat_token",
                said(
                    "{seat} has no {color} threat token",
                    seat=SeatNo(seat),
                    color=Code(COLORS[color], quoted=False),
                ),
                rnd,
                seat,
            )
        threats[color] = threats[color] - 1
        ps.points += 1
    elif action == CANAL:
        _canal(st, ps, step, seat, color, rnd)
    elif action == HOUSE:
        workers = ps.workers
        if workers[color] < 1:
            raise _error(
                "not_enough_workers",
                said(
                    "{seat} has no {color} worker to build a house",
                    seat=SeatNo(seat),
                    color=Code(COLORS[color], quoted=False),
                ),
                rnd,
                seat,
            )
        workers[color] = workers[color] - 1
        ps.gained_workers -= 1
        ps.houses.append(color)
        ps.tenants.append(-1)
        ps.built_houses += 1
    else:  # PERSON
        p = _hire(st, ps, step, seat, rnd)
        if st.persons[p].icon == ARROW:
            return p
    return -1


def _turn(st: State, value: Any, due: int, rnd: _Round) -> None:
    t = value if type(value) is dict else _as_dict(value)
    if t is None:
        raise _malformed(
            said(
                "a turn is an object {{{seat_key}, {steps_key}}} or "
                "{{{seat_key}, {pass_key}: true}}",
                seat_key=Code("seat"),
                steps_key=Code("steps"),
                pass_key=Code("pass"),
            ),
            rnd,
        )
    seat = t.get("seat")
    if type(seat) is not int:
        raise _malformed(said("a turn's {key} is a seat number", key=Code("seat")), rnd)
    if seat != due:
        raise _error(
            "out_of_turn",
            said(
                "turn {turn} is {due}'s, not {seat}'s",
                turn=rnd.tno,
                due=SeatNo(due),
                seat=SeatNo(seat),
            ),
            rnd,
            seat,
        )
    ps = st.seats[due]
    steps_value = t.get("steps")
    # The usual turn is {"seat", "steps"}: no other key to look at.
    if len(t) != 2 or type(steps_value) is not list:
        passed = t.get("pass")
        if passed is not None and passed is not False:
            if passed is not True:
                raise _malformed(said("{key} is true (or missing)", key=Code("pass")), rnd, seat)
            if steps_value is not None and steps_value != []:
                raise _malformed(said("a pass has no steps"), rnd, seat)
            if ps.played < HAND:
                raise _error(
                    "early_pass",
                    said(
                        "{seat} has played {played} cards this round: it cannot be out of "
                        "cards yet",
                        seat=SeatNo(seat),
                        played=ps.played,
                    ),
                    rnd,
                    seat,
                )
            return
        if type(steps_value) is not list:
            raise _malformed(said("a turn's {key} is a list", key=Code("steps")), rnd, seat)
    steps: list[Any] = steps_value
    plays = 1
    cards = 0
    arrow = -1
    pending = rnd.pending
    for item in steps:
        step = item if type(item) is dict else _as_dict(item)
        if step is None:
            raise _malformed(said("a step is an object: a card, an effect or a penalty"), rnd, seat)
        ready = arrow
        arrow = -1
        card = step.get("card")
        if card is not None:
            if pending:
                raise _missing_penalty(pending, rnd)
            if cards >= plays:
                raise _error(
                    "wrong_play_count",
                    said(
                        "{seat} may play {plays} card(s) in this turn",
                        seat=SeatNo(seat),
                        plays=plays,
                    ),
                    rnd,
                    seat,
                )
            cards += 1
            arrow = _card(st, ps, step, card, due, rnd)
            continue
        pid = step.get("effect")
        if pid is not None:
            if pending:
                raise _missing_penalty(pending, rnd)
            plays += _effect(st, step, pid, due, rnd, ready, pending)
            continue
        pen_value = step.get("penalty")
        if pen_value is None:
            if pending:
                raise _missing_penalty(pending, rnd)
            raise _malformed(said("a step is a card, an effect or a penalty"), rnd, seat)
        pen, pseat, color = _read_penalty(pen_value, st.players, rnd)
        _take_pending(pending, pseat, color, rnd)
        _suffer(st, pen, pseat, color, rnd)
    if pending:
        raise _missing_penalty(pending, rnd)
    if cards != plays:
        raise _error(
            "wrong_play_count",
            said(
                "{seat} played {cards} card(s) in a turn of {plays}",
                seat=SeatNo(seat),
                cards=cards,
                plays=plays,
            ),
            rnd,
            seat,
        )
