"""Django settings for the cardroom project.

Every deploy-specific value comes from the environment (via django-environ) so that the same
code runs on a laptop, in CI and in production. Defaults are chosen so ``make run`` works
with no configuration at all; production must override SECRET_KEY and DEBUG.
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from cardroom.bounds import ID_MAX
from cardroom.gaming_day import parse_gaming_day_start
from cardroom.shifts import parse_shifts

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

# --- Core -------------------------------------------------------------------------------

# Named loudly so nobody mistakes it for a real secret; refused below outside DEBUG.
DEVELOPMENT_SECRET_KEY = "django-insecure-cardroom-development-key-never-use-in-production"

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured("refusing to start with the development SECRET_KEY")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])

INSTALLED_APPS = [
    # Django's admin on this project's site: no lookup, search or sort by a secret column.
    "cardroom.apps.CardroomAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    # API tokens that expire (docs/api.md); DRF's own never-expiring tokens are gone.
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    # The project's apps, lowest layer first (docs/architecture.md): the kernel, the floor,
    # money, fees, the round lifecycle, then compliance reports and the console.
    "cardroom",
    "tables",
    "wagers",
    "fees",
    "rounds",
    "reports",
    "console",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Serves the vendored static files (htmx, uPlot, the console's CSS) in every deployment.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The Content-Security-Policy header (django-csp; the policy is set below).
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A query parameter naming a hole card or the deck is refused under /api/ (docs/api.md).
    "cardroom.api.SecretParametersMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Every write recorded (who, what, when), from the console and the API; sign-in throttling.
    "console.middleware.AuditMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "cardroom.urls"
WSGI_APPLICATION = "cardroom.wsgi.application"
ASGI_APPLICATION = "cardroom.asgi.application"

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
                "console.permissions.context",
            ],
        },
    },
]

# --- Security: HTTPS, cookies, the Content-Security-Policy --------------------------------

# With DEBUG off each protection is on unless its variable turns it off (e.g. behind a proxy
# that terminates TLS and redirects to HTTPS itself); with DEBUG on (development) they are
# off but the Content-Security-Policy, so a page that would break under it breaks early.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
# Only behind a proxy that terminates TLS and sets X-Forwarded-Proto (and strips a client's
# own): Django then takes a request the proxy received over HTTPS as secure.
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https")
    if env.bool("SECURE_PROXY_SSL_HEADER", default=False)
    else None
)
# Scripts, styles, images and forms from this site only: the console's htmx and its own
# script and CSS are served from /static; no inline script, style or event handler anywhere.
# The API's documentation page adds a nonce for its one inline style and data: images
# (cardroom/docs.py). CONTENT_SECURITY_POLICY=false sends no header.
CONTENT_SECURITY_POLICY = (
    {
        "DIRECTIVES": {
            "default-src": [SELF],
            "script-src": [SELF],
            "style-src": [SELF],
            "img-src": [SELF],
            "object-src": [NONE],
            "base-uri": [SELF],
            "form-action": [SELF],
            "frame-ancestors": [NONE],
        }
    }
    if env.bool("CONTENT_SECURITY_POLICY", default=True)
    else None
)

# --- Database ---------------------------------------------------------------------------

# SQLite by default so a fresh checkout runs anywhere; CI and production use PostgreSQL.
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# A connection kept between requests (``?conn_max_age=60`` in DATABASE_URL) is checked before
# a request reuses it: one the server closed meanwhile (PostgreSQL restarted, an idle timeout,
# a failover) is replaced, so the request after it succeeds instead of failing.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("CONN_HEALTH_CHECKS", default=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Time and the gaming day -------------------------------------------------------------

LANGUAGE_CODE = "en-us"
# California cardrooms keep Pacific time; stored datetimes are UTC-aware regardless.
TIME_ZONE = env.str("TIME_ZONE", default="America/Los_Angeles")
USE_I18N = True
USE_TZ = True

# Local time at which one gaming day ends and the next begins.
CARDROOM_GAMING_DAY_START = parse_gaming_day_start(env.str("GAMING_DAY_START", default="06:00"))
# Shifts of the gaming day, for the drop boxes (cardroom/shifts.py); unset: three of 8 hours.
CARDROOM_SHIFTS = parse_shifts(env.str("CARDROOM_SHIFTS", default=""), CARDROOM_GAMING_DAY_START)

# --- Title 31 (docs/rules.md §10.7) ---------------------------------------------------------

# A currency transaction of this many cents or more goes on the Multiple Transaction Log.
CARDROOM_MTL_THRESHOLD_CENTS = env.int("CARDROOM_MTL_THRESHOLD_CENTS", default=300_000)
# The floor is warned ("approaching a CTR") when a patron's cash in or out for the gaming day
# reaches this many cents; the CTR threshold itself ($10,000) is the law's, not a setting.
CARDROOM_CTR_WARNING_CENTS = env.int("CARDROOM_CTR_WARNING_CENTS", default=800_000)
if not 0 < CARDROOM_MTL_THRESHOLD_CENTS <= 300_000:
    raise ImproperlyConfigured("CARDROOM_MTL_THRESHOLD_CENTS must be from 1 to 300000 ($3,000)")
if not 0 < CARDROOM_CTR_WARNING_CENTS <= 1_000_000:
    raise ImproperlyConfigured("CARDROOM_CTR_WARNING_CENTS must be from 1 to 1000000 ($10,000)")

# --- Static files -----------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# htmx and uPlot (the bankroll chart) come from the npm registry at build time (`npm ci`,
# see package.json and the Makefile) and are served by whitenoise from node_modules: never a
# CDN at run time.
STATICFILES_DIRS = [
    ("vendor/htmx", BASE_DIR / "node_modules" / "htmx.org" / "dist"),
    ("vendor/uplot", BASE_DIR / "node_modules" / "uplot" / "dist"),
]
# Without a collectstatic run (development, tests) whitenoise serves from the app and
# vendor folders directly; production runs collectstatic and turns this off.
WHITENOISE_USE_FINDERS = env.bool("WHITENOISE_USE_FINDERS", default=True)

# --- The console: sign-in, throttling, the floor map --------------------------------------

LOGIN_URL = "console:login"
LOGIN_REDIRECT_URL = "console:floor"
LOGOUT_REDIRECT_URL = "console:login"
# Staff sessions end when the browser closes, and at the latest 12 hours after sign-in.
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_AGE = 12 * 60 * 60

AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a locked-out username/IP before any password check.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
# Lock the username from that address: a typo at one terminal does not lock the whole floor.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "console/locked_out.html"
# That page for the console, the API's error body (429 `throttled`) for the token sign-in.
AXES_LOCKOUT_CALLABLE = "cardroom.tokens.lockout_response"
# No start-up banner on stderr (management commands keep a clean stderr); every attempt is
# still stored by axes and on the console's audit trail.
AXES_VERBOSE = False
# The floor map's poll (5 s): each table's part is rendered once per table version and per
# this many seconds, and shared by every viewer (0 renders every part on every request).
CONSOLE_FLOOR_CACHE_SECONDS = env.int("CONSOLE_FLOOR_CACHE_SECONDS", default=5)
# The room's table board (/board/<token>/, a TV: no sign-in) is shown only for this token;
# empty turns the board off (404). With DEBUG on and the variable unset, the demo's
# "demo-board"; in production set a long random value.
CARDROOM_BOARD_TOKEN = env.str("CARDROOM_BOARD_TOKEN", default="demo-board" if DEBUG else "")

# --- API --------------------------------------------------------------------------------

REST_FRAMEWORK = {
    # Tokens (django-rest-knox) for terminals and scripts, the session for the browsable API
    # and signed-in staff. The token comes first: DRF answers a caller with neither 401 with
    # its challenge (WWW-Authenticate: Token), never 403. The token is sent as
    # `Authorization: Token <token>` or `Bearer <token>` (cardroom/authentication.py).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "cardroom.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Closed by default: every endpoint that handles money must opt out explicitly.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # django-filter's, refusing a FilterSet that filters by a secret column (hole cards).
    "DEFAULT_FILTER_BACKENDS": ["cardroom.filtering.FilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Rule errors answer 400 naming the rule and field; state errors 409 naming the state.
    "EXCEPTION_HANDLER": "cardroom.api.exception_handler",
    # JSON with a depth limit and no text PostgreSQL cannot store (cardroom/bounds.py).
    "DEFAULT_PARSER_CLASSES": [
        "cardroom.api.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}

# An API token lasts one shift by default, is never renewed by use, and dies at once when its
# user's password changes (cardroom/tokens.py); POST /api/auth/logout/ ends it sooner.
API_TOKEN_TTL_HOURS = env.int("API_TOKEN_TTL_HOURS", default=10)
if API_TOKEN_TTL_HOURS < 1:
    raise ImproperlyConfigured("API_TOKEN_TTL_HOURS must be at least 1: an API token must expire")
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=API_TOKEN_TTL_HOURS),
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Cardroom management API",
    "DESCRIPTION": "Ultimate Texas Hold'em played the California player-dealer way.",
    "VERSION": "0.1.0",
    # Two lists answer a "kind" of their own: the barred list's and the review queue's.
    "ENUM_NAME_OVERRIDES": {
        "ExclusionKindEnum": "tables.models.ExclusionKind",
        "ReviewKindEnum": "wagers.models.ReviewKind",
    },
    # Self-hosted Swagger/Redoc assets: the cardroom network may not reach any CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # `<id:...>` path parameters (cardroom/converters.py): ids up to the largest 64-bit id.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": ID_MAX}},
}

# --- Celery -----------------------------------------------------------------------------

REDIS_URL = env.str("REDIS_URL", default=None)

CELERY_TIMEZONE = TIME_ZONE
# A task is acknowledged only after it finishes, and re-queued if its worker dies, so a
# crash mid-task cannot silently lose work (tasks must therefore be idempotent).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The queue tasks are sent to and a worker started without -Q consumes.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
# A broker that does not answer costs a caller seconds, not minutes: connecting gives up
# after BROKER_CONNECT_TIMEOUT, a command after BROKER_SOCKET_TIMEOUT (kombu's defaults wait
# forever on a broker that drops packets). Reports add no publish retry on top
# (reports/queue.py): a report that cannot be handed over waits, queued, for the sweeper.
BROKER_CONNECT_TIMEOUT = env.float("BROKER_CONNECT_TIMEOUT", default=2.0)
BROKER_SOCKET_TIMEOUT = env.float("BROKER_SOCKET_TIMEOUT", default=5.0)
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_CONNECT_TIMEOUT

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # No broker configured: run tasks inline so the app still works (and errors surface in
    # the caller). The in-memory broker keeps any stray broker access from dialling AMQP.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

# --- Caches -----------------------------------------------------------------------------

# "floor": the floor map's per-table parts, shared by every server process through Redis when
# it is configured (CACHE_URL, by default REDIS_URL), else kept per process. A cache that does
# not answer costs a poll at most FLOOR_CACHE_TIMEOUT seconds and the page is rendered anyway
# (cardroom/sharedcache.py).
CACHE_URL = env.str("CACHE_URL", default=REDIS_URL)
FLOOR_CACHE_TIMEOUT = env.float("FLOOR_CACHE_TIMEOUT", default=0.5)
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "floor": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "cardroom",
            "OPTIONS": {
                "socket_connect_timeout": FLOOR_CACHE_TIMEOUT,
                "socket_timeout": FLOOR_CACHE_TIMEOUT,
            },
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "floor"}
    ),
}

# --- Logging ----------------------------------------------------------------------------

# A refused request (400 or 403) is one warning line, who, what and where, with no traceback
# (cardroom/logs.py); Django's request and security loggers write to this handler only.
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "filters": {"refusals": {"()": "cardroom.logs.RefusalLines"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["refusals"],
        },
    },
    "loggers": {
        name: {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False}
        for name in ("django.request", "django.security")
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}

# --- Compliance reports: storage, retention, run time ------------------------------------

# Report files go through Django's storage API: the local media folder by default; any
# S3-compatible store by configuration (REPORTS_STORAGE_BACKEND=storages.backends.s3.S3Storage
# plus the AWS_* variables django-storages reads, and boto3 installed).
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "media")
MEDIA_URL = "media/"
_reports_storage_options = {}
if env.str("REPORTS_STORAGE_BUCKET", default=""):
    _reports_storage_options = {
        "bucket_name": env.str("REPORTS_STORAGE_BUCKET"),
        "endpoint_url": env.str("REPORTS_STORAGE_ENDPOINT_URL", default=None),
        "location": env.str("REPORTS_STORAGE_LOCATION", default="reports"),
        "file_overwrite": False,
        "default_acl": None,
    }
STORAGES = {
    "default": {
        "BACKEND": env.str(
            "REPORTS_STORAGE_BACKEND", default="django.core.files.storage.FileSystemStorage"
        ),
        "OPTIONS": _reports_storage_options,
    },
    # Static files through whitenoise: compressed copies made by collectstatic; no manifest,
    # so tests and `runserver` need no collectstatic step (whitenoise serves from the finders).
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Years a stored report is kept (docs/rules.md §10.6): accounting records longer.
# These are statutory floors: a configuration may lengthen them, never shorten them.
MINIMUM_RETENTION_YEARS, MINIMUM_ACCOUNTING_RETENTION_YEARS = 5, 7
REPORTS_RETENTION_YEARS = env.int("REPORTS_RETENTION_YEARS", default=MINIMUM_RETENTION_YEARS)
REPORTS_ACCOUNTING_RETENTION_YEARS = env.int(
    "REPORTS_ACCOUNTING_RETENTION_YEARS", default=MINIMUM_ACCOUNTING_RETENTION_YEARS
)
if REPORTS_RETENTION_YEARS < MINIMUM_RETENTION_YEARS:
    raise ImproperlyConfigured(
        f"REPORTS_RETENTION_YEARS={REPORTS_RETENTION_YEARS}: records are kept at least "
        f"{MINIMUM_RETENTION_YEARS} years (docs/rules.md §10.6)"
    )
if REPORTS_ACCOUNTING_RETENTION_YEARS < MINIMUM_ACCOUNTING_RETENTION_YEARS:
    raise ImproperlyConfigured(
        f"REPORTS_ACCOUNTING_RETENTION_YEARS={REPORTS_ACCOUNTING_RETENTION_YEARS}: accounting "
        f"records are kept at least {MINIMUM_ACCOUNTING_RETENTION_YEARS} years "
        "(docs/rules.md §10.6)"
    )
# Task time limits (seconds). The lease of a running report is the hard limit plus a grace:
# a run cannot outlive its hard limit, so a running row past its lease is a dead run.
REPORTS_SOFT_TIME_LIMIT = env.int("REPORTS_SOFT_TIME_LIMIT", default=25 * 60)
REPORTS_HARD_TIME_LIMIT = env.int("REPORTS_HARD_TIME_LIMIT", default=30 * 60)
REPORTS_LEASE_GRACE = env.int("REPORTS_LEASE_GRACE", default=60)
# Minutes after the gaming day closes at which the daily reports are requested.
REPORTS_DAILY_DELAY_MINUTES = env.int("REPORTS_DAILY_DELAY_MINUTES", default=15)
# The anomaly report (docs/reports.md, docs/rules.md §13.6) looks only at player-dealers with
# at least this many settled hands banked in a window: fewer say too little about anyone.
REPORTS_ANOMALY_MIN_HANDS = env.int("REPORTS_ANOMALY_MIN_HANDS", default=30)
if REPORTS_ANOMALY_MIN_HANDS < 1:
    raise ImproperlyConfigured("REPORTS_ANOMALY_MIN_HANDS must be at least 1")
# Redis redelivers an unacknowledged task after this many seconds; kept above the hard
# limit so a task still running is never handed to a second worker.
REPORTS_BROKER_VISIBILITY_TIMEOUT = 2 * 60 * 60
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": REPORTS_BROKER_VISIBILITY_TIMEOUT,
    "socket_connect_timeout": BROKER_CONNECT_TIMEOUT,
    "socket_timeout": BROKER_SOCKET_TIMEOUT,
}
# A running report's worker writes a heartbeat on its row every REPORTS_HEARTBEAT_INTERVAL
# seconds; a running row whose heartbeat is older than REPORTS_HEARTBEAT_TIMEOUT (or whose
# process is gone from this host) is a dead run. The sweeper (every REPORTS_SWEEP_INTERVAL
# seconds on the beat schedule, and once when a worker starts) queues dead runs again and
# hands over queued rows the broker never took, or lost (a task it no longer holds, found
# missing at two sweeps; when the broker cannot be asked, one it took REPORTS_RESEND_AFTER
# seconds ago). A report is run at most REPORTS_MAX_ATTEMPTS times (docs/reports.md).
REPORTS_HEARTBEAT_INTERVAL = env.int("REPORTS_HEARTBEAT_INTERVAL", default=30)
REPORTS_HEARTBEAT_TIMEOUT = env.int("REPORTS_HEARTBEAT_TIMEOUT", default=150)
REPORTS_SWEEP_INTERVAL = env.int("REPORTS_SWEEP_INTERVAL", default=60)
# How often the clock's waitlist work runs (seconds): a missed call is passed over and the
# next player called at most this long after the response time runs out.
WAITLIST_SWEEP_INTERVAL = env.int("WAITLIST_SWEEP_INTERVAL", default=10)
REPORTS_RESEND_AFTER = env.int("REPORTS_RESEND_AFTER", default=60 * 60)
REPORTS_MAX_ATTEMPTS = env.int("REPORTS_MAX_ATTEMPTS", default=5)
if not 0 < 2 * REPORTS_HEARTBEAT_INTERVAL <= REPORTS_HEARTBEAT_TIMEOUT:
    raise ImproperlyConfigured(
        "REPORTS_HEARTBEAT_TIMEOUT must be at least twice REPORTS_HEARTBEAT_INTERVAL (above 0), "
        "or one late heartbeat makes a live report look dead"
    )
if REPORTS_SWEEP_INTERVAL <= 0 or REPORTS_RESEND_AFTER <= 0 or REPORTS_MAX_ATTEMPTS < 1:
    raise ImproperlyConfigured(
        "REPORTS_SWEEP_INTERVAL and REPORTS_RESEND_AFTER must be above 0 and "
        "REPORTS_MAX_ATTEMPTS at least 1"
    )
if not 0 < REPORTS_SOFT_TIME_LIMIT < REPORTS_HARD_TIME_LIMIT:
    raise ImproperlyConfigured(
        "REPORTS_SOFT_TIME_LIMIT must be above 0 and below REPORTS_HARD_TIME_LIMIT, so a run "
        "that overruns can record its failure before it is killed"
    )
if REPORTS_HARD_TIME_LIMIT + REPORTS_LEASE_GRACE >= REPORTS_BROKER_VISIBILITY_TIMEOUT:
    raise ImproperlyConfigured(
        "REPORTS_HARD_TIME_LIMIT + REPORTS_LEASE_GRACE must stay below the broker's visibility "
        "timeout (7200 s), or a report still running is handed to a second worker"
    )
CELERY_WORKER_PREFETCH_MULTIPLIER = 1


def _daily_reports_schedule():
    """Every day, REPORTS_DAILY_DELAY_MINUTES after the gaming day closes (local time)."""
    from datetime import datetime, timedelta

    from celery.schedules import crontab

    closes = datetime.combine(datetime(2000, 1, 1), CARDROOM_GAMING_DAY_START)
    at = closes + timedelta(minutes=REPORTS_DAILY_DELAY_MINUTES)
    return crontab(hour=at.hour, minute=at.minute)


CELERY_BEAT_SCHEDULE = {
    "daily-compliance-reports": {
        "task": "reports.request_daily_reports",
        "schedule": _daily_reports_schedule(),
    },
    "report-retention-purge": {
        "task": "reports.purge_expired_reports",
        "schedule": _daily_reports_schedule(),
    },
    # Queued reports the broker never took, and dead runs (docs/reports.md).
    "report-sweeper": {
        "task": "reports.sweep_reports",
        "schedule": timedelta(seconds=REPORTS_SWEEP_INTERVAL),
        "options": {"expires": REPORTS_SWEEP_INTERVAL},
    },
    # Waitlist calls not answered in time, call-ins not checked in (docs/rules.md §3.6).
    "waitlist-sweeper": {
        "task": "tables.sweep_waitlists",
        "schedule": timedelta(seconds=WAITLIST_SWEEP_INTERVAL),
        "options": {"expires": WAITLIST_SWEEP_INTERVAL},
    },
}
