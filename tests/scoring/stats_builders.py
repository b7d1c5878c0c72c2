"""Helpers of the statistics tests (loaded by path: the tests are not a package).

Games are made through the services; expected statistics are computed here again in plain
Python from the stored games' results (``expected_stats``), an independent route to the
materialized rows."""

from __future__ import annotations

import copy
import datetime
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import pytest
from django.db import transaction

from games.records import events, services
from games.records.models import Game, Seat
from scoring.engine import get_engine
from scoring.engine.potdevin.cards import GUILDS
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import first_club
from tests.engine.complots import reference

NEUTRAL = ("jokers", "bonus", "malus", "pot_de_vin")
POT_DE_VIN = "pot-de-vin"
COMPLOTS = "complots"
ENGINE = get_engine(POT_DE_VIN)
DAY = datetime.date(2026, 3, 1)


def day(n: int) -> datetime.date:
    return DAY + datetime.timedelta(days=n)


def tableau(**counts: int) -> dict[str, int]:
    """A scorepad tableau: guild symbols, neutral cards and gems; every guild card carries one
    symbol, so the card count is symbols + neutral cards unless given."""
    t = dict.fromkeys((*GUILDS, *NEUTRAL, "gems"), 0)
    t.update(counts)
    t.setdefault("cards", sum(t[g] for g in GUILDS) + sum(t[n] for n in NEUTRAL))
    return t


def scorepad(
    owner: Any,
    names: Sequence[str],
    tableaux: Sequence[dict[str, int]],
    *,
    teams: list[list[int]] | None = None,
    played_on: datetime.date = DAY,
) -> Game:
    return services.scorepad_game_create(
        club=first_club(),
        owner=owner,
        players=services.players_resolve(club=first_club(), refs=list(names), created_by=owner),
        game_type=POT_DE_VIN,
        sheet=list(tableaux),
        teams=teams,
        played_on=played_on,
    )


def imported(owner: Any, logs: Sequence[dict[str, Any]]) -> list[Game]:
    return services.game_import(
        club=first_club(), owner=owner, documents=[copy.deepcopy(log) for log in logs]
    )


def simulated(
    players: int,
    seed: int,
    *,
    names: Sequence[str],
    played_on: datetime.date,
    teams: bool = False,
    record_deal: bool = True,
) -> dict[str, Any]:
    log = simulate(players, seed=seed, teams=teams, record_deal=record_deal, names=list(names))
    log["played_on"] = played_on.isoformat()
    return log


def complots_simulated(
    players: int,
    seed: int,
    *,
    names: Sequence[str],
    played_on: datetime.date,
    complete: bool = True,
) -> dict[str, Any]:
    """A legal Complots log (complots-log/1) from the Complots engine's simulator."""
    simulate = get_engine(COMPLOTS).info.simulate
    assert simulate is not None
    log = simulate(players, seed=seed, complete=complete, names=list(names))
    log["played_on"] = played_on.isoformat()
    return log


def complots_result(
    owner: Any,
    names: Sequence[str],
    seats: Sequence[dict[str, int]],
    *,
    played_on: datetime.date = DAY,
) -> Game:
    """A finished Complots game stored from a hand-written result (complots-result/1): per seat
    its ``rank`` and the K4 counts given (the others 0). Made as rows, as an import would store
    them, then announced as services do (``games.records.events.results_changed``)."""
    players = services.players_resolve(club=first_club(), refs=list(names), created_by=owner)
    entries = [
        {
            "seat": i,
            "name": name,
            "team": None,
            "score": None,
            "rank": counts["rank"],
            "tiebreak": None,
            **{k: counts.get(k, 0) for k in K4},
        }
        for i, (name, counts) in enumerate(zip(names, seats, strict=True))
    ]
    result = {
        "format": "complots-result/1",
        "game": COMPLOTS,
        "engine_version": "hand",
        "complete": True,
        "players": entries,
        "winners": [e["seat"] for e in entries if e["rank"] == 1],
        "turns": [],
    }
    with transaction.atomic():
        game = Game.objects.create(
            club=first_club(),
            game_type=COMPLOTS,
            owner=owner,
            status=Game.Status.FINISHED,
            player_count=len(names),
            first_player=0,
            result=result,
            engine_version="hand",
            played_on=played_on,
        )
        Seat.objects.bulk_create(
            Seat(game=game, seat=e["seat"], player=p, score=None, rank=e["rank"])
            for e, p in zip(entries, players, strict=True)
        )
        events.results_changed(game_ids=[game.pk])
    return game


