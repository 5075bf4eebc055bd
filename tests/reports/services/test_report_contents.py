"""Each report over the compliance day (tests/builders/reports.py), figures checked by hand.

Figures come from docs/rules.md §7.3's worked example (round 1), a fold collected by the TPPP
(round 2) and the cash movements of the day; every expected value is written out below,
not recomputed by the code under test.
"""

from __future__ import annotations

import pytest

from tests.builders.reports import DAY, NEXT_DAY, plant_hand, plant_tppp_hand
from tests.reports.helpers import generate_bytes, read_csv

pytestmark = pytest.mark.django_db


def numbers(day):
    return {seat: day.player(seat).player_number for seat in (1, 2, 5, 6)} | {
        "p3": day.p3.player_number
    }


def test_header_states_the_period_and_that_it_is_closed(day):
    header, _ = read_csv(generate_bytes("rotation", gaming_day=DAY)[0])
    assert header == {
        "report": "Player-dealer rotation record",
        "period": "gaming day 2026-11-20",
        "from": "2026-11-20T06:00:00-08:00",
        "until": "2026-11-21T06:00:00-08:00",
        "gaming day starts": "06:00 America/Los_Angeles",
        "tables": "all tables",
        "games": "Ultimate Texas Hold'em: Day table",
        "period status": "closed",
    }


def test_a_period_still_open_says_so(day):
    # The clock stands at 06:30 on 2026-11-21: that gaming day has just begun.
    data, generated = generate_bytes("currency", gaming_day=NEXT_DAY)
    header, sections = read_csv(data)
    assert header["period status"].startswith("OPEN")
    assert generated.period_open is True
    n = numbers(day)
    per_patron = sections["Currency transactions per patron per gaming day"]
    assert [(r["player"], r["cash_in_cents"]) for r in per_patron] == [(n["p3"], "100000")]


def test_rotation_record_lists_games_offers_and_hands_in_order(day):
    _, sections = read_csv(generate_bytes("rotation", gaming_day=DAY)[0])
    n = numbers(day)
    events = [
        (r["time"][11:19], r["event"], r["hand"], r["seat"], r["player"], r["tppp"],
         r["consecutive"], r["answer"], r["detail"])
        for r in sections["Rotation record"]
    ]  # fmt: skip
    assert events == [
        ("19:00:00", "game opened", "", "", "", "", "", "", "offers start at seat 6"),
        ("19:10:00", "offer", "", "6", n[6], "false", "", "accepted", ""),
        ("19:10:00", "hand", "1", "6", n[6], "false", "1", "", "settled"),
        ("19:20:00", "offer", "", "1", n[1], "false", "", "declined", ""),
        ("19:20:00", "offer", "", "2", n[2], "false", "", "declined", ""),
        ("19:20:00", "offer", "", "5", n[5], "true", "", "accepted", ""),
        ("19:20:00", "hand", "2", "5", n[5], "true", "1", "", "settled"),
    ]
    assert {r["table"] for r in sections["Rotation record"]} == {"Day table"}


def test_rotation_checks_are_zero_on_clean_data(day):
    _, sections = read_csv(generate_bytes("rotation", gaming_day=DAY)[0])
    assert [
        (r["rule"], r["hands_checked"], r["violations"]) for r in sections["Rotation rule checks"]
    ] == [
        ("two consecutive hands", "2", "0"),
        ("one TPPP per table", "2", "0"),
        ("no TPPP twice in a row", "2", "0"),
        ("40-minute rule", "2", "0"),
    ]
    assert sections["Rotation violations"] == []


def test_rotation_finds_a_violation_planted_by_raw_sql(day):
    planted = plant_tppp_hand(day)
    _, sections = read_csv(generate_bytes("rotation", gaming_day=DAY)[0])
    checks = {
        r["rule"]: (r["hands_checked"], r["violations"]) for r in sections["Rotation rule checks"]
    }
    assert checks == {
        "two consecutive hands": ("3", "0"),
        "one TPPP per table": ("3", "0"),
        "no TPPP twice in a row": ("3", "1"),
        "40-minute rule": ("3", "0"),
    }
    (violation,) = sections["Rotation violations"]
    assert (violation["table"], violation["rule"], violation["hands"]) == (
        "Day table",
        "no TPPP twice in a row",
        f"2 {planted}",
    )
    # The planted hand is in the record too, as recorded.
    hands = [r for r in sections["Rotation record"] if r["event"] == "hand"]
    assert [(r["hand"], r["seat"], r["tppp"], r["detail"]) for r in hands][-1] == (
        "3", "5", "true", "voided: planted"
    )  # fmt: skip


