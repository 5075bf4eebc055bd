"""Benchmark: the floor map, the waitlist page and the table board's fragment at 60 tables
and 200 waiting players on four lists (docs/benchmarks.md, "Waitlists and the table board").

In process, through Django's test client (the whole request path: middleware, session,
views, templates), on the database in DATABASE_URL, which must be a scratch database: the
script migrates it and adds the room (tables ``WB-00`` to ``WB-59``) once::

    createdb -h 127.0.0.1 -U postgres cardroom_waitlist_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_waitlist_bench \\
        .venv/bin/python bench/waitlist_pages.py [--requests 200]

Printed per page: the queries of one request and p50/p90/p99 latency over ``--requests``
requests (the floor map rendered afresh each time: its shared cache is off here), on one
database connection kept open. It prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TOKEN = "bench-board"
STAKES = [(500, 50_000), (1_000, 100_000), (2_500, 250_000), (5_000, 500_000)]


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    os.environ["CARDROOM_BOARD_TOKEN"] = TOKEN
    os.environ["CONSOLE_FLOOR_CACHE_SECONDS"] = "0"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)


def build(tables: int, waiting: int):
    from django.contrib.auth.models import Group, User

    from cardroom.roles import Role
    from tables.models import Table, Waitlist
    from tables.services import floor, waitlists

    user, _ = User.objects.get_or_create(username="bench-waitlists", defaults={"is_staff": True})
    user.groups.add(Group.objects.get_or_create(name=Role.FLOOR_SUPERVISOR.group_name)[0])
    if Table.objects.filter(name__startswith="WB-").exists():
        return user
    made = []
    for number in range(tables):
        low, high = STAKES[number % len(STAKES)]
        table = floor.create_table(
            name=f"WB-{number:02d}", by=user, options={"minimum_cents": low, "maximum_cents": high}
        )
        made.append(table)
        for seat in (1, 2, 3, 4):
            player = floor.create_player(
                player_number=f"WB-S{number}-{seat}", name=f"Seated {number} {seat}"
            )
            floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=user)
    # A list already open for the stakes (the demo floor keeps one) is the room's list: one a
    # stakes (docs/rules.md §3.6), so the bench's players join it.
    # A list is kept only for the stakes of a table: with fewer tables than STAKES, fewer lists.
    rows = [
        Waitlist.objects.filter(minimum_cents=low, maximum_cents=high).first()
        or waitlists.open_waitlist(minimum_cents=low, maximum_cents=high, by=user)
        for low, high in STAKES[:tables]
    ]
    for number in range(waiting):
        player = floor.create_player(player_number=f"WB-W{number}", name=f"Waiting Player{number}")
        waitlists.join(
            waitlist_id=rows[number % len(rows)].pk,
            player_id=player.pk,
            by=user,
            by_phone=number % 10 == 9,
        )
    for index, row in enumerate(rows):
        waitlists.call(waitlist_id=row.pk, table_id=made[index].pk, seat=5, by=user)
    return user


def measure(client, url: str, requests: int) -> tuple[int, list[float]]:
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    reset_queries()  # the log keeps the last 9,000 only: a full log would count nothing
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    return len(queries), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--waiting", type=int, default=200)
    args = parser.parse_args()
    setup()
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections, connection
    from django.test import Client

    # One connection kept open across requests (as a deployment's conn_max_age does), so
    # the queries of a request can be counted on it.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)

    from tables.models import Table, Waitlist

    started = time.perf_counter()
    user = build(args.tables, args.waiting)
    print(
        f"room ready in {time.perf_counter() - started:.1f} s on {connection.vendor}: "
        f"{Table.objects.count()} tables, {Waitlist.objects.count()} lists"
    )
    staff = Client()
    staff.force_login(user)
    tv = Client()
    pages = [
        ("floor map", staff, "/console/"),
        ("waitlist page", staff, "/console/waitlists/"),
        ("board fragment", tv, f"/board/{TOKEN}/panel/"),
    ]
    print(f"{'page':16} {'queries':>7} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}")
    for name, client, url in pages:
        count, times = measure(client, url, args.requests)
        cuts = statistics.quantiles(times, n=100)
        print(f"{name:16} {count:7d} {cuts[49]:8.1f} {cuts[89]:8.1f} {cuts[98]:8.1f}")


if __name__ == "__main__":
    main()
