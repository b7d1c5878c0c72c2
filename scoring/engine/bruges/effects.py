"""Persons' effects (B6, B8): who may act when, and the gains they give."""

from __future__ import annotations

from typing import Any, Final

from scoring.engine.bruges.reading import _as_dict, _color_code, _error, _malformed
from scoring.engine.bruges.rules import (
    ARROW,
    COLORS,
    ICONS,
    IN_PLAY,
    INFINITY,
    LAUREL,
    NCOLORS,
    PENALTY_AT,
    TOP_STEP,
)
from scoring.engine.bruges.state import State, _Round
from scoring.engine.errors import Code, LogError, Said, said
from scoring.engine.errors import Seat as SeatNo


def _gain_error(message: str | Said, rnd: _Round, seat: int) -> LogError:
    return _error("bad_gain", message, rnd, seat)


def _colour_gain(
    counts: list[int], value: Any, what: str, seat: int, rnd: _Round, tokens: bool
) -> int:
    """Add a per-colour gain to ``counts`` (a seat's workers or threats); returns the tokens
    returned (``tokens``) or the net number added, and checks nothing below zero yet."""
    parts = value if type(value) is dict else _as_dict(value)
    if parts is None:
        raise _gain_error(
            said("a gain's {key} is an object from colour to integer", key=Code(what)), rnd, seat
        )
    returned = 0
    net = 0
    for name, k in parts.items():
        c = _color_code(name)
        if c < 0:
            raise _gain_error(
                said("{value!r} in a gain's {key} is not a colour", value=name, key=Code(what)),
                rnd,
                seat,
            )
        if type(k) is not int:
            raise _gain_error(said("a gain's {key} values are integers", key=Code(what)), rnd, seat)
        counts[c] = counts[c] + k
        net += k
        if k < 0:
            returned -= k
    return returned if tokens else net


def _apply_gain(
    st: State, gain: dict[str, Any], owner: int, rnd: _Round, plays_ok: bool, pending: list[int]
) -> int:
    """Apply a gain to ``owner`` (all parts at once, B8) and return the extra plays. Adds the
    penalties it triggers to ``pending``."""
    ps = st.seats[owner]
    plays = 0
    touched_threats = False
    touched_workers = False
    touched = False  # florins, points or step
    for key, value in gain.items():
        if key == "florins":
            if type(value) is not int:
                raise _gain_error(
                    said("a gain's {key} is an integer", key=Code("florins")), rnd, owner
                )
            ps.florins += value
            touched = touched or value < 0
        elif key == "points":
            if type(value) is not int:
                raise _gain_error(
                    said("a gain's {key} is an integer", key=Code("points")), rnd, owner
                )
            ps.points += value
            touched = touched or value < 0
        elif key == "prestige":
            if type(value) is not int:
                raise _gain_error(
                    said("a gain's {key} is an integer", key=Code("prestige")), rnd, owner
                )
            climbed = ps.step + value
            ps.step = climbed if climbed < TOP_STEP else TOP_STEP
            touched = touched or value < 0
        elif key == "workers":
            ps.gained_workers += _colour_gain(ps.workers, value, key, owner, rnd, False)
            touched_workers = True
        elif key == "threats":
            ps.points += _colour_gain(ps.threats, value, key, owner, rnd, True)
            touched_threats = True
        elif key == "plays":
            if type(value) is not int or value < 0:
                raise _gain_error(
                    said("a gain's {key} is an integer >= 0", key=Code("plays")), rnd, owner
                )
            if value and not plays_ok:
                raise _gain_error(
                    said("only the turn's own seat gets extra plays, in its turn"), rnd, owner
                )
            plays = value
        else:
            raise _gain_error(
                said("{value!r} is not a gain ({gains})", value=key, gains=", ".join(GAIN_NAMES)),
                rnd,
                owner,
            )
    if touched and (ps.florins < 0 or ps.points < 0 or ps.step < 0):
        raise _error(
            "below_zero",
            said("the gain leaves {seat} below zero", seat=SeatNo(owner)),
            rnd,
            owner,
        )
    if touched_workers:
        workers = ps.workers
        for c in range(NCOLORS):
            if workers[c] < 0:
                raise _error(
                    "below_zero",
                    said("the gain leaves {seat} below zero workers", seat=SeatNo(owner)),
                    rnd,
                    owner,
                )
    if touched_threats:
        threats = ps.threats
        for c in range(NCOLORS):
            t = threats[c]
            if t < 0:
                raise _error(
                    "below_zero",
                    said("the gain leaves {seat} below zero tokens", seat=SeatNo(owner)),
                    rnd,
                    owner,
                )
            if t >= PENALTY_AT:
                pending.append(owner * NCOLORS + c)
    return plays


