"""Django settings for potdevin, configured only by environment variables.

See README.md for the variables. DEBUG defaults to on for local development.
"""

from __future__ import annotations

import os
from pathlib import Path

from potdevin_site.env import (
    DEFAULT_ALLOWED_HOSTS,
    broker_folders,
    cache_config,
    celery_broker,
    database_config,
    env_bool,
    env_count,
    env_list,
    secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

ENV = os.environ

DEBUG = env_bool(ENV, "DEBUG", default=True)
SECRET_KEY = secret_key(ENV, DEBUG)
ALLOWED_HOSTS = env_list(ENV, "ALLOWED_HOSTS", DEFAULT_ALLOWED_HOSTS)

# Behind HTTPS (POTDEVIN_HTTPS=1): the TLS proxy in front says a request came over HTTPS with
# X-Forwarded-Proto (it must set that header itself, never pass a client's on); plain HTTP is
# redirected, cookies only travel over HTTPS, and browsers are told to stay on HTTPS (HSTS).
# The health checks answer over plain HTTP too, for probes that do not go through the proxy.
if env_bool(ENV, "POTDEVIN_HTTPS", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^api/health/$", r"^api/ready/$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(ENV.get("POTDEVIN_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool(ENV, "POTDEVIN_HSTS_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool(ENV, "POTDEVIN_HSTS_PRELOAD", default=True)

# How many proxies of the deployment's own stand in front of the server (a TLS proxy: 1). Rate
# limits per address count a request under the address the outermost of them saw; with none
# (the default), under the connection's own, and X-Forwarded-For is never believed
# (potdevin_site.client). The API's throttles read it as NUM_PROXIES.
POTDEVIN_TRUSTED_PROXIES = env_count(ENV, "POTDEVIN_TRUSTED_PROXIES", default=0)
RATELIMIT_IP_META_KEY = "potdevin_site.client.client_address"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_results",
    "games.apps.GamesConfig",
    "scoring.apps.ScoringConfig",
]

# The games the records serve: one record-side plugin package each (games/plugins/), whose
# engine is in the registry (scoring/engine/). The first is the default game.
GAME_PLUGINS = [
    "games.plugins.potdevin",
    "games.plugins.complots",
    "games.plugins.bruges",
    "games.plugins.other",  # every game without an engine here, by its final scores
]

SESSION_ENGINE = "potdevin_site.sessions"

MIDDLEWARE = [
    # Outermost: sees every answer under /api/, so that each is JSON with a code.
    "games.api.middleware.ApiJsonErrorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Serves the collected static files when DEBUG is off (runserver serves them with DEBUG on).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the user is known: a signed-in user's language setting comes first.
    "games.api.language.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Inside the user and the notices: a write sent again with its key is answered once.
    "games.api.idempotency.IdempotencyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "potdevin_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "games.web.context.game_menu",
                "games.web.clubs.club_menu",
            ],
        },
    },
]

WSGI_APPLICATION = "potdevin_site.wsgi.application"
ASGI_APPLICATION = "potdevin_site.asgi.application"

