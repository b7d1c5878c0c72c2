"""A naive, independent reference implementation of Complots replay and ranking.

Written straight from ``shared/rules/complots.md`` (decisions K1-K5, log format
``complots-log/1``) and the result fields of ``docs/complots-engine.md``, for the property and
golden-log tests. It imports nothing from ``scoring``: its own character table, its own
Treasury, its own loss bookkeeping and its own ranking.

It reads VALID logs only (no error codes): a log that breaks the rules is a bug of the caller,
and the ``assert`` lines below are sanity checks, not the engine's validation.

``replay(log)`` gives the fields this module computes (``engine_view`` in the tests picks the
same fields from an engine result); ``golden_document(log)`` a whole golden file
(``tests/golden/complots/*.json``). ``test_complots_golden.py`` checks that this module still
reproduces every golden file, so the golden data is tied to this reference, never to the
engine's output.
"""

from __future__ import annotations

from typing import Any

# Setup (rules "Setup"): four characters always, plus the variant's fifth one.
BASE_CHARACTERS = ("duchess", "assassin", "countess", "captain")
VARIANTS = ("ambassador", "inquisitor")
TREASURY_TOTAL = 54  # K1: 24 silver + 6 gold worth 5 = 54
COUNT_NAMES = (
    "coins_gained",
    "coins_lost_to_captains",
    "claims_made",
    "bluffs_caught",
    "challenges_made",
    "challenges_won",
    "blocks_made",
    "blocks_standing",
    "influences_taken",
    "players_eliminated",
)


def characters(variant: str) -> tuple[str, ...]:
    assert variant in VARIANTS, variant
    return (*BASE_CHARACTERS, variant)


def copies(players: int) -> int:
    """Copies of each character: 3 for 2 to 6 players (K5: 2 players too), 4 for 7 or 8."""
    assert 2 <= players <= 8
    return 4 if players >= 7 else 3


def claimed_character(action: str, variant: str) -> str | None:
    """The character an action claims (table of "A turn"); None for income, aid and coup."""
    if action in ("duchess", "assassin", "captain"):
        return action
    if action == "exchange":
        return variant
    if action == "inquire":
        assert variant == "inquisitor"
        return "inquisitor"
    assert action in ("income", "foreign_aid", "coup"), action
    return None


def block_characters(action: str, variant: str) -> tuple[str, ...]:
    """Who blocks what (table of "A turn"); () when the action cannot be blocked (K2)."""
    if action == "foreign_aid":
        return ("duchess",)
    if action == "assassin":
        return ("countess",)
    if action == "captain":
        return ("captain", variant)
    return ()


