"""A TPPP's registration renewed or corrected by a supervisor (docs/rules.md §8.7): the
business's name, the badge number and the expiry, checked as a whole, refused naming the
field and the rule with nothing changed, and every change kept with what it replaced."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.db import IntegrityError, connection, transaction

from cardroom.errors import Rule, RuleError
from tables.models import (
    TPPP_REGISTRATION_FIELDS,
    Player,
    TPPPRegistration,
    TPPPRegistrationChange,
)
from tables.services import floor
from tests.builders.factories import PlayerFactory
from tests.builders.floor import any_day_contract, bring_chips, give_button, open_floor, start_round

pytestmark = pytest.mark.django_db

# The pinned clock (tests.builders.floor.PINNED) stands at 10:00 Pacific on 2026-11-20.
TODAY = date(2026, 11, 20)
RECORDS = "a TPPP's registration records"
REGISTERED = {
    "business_name": "Quade Proposition Services",
    "badge_number": "B-5150",
    "badge_expires_on": date(2026, 12, 31),
}


@pytest.fixture
def tppp(clock) -> Player:
    return floor.create_player(player_number="TP-1", name="Quinn Quade", tppp=dict(REGISTERED))


def recorded(player: Player) -> dict:
    registration = TPPPRegistration.objects.get(player=player)
    return {name: getattr(registration, name) for name in TPPP_REGISTRATION_FIELDS}


@pytest.mark.parametrize(
    ("changes", "after"),
    [
        ({"badge_expires_on": date(2027, 12, 31)}, {"badge_expires_on": "2027-12-31"}),
        ({"badge_number": "  B-7007 "}, {"badge_number": "B-7007"}),
        ({"business_name": "Quade Banking LLC"}, {"business_name": "Quade Banking LLC"}),
    ],
    ids=["renewed", "badge-number", "business"],
)
def test_each_field_is_changed_and_the_change_kept(tppp, supervisor, clock, changes, after):
    registration = floor.update_tppp_registration(player_id=tppp.pk, by=supervisor, changes=changes)
    old = {**REGISTERED, "badge_expires_on": "2026-12-31"}
    assert {k: str(v) for k, v in recorded(tppp).items()} == {**old, **after}
    assert registration.pk == tppp.tppp.pk
    (change,) = TPPPRegistrationChange.objects.all()
    assert (change.registration_id, change.changed_by, change.changed_at) == (
        registration.pk, supervisor, clock.now(),
    )  # fmt: skip
    assert change.old_value == old
    assert change.new_value == {**old, **after}
    (difference,) = change.differences()
    assert difference[1:] == (old[next(iter(after))], next(iter(after.values())))


def test_every_change_is_kept_in_order(tppp, supervisor, clock):
    floor.update_tppp_registration(
        player_id=tppp.pk, by=supervisor, changes={"badge_expires_on": date(2027, 12, 31)}
    )
    clock.advance(minutes=5)
    floor.update_tppp_registration(
        player_id=tppp.pk,
        by=supervisor,
        changes={"business_name": "Quade Banking LLC", "badge_number": "B-7007"},
    )
    first, second = TPPPRegistrationChange.objects.order_by("id")
    assert (first.old_value["badge_expires_on"], first.new_value["badge_expires_on"]) == (
        "2026-12-31",
        "2027-12-31",
    )
    # The second change starts from what the first recorded.
    assert second.old_value == first.new_value
    assert second.new_value == {
        "business_name": "Quade Banking LLC",
        "badge_number": "B-7007",
        "badge_expires_on": "2027-12-31",
    }
    assert [what for what, _, _ in second.differences()] == ["business", "badge number"]
    assert second.changed_at - first.changed_at == timedelta(minutes=5)
    # The same values again: nothing to record.
    floor.update_tppp_registration(
        player_id=tppp.pk, by=supervisor, changes={"badge_number": " B-7007 "}
    )
    assert TPPPRegistrationChange.objects.count() == 2


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"business_name": "  "}, "business_name", f"{RECORDS} the business's name"),
        ({"badge_number": ""}, "badge_number", f"{RECORDS} the badge number"),
        ({"badge_number": None}, "badge_number", None),
        ({"badge_number": "B" * 65}, "badge_number", "at most 64 characters"),
        ({"business_name": "Q" * 201}, "business_name", "at most 200 characters"),
        ({"badge_expires_on": None}, "badge_expires_on", f"{RECORDS} the date the badge expires"),
        ({"badge_expires_on": "2027-12-31"}, "badge_expires_on", None),
        ({"badge_expires_on": datetime(2027, 12, 31, 12, 0)}, "badge_expires_on", None),
        ({"player_number": "TP-9"}, "player_number", "player number is not part of a TPPP's "
         "registration"),
        # Checked as a whole: a good expiry does not carry an emptied badge number.
        ({"badge_expires_on": date(2027, 1, 1), "badge_number": ""}, "badge_number", None),
    ],
)  # fmt: skip
def test_refused_names_the_field_and_the_rule_and_changes_nothing(
    tppp, supervisor, changes, field, message
):
    with pytest.raises(RuleError) as caught:
        floor.update_tppp_registration(player_id=tppp.pk, by=supervisor, changes=changes)
    assert caught.value.rule is Rule.TPPP_REGISTERED
    assert caught.value.rule.section == "8.7"
    assert caught.value.field == field
    if message is not None:
        assert caught.value.message == message
    assert recorded(tppp) == REGISTERED
    assert not TPPPRegistrationChange.objects.exists()


def test_a_patron_has_no_registration_to_change(clock, supervisor):
    patron = PlayerFactory(name="Pat Patron")
    with pytest.raises(RuleError) as caught:
        floor.update_tppp_registration(
            player_id=patron.pk, by=supervisor, changes={"badge_number": "B-1"}
        )
    assert (caught.value.rule, caught.value.field) == (Rule.TPPP_REGISTERED, None)
    assert caught.value.message == (
        "Pat Patron is not a TPPP player: there is no registration to change"
    )
    assert not TPPPRegistration.objects.exists()
    with pytest.raises(Player.DoesNotExist):
        floor.update_tppp_registration(player_id=987654, by=supervisor, changes={})


def test_a_renewed_badge_seats_the_tppp_and_it_banks_again(clock, staff):
    """docs/rules.md §8.7: a TPPP is seated only with a badge valid that day. Renewed, the
    badge counts at once: the TPPP is seated, takes the button and banks."""
    f = open_floor("PP....", staff=staff)
    tppp = floor.create_player(
        player_number="TP-2",
        name="Rae Rowe",
        tppp={**REGISTERED, "badge_expires_on": TODAY - timedelta(days=1)},
    )
    any_day_contract(tppp)  # its contract with the cardroom (§8.7) is not what is tested
    with pytest.raises(RuleError) as caught:
        floor.seat_player(table_id=f.table_id, seat=3, player_id=tppp.pk, by=staff.supervisor)
    assert caught.value.rule is Rule.TPPP_REGISTERED
    assert "badge expired on 2026-11-19" in caught.value.message

    floor.update_tppp_registration(
        player_id=tppp.pk, by=staff.supervisor, changes={"badge_expires_on": TODAY}
    )
    seating = floor.seat_player(table_id=f.table_id, seat=3, player_id=tppp.pk, by=staff.supervisor)
    assert seating.is_tppp is True
    bring_chips(f.table_id, tppp, 500_000, by=staff.dealer)
    give_button(f.table_id, 3, by=staff.dealer)
    round_ = start_round(f.table_id, by=staff.dealer)
    assert (round_.player_dealer_id, round_.player_dealer_is_tppp) == (tppp.pk, True)


def test_an_expiry_corrected_into_the_past_refuses_the_seat(tppp, clock, staff):
    """A correction may record that the badge has expired: the TPPP is then refused a seat."""
    f = open_floor("PP....", staff=staff)
    floor.update_tppp_registration(
        player_id=tppp.pk,
        by=staff.supervisor,
        changes={"badge_expires_on": TODAY - timedelta(days=2)},
    )
    with pytest.raises(RuleError) as caught:
        floor.seat_player(table_id=f.table_id, seat=3, player_id=tppp.pk, by=staff.supervisor)
    assert caught.value.rule is Rule.TPPP_REGISTERED


@pytest.mark.requires_postgres
@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_to_edit_or_delete_a_change(clock, supervisor):
    """History is never edited (docs/rules.md §10.1): PostgreSQL refuses it too."""
    player = floor.create_player(player_number="TP-3", name="Sam Sloane", tppp=dict(REGISTERED))
    floor.update_tppp_registration(
        player_id=player.pk, by=supervisor, changes={"badge_expires_on": date(2027, 6, 30)}
    )
    change = TPPPRegistrationChange.objects.get()
    edits = {
        "update": lambda: TPPPRegistrationChange.objects.filter(pk=change.pk).update(
            new_value={"badge_expires_on": "2099-01-01"}
        ),
        "delete": lambda: _delete(change.pk),
    }
    for what, edit in edits.items():
        with pytest.raises(IntegrityError) as refused, transaction.atomic():
            edit()
        assert "cannot be changed" in str(refused.value), what
    change.refresh_from_db()
    assert change.new_value["badge_expires_on"] == "2027-06-30"


def _delete(pk: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM tables_tpppregistrationchange WHERE id = %s", [pk])
