"""Reports 2 (table activity and the drop by shift) and 6 (fee schedule filing) over a
small fee day, figures checked by hand.

Gaming day 2026-11-20, shifts day 06:00, swing 14:00, graveyard 22:00 (the default).
"Fee table" (limits 100-10,000 cents): a schedule charged on the Ante only, rate 1 for
100-2,500 (player 50, player-dealer 25 per square), rate 2 for 2,501-10,000 (100 and 50).
- 10:00 (day) round 1: seat 6 banks; S1 antes 1,000 (rate 1: 50 + 25), S2 antes 3,000
  (rate 2: 100 + 50); S1's fee of 50 waived before the deal. Assessed 225, waived 50.
- 15:00 (swing) round 2: seat 1 banks; S2 antes 500 (rate 1: 50 + 25). Assessed 75.
- 16:00 (swing) round 3: seat 2 banks; S1 antes 2,500 (rate 1: 50 + 25); voided after the
  deal: its 75 returned.
- Boxes DAY-1 (counted 175 at 14:30: no difference) and SWING-1 (counted 100 at 22:30:
  recorded 75, an overage of 25).
"""

from __future__ import annotations

import random

import pytest

from cardroom.errors import State
from fees.models import FeeLine
from fees.services import drop, schedules, waivers
from rounds import services as rounds
from tests.builders.floor import (
    FOLD,
    Cards,
    advance,
    give_button,
    make_staff,
    open_floor,
    start_round,
)
from tests.builders.money import Wager, money_table, play_round
from tests.builders.reports import BOARD, DAY, at
from tests.reports.helpers import generate_bytes, read_csv
from wagers.services import wagering

pytestmark = pytest.mark.django_db

RATES = [
    {"wager_from_cents": 100, "wager_to_cents": 2_500, "player_fee_cents": 50,
     "player_dealer_fee_cents": 25},
    {"wager_from_cents": 2_501, "wager_to_cents": 10_000, "player_fee_cents": 100,
     "player_dealer_fee_cents": 50},
]  # fmt: skip
CARDS = Cards(["Kc", "Kd"], {1: ["4s", "5d"], 2: ["2c", "3d"]}, BOARD)


@pytest.fixture
def fee_day(db, clock):
    clock.set(at("2026-11-20T09:00:00"))
    staff = make_staff()
    mt = money_table(
        staff, {1: 20_000, 2: 20_000, 6: 30_000}, first_offer_seat=6, name="Fee table",
        chip_unit_cents=1, minimum_cents=100, maximum_cents=10_000,
        rotation_window_minutes=None,  # hours apart: the 40-minute rule is not the subject
    )  # fmt: skip
    schedule = schedules.create_schedule(
        name="Fee table fees", table_id=mt.table.pk, by=staff.supervisor
    )
    schedules.create_version(
        schedule_id=schedule.pk, rates=RATES, player_dealer_basis="per_betting_square",
        charged_squares=["ante"], by=staff.supervisor,
    )  # fmt: skip
    boxes = {
        shift: drop.register_box(
            box_number=f"{shift.upper()}-1", table_id=mt.table.pk,
            gaming_day=at(f"{DAY}T12:00:00").date(), shift=shift, by=staff.supervisor,
        )
        for shift in ("day", "swing")
    }  # fmt: skip
    clock.set(at("2026-11-20T10:00:00"))
    round1 = play_round(
        mt, pd_seat=6, bank=10_000, wagers=[Wager(1, 1_000), Wager(2, 3_000)],
        until=State.NO_MORE_BETS,
    )  # fmt: skip
    s1_fee = FeeLine.objects.get(round=round1, payer_kind="player", seat=1)
    waivers.waive_fee(fee_line_id=s1_fee.pk, reason="regular's birthday", by=staff.supervisor)
    advance(round1, State.SETTLED, by=mt.staff.dealer, plans={1: FOLD, 2: FOLD}, cards=CARDS)
    clock.set(at("2026-11-20T14:30:00"))
    drop.enter_count(box_id=boxes["day"].pk, amount_cents=175, counters=["Ann", "Bo"],
                     counted_at=at("2026-11-20T14:30:00"), by=staff.supervisor)  # fmt: skip
    clock.set(at("2026-11-20T15:00:00"))
    play_round(mt, pd_seat=1, bank=5_000, wagers=[Wager(2, 500)], decisions={2: FOLD}, cards=CARDS)
    clock.set(at("2026-11-20T16:00:00"))
    round3 = play_round(
        mt, pd_seat=2, bank=5_000, wagers=[Wager(1, 2_500)], cards=CARDS, until=State.PREFLOP
    )
    rounds.void_round(round_id=round3.pk, by=staff.dealer, reason="misdeal: a card was exposed")
    clock.set(at("2026-11-20T22:30:00"))
    drop.enter_count(box_id=boxes["swing"].pk, amount_cents=100, counters=["Ann", "Bo"],
                     counted_at=at("2026-11-20T22:30:00"), by=staff.supervisor)  # fmt: skip
    clock.set(at("2026-11-21T07:00:00"))
    return mt


def ints(row, *names):
    return [int(row[name]) for name in names]


