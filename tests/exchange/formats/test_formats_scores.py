"""Scores as other apps write them: whole numbers, sums typed by a player, and the rest."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.exchange.formats.scores import MAX_SCORE, ParsedScore, parse_score


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("12", 12),
        (" 12 ", 12),
        ("-3", -3),
        ("+4", 4),
        ("0", 0),
        ("007", 7),
        ("12.0", 12),
        ("12.", 12),
        ("10+5+3", 18),
        ("10 + 5 + 3", 18),
        ("3*4+2", 14),
        ("3*(4+2)", 18),
        ("20-25", -5),
        ("-(3+4)", -7),
        ("2*-3", -6),
        ("08+09", 17),  # Python reads 08 as an error; a person means 8
        (str(MAX_SCORE), MAX_SCORE),
        (f"{MAX_SCORE}-1+1", MAX_SCORE),
    ],
)
def test_whole_numbers_and_expressions(text: str, value: int) -> None:
    assert parse_score(text) == ParsedScore(value)


def test_no_text_is_no_score_and_no_problem() -> None:
    assert parse_score("") == ParsedScore(None) == parse_score("  \t")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("12.5", "score_not_integer"),
        ("12,5", "score_not_integer"),
        (".5", "score_not_integer"),
        ("1.5+2", "score_not_integer"),
        ("quindici", "score_unreadable"),
        ("12 punti", "score_unreadable"),
        ("2**10", "score_unreadable"),
        ("2//1", "score_unreadable"),
        ("1_000", "score_unreadable"),
        ("1e3", "score_unreadable"),
        ("0x10", "score_unreadable"),
        ("__import__('os')", "score_unreadable"),
        ("(1+2", "score_unreadable"),
        ("1+2)", "score_unreadable"),
        ("1+", "score_unreadable"),
        ("()", "score_unreadable"),
        ("5 5", "score_unreadable"),
        ("(" * 11 + "1" + ")" * 11, "score_unreadable"),
        ("+".join(["1"] * 51), "score_unreadable"),
        ("1" * 201, "score_unreadable"),
        ("1\n+2", "score_unreadable"),
        (str(MAX_SCORE + 1), "score_out_of_range"),
        ("9" * 30, "score_out_of_range"),
        ("999999*999999*999999", "score_out_of_range"),
        (f"{MAX_SCORE}+1-1", "score_out_of_range"),  # each step is bounded, not only the end
    ],
)
def test_what_is_no_whole_number_says_why(text: str, problem: str) -> None:
    assert parse_score(text) == ParsedScore(None, problem)


def test_the_worst_text_within_the_limits_is_quick() -> None:
    worst = ["-" * 199 + "1", "9*" * 49 + "9", "(" * 10 + "1" + ")" * 10, "1+" * 99 + "1"]
    start = time.perf_counter()
    for text in worst:
        parse_score(text)
    assert time.perf_counter() - start < 0.5


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_any_text_gives_a_score_or_a_reason(text: str) -> None:
    found = parse_score(text)
    assert (found.value is None) or found.problem is None
    if found.value is not None:
        assert abs(found.value) <= MAX_SCORE


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=999), min_size=1, max_size=12),
    st.lists(st.sampled_from("+-*"), min_size=11, max_size=11),
)
def test_expressions_of_small_numbers_equal_their_arithmetic(
    numbers: list[int], operators: list[str]
) -> None:
    # Evaluated here the schoolbook way: products first, then sums left to right.
    terms: list[int] = [numbers[0]]
    signs: list[int] = [1]
    text = str(numbers[0])
    for number, operator in zip(numbers[1:], operators, strict=False):
        text += f" {operator} {number}"
        if operator == "*":
            terms[-1] *= number
        else:
            terms.append(number)
            signs.append(1 if operator == "+" else -1)
    expected = sum(sign * term for sign, term in zip(signs, terms, strict=True))
    if abs(expected) > MAX_SCORE:
        return
    assert parse_score(text) == ParsedScore(expected)
