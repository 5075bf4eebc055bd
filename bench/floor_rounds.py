"""Benchmark: complete rounds through the floor's service layer (docs/benchmarks.md).

Plays ``--rounds`` (default 1,000) complete rounds spread over ``--tables`` (default 5)
fresh tables, every step through the services the API uses: players seated with chips,
the button offered clockwise (about one offer in five declined), the player-dealer's bank,
the table-minimum Ante and Blind of every other seat (that is how a seat joins the hand),
an RNG deal, each street's decisions entered at once, the showdown and the settlement. The
clock is frozen and moved on ``--seconds-per-round`` (90 s) per round, so each table's
hands are several minutes apart; the five patrons of each table take the button in turn,
so the 40-minute rule never ends a game.

Printed: rounds per second and SQL queries per round, for the first 100 rounds and for the
last 100, so it shows whether the cost of a round grows with the rounds already stored.

Intended for PostgreSQL (``DATABASE_URL``); SQLite only with ``--allow-sqlite``::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_bench \\
        .venv/bin/python manage.py migrate
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_bench \\
        .venv/bin/python bench/floor_rounds.py [--rounds 1000] [--tables 5] [--seed 1] \\
            [--window 100]

Every run creates its own tables, players and staff user (names carry a run tag), so runs
can be repeated against one database. The script prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

import django

django.setup()

from django.contrib.auth.models import Group, User  # noqa: E402
from django.db import connection  # noqa: E402

from cardroom import clock  # noqa: E402
from cardroom.errors import State, StateError  # noqa: E402
from cardroom.roles import Role  # noqa: E402
from rounds import services as rounds  # noqa: E402
from tables.models import Player, Round, Table  # noqa: E402
from tables.services import button, floor  # noqa: E402
from wagers.services import chips, wagering  # noqa: E402
from wagers.services.wagering import BetRequest  # noqa: E402

PATRONS_PER_TABLE = 5  # seats 1-5; seat 6 stays empty
BUY_IN = 10_000_000  # cents: enough chips for a thousand rounds without a top-up
BANK = 100_000
ANTE = 500
DECLINE_CHANCE = 0.2
WINDOW = 100  # rounds measured at the start and at the end


@dataclass
class BenchTable:
    table: Table
    seated: dict[int, Player]


@dataclass
class Sample:
    """One round: its wall time and the SQL statements it sent."""

    seconds: float
    queries: int


@dataclass
class QueryCounter:
    count: int = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


@dataclass
class Bench:
    tables: int
    seconds_per_round: float
    rng: random.Random
    run: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    now: datetime = field(default_factory=lambda: datetime(2026, 11, 20, 18, 0, tzinfo=UTC))
    floor_tables: list[BenchTable] = field(default_factory=list)
    staff: User | None = None

    def tick(self) -> None:
        self.now += timedelta(seconds=self.seconds_per_round)
        clock.freeze(self.now)

    def set_up(self) -> None:
        clock.freeze(self.now)
        self.staff = User.objects.create(username=f"bench-{self.run}", is_staff=True)
        self.staff.set_unusable_password()
        self.staff.save()
        for role in (Role.FLOOR_SUPERVISOR, Role.HOUSE_DEALER):
            group, _ = Group.objects.get_or_create(name=role.group_name)
            self.staff.groups.add(group)
        for index in range(1, self.tables + 1):
            name = f"BENCH-{self.run}-{index}"
            table = floor.create_table(name=name, by=self.staff)
            seated = {}
            for seat in range(1, PATRONS_PER_TABLE + 1):
                player = floor.create_player(
                    player_number=f"{name}-S{seat}", name=f"Patron {name} seat {seat}"
                )
                floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=self.staff)
                chips.buy_in(
                    table_id=table.pk,
                    player_id=player.pk,
                    amount=BUY_IN,
                    currency=False,
                    by=self.staff,
                )
                seated[seat] = player
            floor.open_game_at(table_id=table.pk, first_offer_seat=1, by=self.staff)
            self.floor_tables.append(BenchTable(table, seated))

    counter: QueryCounter = field(default_factory=QueryCounter)
    by_step: dict[str, list[int]] = field(default_factory=dict)

    def step(self, name: str, call, *args, **kwargs):
        """Run one service call, adding the queries it sent to ``name``'s tally."""
        before = self.counter.count
        try:
            return call(*args, **kwargs)
        finally:
            self.by_step.setdefault(name, []).append(self.counter.count - before)

    def find_player_dealer(self, bench_table: BenchTable) -> None:
        table_id = bench_table.table.pk
        for _ in range(4 * PATRONS_PER_TABLE):
            try:
                offer = self.step("offer", button.offer_button, table_id=table_id, by=self.staff)
            except StateError:
                continue  # everyone declined or was passed over: a new offer round
            accept = self.rng.random() >= DECLINE_CHANCE
            self.step(
                "answer",
                button.answer_offer,
                table_id=table_id,
                offer_id=offer.pk,
                accept=accept,
                by=self.staff,
            )
            if accept:
                return
        raise RuntimeError(f"no one accepted the button at {bench_table.table}")

    def play_round(self, bench_table: BenchTable) -> Round:
        table_id = bench_table.table.pk
        self.find_player_dealer(bench_table)
        round_ = self.step("start_round", rounds.start_round, table_id=table_id, by=self.staff)
        self.step("post_bank", rounds.post_bank, round_id=round_.pk, amount=BANK, by=self.staff)
        seats = [s for s in bench_table.seated if s != round_.player_dealer_seat]
        self.step(
            "place_bets",
            wagering.place_bets,
            round_id=round_.pk,
            bets=[BetRequest(s, ANTE, ANTE) for s in seats],
            by=self.staff,
        )
        self.step("close_wagering", rounds.close_wagering, round_id=round_.pk, by=self.staff)
        self.step("deal", rounds.deal, round_id=round_.pk, by=self.staff, rng=self.rng)
        live = list(seats)
        streets = [
            (rounds.reveal_flop, [("play", 4), ("play", 3), ("check", 0), ("check", 0)]),
            (rounds.reveal_turn_and_river, [("play", 2), ("check", 0)]),
            (rounds.showdown, [("play", 1), ("fold", 0)]),
        ]
        for reveal, choices in streets:
            decisions = [(seat, *self.rng.choice(choices)) for seat in live]
            if decisions:
                self.step(
                    "decide_street",
                    rounds.decide_street,
                    round_id=round_.pk,
                    decisions=decisions,
                    by=self.staff,
                )
            live = [seat for seat, action, _ in decisions if action == "check"]
            self.step(reveal.__name__, reveal, round_id=round_.pk, by=self.staff)
        return self.step("settle", rounds.settle, round_id=round_.pk, by=self.staff)

    def play(self, total: int) -> list[Sample]:
        samples = []
        counter = self.counter
        with connection.execute_wrapper(counter):
            while len(samples) < total:
                for bench_table in self.floor_tables:
                    if len(samples) >= total:
                        break
                    self.tick()
                    counter.count = 0
                    started = time.perf_counter()
                    settled = self.play_round(bench_table)
                    samples.append(Sample(time.perf_counter() - started, counter.count))
                    assert settled.state == State.SETTLED
        return samples