DATABASES = {"default": database_config(ENV, VAR_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Pages and the API's messages in the reader's language (potdevin_site/language.py says how it
# is chosen); English is the source. Adding a language: README, "Translations".
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("it", "Italiano"),
    ("pt-br", "Português (Brasil)"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = "potdevin_site.formats"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Throttles and sign-in limits count in the cache: set CACHE_URL (redis://...) so that every
# process of a deployment shares the counts; the default is per process.
CACHES = {"default": cache_config(ENV)}

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"  # collectstatic fills it; WhiteNoise serves it
STATIC_ROOT.mkdir(exist_ok=True)
# The web scorepad's own CSS and scripts: served by the project, never from a CDN.
STATICFILES_DIRS = [BASE_DIR / "static"]

# The web scorepad (games/web): every page needs a signed-in user.
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:login"

# Largest JSON body accepted (an import of many logs is the largest honest request).
POTDEVIN_MAX_BODY_BYTES = int(ENV.get("POTDEVIN_MAX_BODY_BYTES", 8 * 1024 * 1024))
DATA_UPLOAD_MAX_MEMORY_SIZE = POTDEVIN_MAX_BODY_BYTES
# Ratings are recomputed after a game's result changes: in a Celery task (the default), or in
# the process that made the change, once it commits, when this is on (no worker needed).
POTDEVIN_RATINGS_SYNC = env_bool(ENV, "POTDEVIN_RATINGS_SYNC", default=False)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Token first, so an anonymous request gets 401 with a WWW-Authenticate header.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "potdevin_site.authentication.StrictTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["games.api.permissions.SignedInOrPublicReads"],
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.LimitedJSONParser"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "potdevin_site.pagination.CappedPagination",
    "DEFAULT_THROTTLE_CLASSES": ["games.api.permissions.WriteRateThrottle"],
    "NUM_PROXIES": POTDEVIN_TRUSTED_PROXIES,
    "DEFAULT_THROTTLE_RATES": {
        "writes": ENV.get("POTDEVIN_THROTTLE_WRITES", "600/min"),
        "signin": ENV.get("POTDEVIN_THROTTLE_SIGNIN", "20/min"),
        "invitations": ENV.get("POTDEVIN_THROTTLE_INVITATIONS", "20/min"),
    },
    "EXCEPTION_HANDLER": "games.api.exceptions.api_exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "potdevin API",
    "DESCRIPTION": (
        "Game records and scoring for tabletop card games. Error messages follow the "
        "request's Accept-Language (English, Italian, Brazilian Portuguese); codes never change."
    ),
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.language.document_accept_language",
        "games.api.idempotency.document_idempotency_key",
    ],
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from the sidecar package's static files: no external CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.records.models.Game.Status",
        "JobStatusEnum": "scoring.models.jobs.Job.Status",
        "GameEventActionEnum": "games.records.models.GameEvent.Action",
        "ClubRoleEnum": "games.records.models.Membership.Role",
        "InvitedRoleEnum": "games.records.clubs.INVITABLE_CHOICES",
        # Complots' actions keep the name they had before the history's `action` came.
        "ActionEnum": "scoring.engine.complots.rules.ACTION_NAMES",
    },
}

# Celery: read by potdevin_site/celery.py through the CELERY_ namespace.
CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT_OPTIONS = celery_broker(ENV, VAR_DIR)
for _folder in broker_folders(CELERY_BROKER_TRANSPORT_OPTIONS):
    _folder.mkdir(parents=True, exist_ok=True)
CELERY_RESULT_BACKEND = ENV.get("CELERY_RESULT_BACKEND", "").strip() or "django-db"
CELERY_RESULT_EXTENDED = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task whose worker dies is redelivered rather than lost; tasks must be idempotent.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_TIME_LIMIT = 300
CELERY_TIMEZONE = TIME_ZONE
# A running job with no batch finished for this long lost one to its broker (the folder queue
# drops a message whose worker dies; Redis can, in one instant): the workers' beat resumes it.
# Above the longest batch (CELERY_TASK_TIME_LIMIT), or a slow batch is sent twice (harmless).
POTDEVIN_JOB_STALL_SECONDS = int(ENV.get("POTDEVIN_JOB_STALL_SECONDS", "600"))
CELERY_BEAT_SCHEDULE = {
    "resume-stalled-jobs": {
        "task": "scoring.resume_stalled_jobs",
        "schedule": max(1.0, POTDEVIN_JOB_STALL_SECONDS / 4),
    },
    "forget-expired-idempotency-keys": {
        "task": "scoring.forget_expired_idempotency_keys",
        "schedule": 6 * 3600.0,
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Games (re-score) or documents (import) per batch task; at least 100.
# Days an idempotency key is kept (30 at least: an offline phone may send days later).
POTDEVIN_IDEMPOTENCY_DAYS = env_count(ENV, "POTDEVIN_IDEMPOTENCY_DAYS", 30)
POTDEVIN_JOB_BATCH_SIZE = int(ENV.get("POTDEVIN_JOB_BATCH_SIZE", "200"))