# (planted hands: (seat, minutes after round 2, TPPPs seated)), the rule broken, its hands
PLANTED = [
    # After the TPPP's round 2, seat 6 banks rounds 3, 4 and 5: the third in a row.
    ([(6, 5, 1), (6, 6, 1), (6, 7, 1)], "two consecutive hands", ["3 4 5"]),
    ([(6, 5, 2)], "one TPPP per table", ["3"]),
    ([(5, 5, 1)], "no TPPP twice in a row", ["2 3"]),
    # The game opened at 19:00; at 19:45 the hands of the last 40 minutes (rounds 1 and 2
    # at 19:10 and 19:20, and this one) had one non-TPPP player-dealer only (seat 6).
    ([(6, 25, 1)], "40-minute rule", ["1 2 3"]),
]


@pytest.mark.parametrize(
    ("planted", "rule", "hands"), PLANTED, ids=["consecutive", "one-tppp", "tppp-twice", "window"]
)
def test_each_rule_finds_its_planted_violation(day, planted, rule, hands):
    for number, (seat, minutes, tppps) in enumerate(planted, start=3):
        plant_hand(day, number=number, seat=seat, minutes_after_round2=minutes, tppps_seated=tppps)
    _, sections = read_csv(generate_bytes("rotation", gaming_day=DAY)[0])
    found = [(r["rule"], r["hands"]) for r in sections["Rotation violations"]]
    assert found == [(rule, h) for h in hands]
    counts = {r["rule"]: int(r["violations"]) for r in sections["Rotation rule checks"]}
    assert counts == {name: len(hands) if name == rule else 0 for name in counts}


def test_rotation_violation_straddling_the_period_start_is_found(day):
    """Hand 2 (TPPP) is on 11-20; a TPPP hand planted just after 06:00 on 11-21 breaks
    the rule across the boundary: the 11-21 report must see hand 2 as its context."""
    from datetime import datetime

    from tests.builders.reports import PACIFIC

    minutes = (datetime(2026, 11, 21, 6, 1, tzinfo=PACIFIC) - day.round2.started_at).seconds // 60
    plant_tppp_hand(day, minutes_after_round2=minutes)
    _, sections = read_csv(generate_bytes("rotation", gaming_day=NEXT_DAY)[0])
    # The planted hand also started a game open for 11 hours with no other player-dealer
    # in the last 40 minutes: the 40-minute rule is broken too, by hand 3 alone.
    assert [(r["rule"], r["hands"]) for r in sections["Rotation violations"]] == [
        ("no TPPP twice in a row", "2 3"),
        ("40-minute rule", "3"),
    ]


FIGURES = [
    "hands_banked", "banked_cents", "result_cents", "largest_bank_cents", "banks_exhausted",
    "returned_uncovered_cents", "unpaid_uncovered_cents", "fills_cents", "credits_cents",
    "closing_bankroll_cents",
]  # fmt: skip


def figures(row):
    return [int(row[name]) for name in FIGURES]


