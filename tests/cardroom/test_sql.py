"""``cardroom.sql``'s identifiers: a table and its columns named from the models' metadata."""

from __future__ import annotations

import pytest
from django.core.exceptions import FieldDoesNotExist

from cardroom.sql import Alias, literals, table
from tables.models import Round
from wagers.models import AccountKind, Bet, SettlementLine


def test_a_table_is_named_quoted_from_its_model():
    assert table(Bet) == '"wagers_bet"'


def test_an_alias_names_its_table_and_each_column_from_the_models_metadata():
    bet, line = Alias(Bet, "b"), Alias(SettlementLine, "l")
    assert str(bet) == '"wagers_bet" AS "b"'
    assert bet.id == '"b"."id"'
    # A foreign key by its name or its attname: its column either way.
    assert bet.account == bet.account_id == '"b"."account_id"'
    # A column that is an SQL keyword is quoted as every other.
    assert line.order == '"l"."order"'


def test_an_alias_refuses_a_field_its_model_lacks():
    with pytest.raises(FieldDoesNotExist):
        Alias(Round, "r").status  # noqa: B018
    with pytest.raises(AttributeError):
        Alias(Round, "r")._hidden  # noqa: B018


def test_literals_are_an_enums_values_quoted():
    assert literals([AccountKind.DROP, "o'k"]) == "'drop', 'o''k'"
