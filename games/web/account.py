"""The reader's language: the switcher on every page (a form, no script needed) and the
user's settings page, where the choice is kept for every device the user signs in on."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.models import UserSettings
from potdevin_site.language import supported


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.META.get("HTTP_REFERER") or fallback
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def _remember(request: HttpRequest, response: HttpResponse, language: str) -> None:
    """The choice as a cookie (read before signing in too) and, for a signed-in user, in
    their settings."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE or 365 * 24 * 3600,
        path=settings.LANGUAGE_COOKIE_PATH,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
    )
    if request.user.is_authenticated:
        UserSettings.objects.update_or_create(user=request.user, defaults={"language": language})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The switcher: ``language`` posted, back to the page it was on. An unknown language
    changes nothing."""
    response = HttpResponseRedirect(_safe_next(request, reverse("web:home")))
    language = supported(request.POST.get("language"))
    if language is not None:
        _remember(request, response, language)
    return response


class SettingsForm(forms.Form):
    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        required=False,
        help_text=gettext_lazy("Empty: the language your browser asks for."),
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["language"].choices = [  # type: ignore[attr-defined]
            ("", _("The browser's language")),
            *settings.LANGUAGES,
        ]


@login_required
def account(request: HttpRequest) -> HttpResponse:
    current = UserSettings.objects.filter(user=request.user).first()
    form = SettingsForm(
        request.POST if request.method == "POST" else None,
        initial={"language": current.language if current else ""},
    )
    if request.method == "POST" and form.is_valid():
        language = form.cleaned_data["language"]
        UserSettings.objects.update_or_create(user=request.user, defaults={"language": language})
        response = HttpResponseRedirect(reverse("web:account"))
        if language:
            _remember(request, response, language)
            translation.activate(language)  # the message below in the language just chosen
        else:
            response.delete_cookie(
                settings.LANGUAGE_COOKIE_NAME, path=settings.LANGUAGE_COOKIE_PATH
            )
        messages.success(request, _("Settings saved."))
        return response
    return render(request, "web/account.html", {"form": form}, status=400 if form.errors else 200)
