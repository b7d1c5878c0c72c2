"""Helpers of the statistics tests (loaded by path: the tests are not a package).

Games are made through the services; expected statistics are computed here again in plain
Python from the stored games' results (``expected_stats``), an independent route to the
materialized rows."""

from __future__ import annotations

import copy
import datetime
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import pytest

from games import services
from games.models import Deck, Game, Seat
from scoring.engine import get_engine
from scoring.engine.potdevin.simulate import simulate

GUILDS = ("nobles", "artists", "traders", "workmen", "knights", "assassins")
NEUTRAL = ("jokers", "bonus", "malus", "pot_de_vin")
ENGINE = get_engine("pot-de-vin")
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


def deck() -> Deck:
    return Deck.objects.get(key="standard")


def scorepad(
    owner: Any,
    names: Sequence[str],
    tableaux: Sequence[dict[str, int]],
    *,
    teams: list[list[int]] | None = None,
    played_on: datetime.date = DAY,
) -> Game:
    return services.scorepad_game_create(
        owner=owner,
        players=services.players_resolve(list(names), created_by=owner),
        deck=deck(),
        tableaux=list(tableaux),
        teams=teams,
        played_on=played_on,
    )


def imported(owner: Any, logs: Sequence[dict[str, Any]]) -> list[Game]:
    return services.game_import(owner=owner, documents=[copy.deepcopy(log) for log in logs])


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


def _bucket(facts: list[dict[str, Any]]) -> dict[str, Any]:
    games = len(facts)
    wins = sum(f["share"] for f in facts)
    logged = [f for f in facts if f["rounds_won"] is not None]
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else None,
        "average_score": sum(f["score"] for f in facts) / games if games else None,
        "best_score": max((f["score"] for f in facts), default=None),
        "worst_score": min((f["score"] for f in facts), default=None),
        "average_rank": sum(f["rank"] for f in facts) / games if games else None,
        "logged_games": len(logged),
        "rounds_won": sum(f["rounds_won"] for f in logged),
        "gems_paid": sum(f["gems_paid"] for f in logged),
        "gems_won": sum(f["gems_won"] for f in facts),
        "pot_de_vin_sweeps": sum(f["sweep"] for f in facts),
        "negative_columns": {g: sum(g in f["negative"] for f in facts) for g in GUILDS},
        "revokes": sum(f["revokes"] for f in facts),
    }


def expected_stats() -> dict[int, dict[str, Any]]:
    """Per player id, the statistics the API should show, from the finished games' results."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for game_id, seat, player_id in Seat.objects.values_list("game_id", "seat", "player_id"):
        seats[game_id][seat] = player_id
    facts: dict[int, list[dict[str, Any]]] = defaultdict(list)
    h2h: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    for game in Game.objects.filter(status=Game.Status.FINISHED).order_by("played_on", "id"):
        result = game.result
        assert result is not None
        players = result["players"]
        teams = result["teams"] is not None
        winners = result["winners"]
        winning_units = len({players[s]["team"] for s in winners}) if teams else len(winners)
        for p in players:
            pid = seats[game.pk][p["seat"]]
            own_columns = p["breakdown"]["guilds"]
            facts[pid].append(
                {
                    "count": len(players),
                    "teams": teams,
                    "share": 1 / winning_units if p["seat"] in winners else 0.0,
                    "score": p["score"],
                    "rank": p["rank"],
                    "rounds_won": p["rounds_won"],
                    "gems_paid": p["gems_paid"],
                    "gems_won": p["gems_won"],
                    "sweep": p["tableau"]["pot_de_vin"] == 4,
                    "negative": {
                        g
                        for g, c in own_columns.items()
                        if c["points"] < 0 and c["seat"] == p["seat"]
                    },
                    "revokes": sum(
                        1
                        for v in result["violations"]
                        if v["code"] == "revoke" and v["seat"] == p["seat"]
                    ),
                }
            )
            for q in players:
                if q is p or (teams and q["team"] == p["team"]):
                    continue
                row = h2h[pid][seats[game.pk][q["seat"]]]
                row[0] += 1
                row[1 if p["rank"] < q["rank"] else 2 if p["rank"] > q["rank"] else 3] += 1
    expected = {}
    for pid, rows in facts.items():
        current = longest = 0
        for f in rows:  # in date order
            current = current + 1 if f["share"] > 0 else 0
            longest = max(longest, current)
        expected[pid] = {
            **_bucket(rows),
            "current_streak": current,
            "longest_streak": longest,
            "by_player_count": {
                str(n): _bucket([f for f in rows if f["count"] == n]) for n in (3, 4, 5, 6)
            },
            "individual": _bucket([f for f in rows if not f["teams"]]),
            "team": _bucket([f for f in rows if f["teams"]]),
            "head_to_head": {
                opp: {"games": g, "wins": w, "losses": lo, "ties": t}
                for opp, (g, w, lo, t) in h2h[pid].items()
            },
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