def test_banking_by_day_and_session_tppp_apart(day):
    _, sections = read_csv(generate_bytes("banking", gaming_day=DAY)[0])
    n = numbers(day)
    # The TPPP: one bank of 5,000; S1's ante and blind (1,000 each) collected at the fold;
    # filled 30,000 at 19:00, so 32,000 at the close.
    tppp = [5_000 // 5_000, 5_000, 2_000, 5_000, 0, 0, 0, 30_000, 0, 32_000]
    # Seat 6: the worked example: W = 10,000 lost whole; Blind 1,250 and Trips 7,000
    # unpaid as uncovered; bought in 30,000 (a buy-in, not a fill), 20,000 left.
    patron = [1, 10_000, -10_000, 10_000, 1, 0, 8_250, 0, 0, 20_000]
    (row,) = sections["TPPP player-dealers by gaming day"]
    assert (row["gaming_day"], row["player"], figures(row)) == (DAY, n[5], tppp)
    (row,) = sections["TPPP player-dealers by session"]
    assert (row["player"], row["table"], figures(row)) == (n[5], "Day table", tppp)
    (row,) = sections["Other player-dealers by gaming day"]
    assert (row["player"], figures(row)) == (n[6], patron)
    (row,) = sections["Other player-dealers by session"]
    assert (row["player"], row["session_closed"], figures(row)) == (n[6], "", patron)


def test_banking_playing_book(day):
    _, sections = read_csv(generate_bytes("banking", gaming_day=DAY)[0])
    (row,) = sections["TPPP playing book"]
    assert row == {
        "player": day.player(5).player_number,
        "posted_at": "2026-11-20T19:20:00-08:00",
        "table": "Day table",
        "round": "2",
        "seat": "5",
        "bank_cents": "5000",
        "result_cents": "2000",
        "bank_exhausted": "false",
        "returned_uncovered_cents": "0",
        "unpaid_uncovered_cents": "0",
    }


def test_audit_export_every_settlement_line_in_order(day):
    _, sections = read_csv(generate_bytes("audit", gaming_day=DAY)[0])
    n = numbers(day)
    lines = [
        (r["round"], r["order"], r["pass"], r["seat"], r["player"], r["wager"],
         r["stake_cents"], r["outcome"], r["paid_cents"], r["collected_cents"],
         r["returned_uncovered_cents"], r["unpaid_uncovered_cents"])
        for r in sections["Settlement lines"]
    ]  # fmt: skip
    s1, s2 = n[1], n[2]
    assert lines == [
        ("1", "1", "fold", "1", s1, "ante", "2500", "lose", "0", "2500", "0", "0"),
        ("1", "2", "fold", "1", s1, "blind", "2500", "lose", "0", "2500", "0", "0"),
        ("1", "3", "showdown", "2", s2, "ante", "2500", "win", "2500", "0", "0", "0"),
        ("1", "4", "showdown", "2", s2, "play", "10000", "win", "10000", "0", "0", "0"),
        ("1", "5", "showdown", "2", s2, "blind", "2500", "win", "2500", "0", "0", "1250"),
        ("1", "6", "showdown", "2", s2, "trips", "1000", "win", "0", "0", "0", "7000"),
        ("2", "1", "fold", "1", s1, "ante", "1000", "lose", "0", "1000", "0", "0"),
        ("2", "2", "fold", "1", s1, "blind", "1000", "lose", "0", "1000", "0", "0"),
    ]


def test_audit_export_hands_with_cards_and_decisions(day):
    _, sections = read_csv(generate_bytes("audit", gaming_day=DAY)[0])
    n = numbers(day)
    # Seat 1 folds with no Trips wager: its cards are mucked, never keyed (docs/rules.md §2.3).
    assert [tuple(r.values())[1:] for r in sections["Hands"]] == [
        ("1", "1", n[1], "", "", "fold", "preflop:check flop:check river:fold"),
        ("1", "2", n[2], "Ah Qh", "flush", "win", "preflop:playx4"),
        ("2", "1", n[1], "", "", "fold", "preflop:check flop:check river:fold"),
    ]
    rounds = sections["Rounds"]
    assert [
        (r["round"], r["player_dealer"], r["dealer_hole"], r["board"], r["dealer_category"],
         r["bank_cents"], r["bank_result_cents"], r["bank_exhausted"])
        for r in rounds
    ] == [
        ("1", n[6], "Kc Kd", "2h 7h 9h Jd 3c", "one_pair", "10000", "-10000", "true"),
        ("2", n[5], "Kc Kd", "2h 7h 9h Jd 3c", "one_pair", "5000", "2000", "false"),
    ]  # fmt: skip


def test_currency_log_per_patron_mtl_and_ctr(day):
    _, sections = read_csv(generate_bytes("currency", gaming_day=DAY)[0])
    n = numbers(day)
    per_patron = [
        (r["player"], r["cash_in_cents"], r["buy_ins"], r["cash_out_cents"], r["cash_outs"])
        for r in sections["Currency transactions per patron per gaming day"]
    ]
    # P3's 500,000 cheque buy-in is not currency; its 05:50 buy-in is still gaming day
    # 11-20, its 06:30 buy-in is 11-21's. S2 cashed out 50,000 - 16,000 + 31,000.
    expected = {
        (n[1], "20000", "1", "0", "0"),
        (n[2], "50000", "1", "65000", "1"),
        (n[6], "30000", "1", "0", "0"),
        (n["p3"], "1050000", "3", "1550000", "1"),
    }
    assert set(per_patron) == expected and len(per_patron) == 4
    assert per_patron == sorted(per_patron)
    mtl = sections["Multiple Transaction Log: currency transactions of $3,000 or more"]
    assert [(r["time"][:19], r["player"], r["direction"], r["amount_cents"]) for r in mtl] == [
        ("2026-11-20T20:00:00", n["p3"], "cash in", "400000"),
        ("2026-11-21T05:50:00", n["p3"], "cash in", "400000"),
        ("2026-11-21T05:55:00", n["p3"], "cash out", "1550000"),
    ]
    assert {r["gaming_day"] for r in mtl} == {DAY}
    ctr = sections["Currency Transaction Report candidates: over $10,000 in one gaming day"]
    assert [(r["player"], r["cash_in_cents"], r["cash_out_cents"], r["over"]) for r in ctr] == [
        (n["p3"], "1050000", "1550000", "cash in and cash out")
    ]


def test_currency_log_names_the_patrons_id_masked(day):
    """The log and the CTR candidates give the patron's ID type and number, the number
    masked (docs/rules.md §3.3); a patron with no ID recorded shows none."""
    from tables.models import Player

    Player.objects.filter(pk=day.p3.pk).update(
        id_type="passport", id_number="X12345678", id_issued_by="Mexico"
    )
    data = generate_bytes("currency", gaming_day=DAY)[0]
    assert b"X12345678" not in data
    _, sections = read_csv(data)
    mtl = sections["Multiple Transaction Log: currency transactions of $3,000 or more"]
    assert {(r["id_type"], r["id_number_masked"]) for r in mtl} == {("Passport", "•••••5678")}
    ctr = sections["Currency Transaction Report candidates: over $10,000 in one gaming day"]
    assert [(r["player"], r["id_type"], r["id_number_masked"]) for r in ctr] == [
        (day.p3.player_number, "Passport", "•••••5678")
    ]
    Player.objects.filter(pk=day.p3.pk).update(id_type="", id_number="", id_issued_by="")
    _, sections = read_csv(generate_bytes("currency", gaming_day=DAY)[0])
    ctr = sections["Currency Transaction Report candidates: over $10,000 in one gaming day"]
    assert [(r["id_type"], r["id_number_masked"]) for r in ctr] == [("", "")]
    pdf = generate_bytes("currency", gaming_day=DAY, format="pdf")[0]
    assert pdf.startswith(b"%PDF")


def test_currency_exactly_10000_is_not_a_ctr_candidate(day, clock):
    """$10,000 exactly is not "more than $10,000"; $3,000 exactly is on the MTL."""
    from tests.builders.reports import at
    from wagers.services import chips

    clock.set(at("2026-11-21T07:00:00"))
    table, by = day.table, day.mt.staff.dealer
    s1 = day.player(1)
    chips.buy_in(table_id=table.pk, player_id=s1.pk, amount=300_000, currency=True, by=by)
    chips.buy_in(table_id=table.pk, player_id=s1.pk, amount=700_000, currency=True, by=by)
    _, sections = read_csv(generate_bytes("currency", gaming_day=NEXT_DAY)[0])
    mtl = sections["Multiple Transaction Log: currency transactions of $3,000 or more"]
    assert [(r["player"], r["amount_cents"]) for r in mtl] == [
        (s1.player_number, "300000"),
        (s1.player_number, "700000"),
    ]
    assert sections["Currency Transaction Report candidates: over $10,000 in one gaming day"] == []


def test_one_table_only(day):
    from tests.builders.floor import make_staff
    from tests.builders.money import money_table

    other = money_table(make_staff(), {1: 20_000, 2: 20_000})
    _, sections = read_csv(generate_bytes("rotation", gaming_day=DAY, table=day.table.pk)[0])
    assert {r["table"] for r in sections["Rotation rule checks"]} == {"Day table"}
    _, sections = read_csv(generate_bytes("rotation", gaming_day=NEXT_DAY)[0])
    assert {r["table"] for r in sections["Rotation rule checks"]} == {"Day table", other.table.name}


def test_rotation_audit_looks_back_as_far_as_the_longest_window_played(db):
    from datetime import timedelta

    from cardroom.errors import State
    from reports.rotation import LOOK_BACK_WINDOW, look_back_for
    from tables.models import Round
    from tests.builders.floor import make_staff
    from tests.builders.money import money_table, play_round

    staff = make_staff()

    short = money_table(staff, {1: 50_000, 2: 50_000})
    long = money_table(staff, {1: 50_000, 2: 50_000}, rotation_window_minutes=180)
    for mt in (short, long):
        play_round(mt, pd_seat=1, bank=10_000, wagers=[], until=State.WAGERING)
    assert look_back_for(Round.objects.filter(table=short.table)) == LOOK_BACK_WINDOW
    # A 3-hour window: hands up to 3 hours back count for the 40-minute rule's check.
    assert look_back_for(Round.objects.filter(table=long.table)) == timedelta(minutes=180)


@pytest.mark.requires_postgres
def test_audit_export_by_copy_is_byte_for_byte_the_python_path(day):
    """On PostgreSQL the server writes the audit export (COPY); SQLite's Python path must give
    the same bytes, or the checksum of a report would depend on the database."""
    import io
    from dataclasses import replace
    from datetime import date

    from reports import audit, writers
    from reports.parameters import normalise, period_of
    from tables.models import Player, Table

    # Names a spreadsheet would run as formulas: both paths write them as the same text.
    Table.objects.filter(pk=day.table.pk).update(name='=HYPERLINK("http://x.example","a|b")')
    Player.objects.filter(pk=day.player(5).pk).update(player_number="-2+3")
    Player.objects.filter(pk=day.player(6).pk).update(player_number="\t@SUM(A1)")
    # A line break before a formula, and a line break alone: quoted by both paths alike.
    Player.objects.filter(pk=day.player(1).pk).update(player_number="x\r=cmd|' /C calc'!A0")
    Player.objects.filter(pk=day.player(2).pk).update(player_number='two\nlines, "quoted"')
    plant_tppp_hand(day, void_reason="+1 misdeal|x")  # a voided hand too
    parameters = normalise("audit", {"gaming_day": DAY}, formats=("csv",), today=date(2100, 1, 1))
    period = period_of(parameters)

    def written(*, by_copy: bool) -> bytes:
        document = audit.build(period, is_open=False)
        if not by_copy:
            document = replace(
                document, sections=(replace(s, copy=None) for s in document.sections)
            )
        out = io.BytesIO()
        writers.write_csv(document, out)
        return out.getvalue()

    by_copy = written(by_copy=True)
    assert by_copy.count(b"\n") > 20  # rounds, hands and settlement lines, not just headers
    assert written(by_copy=False) == by_copy
    for neutralised in (b'"\'=HYPERLINK(""http://x.example"",\'""a\\|b"")"', b"'-2+3,",
                        b"'\t@SUM(A1)", b"'+1 misdeal\\|x", b",-10000,",
                        b'"x\r\'=cmd\\|\' /C calc\'!A0"', b'"two\nlines, ""quoted"""'):  # fmt: skip
        assert neutralised in by_copy
    # Rows end with CR LF; the only other LF is the one inside the player's number.
    assert by_copy.count(b"\n") - by_copy.count(b"\r\n") == by_copy.count(b"two\nlines") > 0