def revoke_log(
    players: int, *, names: Sequence[str], played_on: datetime.date, seed: int = 0
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A complete log without the deal in which a seat follows the lead in one round and plays
    that card in a later round, having played off the lead first: a revoke found after the
    fact (rules D4). The two cards of that seat are swapped in a simulated game; the engine
    picks a swap that leaves the log legal. Returns the log and the revoke (round, seat)."""
    for attempt in range(seed, seed + 50):
        log = simulated(players, attempt, names=names, played_on=played_on, record_deal=False)
        plays = [
            (r, i)
            for r, rnd in enumerate(log["rounds"])
            for i, p in enumerate(rnd["plays"])
            if "card" in p
        ]
        for r1, i1 in plays:
            first = log["rounds"][r1]["plays"][0]
            p1 = log["rounds"][r1]["plays"][i1]
            if i1 == 0 or "card" not in first or p1["card"][0] != first["card"][0]:
                continue
            lead = first["card"][0]
            for r2, i2 in plays:
                p2 = log["rounds"][r2]["plays"][i2]
                if r2 <= r1 or p2["seat"] != p1["seat"] or p2["card"][0] == lead:
                    continue
                bad = copy.deepcopy(log)
                a = bad["rounds"][r1]["plays"][i1]
                b = bad["rounds"][r2]["plays"][i2]
                a["card"], b["card"] = b["card"], a["card"]
                try:
                    result = ENGINE.replay(bad)
                except Exception:  # the swap changed who won a round: try another
                    continue
                revoke = {"round": r1 + 1, "seat": p1["seat"]}
                found = [
                    {"round": v["round"], "seat": v["seat"]}
                    for v in result["violations"]
                    if v["code"] == "revoke"
                ]
                if result["complete"] and revoke in found:
                    return bad, revoke
    raise AssertionError("no revoke edit found")


# --- The independent route -----------------------------------------------------------------

# Written out again here rather than read from the registry: the player counts each game's
# statistics are served by (Pot de Vin 3-6, Complots 2-8), its label, and the K4 counts
# (rules K4, K5) Complots statistics total.
PLAYER_COUNTS = {POT_DE_VIN: (3, 4, 5, 6), COMPLOTS: (2, 3, 4, 5, 6, 7, 8)}
LABELS = {POT_DE_VIN: "Pot de Vin", COMPLOTS: "Complots"}
K4 = reference.COUNT_NAMES  # K5's names, as the rules file spells them


def _ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def _pot_de_vin_fields(facts: list[dict[str, Any]]) -> dict[str, Any]:
    logged = [f for f in facts if f["rounds_won"] is not None]
    return {
        "logged_games": len(logged),
        "rounds_won": sum(f["rounds_won"] for f in logged),
        "gems_paid": sum(f["gems_paid"] for f in logged),
        "gems_won": sum(f["gems_won"] for f in facts),
        "pot_de_vin_sweeps": sum(f["sweep"] for f in facts),
        "negative_columns": {g: sum(g in f["negative"] for f in facts) for g in GUILDS},
        "revokes": sum(f["revokes"] for f in facts),
    }


def _complots_fields(facts: list[dict[str, Any]]) -> dict[str, Any]:
    totals = {k: sum(f[k] for f in facts) for k in K4}
    return {
        **totals,
        "challenge_success": _ratio(totals["challenges_won"], totals["challenges_made"]),
        "bluffs_caught_per_claim": _ratio(totals["bluffs_caught"], totals["claims_made"]),
        "survival": _ratio(sum(f["rank"] for f in facts), len(facts)),
    }


def _bucket(facts: list[dict[str, Any]], game_type: str) -> dict[str, Any]:
    games = len(facts)
    wins = sum(f["share"] for f in facts)
    scores = [f["score"] for f in facts if f["score"] is not None]
    own = _pot_de_vin_fields if game_type == POT_DE_VIN else _complots_fields
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else None,
        "average_score": sum(scores) / len(scores) if scores else None,
        "best_score": max(scores, default=None),
        "worst_score": min(scores, default=None),
        "average_rank": sum(f["rank"] for f in facts) / games if games else None,
        **own(facts),
    }


def _pot_de_vin_fact(result: dict[str, Any], p: dict[str, Any]) -> dict[str, Any]:
    own_columns = p["breakdown"]["guilds"]
    return {
        "rounds_won": p["rounds_won"],
        "gems_paid": p["gems_paid"],
        "gems_won": p["gems_won"],
        "sweep": p["tableau"]["pot_de_vin"] == 4,
        "negative": {
            g for g, c in own_columns.items() if c["points"] < 0 and c["seat"] == p["seat"]
        },
        "revokes": sum(
            1 for v in result["violations"] if v["code"] == "revoke" and v["seat"] == p["seat"]
        ),
    }


def _complots_fact(result: dict[str, Any], p: dict[str, Any]) -> dict[str, Any]:
    return {k: p[k] for k in K4}


def expected_stats(game_type: str = POT_DE_VIN) -> dict[int, dict[str, Any]]:
    """Per player id, the statistics of ``game_type`` the API should show, from the finished
    games' results (``game_types``: over every game type)."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for game_id, seat, player_id in Seat.objects.values_list("game_id", "seat", "player_id"):
        seats[game_id][seat] = player_id
    facts: dict[int, list[dict[str, Any]]] = defaultdict(list)
    h2h: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    played: dict[int, Counter[str]] = defaultdict(Counter)
    own_fact = _pot_de_vin_fact if game_type == POT_DE_VIN else _complots_fact
    for game in Game.objects.filter(status=Game.Status.FINISHED).order_by("played_on", "id"):
        result = game.result
        assert result is not None
        players = result["players"]
        for p in players:
            played[seats[game.pk][p["seat"]]][game.game_type] += 1
        if game.game_type != game_type:
            continue
        teams = result.get("teams") is not None
        winners = result["winners"]
        ranked_first = [p["seat"] for p in players if p["rank"] == 1]
        assert set(winners) <= set(ranked_first)
        winning_units = (
            len({players[s]["team"] for s in ranked_first}) if teams else len(ranked_first)
        )
        for p in players:
            pid = seats[game.pk][p["seat"]]
            facts[pid].append(
                {
                    "count": len(players),
                    "teams": teams,
                    "share": 1 / winning_units if p["rank"] == 1 else 0.0,
                    "score": p["score"],
                    "rank": p["rank"],
                    **own_fact(result, p),
                }
            )
            for q in players:
                if q is p or (teams and q["team"] == p["team"]):
                    continue
                row = h2h[pid][seats[game.pk][q["seat"]]]
                row[0] += 1
                row[1 if p["rank"] < q["rank"] else 2 if p["rank"] > q["rank"] else 3] += 1
    expected = {}
    for pid in set(facts) | set(played):
        rows = facts.get(pid, [])
        current = longest = 0
        for f in rows:  # in date order
            current = current + 1 if f["share"] > 0 else 0
            longest = max(longest, current)
        expected[pid] = {
            **_bucket(rows, game_type),
            "current_streak": current,
            "longest_streak": longest,
            "by_player_count": {
                str(n): _bucket([f for f in rows if f["count"] == n], game_type)
                for n in PLAYER_COUNTS[game_type]
            },
            "individual": _bucket([f for f in rows if not f["teams"]], game_type),
            "team": _bucket([f for f in rows if f["teams"]], game_type),
            "head_to_head": {
                opp: {"games": g, "wins": w, "losses": lo, "ties": t}
                for opp, (g, w, lo, t) in h2h[pid].items()
            },
            "game_types": [
                {"game_type": g, "label": LABELS[g], "games": played[pid][g]}
                for g in (POT_DE_VIN, COMPLOTS)
                if played[pid][g]
            ],
        }
    return expected


def comparable(stats: dict[str, Any]) -> dict[str, Any]:
    """A player's served statistics with head-to-head keyed by opponent id, to compare with
    ``expected_stats`` (by ``assert_close``)."""
    out = {k: v for k, v in stats.items() if k not in {"player", "rating", "head_to_head"}}
    out["head_to_head"] = {
        h["opponent"]["id"]: {k: h[k] for k in ("games", "wins", "losses", "ties")}
        for h in stats["head_to_head"]
    }
    return out


def flat(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, list):
        value = dict(enumerate(value))
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(flat(v, f"{path}/{k}"))
        return out
    return {path: value}


def assert_close(got: dict[str, Any], want: dict[str, Any]) -> None:
    """Equal structures; numbers equal to 1e-3 (the API rounds ratios to 4 places)."""
    got_flat, want_flat = flat(got), flat(want)
    assert sorted(got_flat) == sorted(want_flat)
    for key, value in want_flat.items():
        if isinstance(value, float):
            assert got_flat[key] == pytest.approx(value, abs=1e-3), key
        else:
            assert got_flat[key] == value, key
