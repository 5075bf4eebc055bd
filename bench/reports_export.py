"""Benchmark: compliance reports over a large floor (docs/benchmarks.md).

Two steps, each its own process so the generating process's peak memory is its own:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_reports_bench \\
        .venv/bin/python manage.py migrate
    # bulk-load N rounds (PostgreSQL only; INSERT ... SELECT generate_series, server side)
    DATABASE_URL=... .venv/bin/python bench/reports_export.py load --rounds 1000000
    # generate a report for the whole loaded period; prints seconds, lines/s, peak RSS
    DATABASE_URL=... .venv/bin/python bench/reports_export.py generate --report audit

The loader writes the rows the reports read, shaped as the services write them, without
playing the rounds (the service layer plays about 30 rounds/s: docs/benchmarks.md):
T tables (default 20), six patrons each; seats 4-6 take the button in turn, seats 1-3
bet every hand: seats 1 and 2 play 4x pre-flop, seat 3 checks twice and folds. Per round:
an offer round and its accepted offer, the round, the bank, 3 hands with cards, 5
decisions, 3 bets and 8 settlement lines each with its ledger transaction. One round every
100 s per table. Rows are inserted with triggers and foreign-key checks off
(``session_replication_role = replica``, superuser only), in chunks, then ANALYZEd. The
settlement transactions carry no ledger entries: no report reads them (verify_ledger would).

``generate`` runs ``reports.services.generate``, the function the Celery task
runs, into a temporary file, and reports wall time, the lines written, settlement lines
per second and ``ru_maxrss`` (peak resident memory of this process).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, transaction  # noqa: E402

START = datetime(2026, 1, 5, 14, 0, tzinfo=UTC)  # 06:00 Pacific: a gaming day's start
SECONDS_PER_ROUND = 100
CHUNK = 50_000

# j, pass, seat, wager, stake, outcome, paid, collected (fold pass first, then showdown)
LINES = [
    (0, "fold", 3, "ante", 500, "lose", 0, 500),
    (1, "fold", 3, "blind", 500, "lose", 0, 500),
    (2, "showdown", 1, "ante", 500, "win", 500, 0),
    (3, "showdown", 1, "play", 2000, "win", 2000, 0),
    (4, "showdown", 1, "blind", 500, "push", 0, 0),
    (5, "showdown", 2, "ante", 500, "lose", 0, 500),
    (6, "showdown", 2, "play", 2000, "lose", 0, 2000),
    (7, "showdown", 2, "blind", 500, "lose", 0, 500),
]
BANK_NET = 1_500  # +500 +500 (seat 3) -500 -2000 (seat 1) +3000 (seat 2)


def _next_id(model) -> int:
    from cardroom.sql import table

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {table(model)}")
        return cursor.fetchone()[0]


def _setval(cursor, model) -> None:
    from cardroom.sql import table

    cursor.execute(
        "SELECT setval(pg_get_serial_sequence(%s, 'id'), "
        f"(SELECT COALESCE(MAX(id), 1) FROM {table(model)}))",
        [model._meta.db_table],
    )


def load(rounds: int, tables: int) -> None:
    from cardroom.errors import State
    from cardroom.sql import literals, table
    from tables.models import (
        ButtonOffer,
        Game,
        Hand,
        HandDecision,
        OfferAnswer,
        OfferRound,
        OfferRoundStatus,
        Player,
        Round,
        Table,
    )
    from tables.options import snapshot
    from wagers.models import (
        Account,
        AccountKind,
        Bet,
        LedgerTransaction,
        PlayerDealerBank,
        SettlementLine,
        TransactionKind,
    )

    assert connection.vendor == "postgresql", "the bulk loader needs PostgreSQL"
    started = time.perf_counter()
    staff, _ = User.objects.get_or_create(username="bench-reports")
    tag = f"BR{int(time.time())}"
    with transaction.atomic():
        made = [
            Table.objects.create(name=f"{tag}-{t + 1}", created_at=START - timedelta(hours=1))
            for t in range(tables)
        ]
        players = Player.objects.bulk_create(
            Player(player_number=f"{tag}-{t + 1}-S{s}", name=f"Patron {t + 1}/{s}",
                   created_at=START - timedelta(hours=1))
            for t in range(tables) for s in range(1, 7)
        )  # fmt: skip
        accounts = Account.objects.bulk_create(
            Account(kind=AccountKind.PATRON_CHIPS, table=made[i // 6], player=p,
                    opened_at=START - timedelta(hours=1), balance_cents=10_000_000)
            for i, p in enumerate(players)
        )  # fmt: skip
        games = [
            Game.objects.create(table=t, opened_at=START - timedelta(minutes=1),
                                opened_by=staff, first_offer_seat=4)
            for t in made
        ]  # fmt: skip
    # Consecutive ids (one bulk insert each), so every row's key is arithmetic below.
    assert [p.pk for p in players] == list(range(players[0].pk, players[0].pk + len(players)))
    assert [a.pk for a in accounts] == list(range(accounts[0].pk, accounts[0].pk + len(accounts)))
    table0, player0, account0, game0 = made[0].pk, players[0].pk, accounts[0].pk, games[0].pk
    assert [t.pk for t in made] == list(range(table0, table0 + tables))
    assert [g.pk for g in games] == list(range(game0, game0 + tables))
    options = json.dumps(snapshot(made[0]))
    # Each table's first free id and its name, by its model (``b_Round``, ``t_Round`` below).
    loaded = (
        OfferRound, ButtonOffer, Round, Hand, HandDecision, Bet, PlayerDealerBank,
        LedgerTransaction, SettlementLine,
    )  # fmt: skip
    base = {model.__name__: _next_id(model) for model in loaded}
    lines_sql = ", ".join(
        f"({j}, '{p}', {seat}, '{w}', {stake}, '{o}', {paid}, {coll})"
        for j, p, seat, w, stake, o, paid, coll in LINES
    )
    # r: the round's index; t = r % T its table, k = r / T its place at that table.
    ctx = {
        "T": tables, "start": START.isoformat(), "spr": SECONDS_PER_ROUND, "staff": staff.pk,
        "table0": table0, "player0": player0, "account0": account0, "game0": game0,
        "options": options.replace("'", "''"), "net": BANK_NET,
        **{f"b_{k}": v for k, v in base.items()},
        **{f"t_{model.__name__}": table(model) for model in loaded},
        "accepted": literals([OfferRoundStatus.ACCEPTED]),
        "answered": literals([OfferAnswer.ACCEPTED]),
        "settled": literals([State.SETTLED]),
        "settlement": literals([TransactionKind.SETTLEMENT]),
    }  # fmt: skip
    at = (
        "(TIMESTAMPTZ '{start}' + ((g / {T}) * {spr} + (g % {T}) * {spr}::float / {T})"
        " * INTERVAL '1 second')"
    )
    pd_seat = "(4 + (g / {T}) % 3)"
    statements = [
        f"""INSERT INTO {{t_OfferRound}} (id, table_id, game_id, start_seat, started_at,
            started_by_id, status, kept_without_offers, closed_at, detail)
            SELECT {{b_OfferRound}} + g, {{table0}} + g % {{T}}, {{game0}} + g % {{T}},
            {pd_seat}, {at}, {{staff}}, {{accepted}}, false, {at}, '' FROM series""",
        f"""INSERT INTO {{t_ButtonOffer}} (id, offer_round_id, seat, player_id, is_tppp,
            offered_at, offered_by_id, answer, answered_at, answered_by_id, reason)
            SELECT {{b_ButtonOffer}} + g, {{b_OfferRound}} + g, {pd_seat},
            {{player0}} + (g % {{T}}) * 6 + {pd_seat} - 1, false, {at}, {{staff}}, {{answered}},
            {at}, {{staff}}, '' FROM series""",
        f"""INSERT INTO {{t_Round}} (id, table_id, game_id, number, deck, state, offer_round_id,
            player_dealer_id, player_dealer_seat, player_dealer_is_tppp, consecutive_count,
            tppps_seated, options, deal_mode, dealer_hole, board, dealer_category,
            dealer_qualifies, started_at, ended_at, started_by_id, void_reason)
            SELECT {{b_Round}} + g, {{table0}} + g % {{T}}, {{game0}} + g % {{T}},
            g / {{T}} + 1, CASE WHEN (g / {{T}}) % 2 = 0 THEN 'A' ELSE 'B' END, {{settled}},
            {{b_OfferRound}} + g, {{player0}} + (g % {{T}}) * 6 + {pd_seat} - 1, {pd_seat},
            false, 1, 0, '{{options}}'::jsonb, 'rng', '["Kc", "Kd"]'::jsonb,
            '["2h", "7h", "9s", "Jd", "3c"]'::jsonb, 'one_pair', true, {at},
            {at} + INTERVAL '90 seconds', {{staff}}, '' FROM series""",
        f"""INSERT INTO {{t_PlayerDealerBank}} (id, round_id, player_id, account_id,
            amount_cents, posted_at, posted_by_id, net_cents, exhausted)
            SELECT {{b_PlayerDealerBank}} + g, {{b_Round}} + g,
            {{player0}} + (g % {{T}}) * 6 + {pd_seat} - 1,
            {{account0}} + (g % {{T}}) * 6 + {pd_seat} - 1, 100000, {at}, {{staff}}, {{net}},
            false FROM series""",
        f"""INSERT INTO {{t_Hand}} (id, round_id, seat, player_id, joined_at, hole, category,
            result)
            SELECT {{b_Hand}} + g * 3 + s - 1, {{b_Round}} + g, s,
            {{player0}} + (g % {{T}}) * 6 + s - 1, {at},
            (ARRAY['["As", "Ad"]', '["Qc", "8d"]', '["4s", "5d"]'])[s]::jsonb,
            (ARRAY['two_pair', 'high_card', 'high_card'])[s],
            (ARRAY['win', 'lose', 'fold'])[s] FROM series, generate_series(1, 3) s""",
        f"""INSERT INTO {{t_Bet}} (id, hand_id, bettor, player_id, account_id, ante_cents,
            blind_cents, trips_cents, bad_beat_cents, play_cents, placed_at)
            SELECT {{b_Bet}} + g * 3 + s - 1, {{b_Hand}} + g * 3 + s - 1, 0,
            {{player0}} + (g % {{T}}) * 6 + s - 1, {{account0}} + (g % {{T}}) * 6 + s - 1,
            500, 500, 0, 0, CASE WHEN s < 3 THEN 2000 ELSE 0 END, {at}
            FROM series, generate_series(1, 3) s""",
        f"""INSERT INTO {{t_HandDecision}} (id, hand_id, street, action, multiple, at, by_id)
            SELECT {{b_HandDecision}} + g * 5 + d.j, {{b_Hand}} + g * 3 + d.seat - 1,
            d.street, d.action, d.multiple, {at} + d.j * INTERVAL '5 seconds', {{staff}}
            FROM series, (VALUES (0, 1, 'preflop', 'play', 4), (1, 2, 'preflop', 'play', 4),
            (2, 3, 'preflop', 'check', 0), (3, 3, 'flop', 'check', 0),
            (4, 3, 'river', 'fold', 0)) d(j, seat, street, action, multiple)""",
        f"""INSERT INTO {{t_LedgerTransaction}} (id, kind, at, by_id, round_id, currency, memo)
            SELECT {{b_LedgerTransaction}} + g * 8 + j, {{settlement}},
            {at} + INTERVAL '80 seconds', {{staff}}, {{b_Round}} + g, false, ''
            FROM series, generate_series(0, 7) j""",
        f"""INSERT INTO {{t_SettlementLine}} (id, round_id, "order", settlement_pass, seat,
            bettor, bet_id, wager, stake_cents, outcome, paid_cents, collected_cents,
            returned_uncovered_cents, unpaid_uncovered_cents, rounded_off_cents, transaction_id)
            SELECT {{b_SettlementLine}} + g * 8 + l.j, {{b_Round}} + g, l.j + 1,
            l.pass, l.seat, 0, {{b_Bet}} + g * 3 + l.seat - 1, l.wager, l.stake,
            l.outcome, l.paid, l.collected, 0, 0, 0, {{b_LedgerTransaction}} + g * 8 + l.j
            FROM series, (VALUES {lines_sql}) l(j, pass, seat, wager, stake, outcome, paid,
            collected)""",
    ]
    statements = [s.format(**ctx) for s in statements]
    with connection.cursor() as cursor:
        for first in range(0, rounds, CHUNK):
            last = min(first + CHUNK, rounds) - 1
            with transaction.atomic():
                cursor.execute("SET LOCAL session_replication_role = replica")
                cursor.execute(
                    "CREATE TEMP TABLE series ON COMMIT DROP AS "
                    f"SELECT generate_series({first}, {last}) AS g"
                )
                for statement in statements:
                    cursor.execute(statement)
            print(f"  {last + 1:>9,} rounds loaded ({time.perf_counter() - started:.0f} s)",
                  flush=True)  # fmt: skip
        for model in loaded:
            _setval(cursor, model)
        cursor.execute("ANALYZE")
    days = (rounds // tables) * SECONDS_PER_ROUND / 86400
    print(f"loaded {rounds:,} rounds at {tables} tables ({days:.1f} days of play) "
          f"in {time.perf_counter() - started:.1f} s")  # fmt: skip


def _without_copy(report: str) -> None:
    """Every section through Python rows (server-side cursors), as on SQLite."""
    from dataclasses import replace

    from reports import registry

    kind = registry.REGISTRY[report]

    def build(period, *, is_open):
        document = kind.build(period, is_open=is_open)
        sections = (replace(section, copy=None) for section in document.sections)
        return replace(document, sections=sections)

    registry.REGISTRY[report] = replace(kind, build=build)


def load_fees() -> None:
    """Fees on every loaded round: each seat's Ante (rate 1: player 50, player-dealer 25),
    posted to the table's drop (a fee transaction and its two entries per line), and a
    drop box per table and shift of every gaming day, counted."""
    from cardroom.sql import Alias, literals, table
    from fees.models import (
        DropBox,
        DropCount,
        FeeLine,
        FeeRate,
        FeeSchedule,
        FeeScheduleVersion,
        PayerKind,
    )
    from tables.models import Hand, Round, Table
    from wagers.models import (
        Account,
        AccountKind,
        Bet,
        LedgerEntry,
        LedgerTransaction,
        PlayerDealerBank,
        TransactionKind,
    )

    assert connection.vendor == "postgresql", "the bulk loader needs PostgreSQL"
    started = time.perf_counter()
    staff = User.objects.get(username="bench-reports")
    tables = list(Table.objects.filter(name__startswith="BR").order_by("pk"))
    with transaction.atomic():
        drops = {
            t.pk: Account.objects.get_or_create(
                kind=AccountKind.DROP, table=t, defaults={"opened_at": START - timedelta(hours=1)}
            )[0].pk
            for t in tables
        }
        schedule = FeeSchedule.objects.create(
            name="Bench class", class_minimum_cents=500, class_maximum_cents=50_000,
            created_at=START - timedelta(hours=1), created_by=staff,
        )  # fmt: skip
        version = FeeScheduleVersion.objects.create(
            schedule=schedule, number=1, effective_at=START - timedelta(hours=1),
            player_dealer_basis="per_betting_square", charged_squares=["ante"],
            table_minimum_cents=500, table_maximum_cents=50_000,
            created_at=START - timedelta(hours=1), created_by=staff,
        )  # fmt: skip
        FeeRate.objects.create(
            version=version, position=1, wager_from_cents=500, wager_to_cents=50_000,
            player_fee_cents=50, player_dealer_fee_cents=25,
        )  # fmt: skip
    drop_case = " ".join(f"WHEN {table_id} THEN {account}" for table_id, account in drops.items())
    h, r = Alias(Hand, "h"), Alias(Round, "r")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT MIN({h.id}), MAX({h.id}) FROM {h} "
            f"JOIN {r} ON {r.id} = {h.round_id} WHERE {r.table_id} = ANY(%s)",
            [[t.pk for t in tables]],
        )
        first, last = cursor.fetchone()
        loaded = (FeeLine, LedgerTransaction, LedgerEntry)
        base = {model: _next_id(model) for model in loaded}
        for low in range(first, last + 1, 3 * CHUNK):
            high = min(low + 3 * CHUNK, last + 1) - 1
            ctx = {"low": low, "high": high, "first": first, "v": version.pk,
                   "fl": base[FeeLine], "lt": base[LedgerTransaction],
                   "le": base[LedgerEntry], "staff": staff.pk,
                   "hand": table(Hand), "round": table(Round), "bet": table(Bet),
                   "bank": table(PlayerDealerBank), "transaction": table(LedgerTransaction),
                   "entry": table(LedgerEntry), "fee_line": table(FeeLine),
                   "fee": literals([TransactionKind.FEE]),
                   "player": literals([PayerKind.PLAYER]),
                   "player_dealer": literals([PayerKind.PLAYER_DEALER])}  # fmt: skip
            with transaction.atomic():
                cursor.execute("SET LOCAL session_replication_role = replica")
                cursor.execute(
                    """CREATE TEMP TABLE lines ON COMMIT DROP AS
                    SELECT (h.id - {first}) * 2 + k AS n, h.round_id, r.table_id, r.started_at,
                        (h.seat - 1) * 2 + k + 1 AS "order", h.seat, k,
                        CASE k WHEN 0 THEN b.player_id ELSE pdb.player_id END AS player_id,
                        CASE k WHEN 0 THEN b.account_id ELSE pdb.account_id END AS account_id,
                        CASE k WHEN 0 THEN 50 ELSE 25 END AS amount
                    FROM {hand} h JOIN {round} r ON r.id = h.round_id
                    JOIN {bet} b ON b.hand_id = h.id AND b.bettor = 0
                    JOIN {bank} pdb ON pdb.round_id = h.round_id,
                    generate_series(0, 1) k WHERE h.id BETWEEN {low} AND {high}""".format(**ctx)
                )
                cursor.execute(
                    """INSERT INTO {transaction} (id, kind, at, by_id, round_id,
                    currency, memo) SELECT {lt} + n, {fee}, started_at + INTERVAL '20 seconds',
                    {staff}, round_id, false, '' FROM lines""".format(**ctx)
                )
                cursor.execute(
                    f"""INSERT INTO {{entry}} (id, transaction_id, account_id,
                    amount_cents, label) SELECT {{le}} + n * 2 + e, {{lt}} + n,
                    CASE e WHEN 0 THEN account_id ELSE CASE table_id {drop_case} END END,
                    CASE e WHEN 0 THEN -amount ELSE amount END, 'ante'
                    FROM lines, generate_series(0, 1) e""".format(**ctx)
                )
                cursor.execute(
                    """INSERT INTO {fee_line} (id, round_id, "order", version_id, payer_kind,
                    player_id, account_id, seat, bettor, square, wager_cents, rate_position,
                    amount_cents, transaction_id) SELECT {fl} + n, round_id, "order", {v},
                    CASE k WHEN 0 THEN {player} ELSE {player_dealer} END, player_id,
                    account_id, seat, 0, 'ante', 500, 1, amount, {lt} + n FROM lines""".format(
                        **ctx
                    )
                )
            print(f"  fees of hands to {high:,} loaded ({time.perf_counter() - started:.0f} s)",
                  flush=True)  # fmt: skip
        for model in loaded:
            _setval(cursor, model)
    from cardroom import shifts
    from cardroom.gaming_day import gaming_day_of
    from tables.models import Round

    first_day = gaming_day_of(
        Round.objects.filter(table__in=tables).earliest("started_at").started_at
    )
    last_day = gaming_day_of(Round.objects.filter(table__in=tables).latest("started_at").started_at)
    boxes = []
    day = first_day
    while day <= last_day:
        for shift in shifts.names():
            boxes += [
                DropBox(box_number=f"{t.pk}-{day:%y%m%d}-{shift[:5]}", table=t,
                        gaming_day=day, shift=shift, registered_at=START, registered_by=staff)
                for t in tables
            ]  # fmt: skip
        day += timedelta(days=1)
    boxes = DropBox.objects.bulk_create(boxes)
    with connection.cursor() as cursor:
        # Each box counted at what its shift recorded, one in seven short by $1.
        cursor.execute(
            f"INSERT INTO {table(DropCount)} (box_id, amount_cents, counters, counted_at, "
            "entered_at, entered_by_id, note) SELECT b.id, 64800 - CASE WHEN b.id %% 7 = 0 "
            f"THEN 100 ELSE 0 END, '[\"A\", \"B\"]', %s, %s, %s, '' FROM {table(DropBox)} b "
            "WHERE b.id = ANY(%s)",
            [START, START, staff.pk, [box.pk for box in boxes]],
        )
        cursor.execute("ANALYZE")
    print(f"fees loaded in {time.perf_counter() - started:.1f} s; {len(boxes):,} drop boxes")


def generate(report: str, output_format: str, python_path: bool = False, days: int = 0) -> None:
    from cardroom.gaming_day import gaming_day_of
    from reports import services
    from reports.parameters import period_of
    from tables.models import Round
    from wagers.models import SettlementLine

    first = Round.objects.order_by("started_at").values_list("started_at", flat=True).first()
    last = Round.objects.order_by("-started_at").values_list("started_at", flat=True).first()
    parameters = {
        "format": output_format,
        "from_day": gaming_day_of(first).isoformat(),
        "to_day": (
            gaming_day_of(first) + timedelta(days=days - 1) if days else gaming_day_of(last)
        ).isoformat(),
        "table": None,
    }
    period = period_of(parameters)
    lines = SettlementLine.objects.filter(
        round__started_at__gte=period.start, round__started_at__lt=period.end
    ).count()
    if python_path:
        _without_copy(report)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with tempfile.TemporaryFile() as out:
        started = time.perf_counter()
        generated = services.generate(report, parameters, out)
        seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    path = (
        "Python rows" if python_path or connection.vendor != "postgresql" else "COPY where offered"
    )
    print(f"report {report} ({output_format}, {path}), gaming days {parameters['from_day']} to "
          f"{parameters['to_day']}, all tables")  # fmt: skip
    print(f"  rows written      {generated.rows:>14,}")
    print(f"  bytes             {generated.size:>14,}")
    print(f"  seconds           {seconds:>14.1f}")
    print(f"  rows/s            {generated.rows / seconds:>14,.0f}")
    if report == "audit":
        print(f"  settlement lines  {lines:>14,}")
        print(f"  lines/s           {lines / seconds:>14,.0f}  (settlement lines / total time)")
    print(
        f"  peak RSS          {peak / 1024:>14.1f} MB (before generating: {before / 1024:.1f} MB)"
    )
    print(f"  sha256            {generated.sha256}")
    version = connection.pg_version if connection.vendor == "postgresql" else ""
    print(f"  {platform.python_implementation()} {platform.python_version()}, "
          f"{connection.vendor} {version}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    loading = sub.add_parser("load")
    loading.add_argument("--rounds", type=int, default=1_000_000)
    loading.add_argument("--tables", type=int, default=20)
    sub.add_parser("load-fees")
    generating = sub.add_parser("generate")
    generating.add_argument("--report", default="audit")
    generating.add_argument("--format", default="csv")
    generating.add_argument("--days", type=int, default=0, help="the first N gaming days only")
    generating.add_argument(
        "--python-path", action="store_true", help="no COPY: rows through Python, as on SQLite"
    )
    args = parser.parse_args()
    if args.command == "load":
        load(args.rounds, args.tables)
    elif args.command == "load-fees":
        load_fees()
    else:
        generate(args.report, args.format, args.python_path, args.days)


if __name__ == "__main__":
    main()
