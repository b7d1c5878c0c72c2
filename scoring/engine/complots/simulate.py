"""A seeded simulator of legal Complots games, for tests, demo data and benchmarks.

It deals and plays on its own (it does not call the engine), so a replay of its logs is a check
of the engine by an independent route. It keeps the real hidden hands and the Court: a truthful
claimant really holds the card it shows (and shuffles it back and draws another), a bluffer
really does not, and every loss names a card its player really held. Chance is drawn here, from
``random.Random(seed)``, and the log records only what the table sees.
"""

from __future__ import annotations

import random
from typing import Any

from scoring.engine.complots.rules import (
    AMBASSADOR,
    ASSASSIN,
    ASSASSIN_COST,
    CAPTAIN,
    CAPTAIN_STEAL,
    CHARACTER_NAMES,
    COUNTESS,
    COUP_COST,
    DUCHESS,
    DUCHESS_COINS,
    FORCED_COUP_COINS,
    FOREIGN_AID_COINS,
    INCOME_COINS,
    INQUISITOR,
    LOG_FORMAT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START_COINS,
    TREASURY_TOTAL,
    TWO_PLAYER_FIRST_COINS,
    VARIANT_NAMES,
    copies_for,
)

PLAYER_NAMES = ("Ada", "Bea", "Cy", "Dev", "Eli", "Flo", "Gus", "Hal")

# How the simulated players behave (tuned for games of about 4 turns per player).
CHALLENGE_RATE = 0.4  # a claim is challenged by someone
BLUFF_RATE = 0.35  # a player claims a character it does not hold
BLOCK_CHALLENGE_RATE = 0.3
AID_BLOCK_RATE = 0.3
COUP_RATE = 0.8  # a player with 7 coins coups
PATIENCE = 400  # after this many turns every player coups as soon as it can