def test_activity_and_drop_by_shift(fee_day):
    header, sections = read_csv(generate_bytes("table_activity", gaming_day=DAY)[0])
    assert header["shifts"] == "day from 06:00, swing from 14:00, graveyard from 22:00"
    rows = sections["Activity and drop by shift"]
    assert [(r["shift"], r["table"], r["game"], r["drop_box"]) for r in rows] == [
        ("day", "Fee table", "Ultimate Texas Hold'em", "DAY-1"),
        ("swing", "Fee table", "Ultimate Texas Hold'em", "SWING-1"),
    ]
    figures = (
        "hands_dealt", "hands_voided", "fees_assessed_cents", "waivers", "fees_waived_cents",
        "fees_returned_cents", "fees_collected_cents", "player_fees_cents",
        "backline_fees_cents", "player_dealer_fees_cents", "recorded_drop_cents",
        "counted_cents", "counts", "difference_cents",
    )  # fmt: skip
    day, swing = rows
    # Day: 50 + 25 + 100 + 50 assessed, S1's 50 waived: players 100, player-dealer 75.
    assert ints(day, *figures) == [1, 0, 225, 1, 50, 0, 175, 100, 0, 75, 175, 175, 1, 0]
    # Swing: round 2's 50 + 25 stay; round 3's 50 + 25 returned with the void.
    assert ints(swing, *figures) == [1, 1, 150, 0, 0, 75, 75, 50, 0, 25, 75, 100, 1, 25]


@pytest.fixture
def baccarat_beside(fee_day, clock):
    """The fee day with a baccarat table beside the fee table: one coup at 11:00 (day)."""
    clock.set(at("2026-11-20T11:00:00"))
    staff = fee_day.staff
    table = open_floor("PP....", staff=staff, game="ez_baccarat", name="Baccarat table").table
    give_button(table.pk, 1, by=staff.supervisor)
    round_ = start_round(table.pk, by=staff.dealer, bank=10_000)
    wagering.place_bet(round_id=round_.pk, seat=2, banker=1_000, by=staff.dealer)
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    rounds.showdown(round_id=round_.pk, by=staff.dealer, rng=random.Random(5))
    rounds.settle(round_id=round_.pk, by=staff.dealer)
    clock.set(at("2026-11-21T07:00:00"))
    return table


def test_each_tables_row_names_its_game(baccarat_beside):
    """Each row says which game its table plays, as the floor map and the board do (the PDF:
    tests/reports/services/test_pdf_layout.py)."""
    _, sections = read_csv(generate_bytes("table_activity", gaming_day=DAY)[0])
    rows = sections["Activity and drop by shift"]
    assert [(r["shift"], r["table"], r["game"], r["hands_dealt"]) for r in rows] == [
        ("day", "Baccarat table", "EZ Baccarat", "1"),
        ("day", "Fee table", "Ultimate Texas Hold'em", "1"),
        ("swing", "Fee table", "Ultimate Texas Hold'em", "1"),  # and one voided
    ]


def test_fees_by_rate_and_waivers(fee_day):
    _, sections = read_csv(generate_bytes("table_activity", gaming_day=DAY)[0])
    rates = [
        (r["shift"], r["rate"], r["payer"], *ints(r, "fee_lines", "assessed_cents",
         "waived_cents", "returned_cents", "collected_cents"))
        for r in sections["Fees by collection rate"]
    ]  # fmt: skip
    assert rates == [
        ("day", "1", "player", 1, 50, 50, 0, 0),
        ("day", "1", "player_dealer", 1, 25, 0, 0, 25),
        ("day", "2", "player", 1, 100, 0, 0, 100),
        ("day", "2", "player_dealer", 1, 50, 0, 0, 50),
        ("swing", "1", "player", 2, 100, 0, 50, 50),
        ("swing", "1", "player_dealer", 2, 50, 0, 25, 25),
    ]
    assert {(r["schedule"], r["version"]) for r in sections["Fees by collection rate"]} == {
        ("Fee table fees", "1")
    }
    (waiver,) = sections["Fee waivers"]
    assert (waiver["shift"], waiver["round"], waiver["seat"], waiver["payer"], waiver["square"],
            waiver["amount_cents"], waiver["reason"]) == (
        "day", "1", "1", "player", "ante", "50", "regular's birthday"
    )  # fmt: skip
    assert waiver["player"] == fee_day.seated[1].player_number


def test_table_activity_is_deterministic_and_kept_seven_years(fee_day):
    from reports.registry import REGISTRY

    first = generate_bytes("table_activity", gaming_day=DAY, format="pdf")[0]
    assert generate_bytes("table_activity", gaming_day=DAY, format="pdf")[0] == first
    assert REGISTRY["table_activity"].accounting is True


def test_fee_filing_is_the_fees_apps_filing(fee_day):
    """The fees app's filing; the PDF adds each table's math sheet (reports/math_sheet.py)."""
    from fees import filing, selectors
    from reports import math_sheet

    for output in ("csv", "pdf"):
        data, generated = generate_bytes("fee_filing", gaming_day=DAY, format=output)
        moment = at("2026-11-21T05:59:59.999999")
        filed = selectors.filed_in_force(moment, [fee_day.table.pk])
        expected = (
            filing.filing_csv(filed)
            if output == "csv"
            else filing.filing_pdf(filed, appendix=math_sheet.pages([fee_day.table], moment))
        )
        assert data == expected
        assert generated.rows == 2  # two collection rates
    csv_text = generate_bytes("fee_filing", gaming_day=DAY)[0].decode()
    assert "$0.50" in csv_text and "$1.00" in csv_text and "Fee table" in csv_text
