"""Reading a Pot de Vin log's rounds: each round checked and applied to the game state.

Every check raises ``LogError`` before the log is accepted; nothing here draws chance (the deal
and the trump order are data in the log). Cards are small integers (see ``cards``) and sets of
cards are bit masks, because replaying whole stored archives is a hot path. For the same reason
list items are updated as ``a[i] = a[i] + x``: compiled, ``a[i] += x`` is a generic operation.
The header checks and the state are in ``header`` and ``state``, and importable from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.errors import Code, LogError, Seat, said
from scoring.engine.potdevin.cards import (
    ALL_CARDS_MASK,
    CARD_INDEX,
    CARD_NAMES,
    CHARACTER_MASKS,
    CHARACTERS,
)
from scoring.engine.potdevin.header import (
    check_jokers,
    check_players,
    check_teams,
    parse_jokers,
    start_state,
)
from scoring.engine.potdevin.reading import _card, _is_int, _malformed
from scoring.engine.potdevin.rules import SIX_PLAYER_CYCLE
from scoring.engine.potdevin.state import State

__all__ = [
    "State",
    "check_jokers",
    "check_players",
    "check_teams",
    "parse_jokers",
    "play_round",
    "start_state",
]


def _check_trump(st: State, trump: int, rno: int) -> None:
    bit = 1 << trump
    name = CARD_NAMES[trump]
    if st.played & bit:
        raise LogError(
            "duplicate_card", said("the trump {card} was already played", card=name), round=rno
        )
    if st.setup.players == 6:
        if rno > SIX_PLAYER_CYCLE and not st.trumps & bit:
            raise LogError(
                "wrong_trump",
                said(
                    "round {round} reveals {card}, which is not one of the 4 trump cards of "
                    "rounds 1-4",
                    round=rno,
                    card=name,
                ),
                round=rno,
            )
        if st.cycle & bit:
            raise LogError(
                "trump_reused",
                said("{card} was already revealed in this cycle of 4", card=name),
                round=rno,
            )
    elif st.trumps & bit:
        raise LogError(
            "trump_reused", said("{card} was already revealed as trump", card=name), round=rno
        )
    if st.pile_order is not None:
        if st.pile_order[rno - 1] != trump:
            raise LogError(
                "wrong_trump",
                said(
                    "the recorded trump pile reveals {expected} in round {round}, not {card}",
                    expected=CARD_NAMES[st.pile_order[rno - 1]],
                    round=rno,
                    card=name,
                ),
                round=rno,
            )
    elif st.pile and not st.pile & bit:
        raise LogError("wrong_trump", said("{card} is not in the trump pile", card=name), round=rno)


class _Plays:
    """What one round's plays come to, once checked: applied to the state by ``_commit``."""

    __slots__ = ("lead", "winner", "winning_card", "played", "passed", "pot", "tally", "cards")

    def __init__(self) -> None:
        self.lead = -1
        self.winner = -1
        self.winning_card = -1
        self.played = 0  # mask of the cards played
        self.passed = 0  # mask of the seats that passed
        self.pot = 0  # gems paid by those passes
        self.tally = 0  # what the cards played add to the winner's tally
        self.cards: list[str] = []  # the cards played, in turn order


