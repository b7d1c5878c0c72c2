"""The Plackett-Luce rating update of openskill (``openskill.models.PlackettLuce().rate(teams,
ranks=...)``, Weng and Lin's algorithm 4) with openskill's default parameters, on plain
``(mu, sigma)`` pairs: no copies of the inputs, no rating objects, no ids. The ratings replay
every game of a series through it, and openskill's own ``rate`` spends more time copying and
naming its rating objects than computing.

The numbers are openskill's (6.x): each operation is the one openskill does, in the same
order (the tests compare the two on random games). What our ratings never use is left out:
scores and margins, weights, ``limit_sigma`` and ``balance`` (both off by default), a custom
gamma. So is openskill's last step, meant to give tied teams the mean of their mu changes: it
measures each change against the updated rating itself, so it changes nothing there either.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import exp, sqrt

Rating = tuple[float, float]  # (mu, sigma)

# openskill's defaults (``PlackettLuce()``).
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0

_BETA_SQUARED = BETA**2
_TAU_SQUARED = TAU * TAU


def _ordinal(rating: Rating) -> float:
    return rating[0] - 3.0 * rating[1]


def rate(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """The ratings after a game of these teams (each a non-empty sequence of players' ratings)
    ranked ``ranks`` (1 is first; equal ranks share a place), in the same shape as ``teams``.

    Raises ``ValueError`` for fewer than two teams or a rank per team missing or too many."""
    k = len(teams)
    if k < 2 or len(ranks) != k:
        raise ValueError(f"{k} teams with {len(ranks)} ranks: needs 2 teams or more, one rank each")
    # openskill works on the teams in rank order (a stable sort: tied teams keep their order),
    # which fixes the order of its sums.
    order = sorted(range(k), key=ranks.__getitem__)
    widened: list[list[Rating]] = []  # sigma grown by tau first, as openskill does
    team_mu: list[float] = []
    team_var: list[float] = []
    total = 0.0
    for i in order:
        team = teams[i]
        if len(team) == 1:  # a player alone: the sums of one term
            ((mu, sigma),) = team
            sigma = sqrt(sigma * sigma + _TAU_SQUARED)
            widened.append([(mu, sigma)])
            mu_sum, var_sum = mu, sigma**2
        else:
            players = [(mu, sqrt(sigma * sigma + _TAU_SQUARED)) for mu, sigma in team]
            widened.append(players)
            # openskill sums a team's players by ordinal, highest first: with three players or
            # more that order can change the last bit of the sums.
            if len(players) > 2:
                players = sorted(players, key=_ordinal, reverse=True)
            mu_sum = var_sum = 0.0
            for mu, sigma in players:
                mu_sum += mu
                var_sum += sigma**2
        team_mu.append(mu_sum)
        team_var.append(var_sum)
        total += var_sum + _BETA_SQUARED
    c = sqrt(total)

    # Places: a tied group of teams shares its first position's sum over the teams ranked at
    # or after it, and its size divides the terms of each of its teams.
    exps = [exp(mu / c) for mu in team_mu]
    sums = [0.0] * k
    size = [0] * k
    end = [0] * k  # past the last position of the position's group
    start = 0
    for pos in range(1, k + 1):
        if pos < k and ranks[order[pos]] == ranks[order[start]]:
            continue
        at_or_after = exps[start]
        for i in range(start + 1, k):
            at_or_after += exps[i]
        for p in range(start, pos):
            sums[p], size[p], end[p] = at_or_after, pos - start, pos
        start = pos

    result: list[list[Rating]] = [[] for _ in range(k)]
    c_squared = c**2
    for pos in range(k):
        e = exps[pos]
        omega = delta = 0.0
        for q in range(end[pos]):
            t = e / sums[q]
            a = size[q]
            delta += t * (1 - t) / a
            if q == pos:
                omega += (1 - t) / a
            else:
                omega -= t / a
        var = team_var[pos]
        omega *= var / c
        delta *= var / c_squared
        delta *= sqrt(var) / c  # openskill's default gamma
        result[order[pos]] = [
            (
                mu + sigma**2 / var * omega,
                sigma * sqrt(max(1 - sigma**2 / var * delta, KAPPA)),
            )
            for mu, sigma in widened[pos]
        ]
    return result
