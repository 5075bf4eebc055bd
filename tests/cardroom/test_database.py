"""CI must really run against PostgreSQL (locally this skips; under CI a skip fails)."""

import pytest
from django.db import connection


@pytest.mark.requires_postgres
@pytest.mark.django_db
def test_default_database_is_postgresql():
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")