def play_round(st: State, rnd: Any) -> None:
    """Check one round and apply it to ``st`` in place.

    A failed check may leave ``st`` part-changed: callers that keep the state work on a copy.
    Raises ``LogError``: too_many_rounds, malformed, unknown_card, duplicate_card, wrong_trump,
    trump_reused, unknown_seat, out_of_turn, starter_passed, pass_without_gems, not_in_hand,
    card_in_trump_pile, revoke.
    """
    rno = st.round_no + 1
    if st.finished:
        raise LogError(
            "too_many_rounds",
            said(
                "the game ended after round {last}; round {round} cannot be played",
                last=st.round_no,
                round=rno,
            ),
            round=rno,
        )
    if type(rnd) is not dict:
        if not isinstance(rnd, Mapping):
            raise _malformed(
                said(
                    "a round is an object with {trump} and {plays}",
                    trump=Code("trump"),
                    plays=Code("plays"),
                ),
                round=rno,
            )
        rnd = dict(rnd)
    round_: dict[str, Any] = rnd
    plays = round_.get("plays")
    if type(plays) is not list:
        raise _malformed(
            said("{plays} is the list of actions in turn order", plays=Code("plays")), round=rno
        )
    trump = _card(round_.get("trump"), round=rno)
    if st.setup.players == 6 and (rno - 1) % SIX_PLAYER_CYCLE == 0:
        st.cycle = 0  # a new cycle: the 4 cards are shuffled into a new pile
    _check_trump(st, trump, rno)
    counts = st.counts
    ring = st.rings[st.starter]
    # rules D2: a seat without cards is skipped.
    expected = tuple(s for s in ring if counts[s]) if st.emptied else ring
    # The fast check accepts only rounds it can prove legal; anything else goes to the careful
    # check, which finds the first broken rule in rule order for the error.
    done = _fast_plays(st, plays, trump, expected, rno) or _checked_plays(
        st, plays, trump, expected, rno
    )
    _commit(st, rno, trump, expected, done)


def _fast_plays(
    st: State, plays: list[Any], trump: int, expected: tuple[int, ...], rno: int
) -> _Plays | None:
    n = len(expected)
    if len(plays) != n:
        return None
    dealt = st.dealt
    unplayed = ALL_CARDS_MASK ^ st.played
    gems = st.gems
    tallies = st.deck.tallies
    blocked = st.pile | st.trumps | st.played | 1 << trump
    trump_char = trump // 13
    done = _Plays()
    names = done.cards
    lead = -1
    best_trump = best_lead = -1
    trump_seat = lead_seat = -1
    played = passed = pot = tally = 0
    offs: list[tuple[int, int]] | None = None
    for i in range(n):
        item = plays[i]
        if type(item) is not dict:
            return None
        p: dict[str, Any] = item
        seat_value = p.get("seat")
        if type(seat_value) is not int:
            return None
        seat: int = seat_value
        if seat != expected[i]:
            return None
        card = p.get("card")
        if card is None:
            if not i or p.get("pass") is not True or not gems[seat]:
                return None
            passed |= 1 << seat
            pot += 1
            continue
        if type(card) is not str or (len(p) != 2 and p.get("pass")):
            return None
        ci = CARD_INDEX.get(card, -1)
        if ci < 0:
            return None
        bit = 1 << ci
        if blocked & bit:
            return None
        blocked |= bit
        ch = ci // 13
        if i == 0:
            lead = ch
        if dealt is None:
            if ch != lead:
                if offs is None:
                    offs = []
                offs.append((seat, ci))
        else:
            held = dealt[seat] & unplayed
            if not held & bit or (ch != lead and held & CHARACTER_MASKS[lead]):
                return None
        played |= bit
        tally += tallies[ci]
        names.append(CARD_NAMES[ci])
        if ch == trump_char:
            if ci > best_trump:
                best_trump, trump_seat = ci, seat
        elif ch == lead and ci > best_lead:
            best_lead, lead_seat = ci, seat
    if offs is not None:
        _note_offs(st, offs, lead, rno)
    done.lead = lead
    done.played = played
    done.passed = passed
    done.pot = pot
    done.tally = tally
    if best_trump >= 0:
        done.winner, done.winning_card = trump_seat, best_trump
    else:
        done.winner, done.winning_card = lead_seat, best_lead
    return done


