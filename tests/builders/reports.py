"""A small compliance day, over ``tests.builders.money``, played through the real services on
the frozen clock (the ``clock`` fixture).

Gaming day 2026-11-20 (06:00 to 06:00 Pacific), one card-entry table ("Day table"):
- 19:00 seats: S1 (seat 1, buys in 20,000 currency), S2 (seat 2, 50,000 currency),
  T (seat 5, a TPPP, filled 30,000), PD (seat 6, 30,000 currency); backline patron P3
  stands (no chips yet). The game opens with offers at seat 6.
- 19:10 round 1, docs/rules.md §7.3's worked example: seat 6 banks W = 10,000 and loses it all;
  1,250 + 7,000 unpaid as uncovered.
- 19:20 round 2: seats 1 and 2 decline, the TPPP (seat 5) accepts and banks 5,000; S1
  antes 1,000 and folds: the TPPP collects 2,000.
- P3's currency: 20:00 buy-in 400,000 (currency), 20:30 250,000 (currency), 21:00
  500,000 (a cheque: no currency), 05:50 next morning 400,000 (currency, still gaming day
  11-20: 1,050,000 currency in, a CTR candidate), 05:55 cash-out of all 1,550,000 in
  currency (a CTR candidate by cash out). S2 cashes out 65,000 in currency at 22:00.
- 06:30 on 11-21 (gaming day 11-21): P3 buys in 100,000 in currency.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import connection

from tables.models import Round
from tables.services import floor
from tests.builders.floor import FOLD, PLAY_4X, Cards, FrozenClock, make_staff
from tests.builders.money import MoneyTable, Wager, money_table, play_round
from wagers.services import chips

PACIFIC = ZoneInfo("America/Los_Angeles")
DAY = "2026-11-20"
NEXT_DAY = "2026-11-21"
W = 10_000
BOARD = ["2h", "7h", "9h", "Jd", "3c"]


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=PACIFIC)


@dataclass
class ComplianceDay:
    mt: MoneyTable
    round1: Round
    round2: Round

    @property
    def table(self):
        return self.mt.table

    def player(self, seat: int):
        return self.mt.seated[seat]

    @property
    def p3(self):
        return self.mt.backliners[0]


def compliance_day(clock: FrozenClock) -> ComplianceDay:
    clock.set(at("2026-11-20T19:00:00"))
    staff = make_staff()
    mt = money_table(
        staff,
        {1: 20_000, 2: 50_000, 5: 30_000, 6: 30_000},
        tppp_seats=(5,),
        backliners=(0,),
        first_offer_seat=6,
        name="Day table",
        chip_unit_cents=1,
        minimum_cents=100,
        maximum_cents=10_000,
        trips_paytable="UTH-01",
    )
    clock.set(at("2026-11-20T19:10:00"))
    round1 = play_round(
        mt,
        pd_seat=6,
        bank=W,
        wagers=[Wager(1, 2_500), Wager(2, 2_500, trips=1_000)],
        decisions={1: FOLD, 2: PLAY_4X},
        cards=Cards(["Kc", "Kd"], {1: ["4s", "5d"], 2: ["Ah", "Qh"]}, BOARD),
    )
    clock.set(at("2026-11-20T19:20:00"))
    round2 = play_round(
        mt,
        pd_seat=5,
        bank=5_000,
        wagers=[Wager(1, 1_000)],
        decisions={1: FOLD},
        cards=Cards(["Kc", "Kd"], {1: ["4s", "5d"]}, BOARD),
    )
    p3, table, by = mt.backliners[0], mt.table, staff.dealer
    # P3's cash passes $10,000 in a gaming day: their ID is on record (docs/rules.md §10.7).
    floor.update_player_identification(
        player_id=p3.pk,
        by=staff.supervisor,
        changes={"id_type": "passport", "id_number": "P3000003"},
    )
    for moment, amount, currency in (
        ("2026-11-20T20:00:00", 400_000, True),
        ("2026-11-20T20:30:00", 250_000, True),
        ("2026-11-20T21:00:00", 500_000, False),
    ):
        clock.set(at(moment))
        chips.buy_in(table_id=table.pk, player_id=p3.pk, amount=amount, currency=currency, by=by)
    clock.set(at("2026-11-20T22:00:00"))
    chips.cash_out(table_id=table.pk, player_id=mt.seated[2].pk, amount=None, currency=True, by=by)
    clock.set(at("2026-11-21T05:50:00"))
    chips.buy_in(table_id=table.pk, player_id=p3.pk, amount=400_000, currency=True, by=by)
    clock.set(at("2026-11-21T05:55:00"))
    chips.cash_out(table_id=table.pk, player_id=p3.pk, amount=None, currency=True, by=by)
    clock.set(at("2026-11-21T06:30:00"))
    chips.buy_in(table_id=table.pk, player_id=p3.pk, amount=100_000, currency=True, by=by)
    return ComplianceDay(mt, round1, round2)


def plant_hand(
    day: ComplianceDay,
    *,
    number: int,
    seat: int,
    minutes_after_round2: int,
    tppps_seated: int | None = None,
    void_reason: str = "planted",
) -> int:
    """Raw SQL, bypassing every service: a hand (voided, as if misdealt) banked by the
    player in ``seat``, recorded after round 2. Returns its round number."""
    r2 = day.round2
    player = day.player(seat)
    is_tppp = hasattr(player, "tppp")
    started = r2.started_at + timedelta(minutes=minutes_after_round2)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO tables_offerround (table_id, game_id, start_seat, started_at, "
            "started_by_id, status, kept_without_offers, detail) "
            "VALUES (%s, %s, %s, %s, %s, 'accepted', %s, '')",
            [r2.table_id, r2.game_id, seat, started, r2.started_by_id, False],
        )
        cursor.execute(
            "SELECT id FROM tables_offerround WHERE table_id = %s ORDER BY id DESC", [r2.table_id]
        )
        offer_round_id = cursor.fetchone()[0]
        cursor.execute(
            "INSERT INTO tables_round (table_id, game_id, number, deck, state, offer_round_id, "
            "player_dealer_id, player_dealer_seat, player_dealer_is_tppp, consecutive_count, "
            "tppps_seated, options, deal_mode, board, dealer_category, started_at, "
            "started_by_id, void_reason) VALUES (%s, %s, %s, 'A', 'voided', %s, %s, %s, %s, 1, "
            "%s, %s, 'card_entry', '[]', '', %s, %s, %s)",
            [
                r2.table_id, r2.game_id, number, offer_round_id, player.pk, seat, is_tppp,
                1 if tppps_seated is None else tppps_seated, json.dumps(r2.options), started,
                r2.started_by_id, void_reason,
            ],
        )  # fmt: skip
    return number


def plant_tppp_hand(
    day: ComplianceDay, *, minutes_after_round2: int = 5, void_reason: str = "planted"
) -> int:
    """A third hand banked by the TPPP right after the TPPP's own hand (round 2)."""
    return plant_hand(
        day, number=3, seat=5, minutes_after_round2=minutes_after_round2, void_reason=void_reason
    )