def describe(label: str, samples: list[Sample]) -> str:
    seconds = sum(s.seconds for s in samples)
    queries = [s.queries for s in samples]
    return (
        f"{label:<16} {len(samples):>5} rounds  {len(samples) / seconds:8.1f} rounds/s  "
        f"{statistics.mean(queries):6.1f} queries/round "
        f"(min {min(queries)}, median {statistics.median(queries):g}, max {max(queries)})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--seconds-per-round", type=float, default=90.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--window", type=int, default=WINDOW, help="rounds measured at the start and at the end"
    )
    parser.add_argument(
        "--allow-sqlite", action="store_true", help="run on SQLite anyway (figures not comparable)"
    )
    args = parser.parse_args(argv)
    vendor = connection.vendor
    if vendor != "postgresql" and not args.allow_sqlite:
        print(
            f"refusing to run on {vendor}: set DATABASE_URL to a PostgreSQL database "
            "(or pass --allow-sqlite)",
            file=sys.stderr,
        )
        return 2
    window = args.window
    if window < 1 or args.rounds < 2 * window:
        parser.error(f"--rounds must be at least twice --window ({2 * window})")

    bench = Bench(args.tables, args.seconds_per_round, random.Random(args.seed))
    try:
        bench.set_up()
        started = time.perf_counter()
        samples = bench.play(args.rounds)
        elapsed = time.perf_counter() - started
    finally:
        clock.freeze(None)

    with connection.cursor() as cursor:
        cursor.execute("SELECT version()" if vendor == "postgresql" else "SELECT sqlite_version()")
        (server,) = cursor.fetchone()
    stored = Round.objects.count()
    print(f"floor rounds benchmark, run {bench.run}, seed {args.seed}")
    print(f"database: {vendor} {server.split(',')[0]}")
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    print(f"{args.rounds} rounds over {args.tables} tables in {elapsed:.1f} s")
    print(f"rounds stored in the database after the run: {stored}")
    print(describe(f"first {window}", samples[:window]))
    print(describe(f"last {window}", samples[-window:]))
    print(describe("all", samples))
    print("queries per call, by service (mean over the run; calls per round in brackets):")
    for name, counts in bench.by_step.items():
        print(
            f"  {name:<22} {statistics.mean(counts):5.1f}  "
            f"[{len(counts) / len(samples):.2f}]  max {max(counts)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