def _checked_plays(
    st: State, plays: list[Any], trump: int, expected: tuple[int, ...], rno: int
) -> _Plays:
    counts = st.counts
    gems = st.gems
    hands = st.hands
    tallies = st.deck.tallies
    n_expected = len(expected)
    in_pile = st.pile | st.trumps | 1 << trump
    seen = st.played
    n = st.setup.players
    trump_char = trump // 13
    done = _Plays()
    lead = -1
    best_trump = best_lead = -1
    trump_seat = lead_seat = -1
    offs: list[tuple[int, int]] = []  # (seat, card) off the lead, deal not recorded
    for i, p in enumerate(plays):
        if not isinstance(p, Mapping):
            raise _malformed(
                said(
                    "a play is an object with {seat_key} and {card_key} or {pass_key}",
                    seat_key=Code("seat"),
                    card_key=Code("card"),
                    pass_key=Code("pass"),
                ),
                round=rno,
            )
        seat = p.get("seat")
        if not _is_int(seat):
            raise _malformed(
                said("a play's {seat_key} is a seat number", seat_key=Code("seat")), round=rno
            )
        if not 0 <= seat < n:
            # Not a seat of this table: the number as written, not a player.
            raise LogError(
                "unknown_seat",
                said("there is no seat {number} at this table", number=seat),
                round=rno,
                seat=seat,
            )
        card = p.get("card")
        if card is None:
            _check_pass(p, expected, i, seat, gems, rno)
            done.passed |= 1 << seat
            done.pot += 1
            continue
        if p.get("pass"):
            raise _malformed(said("a play cannot both play a card and pass"), round=rno, seat=seat)
        ci = _card(card, round=rno, seat=seat)
        if not counts[seat]:
            raise LogError(
                "not_in_hand",
                said(
                    "{seat} has played every card of their hand; {card} cannot be theirs",
                    seat=Seat(seat),
                    card=card,
                ),
                round=rno,
                seat=seat,
            )
        if i >= n_expected or expected[i] != seat:
            raise _out_of_turn(expected, i, seat, rno)
        bit = 1 << ci
        if in_pile & bit:
            raise LogError(
                "card_in_trump_pile",
                said("{card} lies in the trump pile", card=card),
                round=rno,
                seat=seat,
            )
        if seen & bit:
            raise LogError(
                "duplicate_card",
                said("{card} was already played", card=card),
                round=rno,
                seat=seat,
            )
        if hands is not None and not hands[seat] & bit:
            raise LogError(
                "not_in_hand",
                said("{card} is not in the hand of {seat}", card=card, seat=Seat(seat)),
                round=rno,
                seat=seat,
            )
        ch = ci // 13
        if i == 0:
            lead = ch
        elif ch != lead:
            if hands is None:
                offs.append((seat, ci))
            elif hands[seat] & CHARACTER_MASKS[lead]:
                raise LogError(
                    "revoke",
                    said(
                        "{seat} played {card} while holding a {character} card, the lead character",
                        seat=Seat(seat),
                        card=card,
                        character=Code(CHARACTERS[lead], quoted=False),
                    ),
                    round=rno,
                    seat=seat,
                )
        seen |= bit
        done.played |= bit
        done.tally += tallies[ci]
        done.cards.append(CARD_NAMES[ci])
        if ch == trump_char:
            if ci > best_trump:
                best_trump, trump_seat = ci, seat
        elif ch == lead and ci > best_lead:
            best_lead, lead_seat = ci, seat
    if len(plays) < n_expected:
        missing = expected[len(plays)]
        raise LogError(
            "out_of_turn",
            said("{seat} did not act in round {round}", seat=Seat(missing), round=rno),
            round=rno,
            seat=missing,
        )
    _note_offs(st, offs, lead, rno)
    done.lead = lead
    # rules: the highest trump wins if any trump was played, else the highest lead card.
    if best_trump >= 0:
        done.winner, done.winning_card = trump_seat, best_trump
    else:
        done.winner, done.winning_card = lead_seat, best_lead
    return done


def _check_pass(
    p: Mapping[Any, Any], expected: tuple[int, ...], i: int, seat: int, gems: list[int], rno: int
) -> None:
    """A play without a card: a pass, in its seat's turn, not the starter's, paid with a gem."""
    if p.get("pass") is not True:
        raise _malformed(
            said('a play has either a {card_key} or "pass": true', card_key=Code("card")),
            round=rno,
            seat=seat,
        )
    if i >= len(expected) or expected[i] != seat:
        raise _out_of_turn(expected, i, seat, rno)
    if i == 0:
        raise LogError(
            "starter_passed",
            said(
                "{seat} starts round {round} and must play a card",
                seat=Seat(seat),
                round=rno,
            ),
            round=rno,
            seat=seat,
        )
    if not gems[seat]:
        raise LogError(
            "pass_without_gems",
            said("{seat} has no gem left to pay for a pass", seat=Seat(seat)),
            round=rno,
            seat=seat,
        )


