"""Scores as other apps write them: text, a whole number most of the time, sometimes a sum the
player typed ("10+5+3", BG Stats keeps it as typed), sometimes a decimal or a word.

``parse_score`` reads what it can: a whole number, or an expression of whole numbers with
``+``, ``-``, ``*`` and parentheses, evaluated by a walk of Python's ``ast`` that knows those
operations and nothing else (never ``eval``), within limits of length, nesting and size, so
that no text can make it slow. Anything else is no score, with a code saying why.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

# Far above any board game's score, far below what a database integer holds.
MAX_SCORE = 10**12
MAX_TEXT = 200  # characters of a score's text
MAX_NESTING = 10  # parentheses inside parentheses
MAX_NUMBERS = 50  # numbers in one expression
_MAX_TREE = 120  # nodes deep in the parsed expression (unary signs count)

SCORE_NOT_INTEGER = "score_not_integer"
SCORE_UNREADABLE = "score_unreadable"
SCORE_OUT_OF_RANGE = "score_out_of_range"

_INTEGER = re.compile(r"[+-]?[0-9]+")
_WHOLE_DECIMAL = re.compile(r"([+-]?[0-9]+)\.0*")  # "12.0": a whole number all the same
_DECIMAL = re.compile(r"[0-9][.,][0-9]|[.,][0-9]")
_EXPRESSION = re.compile(r"[0-9+\-*() \t]+")
_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class ParsedScore:
    value: int | None  # None: no score (the text is empty, or ``problem`` says why)
    problem: str | None = None  # score_not_integer, score_unreadable, score_out_of_range


class _Unreadable(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def parse_score(text: str) -> ParsedScore:
    """The score ``text`` says. Empty text is no score and no problem; a decimal is
    ``score_not_integer``; a number or a result past ``MAX_SCORE`` is ``score_out_of_range``;
    anything else not read is ``score_unreadable``. Never raises."""
    text = text.strip()
    if not text:
        return ParsedScore(None)
    if len(text) > MAX_TEXT:
        return ParsedScore(None, SCORE_UNREADABLE)
    whole = _INTEGER.fullmatch(text) or _WHOLE_DECIMAL.fullmatch(text)
    if whole:
        return _bounded(int(whole.group(0) if whole.re is _INTEGER else whole.group(1)))
    if not _EXPRESSION.fullmatch(text):
        return ParsedScore(None, SCORE_NOT_INTEGER if _DECIMAL.search(text) else SCORE_UNREADABLE)
    try:
        return _bounded(_evaluate(text))
    except _Unreadable as refused:
        return ParsedScore(None, refused.code)


def _bounded(value: int) -> ParsedScore:
    if abs(value) > MAX_SCORE:
        return ParsedScore(None, SCORE_OUT_OF_RANGE)
    return ParsedScore(value)


def _evaluate(text: str) -> int:
    depth = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        if depth > MAX_NESTING or depth < 0:
            raise _Unreadable(SCORE_UNREADABLE)
    if len(_NUMBER.findall(text)) > MAX_NUMBERS:
        raise _Unreadable(SCORE_UNREADABLE)
    # Python reads "07" as an error; a person means 7.
    text = _NUMBER.sub(lambda m: str(int(m.group(0))), text)
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise _Unreadable(SCORE_UNREADABLE) from None
    return _value(tree.body, 0)


def _value(node: ast.AST, depth: int) -> int:
    if depth > _MAX_TREE:
        raise _Unreadable(SCORE_UNREADABLE)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        result: int = node.value
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _value(node.operand, depth + 1)
        result = -operand if isinstance(node.op, ast.USub) else operand
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
        left, right = _value(node.left, depth + 1), _value(node.right, depth + 1)
        if isinstance(node.op, ast.Add):
            result = left + right
        elif isinstance(node.op, ast.Sub):
            result = left - right
        else:
            result = left * right
    else:  # ** and anything else Python reads in these characters
        raise _Unreadable(SCORE_UNREADABLE)
    if abs(result) > MAX_SCORE:  # checked at every step: no step grows past the bound
        raise _Unreadable(SCORE_OUT_OF_RANGE)
    return result
