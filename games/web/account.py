"""The user's own settings: the reader's language (the switcher on every page, a form that
needs no script, and the settings page, where the choice is kept for every device the user
signs in on), the password, and a new club (started whatever clubs one is in)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from games.api.language import supported
from games.records.models import UserSettings
from games.web.clubs import ClubNameForm


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


def _page(
    request: HttpRequest,
    form: SettingsForm | None = None,
    password: PasswordChangeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    current = UserSettings.objects.filter(user=request.user).first()
    form = form or SettingsForm(initial={"language": current.language if current else ""})
    password = password or PasswordChangeForm(request.user)
    context = {"form": form, "password": password, "club_form": ClubNameForm()}
    return render(request, "web/account.html", context, status=status)


@login_required
def account(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request)
    form = SettingsForm(request.POST)
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
    return _page(request, form=form, status=400)


# Password changes per user: enough for a typing mistake or two, not for guessing the current
# password of a session left open.
PASSWORD_RATE = "5/m"


@login_required
@require_POST
@ratelimit(key="user", rate=PASSWORD_RATE, method="POST", block=False)
def password_change(request: HttpRequest) -> HttpResponse:
    """A new password (Django's password validators), given with the current one; the user
    stays signed in on this device."""
    password = PasswordChangeForm(request.user, request.POST)
    if getattr(request, "limited", False):
        password.is_valid()  # bound, so that the error shows
        password.add_error(None, _("Too many password changes; wait a minute."))
        return _page(request, password=password, status=429)
    if not password.is_valid():
        return _page(request, password=password, status=400)
    password.save()
    update_session_auth_hash(request, password.user)
    messages.success(request, _("Password changed."))
    return HttpResponseRedirect(reverse("web:account"))
