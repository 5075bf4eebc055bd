"""A player's identification (docs/rules.md §3.3): recorded at registration or later by a
supervisor, checked as a whole, refused naming the field and the rule, nothing stored."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import IntegrityError, transaction

from cardroom.errors import Rule, RuleError
from tables.models import IdType, Player
from tables.services import floor
from tests.builders.factories import PlayerFactory

pytestmark = pytest.mark.django_db

# The pinned clock (tests.builders.floor.PINNED) stands at 10:00 Pacific on 2026-11-20.
TODAY = date(2026, 11, 20)
ID = {
    "id_type": IdType.DRIVER_LICENSE,
    "id_number": "D1234567",
    "id_issued_by": "California",
    "date_of_birth": date(1990, 5, 17),
}


def test_a_player_is_registered_with_identification(clock):
    player = floor.create_player(player_number="P-1", name="Maria Garcia", **ID)
    player.refresh_from_db()
    assert (player.id_type, player.id_number, player.id_issued_by, player.date_of_birth) == (
        "driver_license", "D1234567", "California", date(1990, 5, 17),
    )  # fmt: skip
    assert player.id_number_masked == "••••4567"
    assert player.board_name == "Maria G."


def test_identification_is_optional_and_trimmed(clock):
    bare = floor.create_player(player_number="P-1", name="Ada")
    assert (bare.id_type, bare.id_number, bare.id_issued_by, bare.date_of_birth) == (
        "", "", "", None,
    )  # fmt: skip
    trimmed = floor.create_player(
        player_number="P-2", name="Bo", id_type="passport", id_number="  X9 ", id_issued_by=" MX "
    )
    assert (trimmed.id_number, trimmed.id_issued_by) == ("X9", "MX")


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"id_type": "passport"}, "id_number", "an ID type is recorded with its number"),
        ({"id_number": "X123"}, "id_type", "an ID number is recorded with its type"),
        ({"id_type": "passport", "id_number": "   "}, "id_number", None),  # blank is none
        ({"id_issued_by": "CA"}, "id_issued_by", None),
        ({"id_type": "library_card", "id_number": "L-1"}, "id_type", None),
        (
            {"date_of_birth": TODAY + timedelta(days=1)},
            "date_of_birth",
            "2026-11-21 is in the future",
        ),
        (
            {"date_of_birth": date(2005, 11, 21)},
            "date_of_birth",
            "the player was 20 on 2026-11-20, the day registered; the minimum age is 21",
        ),
    ],
)
def test_registration_refused_names_the_field_and_stores_nothing(clock, fields, field, message):
    with pytest.raises(RuleError) as caught:
        floor.create_player(player_number="P-1", name="Cy", **fields)
    assert caught.value.rule is Rule.IDENTIFICATION
    assert caught.value.rule.section == "3.3"
    assert caught.value.field == field
    if message is not None:
        assert caught.value.message == message
    assert not Player.objects.exists()


def test_a_player_21_today_is_registered(clock):
    player = floor.create_player(player_number="P-1", name="Dee", date_of_birth=date(2005, 11, 20))
    assert player.date_of_birth == date(2005, 11, 20)


def test_the_database_refuses_a_type_without_its_number_too():
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(id_type=IdType.PASSPORT, id_number="")
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(id_type="", id_number="X1")


def test_a_supervisor_records_and_corrects_the_identification(clock, supervisor):
    player = floor.create_player(player_number="P-1", name="Eve")
    floor.update_player_identification(player_id=player.pk, by=supervisor, changes=ID)
    player.refresh_from_db()
    assert (player.id_type, player.id_number_masked, player.id_issued_by) == (
        "driver_license", "••••4567", "California",
    )  # fmt: skip
    # Only the fields sent change: a corrected number keeps the type, issuer and birth date.
    floor.update_player_identification(
        player_id=player.pk, by=supervisor, changes={"id_number": "D7654321"}
    )
    player.refresh_from_db()
    assert (player.id_type, player.id_number, player.id_issued_by, player.date_of_birth) == (
        "driver_license", "D7654321", "California", date(1990, 5, 17),
    )  # fmt: skip
    # Cleared together: the type with its number (and the issuer with them).
    floor.update_player_identification(
        player_id=player.pk,
        by=supervisor,
        changes={"id_type": "", "id_number": "", "id_issued_by": ""},
    )
    player.refresh_from_db()
    assert (player.id_type, player.id_number, player.id_issued_by) == ("", "", "")
    assert player.date_of_birth == date(1990, 5, 17)
    # Each correction is kept: what it replaced and what it recorded, by whom.
    changes = list(player.identification_changes.order_by("id"))
    assert [c.changed_by for c in changes] == [supervisor] * 3
    assert (changes[0].old_value["id_number"], changes[0].new_value["id_number"]) == (
        "",
        "D1234567",
    )
    assert (changes[1].old_value["id_number"], changes[1].new_value["id_number"]) == (
        "D1234567",
        "D7654321",
    )
    assert changes[2].new_value == {
        "name": "Eve",
        "player_number": "P-1",
        "id_type": "",
        "id_number": "",
        "id_issued_by": "",
        "date_of_birth": "1990-05-17",
    }


def test_a_correction_is_checked_as_a_whole_and_refused_changes_nothing(clock, supervisor):
    player = floor.create_player(player_number="P-1", name="Fay", **ID)
    with pytest.raises(RuleError) as caught:
        floor.update_player_identification(
            player_id=player.pk, by=supervisor, changes={"id_number": ""}
        )
    assert (caught.value.rule, caught.value.field) == (Rule.IDENTIFICATION, "id_number")
    with pytest.raises(RuleError) as caught:
        floor.update_player_identification(
            player_id=player.pk, by=supervisor, changes={"tppp": "Someone"}
        )
    assert (caught.value.rule, caught.value.field) == (Rule.IDENTIFICATION, "tppp")
    player.refresh_from_db()
    assert (player.name, player.id_number) == ("Fay", "D1234567")
    assert not player.identification_changes.exists()


def test_the_age_of_a_correction_counts_on_the_day_registered(clock, supervisor):
    """Registered two years ago: a date of birth making the player 21 today but 19 then is
    refused."""
    player = PlayerFactory(created_at=clock.now() - timedelta(days=730))
    with pytest.raises(RuleError) as caught:
        floor.update_player_identification(
            player_id=player.pk, by=supervisor, changes={"date_of_birth": date(2005, 11, 1)}
        )
    assert caught.value.field == "date_of_birth"
    assert "the day registered" in caught.value.message
    player.refresh_from_db()
    assert player.date_of_birth is None


def test_no_such_player(supervisor):
    with pytest.raises(Player.DoesNotExist):
        floor.update_player_identification(player_id=987654, by=supervisor, changes=ID)


def test_a_supervisor_corrects_the_name_and_the_number(clock, supervisor):
    player = floor.create_player(player_number="P-1", name="Evee", **ID)
    floor.create_player(player_number="P-2", name="Other")
    for changes, rule, field in (
        ({"name": "  "}, Rule.IDENTIFICATION, "name"),
        ({"player_number": ""}, Rule.PLAYER_NUMBER, "player_number"),
        ({"player_number": "P-2"}, Rule.PLAYER_NUMBER, "player_number"),
    ):
        with pytest.raises(RuleError) as caught:
            floor.update_player_identification(player_id=player.pk, by=supervisor, changes=changes)
        assert (caught.value.rule, caught.value.field) == (rule, field)
    assert not player.identification_changes.exists()
    floor.update_player_identification(
        player_id=player.pk, by=supervisor, changes={"name": "Eve Evans", "player_number": "P-9"}
    )
    player.refresh_from_db()
    assert (player.name, player.player_number, player.id_number) == ("Eve Evans", "P-9", "D1234567")
    (change,) = player.identification_changes.all()
    assert (change.old_value["name"], change.new_value["name"]) == ("Evee", "Eve Evans")
    assert (change.old_value["player_number"], change.new_value["player_number"]) == ("P-1", "P-9")
    # The same values again: nothing to record.
    floor.update_player_identification(
        player_id=player.pk, by=supervisor, changes={"name": "Eve Evans"}
    )
    assert player.identification_changes.count() == 1
