"""A waiver racing the deal, and two supervisors waiving one fee at once (PostgreSQL locks).

The waiver and the deal both take the table's lock, so one goes first: a waiver that wins
is before the deal and reverses its fee; a waiver that loses is refused with 409 because the
hand is dealt. Either way the deal happens once and the ledger verifies.
"""

from __future__ import annotations

import random
from functools import partial

import pytest

from cardroom.errors import State, StateError
from fees.models import FeeWaiver
from fees.selectors import fee_lines
from fees.services import waivers
from rounds import services as rounds
from tests.builders.fees import assessed_round, differences
from tests.concurrency import one_winner, race
from wagers.models import Account, AccountKind

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]
REPEATS = 6


def test_a_waiver_racing_the_deal(staff, clock):
    outcomes_seen = set()
    for index in range(REPEATS):
        mt, round_ = assessed_round(staff, clock)
        line = fee_lines(round_).first()
        waive = partial(waivers.waive_fee, fee_line_id=line.pk, reason="race", by=staff.supervisor)
        deal = partial(rounds.deal, round_id=round_.pk, by=staff.dealer, rng=random.Random(index))
        waived, dealt = race(waive, deal)
        assert dealt.error is None and dealt.value.state == State.PREFLOP
        drop = Account.objects.get(kind=AccountKind.DROP, table=mt.table).balance_cents
        total = sum(x.amount_cents for x in fee_lines(round_))
        if waived.error is None:
            outcomes_seen.add("waived")
            assert FeeWaiver.objects.filter(fee_line=line).exists()
            assert drop == total - line.amount_cents
        else:
            outcomes_seen.add("refused")
            assert isinstance(waived.error, StateError) and waived.error.state == "preflop"
            assert not FeeWaiver.objects.filter(fee_line=line).exists() and drop == total
        assert list(differences()) == []
    assert outcomes_seen  # which side wins is up to the scheduler; both are consistent


def test_two_supervisors_waive_one_fee_at_once(staff, clock):
    for _ in range(REPEATS):
        _, round_ = assessed_round(staff, clock)
        line = fee_lines(round_).first()
        waive = partial(waivers.waive_fee, fee_line_id=line.pk, reason="twice", by=staff.supervisor)
        waiver, error = one_winner(race(waive, waive), StateError)
        assert error.state == "waived" and waiver.fee_line_id == line.pk
        assert FeeWaiver.objects.filter(fee_line=line).count() == 1
        assert list(differences()) == []
