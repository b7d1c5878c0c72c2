"""The round being built (``Draft``, carried by the form from step to step) and what the
engine read of it (``read_draft``: the table as far as it got, and the refusal)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.plugins.bruges.entry.steps import DICE, DRAW, PHASE2, SAVE, TURN
from games.records import stored_json
from games.records.errors import RecordError
from scoring.engine import LogError
from scoring.engine.bruges.play import State
from scoring.engine.bruges.rules import AT_NAMES, COLORS
from scoring.engine.bruges.table import RoundProgress, Table, read_table, round_progress

QUIET_DICE = {c: 3 for c in COLORS}  # dice that give no threat and no prestige


def moment_of(entry: Any) -> str:
    """The moment of an automatic effect (or of its penalty): "draw", "dice" or "prestige"."""
    at = entry.get("at") if isinstance(entry, dict) else None
    return at if at in AT_NAMES else "dice"


# --- The round being built -----------------------------------------------------------------


class DraftError(ValueError):
    pass


@dataclass
class Draft:
    """A round as far as it is entered: what the log's round holds, plus ``drawn`` (the
    effects at the draw confirmed), ``phase2`` (the penalties and prestige confirmed) and
    ``open`` (the steps of the turn being entered)."""

    dice: dict[str, int] | None = None
    penalties: list[dict[str, Any]] = field(default_factory=list)
    prestige: list[int] = field(default_factory=list)
    upkeep: list[dict[str, Any]] = field(default_factory=list)
    drawn: bool = False
    phase2: bool = False
    turns: list[dict[str, Any]] = field(default_factory=list)
    open: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def parse(cls, text: str | None) -> Draft:
        """The draft a form sent back. Raises ``DraftError`` for one that is not a draft (what
        it holds is the engine's to judge)."""
        if not text:
            return cls()
        garbled = DraftError("the round being entered was garbled")
        try:
            data = json.loads(text)
            # What no page wrote: text no store or page takes (NUL, a lone surrogate), numbers
            # past 64 bits, nesting or lengths far past a round's.
            stored_json.check(data)
        except (ValueError, RecursionError, RecordError) as exc:
            raise garbled from exc
        if not isinstance(data, dict):
            raise garbled
        lists = ("penalties", "prestige", "upkeep", "turns", "open")
        if any(not isinstance(data.get(k, []), list) for k in lists):
            raise garbled
        dice = data.get("dice")
        if dice is not None and not isinstance(dice, dict):
            raise garbled
        if not all(isinstance(v, int) for v in data.get("prestige", [])):
            raise garbled
        objects = [*data.get("penalties", []), *data.get("upkeep", []), *data.get("open", [])]
        for turn in data.get("turns", []):
            if not isinstance(turn, dict) or not isinstance(turn.get("steps", []), list):
                raise garbled
            objects.extend(turn.get("steps", []))
        for item in objects:
            if not isinstance(item, dict):
                raise garbled
            for key in ("gain", "penalty"):
                if item.get(key) is not None and not isinstance(item[key], dict):
                    raise garbled
        return cls(
            dice=dice,
            penalties=data.get("penalties", []),
            prestige=data.get("prestige", []),
            upkeep=data.get("upkeep", []),
            drawn=bool(data.get("drawn")),
            phase2=bool(data.get("phase2")),
            turns=data.get("turns", []),
            open=data.get("open", []),
        )

    def dump(self) -> str:
        data: dict[str, Any] = {"dice": self.dice}
        for key in ("penalties", "prestige", "upkeep", "turns", "open"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        if self.drawn:
            data["drawn"] = True
        if self.phase2:
            data["phase2"] = True
        return json.dumps(data, separators=(",", ":"))

    def copy(self) -> Draft:
        return Draft.parse(self.dump())

    def entry(self) -> dict[str, Any]:
        """The round as ``bruges-log/1`` has it (without the turn being entered)."""
        out: dict[str, Any] = {
            "dice": dict(self.dice or {}),
            "penalties": list(self.penalties),
            "prestige": list(self.prestige),
        }
        if self.upkeep:
            out["upkeep"] = list(self.upkeep)
        out["turns"] = list(self.turns)
        return out

    def log_round(self, seat_of_open: int | None = None) -> dict[str, Any]:
        """The round for the engine, the turn being entered included (its seat given)."""
        out = self.entry()
        if not self.phase2:
            out["penalties"] = []
            out["prestige"] = []
        if self.open and seat_of_open is not None:
            out["turns"] = [*self.turns, {"seat": seat_of_open, "steps": list(self.open)}]
        return out

    def draw_entries(self) -> list[dict[str, Any]]:
        """The automatic effects at the draw (and the penalties they caused)."""
        return [u for u in self.upkeep if moment_of(u) == "draw"]

    def stage(self, total: int, draw: bool = False) -> str:
        """The step the entry is at (``draw``: the round has a draw step, some seat having an
        automatic person in play at its start)."""
        if self.dice is None:
            return DRAW if draw and not self.drawn else DICE
        if not self.phase2:
            return PHASE2
        if len(self.turns) < total:
            return TURN
        return SAVE

    def undo(self) -> str:
        """Take back the last thing entered; says what."""
        if self.open:
            self.open.pop()
            return _("The last step of this turn was taken back.")
        if self.turns:
            last = self.turns.pop()
            if last.get("pass") or not last.get("steps"):
                return _("The last turn was taken back.")
            self.open = list(last["steps"])[:-1]
            return _("The last step of the last turn was taken back.")
        if self.phase2:
            self.phase2 = False
            return _("Back to the penalties and prestige.")
        later = [k for k, u in enumerate(self.upkeep) if moment_of(u) != "draw"]
        if self.dice is not None and later:
            self.upkeep.pop(later[-1])
            return _("The last automatic effect was taken back.")
        if self.dice is not None:
            self.dice = None
            self.penalties, self.prestige = [], []
            return _("Back to the dice.")
        if self.drawn:
            self.drawn = False
            return _("Back to the effects at the draw.")
        if self.upkeep:
            self.upkeep.pop()
            return _("The last effect at the draw was taken back.")
        return _("Nothing to take back.")


def turn_plays(steps: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """(cards played, cards allowed) in a turn so far: 1 plus the extra plays its own seat's
    effects granted (B8; another seat's effect grants none)."""
    cards = sum(1 for s in steps if "card" in s)
    plays = 1
    for s in steps:
        if "effect" in s and "seat" not in s:
            value = (s.get("gain") or {}).get("plays")
            if isinstance(value, int) and value > 0:
                plays += value
    return cards, plays


# --- What the engine said of a draft ---------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """A draft as the engine read it: the table as far as it got and the refusal, if any, of
    something entered (what is only missing yet is not a refusal)."""

    progress: RoundProgress
    view: Table
    refusal: LogError | None

    @property
    def complete(self) -> bool:
        return self.progress.complete


def read_draft(state: State, draft: Draft, total: int) -> Reading:
    if draft.dice is None:
        draw = draft.draw_entries()
        if not draw:  # nothing entered: the table as the last round left it
            waiting = LogError("bad_dice", "the dice are not entered yet")
            return Reading(RoundProgress(state, waiting), read_table(state), None)
        # The effects at the draw: the dice not rolled yet, dice that give nothing stand in.
        progress = round_progress(state, {"dice": QUIET_DICE, "upkeep": draw, "turns": []})
        return Reading(progress, read_table(progress.state), _refusal(progress.error, draft, total))
    first = state.current_first
    n = state.players
    seat_of_open = (first + len(draft.turns)) % n
    progress = round_progress(state, draft.log_round(seat_of_open))
    view = read_table(progress.state)
    return Reading(progress, view, _refusal(progress.error, draft, total))


def _refusal(exc: LogError | None, draft: Draft, total: int) -> LogError | None:
    """``exc`` unless it only says that the round is not entered that far yet."""
    if exc is None:
        return None
    next_turn = len(draft.turns) + 1
    if not draft.phase2:
        # Before the penalties are confirmed: they (or the first turn) are what is missing.
        if exc.code == "missing_penalty" and exc.turn is None:
            return None
        if exc.code == "missing_turn" and exc.turn == 1:
            return None
        return exc
    if draft.open:
        if exc.turn == next_turn:
            cards, plays = turn_plays(draft.open)
            if exc.code == "wrong_play_count" and cards < plays:
                return None  # the turn has cards still to play
            if exc.code == "missing_penalty":
                return None  # asked next
        if exc.code == "missing_turn" and exc.turn == next_turn + 1:
            return None
        return exc
    if exc.code == "missing_turn" and exc.turn == next_turn and next_turn <= total:
        return None
    return exc