class Table:
    """The public state of a game: coins, face-up cards, the Treasury, the counts."""

    def __init__(self, log: dict[str, Any]) -> None:
        self.names: list[str] = list(log["players"])
        self.n = len(self.names)
        assert 2 <= self.n <= 8
        variant = log.get("variant")
        self.variant: str = "ambassador" if variant is None else variant
        self.chars = characters(self.variant)
        self.copies = copies(self.n)
        self.first: int = log["first_player"]
        # Setup: 2 coins each; in a 2-player game the first player gets 1 (K1 below).
        self.coins = [2] * self.n
        if self.n == 2:
            self.coins[self.first] = 1
        self.treasury = TREASURY_TOTAL - sum(self.coins)  # K1
        self.face_up: list[list[str]] = [[] for _ in range(self.n)]
        self.eliminated_on_turn: list[int | None] = [None] * self.n
        self.elimination_order: list[int] = []  # seats, in the order of their last loss
        self.counts = [dict.fromkeys(COUNT_NAMES, 0) for _ in range(self.n)]
        self.turns: list[dict[str, Any]] = []
        self.next_actor: int | None = self.first

    # --- small helpers ---------------------------------------------------------------------

    def alive(self, seat: int) -> bool:
        return len(self.face_up[seat]) < 2

    def live_seats(self) -> list[int]:
        return [s for s in range(self.n) if self.alive(s)]

    def shown(self, card: str) -> int:
        """Copies of ``card`` face up on the whole table."""
        return sum(cards.count(card) for cards in self.face_up)

    def take_from_treasury(self, seat: int, amount: int) -> int:
        got = min(amount, self.treasury)  # K1: what is there, possibly 0
        self.treasury -= got
        self.coins[seat] += got
        self.counts[seat]["coins_gained"] += got
        return got

    def pay(self, seat: int, amount: int) -> None:
        assert self.coins[seat] >= amount
        self.coins[seat] -= amount
        self.treasury += amount

    # --- one turn ----------------------------------------------------------------------------

    def play(self, number: int, turn: dict[str, Any]) -> None:
        assert len(self.live_seats()) > 1, "a turn after the game was won"
        actor: int = turn["actor"]
        assert actor == self.next_actor, (number, actor, self.next_actor)
        action: str = turn["action"]
        target: int | None = turn.get("target")
        losses: list[dict[str, Any]] = list(turn.get("losses") or [])
        used = 0  # losses consumed so far
        eliminated: list[int] = []

        def lose(seat: int, forbidden: str | None = None) -> bool:
            """The next required loss is by ``seat``; True when it eliminates ``seat``."""
            nonlocal used
            if not self.alive(seat):
                return False  # a dead player never loses again: the loss vanishes
            assert used < len(losses), (number, "missing loss", seat)
            loss = losses[used]
            used += 1
            card = loss["card"]
            assert loss["seat"] == seat, (number, "unexpected loss", loss, seat)
            assert card in self.chars, (number, card)
            assert card != forbidden, (number, "claimed card lost", card)
            assert self.shown(card) < self.copies, (number, "card not hidden", card)
            self.face_up[seat].append(card)
            if self.alive(seat):
                return False
            # Eliminated at once: coins back to the Treasury (K1, K5).
            self.treasury += self.coins[seat]
            self.coins[seat] = 0
            self.eliminated_on_turn[seat] = number
            self.elimination_order.append(seat)
            eliminated.append(seat)
            return True

        started_with = self.coins[actor]
        assert started_with < 10 or action == "coup", "forced coup"
        claim = claimed_character(action, self.variant)
        if claim is not None:
            self.counts[actor]["claims_made"] += 1
        if action in ("coup", "assassin", "captain", "inquire"):
            assert target is not None and target != actor and self.alive(target)
        else:
            assert target is None

        outcome = "done"
        if action == "coup":
            self.pay(actor, 7)  # declaring a coup costs 7, paid to the Treasury

        # 1. The claim's challenge.
        challenge = turn.get("challenge")
        if challenge is not None:
            assert claim is not None
            by: int = challenge["by"]
            assert by != actor and self.alive(by)
            self.counts[by]["challenges_made"] += 1
            if challenge["truthful"]:
                assert self.shown(claim) < self.copies, "no copy left to show"
                if lose(by):
                    self.counts[actor]["players_eliminated"] += 1  # the claimant won
            else:
                self.counts[actor]["bluffs_caught"] += 1
                self.counts[by]["challenges_won"] += 1
                if lose(actor, forbidden=claim):
                    self.counts[by]["players_eliminated"] += 1
                outcome = "cancelled"

        # The assassin pays once its claim survived (K5), before any block.
        if action == "assassin" and outcome != "cancelled":
            self.pay(actor, 3)

        # 2. The block and its challenge.
        block = turn.get("block")
        if block is not None:
            assert outcome != "cancelled", "block on a cancelled action"
            blocker: int = block["by"]
            as_: str = block["as"]
            assert as_ in block_characters(action, self.variant)
            if action == "foreign_aid":
                assert blocker != actor and self.alive(blocker)
            else:
                assert blocker == target and self.alive(blocker)
            self.counts[blocker]["blocks_made"] += 1
            stands = True
            block_challenge = block.get("challenge")
            if block_challenge is not None:
                by = block_challenge["by"]
                assert by != blocker and self.alive(by)
                self.counts[by]["challenges_made"] += 1
                if block_challenge["truthful"]:
                    assert self.shown(as_) < self.copies, "no copy left to show"
                    if lose(by):
                        self.counts[blocker]["players_eliminated"] += 1
                else:
                    self.counts[blocker]["bluffs_caught"] += 1
                    self.counts[by]["challenges_won"] += 1
                    if lose(blocker, forbidden=as_):
                        self.counts[by]["players_eliminated"] += 1
                    stands = False
            if stands:
                self.counts[blocker]["blocks_standing"] += 1
                outcome = "blocked"

        # 3. The effect.
        if outcome == "done":
            if action == "income":
                self.take_from_treasury(actor, 1)
            elif action == "foreign_aid":
                self.take_from_treasury(actor, 2)
            elif action == "duchess":
                self.take_from_treasury(actor, 3)
            elif action == "captain":
                assert target is not None
                taken = min(2, self.coins[target])  # 0 when the target died (coins returned)
                self.coins[target] -= taken
                self.coins[actor] += taken
                self.counts[actor]["coins_gained"] += taken
                self.counts[target]["coins_lost_to_captains"] += taken
            elif action in ("coup", "assassin"):
                assert target is not None
                if self.alive(target):
                    self.counts[actor]["influences_taken"] += 1
                    if lose(target):
                        self.counts[actor]["players_eliminated"] += 1
            # exchange and inquire change nothing the table can see.
        assert used == len(losses), (number, "unexpected loss", losses[used:])
        assert sum(self.coins) + self.treasury == TREASURY_TOTAL

        self.turns.append(
            {
                "turn": number,
                "actor": actor,
                "action": action,
                "target": target,
                "outcome": outcome,
                "losses": [{"seat": loss["seat"], "card": loss["card"]} for loss in losses],
                "eliminated": eliminated,
            }
        )
        live = self.live_seats()
        if len(live) <= 1:
            self.next_actor = None
        else:
            # Next live seat clockwise after this turn's actor (even if the actor died).
            seat = (actor + 1) % self.n
            while not self.alive(seat):
                seat = (seat + 1) % self.n
            self.next_actor = seat

    # --- ranking (K4) ---------------------------------------------------------------------------

    def ranking(self) -> tuple[list[int], list[str | None]]:
        n = self.n
        ranks = [0] * n
        tiebreaks: list[str | None] = [None] * n
        live = self.live_seats()
        complete = len(live) == 1

        def key(seat: int) -> tuple[int, int]:
            return (2 - len(self.face_up[seat]), self.coins[seat])

        for seat in live:
            # Competition ranking: 1 + the live players strictly ahead.
            ranks[seat] = 1 + sum(1 for other in live if key(other) > key(seat))
            same_key = [o for o in live if o != seat and key(o) == key(seat)]
            same_influences = [o for o in live if o != seat and key(o)[0] == key(seat)[0]]
            if same_key:
                tiebreaks[seat] = "shared"
            elif same_influences and not complete:
                tiebreaks[seat] = "coins"
        # The eliminated: the one eliminated last ranks best, right after the live players.
        for place, seat in enumerate(reversed(self.elimination_order)):
            ranks[seat] = len(live) + 1 + place
            same_turn = [
                o
                for o in self.elimination_order
                if o != seat and self.eliminated_on_turn[o] == self.eliminated_on_turn[seat]
            ]
            if same_turn:
                tiebreaks[seat] = "loss_order"
        return ranks, tiebreaks

    def result(self) -> dict[str, Any]:
        ranks, tiebreaks = self.ranking()
        live = self.live_seats()
        complete = len(live) == 1
        players = []
        for seat in range(self.n):
            players.append(
                {
                    "seat": seat,
                    "name": self.names[seat],
                    "rank": ranks[seat],
                    "tiebreak": tiebreaks[seat],
                    "alive": self.alive(seat),
                    "influences": 2 - len(self.face_up[seat]),
                    "face_up": list(self.face_up[seat]),
                    "coins": self.coins[seat],
                    "eliminated_on_turn": self.eliminated_on_turn[seat],
                    **self.counts[seat],
                }
            )
        return {
            "variant": self.variant,
            "complete": complete,
            "turns_played": len(self.turns),
            "treasury": self.treasury,
            "players": players,
            "winners": live if complete else [],
            "turns": [dict(t) for t in self.turns],
        }


PLAYER_KEYS = (
    "seat",
    "name",
    "rank",
    "tiebreak",
    "alive",
    "influences",
    "face_up",
    "coins",
    "eliminated_on_turn",
    *COUNT_NAMES,
)
RESULT_KEYS = ("variant", "complete", "turns_played", "treasury", "winners", "turns")


def picked(result: dict[str, Any]) -> dict[str, Any]:
    """The fields of an engine result that ``replay`` below also computes."""
    out = {key: result[key] for key in RESULT_KEYS}
    out["players"] = [{key: p[key] for key in PLAYER_KEYS} for p in result["players"]]
    return out


def replay(log: dict[str, Any]) -> dict[str, Any]:
    """The result fields this reference computes for a valid ``complots-log/1``."""
    assert log["format"] == "complots-log/1"
    table = Table(log)
    for number, turn in enumerate(log["turns"], start=1):
        table.play(number, turn)
    return table.result()


def expected_for(log: dict[str, Any]) -> dict[str, Any]:
    """The golden ``expected`` of ``log``."""
    return replay(log)


def golden_document(log: dict[str, Any]) -> dict[str, Any]:
    return {"log": log, "expected": expected_for(log)}
