"""The ratings' Plackett-Luce update (scoring.stats.plackett_luce) against openskill's own
``PlackettLuce().rate``: the same numbers on random games and on the edge cases. No database."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from openskill.models import PlackettLuce
from openskill.models.weng_lin import plackett_luce as openskill_pl

from scoring.stats import plackett_luce
from scoring.stats.plackett_luce import Rating, rate

TOLERANCE = 1e-9
NEW = (plackett_luce.MU, plackett_luce.SIGMA)


def openskill_rate(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    model = PlackettLuce()
    rated = model.rate(
        [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=list(ranks),
    )
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def difference(ours: list[list[Rating]], theirs: list[list[Rating]]) -> float:
    """The largest difference of a mu or a sigma; the shapes must be the same."""
    assert [len(t) for t in ours] == [len(t) for t in theirs]
    return max(
        abs(a - b)
        for team, other in zip(ours, theirs, strict=True)
        for r, s in zip(team, other, strict=True)
        for a, b in zip(r, s, strict=True)
    )


def test_the_parameters_are_openskills_defaults() -> None:
    model = PlackettLuce()
    assert (model.mu, model.sigma, model.beta, model.kappa, model.tau) == (
        plackett_luce.MU,
        plackett_luce.SIGMA,
        plackett_luce.BETA,
        plackett_luce.KAPPA,
        plackett_luce.TAU,
    )
    # What the module leaves out must be off in the model it reproduces.
    assert model.gamma is openskill_pl._gamma
    assert (model.limit_sigma, model.balance, model.margin) == (False, False, 0.0)


def random_ranks(rng: random.Random, k: int) -> list[int]:
    """Ranks of k units with ties: places shared at random, as competition ranks (1, 1, 3) or
    as any numbers with repeats, in any order."""
    if rng.random() < 0.5:
        return [rng.randint(1, k) for _ in range(k)]
    scores = [rng.randint(0, 3) for _ in range(k)]
    return [1 + sum(other > score for other in scores) for score in scores]


@pytest.mark.parametrize("seed", range(4))
def test_random_games_in_a_series_equal_openskill(seed: int) -> None:
    """A club of players meeting again and again (their sigmas shrink game by game): 2 to 8
    units of 1 to 3 players, ranks with ties. Each player's rating is carried on both sides:
    ours by our update alone, openskill's by openskill alone, compared after every game."""
    rng = random.Random(seed)
    model = PlackettLuce()
    people = list(range(24))
    ours: dict[int, Rating] = {}
    theirs: dict[int, openskill_pl.PlackettLuceRating] = {}
    worst = 0.0
    for _ in range(600):
        k = rng.randint(2, 8)
        sizes = [rng.randint(1, 3) for _ in range(k)]
        while sum(sizes) > len(people):
            sizes.pop()
        if len(sizes) < 2:
            continue
        seated = rng.sample(people, sum(sizes))
        units = []
        for size in sizes:
            units.append(seated[:size])
            seated = seated[size:]
        ranks = random_ranks(rng, len(units))
        mine = rate([[ours.get(p, NEW) for p in unit] for unit in units], ranks)
        teams = [[theirs.get(p) or model.rating() for p in unit] for unit in units]
        result = model.rate(teams, ranks=list(ranks))
        worst = max(worst, difference(mine, [[(r.mu, r.sigma) for r in t] for t in result]))
        for unit, new, other in zip(units, mine, result, strict=True):
            for p, r, s in zip(unit, new, other, strict=True):
                ours[p], theirs[p] = r, s
    assert worst <= TOLERANCE
    assert max(sigma for _, sigma in ours.values()) < NEW[1] / 2  # the series narrowed them


def test_random_ratings_equal_openskill() -> None:
    """Single games from ratings anywhere in their range, the rare ones included."""
    rng = random.Random(7)
    for _ in range(2000):
        k = rng.randint(2, 8)
        teams = [
            [(rng.uniform(-20.0, 70.0), rng.uniform(0.05, 12.0)) for _ in range(rng.randint(1, 3))]
            for _ in range(k)
        ]
        ranks = random_ranks(rng, k)
        assert difference(rate(teams, ranks), openskill_rate(teams, ranks)) <= TOLERANCE


STRONG = (60.0, 1.5)


@pytest.mark.parametrize(
    ("teams", "ranks"),
    [
        pytest.param([[NEW], [NEW]], [1, 2], id="two players"),
        pytest.param([[NEW], [(30.0, 3.0)]], [1, 1], id="two players tied"),
        pytest.param([[NEW], [(30.0, 3.0)], [(18.0, 5.0)], [NEW]], [1, 1, 1, 1], id="all tied"),
        pytest.param([[NEW, (27.0, 4.0)], [(22.0, 2.0), NEW]], [1, 1], id="two teams tied"),
        pytest.param([[STRONG], [NEW], [NEW], [NEW]], [1, 2, 3, 4], id="the strong one wins"),
        pytest.param([[STRONG], [NEW], [NEW], [NEW]], [4, 1, 2, 3], id="the strong one loses"),
        pytest.param([[STRONG, STRONG, STRONG], [NEW], [NEW]], [3, 1, 1], id="strong team last"),
        pytest.param([[(25.0, 200.0)], [(25.0, 0.001)]], [2, 1], id="sigmas far apart"),
        pytest.param([[NEW]] * 8, [8, 7, 6, 5, 4, 3, 2, 1], id="eight in reverse order"),
        pytest.param([[NEW]] * 3, [5, 9, 5], id="ranks with gaps"),
        # Last of eight with a sigma far above the others': kappa bounds how far it shrinks.
        pytest.param([[(25.0, 300.0)]] + [[NEW]] * 7, [8, *range(1, 8)], id="kappa"),
    ],
)
def test_edge_cases_equal_openskill(teams: list[list[Rating]], ranks: list[int]) -> None:
    assert difference(rate(teams, ranks), openskill_rate(teams, ranks)) <= TOLERANCE


def test_kappa_bounds_the_shrinking_of_a_sigma() -> None:
    [[last], *_] = rate([[(25.0, 300.0)]] + [[NEW]] * 7, [8, *range(1, 8)])
    widened = (300.0**2 + plackett_luce.TAU**2) ** 0.5
    assert last[1] == pytest.approx(widened * plackett_luce.KAPPA**0.5, rel=1e-12)


def test_a_tie_is_a_tie_and_a_win_moves_the_winner_up() -> None:
    [[a], [b]] = rate([[NEW], [NEW]], [1, 1])
    assert a == b and a[0] == pytest.approx(25.0) and a[1] < NEW[1]
    [[winner], [loser]] = rate([[NEW], [NEW]], [1, 2])
    assert winner[0] > 25.0 > loser[0]


def test_the_inputs_are_left_as_they_are() -> None:
    teams = [[NEW, (27.0, 4.0)], [(22.0, 2.0)]]
    ranks = [2, 1]
    rate(teams, ranks)
    assert teams == [[NEW, (27.0, 4.0)], [(22.0, 2.0)]]
    assert ranks == [2, 1]


@pytest.mark.parametrize(
    ("teams", "ranks"),
    [([[NEW]], [1]), ([[NEW], [NEW]], [1]), ([[NEW], [NEW]], [1, 2, 3])],
)
def test_fewer_than_two_teams_or_ranks_not_one_each_are_refused(
    teams: list[list[Rating]], ranks: list[int]
) -> None:
    with pytest.raises(ValueError, match="teams"):
        rate(teams, ranks)