class _Table:
    """The real state of a simulated game, hidden cards included."""

    def __init__(self, rng: random.Random, players: int, fifth: int, first: int) -> None:
        self.rng = rng
        self.n = players
        self.fifth = fifth
        self.characters = [DUCHESS, ASSASSIN, COUNTESS, CAPTAIN, fifth]
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.court: list[int] = []
        self.coins = [START_COINS] * players
        if players == 2:
            self.coins[first] = TWO_PLAYER_FIRST_COINS
        self.treasury = TREASURY_TOTAL - sum(self.coins)
        self._deal(first)

    def _deal(self, first: int) -> None:
        rng = self.rng
        if self.n == 2:
            # Three packets of the five characters: each player takes one, a card of the third
            # is dealt to each at random, its last three cards are the Court; each player keeps
            # one card of its packet and the other 8 cards leave the game.
            third = list(self.characters)
            rng.shuffle(third)
            for seat in range(2):
                self.hands[seat] = [third[seat], rng.choice(self.characters)]
            self.court = third[2:]
            return
        deck = self.characters * copies_for(self.n)
        rng.shuffle(deck)
        for k in range(self.n):
            self.hands[(first + k) % self.n] = deck[2 * k : 2 * k + 2]
        self.court = deck[2 * self.n :]

    def alive(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def live_seats(self) -> list[int]:
        return [s for s in range(self.n) if self.hands[s]]

    def others(self, seat: int) -> list[int]:
        return [s for s in range(self.n) if s != seat and self.hands[s]]

    def swap_shown(self, seat: int, card: int) -> None:
        """``seat`` shows ``card``, shuffles it into the Court and draws another."""
        self.hands[seat].remove(card)
        self.court.append(card)
        self.rng.shuffle(self.court)
        self.hands[seat].append(self.court.pop())

    def lose(self, seat: int, losses: list[dict[str, Any]], eliminated: list[int]) -> None:
        """``seat`` turns up a hidden card of its choice (if it is still in the game)."""
        hand = self.hands[seat]
        if not hand:
            return
        card = hand.pop(self.rng.randrange(len(hand)))
        losses.append({"seat": seat, "card": CHARACTER_NAMES[card]})
        if not hand:
            self.treasury += self.coins[seat]
            self.coins[seat] = 0
            eliminated.append(seat)

    def take(self, seat: int, amount: int) -> None:
        amount = min(amount, self.treasury)
        self.treasury -= amount
        self.coins[seat] += amount

    def pay(self, seat: int, amount: int) -> None:
        self.coins[seat] -= amount
        self.treasury += amount


def _choose_action(table: _Table, actor: int, variant: str, turn_no: int) -> tuple[str, int]:
    """The action the actor declares and the character it claims (-1: none)."""
    rng = table.rng
    coins = table.coins[actor]
    hand = table.hands[actor]
    if coins >= FORCED_COUP_COINS or (
        coins >= COUP_COST and (turn_no > PATIENCE or rng.random() < COUP_RATE)
    ):
        return "coup", -1
    options: list[tuple[str, int]] = [
        ("duchess", DUCHESS),
        ("captain", CAPTAIN),
        ("exchange", table.fifth),
    ]
    if coins >= ASSASSIN_COST:
        options += [("assassin", ASSASSIN)] * 3
    if variant == "inquisitor":
        options.append(("inquire", INQUISITOR))
    held = [o for o in options if o[1] in hand]
    if held and rng.random() < 0.75:
        return rng.choice(held)
    if rng.random() < BLUFF_RATE:
        return rng.choice(options)
    return ("income", -1) if rng.random() < 0.5 else ("foreign_aid", -1)


def _challenge(
    table: _Table, claimant: int, claimed: int, candidates: list[int], rate: float
) -> tuple[int, bool] | None:
    """Maybe one of ``candidates`` challenges ``claimant``'s claim of ``claimed``: (who, true)."""
    if not candidates or table.rng.random() >= rate:
        return None
    return table.rng.choice(candidates), claimed in table.hands[claimant]


def _block(table: _Table, action: str, actor: int, target: int) -> tuple[int, int] | None:
    """Maybe a block of the action: (blocker, claimed character)."""
    rng = table.rng
    if action == "foreign_aid":
        others = table.others(actor)
        if others and rng.random() < AID_BLOCK_RATE:
            blocker = rng.choice(others)
            return blocker, DUCHESS
        return None
    if not table.alive(target):
        return None
    hand = table.hands[target]
    if action == "assassin":
        if COUNTESS in hand:
            return (target, COUNTESS) if rng.random() < 0.85 else None
        # Bluffing a countess when it is the last card left costs nothing more.
        rate = 0.5 if len(hand) == 1 else 0.25
        return (target, COUNTESS) if rng.random() < rate else None
    if action == "captain":
        if table.coins[target] == 0 and rng.random() < 0.7:
            return None
        real = [c for c in (CAPTAIN, table.fifth) if c in hand]
        if real and rng.random() < 0.7:
            return target, rng.choice(real)
        if rng.random() < 0.2:
            return target, rng.choice((CAPTAIN, table.fifth))
    return None


def _play_turn(table: _Table, actor: int, variant: str, turn_no: int) -> dict[str, Any]:
    rng = table.rng
    action, claimed = _choose_action(table, actor, variant, turn_no)
    turn: dict[str, Any] = {"actor": actor, "action": action}
    target = -1
    if action in ("coup", "assassin", "captain", "inquire"):
        others = table.others(actor)
        if action == "captain":
            rich = [s for s in others if table.coins[s]]
            others = rich if rich and rng.random() < 0.9 else others
        target = rng.choice(others)
        turn["target"] = target
    losses: list[dict[str, Any]] = []
    eliminated: list[int] = []
    if action == "coup":
        table.pay(actor, COUP_COST)
        table.lose(target, losses, eliminated)
        if losses:
            turn["losses"] = losses
        return turn

    # 1. The claim may be challenged.
    if claimed >= 0:
        # A targeted player is quicker to doubt.
        candidates = table.others(actor)
        rate = CHALLENGE_RATE
        if target >= 0 and rng.random() < 0.3:
            candidates = [target]
        challenge = _challenge(table, actor, claimed, candidates, rate)
        if challenge is not None:
            by, truthful = challenge
            turn["challenge"] = {"by": by, "truthful": truthful}
            if truthful:
                table.swap_shown(actor, claimed)
                table.lose(by, losses, eliminated)
            else:
                table.lose(actor, losses, eliminated)  # never the claimed card: not held
                if losses:
                    turn["losses"] = losses
                return turn

    # 2. The action goes on; it may be blocked.
    if action == "assassin":
        table.pay(actor, ASSASSIN_COST)
    blocked = False
    block = _block(table, action, actor, target)
    if block is not None:
        blocker, as_ = block
        turn["block"] = {"by": blocker, "as": CHARACTER_NAMES[as_]}
        blocked = True
        candidates = [s for s in table.others(blocker)]
        if actor in candidates and rng.random() < 0.5:
            candidates = [actor]
        challenge = _challenge(table, blocker, as_, candidates, BLOCK_CHALLENGE_RATE)
        if challenge is not None:
            by, truthful = challenge
            turn["block"]["challenge"] = {"by": by, "truthful": truthful}
            if truthful:
                table.swap_shown(blocker, as_)
                table.lose(by, losses, eliminated)
            else:
                table.lose(blocker, losses, eliminated)
                blocked = False

    # 3. The effect.
    if not blocked:
        if action == "assassin":
            table.lose(target, losses, eliminated)
        elif action == "captain":
            taken = min(CAPTAIN_STEAL, table.coins[target])
            table.coins[target] -= taken
            table.coins[actor] += taken
        elif action == "income":
            table.take(actor, INCOME_COINS)
        elif action == "foreign_aid":
            table.take(actor, FOREIGN_AID_COINS)
        elif action == "duchess":
            table.take(actor, DUCHESS_COINS)
        elif action == "exchange":
            hand = table.hands[actor]
            draw = 2 if table.fifth == AMBASSADOR else 1
            rng.shuffle(table.court)
            pool = hand + [table.court.pop() for _ in range(draw)]
            rng.shuffle(pool)
            table.hands[actor] = pool[: len(hand)]
            table.court.extend(pool[len(hand) :])
            rng.shuffle(table.court)
        elif action == "inquire" and table.alive(target):
            swap = rng.random() < 0.4
            if swap:
                table.swap_shown(target, rng.choice(table.hands[target]))
            if rng.random() < 0.8:
                turn["forced_swap"] = swap
    if losses:
        turn["losses"] = losses
    return turn


def simulate(
    players: int,
    *,
    seed: int,
    variant: str = "ambassador",
    complete: bool = True,
    names: list[str] | None = None,
) -> dict[str, Any]:
    """One random legal game as a ``complots-log/1`` document (the same for the same seed).

    ``complete=False`` stops the game at a random turn before it is won.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Complots is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if variant not in VARIANT_NAMES:
        raise ValueError(f"the variant is 'ambassador' or 'inquisitor', not {variant!r}")
    if names is not None and len(names) != players:
        raise ValueError(f"{len(names)} names for {players} players")
    rng = random.Random(seed)
    first = rng.randrange(players)
    fifth = AMBASSADOR if variant == "ambassador" else INQUISITOR
    table = _Table(rng, players, fifth, first)
    turns: list[dict[str, Any]] = []
    actor = first
    while len(table.live_seats()) > 1:
        turns.append(_play_turn(table, actor, variant, len(turns) + 1))
        for k in range(1, players + 1):
            seat = (actor + k) % players
            if table.hands[seat]:
                actor = seat
                break
    if not complete:
        turns = turns[: rng.randrange(1, len(turns))] if len(turns) > 1 else []
    return {
        "format": LOG_FORMAT,
        "players": list(names or PLAYER_NAMES[:players]),
        "variant": variant,
        "first_player": first,
        "turns": turns,
    }
