"""Destructive actions ask first, one way for every page: the action's button posts to its own
URL, which answers with a page naming what goes, its "Yes" button (posting the same fields again
with ``confirmed=yes``) and a way back. No script is needed, so it works on any phone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CONFIRMED = "confirmed"
_NOT_SENT_AGAIN = {"csrfmiddlewaretoken", CONFIRMED}


@dataclass(frozen=True)
class Question:
    """What a destructive action asks: ``title`` ("Undo round 2?"), ``goes`` (what is lost, in
    words), ``button`` ("Undo round 2"), ``back`` (the page to return to unchanged)."""

    title: str
    goes: str
    button: str
    back: str


def asks_first(question: Callable[..., Question]) -> Callable[[Any], Any]:
    """Make a POST view ask first: ``question(request, *args, **kwargs)`` (which checks access
    as the view does, so a missing or foreign record is not found alike) says what is asked; the
    view runs only on the answer's "Yes"."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def asking(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST" and request.POST.get(CONFIRMED) != "yes":
                fields = [
                    (name, value)
                    for name, values in request.POST.lists()
                    if name not in _NOT_SENT_AGAIN
                    for value in values
                ]
                context = {"question": question(request, *args, **kwargs), "fields": fields}
                return render(request, "web/confirm.html", context)
            return view(request, *args, **kwargs)

        return asking

    return decorate
