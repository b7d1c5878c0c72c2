"""Penalties (B2, B8): a penalty entry read, matched to one a token count triggered, and
suffered with its choice."""

from __future__ import annotations

from typing import Any

from scoring.engine.bruges.reading import _as_dict, _color_code, _error, _malformed
from scoring.engine.bruges.rules import (
    BLUE,
    BROWN,
    COLORS,
    DISCARDED,
    IN_HAND,
    IN_PLAY,
    NCOLORS,
    PENALTY_AT,
    PURPLE_LOSS,
    RED,
    SECTION_CODES,
    YELLOW,
)
from scoring.engine.bruges.state import State, _Round
from scoring.engine.errors import Code, LogError, Said, said
from scoring.engine.errors import Seat as SeatNo


def _read_penalty(value: Any, n: int, rnd: _Round) -> tuple[dict[str, Any], int, int]:
    """A penalty entry's (object, seat, colour)."""
    pen = _as_dict(value)
    if pen is None:
        raise _malformed(
            said(
                "a penalty is an object {{{seat_key}, {color_key}, ...choice}}",
                seat_key=Code("seat"),
                color_key=Code("color"),
            ),
            rnd,
        )
    seat = pen.get("seat")
    if type(seat) is not int:
        raise _malformed(said("a penalty's {key} is a seat number", key=Code("seat")), rnd)
    if not 0 <= seat < n:
        raise _error(
            "bad_seat", said("a penalty names {seat}, not a seat", seat=SeatNo(seat)), rnd, seat
        )
    color = pen.get("color")
    code = _color_code(color)
    if code < 0:
        raise _error(
            "bad_color",
            said("{value!r} is not a colour ({colors})", value=color, colors=", ".join(COLORS)),
            rnd,
            seat,
        )
    return pen, seat, code


def _take_pending(pending: list[int], seat: int, color: int, rnd: _Round) -> None:
    key = seat * NCOLORS + color
    for i in range(len(pending)):
        if pending[i] == key:
            pending.pop(i)
            return
    raise _error(
        "unexpected_penalty",
        said(
            "{seat} has no {color} penalty to suffer here",
            seat=SeatNo(seat),
            color=Code(COLORS[color], quoted=False),
        ),
        rnd,
        seat,
    )


def _missing_penalty(pending: list[int], rnd: _Round) -> LogError:
    key = min(pending)
    seat = key // NCOLORS
    return _error(
        "missing_penalty",
        said(
            "{seat} must suffer its {color} penalty here",
            seat=SeatNo(seat),
            color=Code(COLORS[key % NCOLORS], quoted=False),
        ),
        rnd,
        seat,
    )


def _choice_error(message: str | Said, rnd: _Round, seat: int) -> LogError:
    return _error("bad_penalty_choice", message, rnd, seat)


def _suffer(st: State, pen: dict[str, Any], seat: int, color: int, rnd: _Round) -> None:
    """Apply a triggered penalty with its choice, then return 3 tokens (no points)."""
    ps = st.seats[seat]
    house = pen.get("house")
    section = pen.get("section")
    person = pen.get("person")
    if color == BROWN:
        if house is not None or section is not None:
            raise _choice_error(
                said("a brown penalty's choice is a {key}", key=Code("person")), rnd, seat
            )
        if ps.in_play == 0:
            if person is not None:
                raise _choice_error(
                    said("{seat} has no person in play to lose", seat=SeatNo(seat)), rnd, seat
                )
        else:
            p = st.person_index.get(person, -1) if type(person) is str else -1
            if p < 0 or st.persons[p].owner != seat or st.persons[p].status != IN_PLAY:
                raise _choice_error(
                    said(
                        "a brown penalty names one of {seat}'s persons in play ({key}), "
                        "not {pid!r}",
                        seat=SeatNo(seat),
                        key=Code("person"),
                        pid=person,
                    ),
                    rnd,
                    seat,
                )
            tenants = ps.tenants
            for h in range(len(tenants)):
                if tenants[h] == p:
                    tenants[h] = -1
                    break
            st.persons[p].status = DISCARDED
            ps.in_play -= 1
    elif color == RED:
        if person is not None:
            raise _choice_error(
                said(
                    "a red penalty's choice is a {house_key} or a {section_key}",
                    house_key=Code("house"),
                    section_key=Code("section"),
                ),
                rnd,
                seat,
            )
        colors = ps.houses
        canal = ps.canal
        if not colors and canal[0] == 0 and canal[1] == 0:
            if house is not None or section is not None:
                raise _choice_error(
                    said("{seat} has no house and no tile to lose", seat=SeatNo(seat)), rnd, seat
                )
        elif (house is None) == (section is None):
            raise _choice_error(
                said(
                    "a red penalty names one {house_key} (0-based) or one canal {section_key}",
                    house_key=Code("house"),
                    section_key=Code("section"),
                ),
                rnd,
                seat,
            )
        elif house is not None:
            if type(house) is not int or not 0 <= house < len(colors):
                raise _choice_error(
                    said("{seat} has no house {house!r}", seat=SeatNo(seat), house=house),
                    rnd,
                    seat,
                )
            colors.pop(house)
            p = ps.tenants.pop(house)
            if p >= 0:
                st.persons[p].status = IN_HAND
                ps.in_play -= 1
        else:
            k = SECTION_CODES.get(section, -1) if type(section) is str else -1
            if k < 0 or canal[k] == 0:
                raise _choice_error(
                    said(
                        "{seat} has no tile in canal section {section!r}",
                        seat=SeatNo(seat),
                        section=section,
                    ),
                    rnd,
                    seat,
                )
            canal[k] = canal[k] - 1
    else:
        if house is not None or section is not None or person is not None:
            raise _choice_error(
                said("a {color} penalty takes no choice", color=Code(COLORS[color], quoted=False)),
                rnd,
                seat,
            )
        if color == BLUE:
            workers = ps.workers
            lost = 0
            for c in range(NCOLORS):
                lost += workers[c]
                workers[c] = 0
            ps.gained_workers -= lost
        elif color == YELLOW:
            ps.florins = 0
        else:  # PURPLE
            left = ps.points - PURPLE_LOSS
            ps.points = left if left > 0 else 0
    ps.threats[color] = ps.threats[color] - PENALTY_AT
    ps.penalties[color] = ps.penalties[color] + 1
    rnd.suffered.append([seat, COLORS[color]])
