"""The table lock (tables.services.locks; its statements tables.sql.lock_table and
tables.sql.lock_table_of_round) is a plain-SQL hot-path writer: it answers exactly the row
the ORM reads, with the version one higher, and a missing row as the ORM would."""

from __future__ import annotations

import random

import pytest
from django.db import transaction
from django.forms.models import model_to_dict

from cardroom.errors import State
from tables.models import Round, Table
from tables.services.locks import lock_round, lock_table
from tests.builders.floor import give_button, open_floor, play_round

pytestmark = pytest.mark.django_db


def _row(table: Table) -> dict:
    return {
        **model_to_dict(table),
        "id": table.pk,
        "version": table.version,
        "created_at": table.created_at,
        "closed_at": table.closed_at,
    }


def test_lock_table_answers_the_orms_row_with_the_version_bumped(staff):
    table = open_floor(staff=staff, preflop_multiples=[3], bad_beat_paytable=None).table
    before = Table.objects.get(pk=table.pk)
    with transaction.atomic():
        locked = lock_table(table.pk)
    after = Table.objects.get(pk=table.pk)
    assert _row(locked) == _row(after) == {**_row(before), "version": before.version + 1}
    assert locked.preflop_multiples == [3] and locked.bad_beat_paytable is None
    assert locked._state.adding is False and locked._state.db == "default"


def test_lock_round_answers_the_table_and_the_round_as_they_are_now(staff, clock):
    open_ = open_floor(staff=staff)
    give_button(open_.table_id, 1, by=staff.supervisor)
    round_ = play_round(open_.table_id, by=staff.dealer, until=State.FLOP, rng=random.Random(2))
    version = Table.objects.get(pk=open_.table_id).version
    with transaction.atomic():
        table, locked = lock_round(round_.pk)
    assert _row(table) == _row(Table.objects.get(pk=open_.table_id))
    assert table.version == version + 1
    stored = Round.objects.get(pk=round_.pk)
    assert model_to_dict(locked) == model_to_dict(stored) and locked.table is table


def test_missing_rows_are_the_orms_does_not_exist(db):
    with pytest.raises(Table.DoesNotExist) as orm, transaction.atomic():
        Table.objects.select_for_update().get(pk=987_654)
    with pytest.raises(Table.DoesNotExist) as locked, transaction.atomic():
        lock_table(987_654)
    assert str(locked.value) == str(orm.value)
    with pytest.raises(Round.DoesNotExist), transaction.atomic():
        lock_round(987_654)
