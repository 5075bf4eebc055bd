"""Settings read from the environment: secret-key guard, gaming day, database default."""

import datetime

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from hypothesis import given
from hypothesis import strategies as st

from cardroom.gaming_day import parse_gaming_day_start
from tests.helpers import BASE_DIR, read_settings, run_django

REFUSAL = "refusing to start with the development SECRET_KEY"


def test_production_settings_refuse_the_development_secret_key():
    result = read_settings("", env={"DEBUG": "false"}, unset=("SECRET_KEY",))
    assert result.returncode != 0
    assert REFUSAL in result.stderr


def test_production_settings_start_with_a_real_secret_key():
    result = run_django(
        "from django.conf import settings; print(settings.DEBUG)",
        env={"DEBUG": "false", "SECRET_KEY": "a-real-production-secret-0123456789abcdef"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_debug_defaults_to_on_with_the_development_key():
    result = read_settings(
        "from django.conf import settings\n"
        "print(settings.DEBUG, settings.SECRET_KEY == settings.DEVELOPMENT_SECRET_KEY)",
        unset=("DEBUG", "SECRET_KEY"),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True True"


def test_database_url_defaults_to_sqlite_in_the_project():
    result = read_settings(
        "from django.conf import settings\n"
        "db = settings.DATABASES['default']\n"
        "print(db['ENGINE']); print(db['NAME'])",
        unset=("DATABASE_URL",),
    )
    assert result.returncode == 0, result.stderr
    engine, name = result.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert name == str(BASE_DIR / "db.sqlite3")


def test_gaming_day_start_defaults_to_six_am():
    result = read_settings(
        "from django.conf import settings; print(settings.CARDROOM_GAMING_DAY_START)",
        unset=("GAMING_DAY_START",),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "06:00:00"
    assert isinstance(settings.CARDROOM_GAMING_DAY_START, datetime.time)


def test_gaming_day_start_is_read_from_the_environment():
    result = read_settings(
        "from django.conf import settings; print(settings.CARDROOM_GAMING_DAY_START)",
        env={"GAMING_DAY_START": "07:30"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "07:30:00"


def test_malformed_gaming_day_start_stops_startup():
    result = read_settings("", env={"GAMING_DAY_START": "25:00"})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "GAMING_DAY_START" in result.stderr


@given(st.integers(0, 23), st.integers(0, 59))
def test_every_valid_hh_mm_parses(hour, minute):
    assert parse_gaming_day_start(f"{hour:02d}:{minute:02d}") == datetime.time(hour, minute)


@pytest.mark.parametrize(
    "value", ["", "6:00", "06:0", "0600", "24:00", "06:60", "06:00:00", "noon", "-1:00", "06:00pm"]
)
def test_malformed_gaming_day_start_is_refused(value):
    with pytest.raises(ImproperlyConfigured, match="GAMING_DAY_START"):
        parse_gaming_day_start(value)


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("REPORTS_RETENTION_YEARS", "4", "records are kept at least 5 years"),
        ("REPORTS_ACCOUNTING_RETENTION_YEARS", "6", "accounting records are kept at least 7"),
    ],
)
def test_retention_shorter_than_the_statutory_floor_stops_startup(variable, value, message):
    result = read_settings("", env={variable: value})
    assert result.returncode != 0
    assert message in result.stderr


def test_retention_may_be_lengthened():
    result = read_settings(
        "from django.conf import settings\n"
        "print(settings.REPORTS_RETENTION_YEARS, settings.REPORTS_ACCOUNTING_RETENTION_YEARS)",
        env={"REPORTS_RETENTION_YEARS": "6", "REPORTS_ACCOUNTING_RETENTION_YEARS": "10"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "6 10"


@pytest.mark.parametrize(
    ("environment", "message"),
    [
        ({"REPORTS_SOFT_TIME_LIMIT": "1800", "REPORTS_HARD_TIME_LIMIT": "1800"}, "below"),
        ({"REPORTS_SOFT_TIME_LIMIT": "0"}, "above 0"),
        ({"REPORTS_HARD_TIME_LIMIT": "9000"}, "visibility timeout"),
    ],
)
def test_report_time_limits_that_would_double_run_or_never_fail_stop_startup(environment, message):
    result = read_settings("", env=environment)
    assert result.returncode != 0
    assert message in result.stderr