def _commit(st: State, rno: int, trump: int, expected: tuple[int, ...], done: _Plays) -> None:
    """Apply a checked round: the winner takes the cards, gems and (3-5 players) the trump."""
    counts = st.counts
    gems = st.gems
    recorded = st.dealt is not None
    passed = done.passed
    cards = done.cards
    k = 0  # cards[k] is the card of the next seat that did not pass
    for s in expected:
        if passed >> s & 1:
            gems[s] = gems[s] - 1
            st.gems_paid[s] = st.gems_paid[s] + 1
            continue
        counts[s] = counts[s] - 1
        if not recorded and st.failures[s]:
            _prove_revokes(st, s, CARD_INDEX[cards[k]], rno)
        k += 1
        if not counts[s]:
            st.emptied |= 1 << s
            if gems[s]:
                st.gems_removed[s] = st.gems_removed[s] + gems[s]  # rules D2
                gems[s] = 0
    st.played |= done.played
    tbit = 1 << trump
    st.trumps |= tbit
    st.cycle |= tbit
    winner = done.winner
    tally = done.tally
    if st.setup.winner_takes_trump:
        cards.append(CARD_NAMES[trump])
        tally += st.deck.tallies[trump]
    st.tally[winner] = st.tally[winner] + tally
    st.gems_won[winner] = st.gems_won[winner] + done.pot
    st.rounds_won[winner] = st.rounds_won[winner] + 1
    st.round_no = rno
    st.rounds.append(
        {
            "round": rno,
            "trump": CARD_NAMES[trump],
            "starter": expected[0],
            "lead": CHARACTERS[done.lead],
            "winner": winner,
            "winning_card": CARD_NAMES[done.winning_card],
            "cards": cards,
            "gems": done.pot,
        }
    )
    # rules D2: the winner starts, or the next seat clockwise that still holds a card.
    for s in st.rings[winner]:
        if counts[s]:
            st.starter = s
            break
    else:
        st.finished = True  # rules D3: nobody holds a card
    if rno == st.setup.rounds:
        st.finished = True  # rules D3: the last trump card was used


def _note_offs(st: State, offs: list[tuple[int, int]], lead: int, rno: int) -> None:
    """rules D4 without the deal: a card off the lead is legal only if the seat held none of the
    lead character, which a later card of that character disproves (``_prove_revokes``)."""
    for seat, ci in offs:
        st.failures[seat].setdefault(lead, []).append((rno, ci))


def _prove_revokes(st: State, seat: int, ci: int, rno: int) -> None:
    """rules D4: hands are never drawn, so a card of a character the seat did not follow
    earlier was held all along: each such earlier round was a revoke."""
    missed = st.failures[seat].pop(ci // 13, None)
    for at, off in missed or ():
        st.violations.append(
            {
                "code": "revoke",
                "round": at,
                "seat": seat,
                "card": CARD_NAMES[off],
                "lead": CHARACTERS[ci // 13],
                "proof": {"round": rno, "card": CARD_NAMES[ci]},
            }
        )


def _out_of_turn(expected: tuple[int, ...], i: int, seat: int, rno: int) -> LogError:
    if i < len(expected):
        message = said(
            "{expected} acts at this point of round {round}, not {seat}",
            expected=Seat(expected[i]),
            round=rno,
            seat=Seat(seat),
        )
    else:
        message = said(
            "every seat holding cards has acted in round {round}; {seat} cannot",
            round=rno,
            seat=Seat(seat),
        )
    return LogError("out_of_turn", message, round=rno, seat=seat)