GAIN_NAMES: Final = ("florins", "points", "prestige", "workers", "threats", "plays")


def _effect(
    st: State,
    step: dict[str, Any],
    pid: Any,
    turn_seat: int,
    rnd: _Round,
    arrow_ready: int,
    pending: list[int],
) -> int:
    """An effect step in a turn (``turn_seat`` >= 0) or in upkeep (-1). Returns the extra
    plays it grants."""
    if type(pid) is not str:
        raise _malformed(said("an effect's {key} is a person id", key=Code("effect")), rnd)
    owner_value = step.get("seat")
    if owner_value is None:
        if turn_seat < 0:
            raise _malformed(said("an upkeep entry names its {key}", key=Code("seat")), rnd)
        owner = turn_seat
    elif type(owner_value) is not int:
        raise _malformed(said("an effect's {key} is a seat number", key=Code("seat")), rnd)
    else:
        owner = owner_value
        if not 0 <= owner < st.players:
            raise _error(
                "bad_seat",
                said("an effect names {seat}, not a seat", seat=SeatNo(owner)),
                rnd,
                owner,
            )
    p = st.person_index.get(pid, -1)
    if p < 0:
        raise _error(
            "unknown_person", said("no person {pid!r} was hired in this game", pid=pid), rnd, owner
        )
    person = st.persons[p]
    if person.status != IN_PLAY:
        raise _error("person_gone", said("person {pid!r} is not in play", pid=pid), rnd, owner)
    if person.owner != owner:
        raise _error(
            "effect_not_allowed",
            said("person {pid!r} is not {seat}'s", pid=pid, seat=SeatNo(owner)),
            rnd,
            owner,
        )
    icon = person.icon
    if icon != INFINITY:
        if turn_seat < 0:
            raise _error(
                "effect_not_allowed",
                said(
                    "only infinity persons act outside the turns, not {pid!r} ({icon})",
                    pid=pid,
                    icon=Code(ICONS[icon], quoted=False),
                ),
                rnd,
                owner,
            )
        if owner != turn_seat:
            raise _error(
                "effect_not_allowed",
                said("only an infinity person acts in another seat's turn, not {pid!r}", pid=pid),
                rnd,
                owner,
            )
        if icon == LAUREL:
            raise _error(
                "effect_not_allowed",
                said("laurel person {pid!r} acts only at the end", pid=pid),
                rnd,
                owner,
            )
        if icon == ARROW:
            if arrow_ready != p:
                raise _error(
                    "effect_not_allowed",
                    said(
                        "arrow person {pid!r} acts only in the step right after its hire", pid=pid
                    ),
                    rnd,
                    owner,
                )
        else:  # WORKER
            if person.used == rnd.rno:
                raise _error(
                    "effect_not_allowed",
                    said("worker person {pid!r} already acted this round", pid=pid),
                    rnd,
                    owner,
                )
            person.used = rnd.rno
            ps = st.seats[owner]
            workers = ps.workers
            w = person.worker
            if workers[w] < 1:
                raise _error(
                    "not_enough_workers",
                    said(
                        "{seat} has no {color} worker to activate {pid!r}",
                        seat=SeatNo(owner),
                        color=Code(COLORS[w], quoted=False),
                        pid=pid,
                    ),
                    rnd,
                    owner,
                )
            workers[w] = workers[w] - 1
            ps.gained_workers -= 1
    gain_value = step.get("gain")
    if gain_value is None:
        return 0
    gain = gain_value if type(gain_value) is dict else _as_dict(gain_value)
    if gain is None:
        raise _gain_error(said("{key} is an object", key=Code("gain")), rnd, owner)
    return _apply_gain(st, gain, owner, rnd, owner == turn_seat, pending)
