"""``manage.py simulate --tables N --rounds M [--seed S]``: fill the floor with complete rounds."""

from __future__ import annotations

import time
from datetime import datetime

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from cardroom import clock
from rounds.simulation import Simulation


class Command(BaseCommand):
    help = (
        "Play complete rounds through the real service layer (seating, button offers with "
        "some declines, wagers, basic-strategy decisions, RNG deals, settlement); a seed "
        "reproduces them."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=2)
        parser.add_argument(
            "--rounds", type=int, default=20, help="rounds in all, dealt table by table"
        )
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument(
            "--baccarat-tables",
            type=int,
            default=0,
            help="EZ Baccarat tables besides the --tables of Ultimate Texas Hold'em",
        )
        parser.add_argument(
            "--start",
            default=None,
            help="ISO time of the first round (default 2026-11-20T18:00-08:00)",
        )
        parser.add_argument("--prefix", default="SIM", help="table names start with this")
        parser.add_argument(
            "--no-fees",
            dest="fees",
            action="store_false",
            help="tables without a collection schedule (for benchmark comparisons)",
        )

    def handle(
        self,
        *args,
        tables: int,
        rounds: int,
        seed,
        start,
        prefix,
        fees,
        baccarat_tables=0,
        **options,
    ):
        if tables < 1 or rounds < 0 or baccarat_tables < 0:
            raise CommandError("--tables must be at least 1 and --rounds at least 0")
        begin = datetime.fromisoformat(start) if start else None
        if begin is not None and begin.tzinfo is None:
            raise CommandError("--start needs a UTC offset, e.g. 2026-11-20T18:00-08:00")
        marks: list[int] = []  # the query count at the end of each round
        simulation = Simulation(
            tables=tables,
            baccarat_tables=baccarat_tables,
            seed=seed,
            start=begin,
            prefix=prefix,
            fees=fees,
            on_round=lambda _round: marks.append(queries),
        )
        queries = 0

        def count(execute, sql, params, many, context):
            nonlocal queries
            queries += 1
            return execute(sql, params, many, context)

        try:
            simulation.set_up()
            started = time.perf_counter()
            with connection.execute_wrapper(count):
                played = simulation.play(rounds)
            seconds = time.perf_counter() - started
        finally:
            clock.freeze(None)
        rate = played / seconds if seconds else 0.0
        per_round = queries / played if played else 0.0
        sample = min(100, len(marks) // 2)
        spread = ""
        if sample:
            first = marks[sample - 1] / sample
            last = (marks[-1] - marks[-sample - 1]) / sample
            spread = f" (first {sample}: {first:.1f}, last {sample}: {last:.1f})"
        self.stdout.write(
            f"simulated {played} rounds at {tables} tables in {seconds:.2f} s: "
            f"{rate:.1f} rounds/s, {per_round:.1f} queries per round{spread}"
        )
