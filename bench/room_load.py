"""Benchmark: a full California room over HTTP: tablets, floor maps, boards (docs/benchmarks.md).

Against a real server on 127.0.0.1 (never any other address): gunicorn, DEBUG off, on the
PostgreSQL database in DATABASE_URL (SQLite is refused). Four kinds of client (the second
in a mixed room only), each a thread of this process:

- ``--tables`` (250) **tablets**, one per Ultimate Texas Hold'em table, each dealing one
  round a minute through the REST API with a house dealer's token, the tables' first rounds
  staggered evenly over the minute (4.2 rounds/s in all). A round is the floor's sequence
  (``floor_rounds.py``), one request per action, ``--gap`` (2 s) apart as a dealer keys
  them: the button offer (one in five declined, then the next seat accepts) and its answer,
  start, the player-dealer's bank, the hands' Ante and Blind (a Trips now and then) in one
  call (``wagers/batch/``), no more bets (the collection fees are taken there), the RNG
  deal, each street's decisions in one call (``decisions/street/``; random: a Play or a
  check, a fold at the river), the flop, the turn and river, the showdown and the
  settlement. Every action says ``Prefer: return=minimal`` (docs/api.md): the answer is the
  round's id and state (the offer's id, seat and answer), not the round read back in full;
  the tablet knows the player-dealer's seat from the offer accepted and the Play sizes from
  the table's options. ``--one-by-one``: one bettor's wagers and one hand's decision per
  call (``wagers/``, ``decisions/``), as the API was first driven; ``--full-answers``: no
  ``Prefer``, every answer in full. A round started is always played to its settlement, even
  past the deadline.
- ``--baccarat-tables`` (0) **baccarat tablets** besides, one per EZ Baccarat table (a mixed
  room: ``--tables 150 --baccarat-tables 100``), each dealing one hand every
  ``--baccarat-seconds`` (40) through the same round API, the tables' first hands staggered
  evenly over that time (2.5 hands/s at 100 tables), ``--gap`` apart: the button offer and its
  answer (as above), start, the player-dealer's bank, the bettors' wagers in one call
  (``wagers/batch/``; ``--one-by-one``: a bettor's a call): Player or Banker ($5, $10 or $25)
  and now and then a $5 Tie, Dragon 7 or Panda 8; no more bets (the collection fees), the
  showdown (the coup dealt by RNG from the table's shoe: the hand that brings out the cut
  card finishes the shoe, and the next hand opens a new one, by themselves) and the
  settlement; about 8.4 requests a hand, each with ``Prefer: return=minimal``. Timed under
  kinds of their own (``bac offer`` ... ``bac settle``) and counted in the dealer's actions.
- ``--viewers`` (60) **floor-map screens** signed in as a floor supervisor (one sign-in
  through the real sign-in page, CSRF and django-axes; every screen then sends its session
  cookie: a request costs the same whoever's session it reads). Each loads the floor map
  once, then polls it as the page does (``GET /console/`` with ``HX-Request``: each table's
  part rendered once per change of the table and shared by every worker through Redis when
  ``REDIS_URL`` is set) every 5 s.
- ``--boards`` (4) **room TVs** showing the table board: the page once, then its panel
  (``/board/<token>/panel/``) every 5 s, the board's own refresh (``console/views/board.py``).

The tablets' tokens (a dealer's, one per tablet, and a supervisor's for a void) are issued
before each run with knox's ``AuthToken.objects.create``, which is what ``POST
/api/auth/token/`` does once the password is checked: 250 real sign-ins would cost 250 password
hashes of about a second each before the first round. Connections are not kept alive (every
request says ``Connection: close``): a sync worker closes them anyway, and a tablet's next
action comes after a keep-alive timeout would have run out.

``--prepare`` migrates and creates what is missing of the room, through the services
(idempotent: Ultimate Texas Hold'em tables ``ROOM-001``..., EZ Baccarat tables
``ROOM-B001``...): the tables ($5-$500 with $1 chips, RNG deal; the baccarat tables' other
options the game's defaults: 8 decks, 9 seats, Tie 8 to 1, side wagers up to the base
wager), ``--patrons`` (5) patrons seated at each with chips (the player-dealer and four
hands), a collection-fee schedule per table (the simulator's rates: per betting square at
odd tables, on total table action at even ones; charging the table's game's squares: Ante,
Blind and Trips, or Player, Banker, Tie, Dragon 7 and Panda 8), a house dealer
``room-dealer`` and a floor supervisor ``room-supervisor``; alone, it stops there. Before
every run the bench tables of both games get a fresh game (an old one would meet the
40-minute rule), a round left in play by an interrupted run is voided and low chip stacks
are bought up. ``--serve`` starts gunicorn itself and stops it at the end: ``--workers`` (5:
2 x cores + 1, gunicorn's usual figure, as a request waits on PostgreSQL part of its time)
sync workers, or gthread with ``--threads`` above 1; persistent database connections
(``--conn-max-age``, 60 s, added to DATABASE_URL unless it names one, as docs/console.md
"Deploying" says); an access log of each request's time in the worker. Without ``--serve``
the bench drives a server already listening on ``--port`` (started with the same
CARDROOM_BOARD_TOKEN). Use a database of its own for each room: the floor map and the board
show every open table in it (the bench tables of another size too: the reset says how many
are not this run's), and their cost grows with them::

    createdb -h 127.0.0.1 -U postgres cardroom_room
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_room
    .venv/bin/python bench/room_load.py --prepare --tables 250      # once (about a minute)
    .venv/bin/python bench/room_load.py --serve \\
        [--tables 250] [--viewers 60] [--boards 4] [--minutes 3] [--workers 5] [--port 8765] \\
        [--baccarat-tables 0] [--baccarat-seconds 40] [--one-by-one] [--full-answers]

The mixed room, 150 Hold'em and 100 baccarat tables (250 on the floor map, as above)::

    createdb -h 127.0.0.1 -U postgres cardroom_room_mixed
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_room_mixed
    .venv/bin/python bench/room_load.py --prepare --tables 150 --baccarat-tables 100
    .venv/bin/python bench/room_load.py --serve --tables 150 --baccarat-tables 100

Bounded: ``--minutes`` (3, at most 10); after it no round starts and the screens stop
polling; the rounds in play are played to their settlement (without the pauses a minute after
the time; abandoned, and reported, after 10 minutes, which only an overloaded server needs);
every thread is joined and gunicorn is stopped. Ctrl-C (or SIGTERM) stops at once: the rounds
in play finish without pauses; a second Ctrl-C abandons them.

Printed, over the requests begun from the end of the first minute (every table dealing by
then; the end of the baccarat period if it is longer) to the time (the whole run if it is
under two such spans): for each kind of request the count and the p50/p95/p99/max latency
seen by the client, beside the p50/p99 of its time in the worker (gunicorn's access log: the
difference is waiting for a worker; a dealer's action whose path names a baccarat table or
hand is a ``bac`` kind), each game's actions together in a mixed room and all the dealer's
actions of both games together; the achieved rates (rounds/s, baccarat hands/s, dealer
actions/s, floor-map and board polls/s) against the offered ones, and how late the rounds
started; the errors (every non-2xx or lost connection, with the first line of its body);
rounds started and settled, counted by the client and in the database, each game's apart;
``manage.py verify_ledger``; the CPU used by the load generator, the gunicorn workers and the
bench database's PostgreSQL backends; the load average; and the targets beside the figures
(p99 of the dealer's actions of both games < 150 ms, p99 of the floor map at 250 tables
< 300 ms, no errors, every round settled, ``verify_ledger`` clean). The load generator shares
the machine with the server. It prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HOST = "127.0.0.1"  # loopback only: the bench never talks to another address
PREFIX = "ROOM"
DEALER = "room-dealer"
SUPERVISOR = "room-supervisor"
PASSWORD = "room-bench-" + "password-not-a-secret"
MAX_MINUTES = 10
ROUND_SECONDS = 60.0  # one round a minute at every table
POLL_SECONDS = 5.0  # the floor map's hx-trigger "every 5s" and the board's REFRESH_SECONDS
TIMEOUT = 60.0  # seconds for one request
TAIL_SECONDS = 600.0  # the rounds in play when the time is up are abandoned after this
BUY_IN = 2_000_000  # cents of chips per patron; bought up again below LOW_STACK
LOW_STACK = 1_000_000
BANK = 100_000
ANTE = 500  # the table minimum; the Blind equals it
TRIPS = 500
TRIPS_CHANCE = 0.3
DECLINE_CHANCE = 0.2  # the first offer of a round only: the next seat always accepts
FLOP = [("play", 2), ("check", 0)]
RIVER = [("play", 1), ("fold", 0)]
TABLE_OPTIONS = {"minimum_cents": 500, "maximum_cents": 50_000, "chip_unit_cents": 100}
DEALER_KINDS = (
    "offer", "answer", "start", "bank", "bets", "bets_batch", "no_more_bets", "deal", "decide",
    "decide_street", "reveal_flop", "reveal_turn_river", "showdown", "settle", "void",
)  # fmt: skip
BACCARAT = "ez_baccarat"
BACCARAT_PREFIX = f"{PREFIX}-B"  # ROOM-B001...: EZ Baccarat tables beside ROOM-001...
BACCARAT_SECONDS = 40.0  # a hand every 40 s at every baccarat table
BACCARAT_OPTIONS = TABLE_OPTIONS  # $5-$500, $1 chips; the game's other options its defaults
BACCARAT_BASES = (500, 1_000, 2_500)  # a bettor's Player or Banker wager
BACCARAT_SIDES = ("tie", "dragon_7", "panda_8")
SIDE = 500  # a side wager (at most the bettor's base wager, the game's default maximum)
SIDE_CHANCE = 0.15  # each side wager's, per bettor and hand
BACCARAT_KINDS = tuple(
    f"bac {kind}"
    for kind in (
        "offer", "answer", "start", "bank", "bets", "bets_batch", "no_more_bets", "showdown",
        "settle", "void",
    )
)  # fmt: skip
ALL_DEALER_KINDS = DEALER_KINDS + BACCARAT_KINDS  # the dealer-actions target counts both games
MINIMAL = {"Prefer": "return=minimal"}  # RFC 7240: the answer without the round read back
VIEWER_KINDS = ("floor map", "floor map page", "board", "board page")


# --- The Django side: run in a child process (``--step``), as manage.py would ------------------


def _django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    import django

    django.setup()


def _staff(username: str, role):
    from django.contrib.auth.models import Group, User

    user, _ = User.objects.get_or_create(username=username, defaults={"is_staff": True})
    if not user.check_password(PASSWORD):
        user.set_password(PASSWORD)
        user.save()
    user.groups.add(Group.objects.get_or_create(name=role.group_name)[0])
    return user


def table_names(tables: int, baccarat_tables: int) -> list[tuple[str, str | None]]:
    """The bench tables' names and games (``None``: Ultimate Texas Hold'em, the default)."""
    return [(f"{PREFIX}-{index:03d}", None) for index in range(1, tables + 1)] + [
        (f"{BACCARAT_PREFIX}{index:03d}", BACCARAT) for index in range(1, baccarat_tables + 1)
    ]


def step_prepare(tables: int, patrons: int, baccarat_tables: int) -> dict:
    """The room, through the services; only what is missing is created."""
    from django.db import transaction

    from cardroom.roles import Role
    from fees.services import schedules
    from rounds.simulation import SIM_FEES_ON_ACTION, SIM_FEES_PER_SQUARE
    from tables.models import Table
    from tables.services import floor
    from wagers.services import chips

    _staff(DEALER, Role.HOUSE_DEALER)
    supervisor = _staff(SUPERVISOR, Role.FLOOR_SUPERVISOR)
    existing = set(
        Table.objects.filter(name__startswith=f"{PREFIX}-").values_list("name", flat=True)
    )
    made = 0
    for name, game in table_names(tables, baccarat_tables):
        if name in existing:
            continue
        options = BACCARAT_OPTIONS if game else TABLE_OPTIONS
        with transaction.atomic():  # a table with its patrons and fees, or nothing
            table = floor.create_table(name=name, by=supervisor, options=options, game=game)
            for seat in range(1, patrons + 1):
                player = floor.create_player(
                    player_number=f"{name}-S{seat}", name=f"Patron {name} seat {seat}"
                )
                floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=supervisor)
                chips.buy_in(
                    table_id=table.pk, player_id=player.pk, amount=BUY_IN, currency=False,
                    by=supervisor,
                )  # fmt: skip
            on_action = int(name[-3:]) % 2 == 0
            schedule = schedules.create_schedule(
                name=f"{name} collection", table_id=table.pk, by=supervisor
            )
            # The squares charged are the table's game's (create_version's default): Ante,
            # Blind and Trips at a Hold'em table; Player, Banker and the side wagers at a
            # baccarat one.
            schedules.create_version(
                schedule_id=schedule.pk,
                rates=SIM_FEES_ON_ACTION if on_action else SIM_FEES_PER_SQUARE,
                player_dealer_basis="total_table_action" if on_action else "per_betting_square",
                note="room load benchmark",
                by=supervisor,
            )
            floor.open_game_at(table_id=table.pk, first_offer_seat=1, by=supervisor)
        made += 1
        if made % 50 == 0:
            print(f"  {made} tables made", flush=True)
    return {"made": made, "existing": len(existing)}


def step_reset(tables: int, baccarat_tables: int) -> dict:
    """Before a run: a fresh game at each bench table (both games), nothing left in play,
    chips enough; a token per tablet and one for the supervisor."""
    from django.contrib.auth.models import User
    from django.db import transaction
    from knox.models import get_token_model

    from cardroom.clock import now
    from rounds import services as rounds
    from tables.models import Seating, Table
    from tables.selectors.floor import active_round, open_game
    from tables.services import floor
    from wagers.services import chips
    from wagers.services.chips import chip_account

    dealer = User.objects.get(username=DEALER)
    supervisor = User.objects.get(username=SUPERVISOR)
    names = [name for name, _ in table_names(tables, baccarat_tables)]
    found = Table.objects.filter(name__in=names, closed_at__isnull=True).in_bulk(field_name="name")
    missing = [name for name in names if name not in found]
    if missing:
        raise SystemExit(
            f"{len(missing)} bench tables missing (the first {missing[0]}): run with --prepare "
            f"--tables {tables} --baccarat-tables {baccarat_tables}"
        )
    rows = [found[name] for name in names]  # the Hold'em tables, then the baccarat ones
    out = []
    voided = bought = 0
    for index, table in enumerate(rows):
        with transaction.atomic():
            left = active_round(table)
            if left is not None:
                rounds.void_round(
                    round_id=left.pk, by=supervisor, reason="room benchmark: an interrupted run"
                )
                voided += 1
            if open_game(table) is not None:
                floor.close_game(table_id=table.pk, by=supervisor, detail="room benchmark run")
            seatings = list(
                Seating.objects.filter(table=table, left_at__isnull=True)
                .select_related("player")
                .order_by("seat")
            )
            seats = [s.seat for s in seatings]
            for seating in seatings:
                account = chip_account(seating.player, table)
                if account is None or account.balance_cents < LOW_STACK:
                    chips.buy_in(
                        table_id=table.pk, player_id=seating.player_id, amount=BUY_IN,
                        currency=False, by=supervisor,
                    )  # fmt: skip
                    bought += 1
            first = seats[index % len(seats)]
            floor.open_game_at(table_id=table.pk, first_offer_seat=first, by=supervisor)
        out.append({
            "id": table.pk, "name": table.name, "game": table.game, "seats": seats,
            "preflop_multiples": list(table.preflop_multiples),
        })  # fmt: skip
    tokens = get_token_model().objects
    tokens.filter(user__in=[dealer, supervisor]).delete()
    dealer_tokens = [tokens.create(user=dealer)[1] for _ in rows]
    return {
        "since": now().isoformat(),
        "tables": out,
        "tokens": dealer_tokens,
        "supervisor_token": tokens.create(user=supervisor)[1],
        "voided": voided,
        "bought": bought,
        # The floor map and the board show every open table of the room, not only these.
        "open_tables": Table.objects.filter(closed_at__isnull=True).count(),
    }


def step_check(since: str, table_ids: list[int]) -> dict:
    """After a run: the rounds started since the run began at the bench tables, by state;
    the run's tokens are ended."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.db.models import Count
    from knox.models import get_token_model

    from tables.models import Round

    started = datetime.fromisoformat(since)
    states: dict[str, int] = collections.Counter()
    by_game: dict[str, dict[str, int]] = collections.defaultdict(dict)
    for game, state, n in (
        Round.objects.filter(table_id__in=table_ids, started_at__gte=started)
        .values_list("table__game", "state")
        .annotate(n=Count("id"))
        .values_list("table__game", "state", "n")
    ):
        states[state] += n
        by_game[game][state] = n
    get_token_model().objects.filter(
        user__in=User.objects.filter(username__in=[DEALER, SUPERVISOR])
    ).delete()
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    return {"states": states, "by_game": by_game, "postgres": version.split(",")[0]}


def run_step(env: dict, *args: str) -> dict:
    """Run a Django step in a child process; its answer is the last line, as JSON."""
    proc = subprocess.run(
        [PYTHON, str(Path(__file__).resolve()), "--step", *args], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    lines = proc.stdout.splitlines()
    for line in lines:
        if not line.startswith("RESULT:"):
            print(line)
    if proc.returncode != 0 or not lines or not lines[-1].startswith("RESULT:"):
        raise SystemExit(f"the {args[0]} step failed (exit {proc.returncode})")
    return json.loads(lines[-1][len("RESULT:") :])


def step_main(argv: list[str]) -> None:
    _django()
    name, *rest = argv
    if name == "prepare":
        result = step_prepare(int(rest[0]), int(rest[1]), int(rest[2]))
    elif name == "reset":
        result = step_reset(int(rest[0]), int(rest[1]))
    elif name == "check":
        result = step_check(rest[0], [int(x) for x in rest[1].split(",") if x])
    else:
        raise SystemExit(f"no step {name}")
    print("RESULT:" + json.dumps(result), flush=True)


# --- The server -------------------------------------------------------------------------------


def refuse_busy_port(port: int) -> None:
    """Never measure someone else's server: the port must be free before gunicorn starts."""
    with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=2):
        raise SystemExit(f"something already listens on {HOST}:{port}: choose another --port")


def serve(env: dict, port: int, workers: int, threads: int, log: Path) -> subprocess.Popen:
    refuse_busy_port(port)
    command = [
        PYTHON, "-m", "gunicorn", "cardroom.wsgi:application", "--workers", str(workers),
        "--bind", f"{HOST}:{port}", "--log-level", "warning",
        "--access-logfile", str(log),
        # when, method, path, status, microseconds in the worker, whether htmx asked.
        "--access-logformat", "%(t)s|%(m)s|%(U)s|%(s)s|%(D)s|%({hx-request}i)s",
    ]  # fmt: skip
    if threads > 1:
        command += ["--threads", str(threads)]
    # A session of its own: the terminal's Ctrl-C reaches the bench, which stops it in order.
    proc = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited with {proc.returncode}")
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=2)
            connection.request("GET", "/console/sign-in/")
            if connection.getresponse().status == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.2)
    stop_server(proc)
    raise SystemExit("gunicorn did not start")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU of a process so far (Linux /proc), in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuMonitor(threading.Thread):
    """Every 2 s, the CPU used so far by gunicorn's workers and by the PostgreSQL backends
    connected to the bench database (found by their process title); a process first seen
    after the start counts from its birth. Backends living less than 2 s are missed."""

    def __init__(self, master: int | None, database: str) -> None:
        super().__init__(daemon=True)
        self.master = master
        self.title = re.compile(rf"^postgres: (?:\S+: )?\S+ {re.escape(database)} ")
        self.finished = threading.Event()
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.kind: dict[int, str] = {}
        self.sample(initial=True)

    def pids(self) -> dict[int, str]:
        found = {}
        if self.master:
            children = Path(f"/proc/{self.master}/task/{self.master}/children")
            with contextlib.suppress(OSError):
                found = {int(pid): "workers" for pid in children.read_text().split()}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                except OSError:
                    continue
                if self.title.match(title):
                    found[int(entry.name)] = "backends"
        return found

    def sample(self, initial: bool = False) -> None:
        for pid, kind in self.pids().items():
            seconds = cpu_seconds(pid)
            if seconds is None:
                continue
            if pid not in self.first:
                self.first[pid] = seconds if initial else 0.0
                self.kind[pid] = kind
            self.last[pid] = seconds

    def run(self) -> None:
        while not self.finished.wait(2.0):
            self.sample()

    def totals(self) -> dict[str, float]:
        self.finished.set()
        self.sample()
        totals = {"workers": 0.0, "backends": 0.0}
        for pid, seconds in self.last.items():
            totals[self.kind[pid]] += seconds - self.first[pid]
        return totals


# --- The clients ------------------------------------------------------------------------------


class Failed(Exception):
    """An answer that was not 2xx (or no answer): recorded; the caller stops what it does."""


@dataclass
class Run:
    port: int
    stop: threading.Event = field(default_factory=threading.Event)  # Ctrl-C: no more pauses
    abandoned: threading.Event = field(default_factory=threading.Event)  # no more requests
    start_at: float = 0.0  # time.monotonic()
    start_wall: float = 0.0  # the same moment, time.time() (for the server's log)
    deadline: float = 0.0
    pace_until: float = 0.0  # past it, the rounds in play go on without the dealer's pauses
    # (kind, began, seconds); list.append is atomic, so the threads share them unlocked.
    samples: list[tuple[str, float, float]] = field(default_factory=list)
    errors: list[tuple[str, int, str]] = field(default_factory=list)
    started: list[int] = field(default_factory=list)  # round ids, as the start answered
    settled: list[tuple[int, float]] = field(default_factory=list)  # and when
    actions: list[int] = field(default_factory=list)  # requests of each settled round
    lags: list[float] = field(default_factory=list)  # how late each round started (s)
    baccarat: set[int] = field(default_factory=set)  # the round ids of baccarat hands
    baccarat_actions: list[int] = field(default_factory=list)  # requests of each hand settled
    stopped_tables: list[str] = field(default_factory=list)

    def pause(self, seconds: float) -> None:
        """A dealer's pause, skipped once stopping (Ctrl-C) or a minute past the time."""
        if seconds > 0 and time.monotonic() < self.pace_until:
            self.stop.wait(seconds)

    def sleep_until(self, moment: float) -> bool:
        """Wait for ``moment``; then whether there is still time to begin something. A moment
        past the time is not waited for: nothing would begin then."""
        if moment >= self.deadline or self.stop.wait(max(0.0, moment - time.monotonic())):
            return False
        return time.monotonic() < self.deadline


class Caller:
    """One terminal or screen: its headers (a token, a session cookie), one request at a time."""

    def __init__(self, run: Run, headers: dict[str, str]) -> None:
        self.run = run
        self.headers = {"Connection": "close", **headers}

    def call(self, kind: str, method: str, path: str, body=None, headers=None) -> bytes:
        run = self.run
        if run.abandoned.is_set():
            raise Failed  # the run is over: nothing more is sent or recorded
        sent = dict(self.headers, **(headers or {}))
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        connection = http.client.HTTPConnection(HOST, run.port, timeout=TIMEOUT)
        began = time.monotonic()
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            answer = response.read()
        except (OSError, http.client.HTTPException) as error:
            if not run.abandoned.is_set():
                run.samples.append((kind, began, time.monotonic() - began))
                run.errors.append((kind, 0, f"{type(error).__name__}: {error}"))
            raise Failed from error
        finally:
            connection.close()
        if run.abandoned.is_set():
            raise Failed
        run.samples.append((kind, began, time.monotonic() - began))
        if not 200 <= response.status < 300:
            line = answer.decode(errors="replace").strip().splitlines()
            run.errors.append((kind, response.status, line[0][:160] if line else ""))
            raise Failed
        return answer


def sign_in(port: int) -> str:
    """A floor supervisor's session through the console's sign-in page; the Cookie header."""
    cookies: dict[str, str] = {}

    def request(method: str, path: str, body: str | None = None) -> tuple[int, bytes]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://{HOST}/console/sign-in/"
        connection = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            cookies[name] = rest.split(";", 1)[0]
        return response.status, data

    _, page = request("GET", "/console/sign-in/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = {"csrfmiddlewaretoken": token.decode(), "username": SUPERVISOR, "password": PASSWORD}
    status, _ = request("POST", "/console/sign-in/", urlencode(form))
    if status != 302:
        raise SystemExit(f"sign-in failed with {status}")
    return "; ".join(f"{k}={v}" for k, v in cookies.items())


def warm_up(port: int, requests: list[tuple[str, dict]], times: int) -> None:
    """Reads that load each worker's lazy parts (URLs, views, templates) before the clock
    starts; not timed. Sync workers take whichever request comes, so each is sent often."""
    for _ in range(times):
        for path, headers in requests:
            connection = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
            connection.request("GET", path, headers={"Connection": "close", **headers})
            connection.getresponse().read()
            connection.close()


@dataclass
class Tablet:
    """The dealer's terminal at an Ultimate Texas Hold'em table: a round a minute, each action
    timed."""

    run: Run
    table: dict
    dealer: Caller
    supervisor: Caller
    offset: float
    gap: float
    rng: random.Random
    one_by_one: bool = False  # one bettor's wagers, one hand's decision per call
    full_answers: bool = False  # no Prefer: return=minimal
    round_id: int | None = None  # the round in play
    count: int = 0  # its requests so far
    period: float = ROUND_SECONDS  # a round begins every period
    label: str = ""  # before each request's kind: the game's requests are counted apart

    @property
    def prefer(self) -> dict[str, str]:
        return {} if self.full_answers else MINIMAL

    def act(self, kind: str, path: str, body=None, pause: bool = True) -> bytes:
        sent = body if body is not None else {}
        answer = self.dealer.call(self.label + kind, "POST", path, sent, headers=self.prefer)
        self.count += 1
        if pause:
            self.run.pause(self.gap)
        return answer

    def loop(self) -> None:
        run = self.run
        due = run.start_at + self.offset
        while run.sleep_until(due):  # a round begins only before the time is up
            run.lags.append(time.monotonic() - due)
            try:
                self.play_round()
            except Failed:
                self.give_up()
                return
            due += self.period

    def give_up(self) -> None:
        """After an error: the round in play is voided (a floor supervisor's call), and this
        table deals no more in this run."""
        if self.run.abandoned.is_set():
            return
        self.run.stopped_tables.append(self.table["name"])
        if self.round_id is not None:
            with contextlib.suppress(Failed):
                self.supervisor.call(
                    self.label + "void", "POST", f"/api/rounds/{self.round_id}/void/",
                    {"reason": "room benchmark: an action failed"}, headers=self.prefer,
                )  # fmt: skip

    def find_player_dealer(self) -> int:
        """The button offered clockwise: the first offer declined one time in five, the next
        one accepted (an offer round never runs out of seats). Answers the seat accepting:
        the round's player-dealer."""
        table_id = self.table["id"]
        accept = self.rng.random() >= DECLINE_CHANCE
        while True:
            offer = json.loads(self.act("offer", f"/api/tables/{table_id}/button/offer/"))
            answer = f"/api/tables/{table_id}/button/offers/{offer['id']}/answer/"
            self.act("answer", answer, {"accept": accept})
            if accept:
                return offer["seat"]
            accept = True

    def open_round(self) -> tuple[int, str]:
        """The button found, the round started and the bank posted: the player-dealer's seat
        and the round's API path."""
        self.round_id = None
        self.count = 0
        banker = self.find_player_dealer()
        round_ = json.loads(self.act("start", f"/api/tables/{self.table['id']}/rounds/"))
        self.round_id = round_["id"]
        self.run.started.append(self.round_id)
        base = f"/api/rounds/{self.round_id}/"
        self.act("bank", base + "bank/", {"amount": BANK})
        return banker, base

    def place(self, base: str, wagers: list[dict]) -> None:
        """The bettors' wagers (in one call, or one call each with ``--one-by-one``), then
        no more bets."""
        if self.one_by_one:
            for wager in wagers:
                self.act("bets", base + "wagers/", wager)
        else:
            self.act("bets_batch", base + "wagers/batch/", {"bets": wagers})
        self.act("no_more_bets", base + "no-more-bets/")

    def play_round(self) -> None:
        banker, base = self.open_round()
        multiples = self.table["preflop_multiples"]  # the table's options, frozen at the start
        live = [seat for seat in self.table["seats"] if seat != banker]
        wagers = []
        for seat in live:
            trips = TRIPS if self.rng.random() < TRIPS_CHANCE else 0
            wagers.append({"seat": seat, "ante": ANTE, "blind": ANTE, "trips": trips})
        self.place(base, wagers)
        self.act("deal", base + "deal/")
        preflop = [("play", max(multiples)), ("play", min(multiples)), ("check", 0), ("check", 0)]
        streets = [
            (preflop, "reveal_flop", "flop/"),
            (FLOP, "reveal_turn_river", "turn-river/"),
            (RIVER, "showdown", "showdown/"),
        ]
        for choices, reveal, path in streets:
            decisions = [(seat, *self.rng.choice(choices)) for seat in live]
            street = [{"seat": s, "action": a, "multiple": m} for s, a, m in decisions]
            if self.one_by_one:
                for decision in street:
                    self.act("decide", base + "decisions/", decision)
            elif street:  # every hand has played or folded: nothing to decide
                self.act("decide_street", base + "decisions/street/", {"decisions": street})
            live = [seat for seat, action, _ in decisions if action == "check"]
            self.act(reveal, base + path)
        self.act("settle", base + "settle/", pause=False)
        self.run.settled.append((self.round_id, time.monotonic()))
        self.run.actions.append(self.count)
        self.round_id = None


@dataclass
class BaccaratTablet(Tablet):
    """The dealer's terminal at an EZ Baccarat table: a hand every ``--baccarat-seconds``
    (``period``), each action timed under its own kind (``bac ...``). The button offered as at
    Hold'em, start, the player-dealer's bank, the bettors' wagers (Player or Banker, now and
    then a Tie, Dragon 7 or Panda 8) in one call (``wagers/batch/``; ``--one-by-one``: a
    bettor's a call), no more bets (the collection fees), the showdown (the coup dealt from
    the table's shoe by RNG: the hand that brings out the cut card finishes the shoe and the
    next hand opens a new one, by themselves) and the settlement."""

    period: float = BACCARAT_SECONDS
    label: str = "bac "

    def play_round(self) -> None:
        banker, base = self.open_round()
        self.run.baccarat.add(self.round_id)
        wagers = []
        for seat in self.table["seats"]:
            if seat == banker:
                continue
            square = self.rng.choice(("player", "banker"))
            sides = {name: SIDE for name in BACCARAT_SIDES if self.rng.random() < SIDE_CHANCE}
            wagers.append({"seat": seat, square: self.rng.choice(BACCARAT_BASES), **sides})
        self.place(base, wagers)
        self.act("showdown", base + "showdown/")
        self.act("settle", base + "settle/", pause=False)
        self.run.settled.append((self.round_id, time.monotonic()))
        self.run.baccarat_actions.append(self.count)
        self.round_id = None


def screen(run: Run, caller: Caller, kind: str, page: str, panel: str, offset: float) -> None:
    """A floor-map screen or a board: the page once, then the part htmx polls every 5 s."""
    due = run.start_at + offset
    first = True
    while run.sleep_until(due):
        try:
            if first:
                caller.call(f"{kind} page", "GET", page)
                first = False
            else:
                caller.call(kind, "GET", panel, headers={"HX-Request": "true"})
        except Failed:
            pass  # recorded; the screen polls again, as htmx does
        due = max(due + POLL_SECONDS, time.monotonic())


# --- Figures ----------------------------------------------------------------------------------

KIND_OF_PATH = [
    (re.compile(r"^/api/tables/\d+/button/offer/$"), "offer"),
    (re.compile(r"^/api/tables/\d+/button/offers/\d+/answer/$"), "answer"),
    (re.compile(r"^/api/tables/\d+/rounds/$"), "start"),
    (re.compile(r"^/api/rounds/\d+/bank/$"), "bank"),
    (re.compile(r"^/api/rounds/\d+/wagers/$"), "bets"),
    (re.compile(r"^/api/rounds/\d+/wagers/batch/$"), "bets_batch"),
    (re.compile(r"^/api/rounds/\d+/no-more-bets/$"), "no_more_bets"),
    (re.compile(r"^/api/rounds/\d+/deal/$"), "deal"),
    (re.compile(r"^/api/rounds/\d+/decisions/$"), "decide"),
    (re.compile(r"^/api/rounds/\d+/decisions/street/$"), "decide_street"),
    (re.compile(r"^/api/rounds/\d+/flop/$"), "reveal_flop"),
    (re.compile(r"^/api/rounds/\d+/turn-river/$"), "reveal_turn_river"),
    (re.compile(r"^/api/rounds/\d+/showdown/$"), "showdown"),
    (re.compile(r"^/api/rounds/\d+/settle/$"), "settle"),
    (re.compile(r"^/api/rounds/\d+/void/$"), "void"),
    (re.compile(r"^/board/[^/]+/panel/$"), "board"),
    (re.compile(r"^/board/[^/]+/$"), "board page"),
]


OF_PATH = re.compile(r"^/api/(tables|rounds)/(\d+)/")


def server_times(
    log: Path, start_wall: float, baccarat_tables: set[int], baccarat_rounds: set[int]
) -> list[tuple[str, float, float]]:
    """Each request's time in its worker (gunicorn's %(D)s) by kind, as (kind, began, seconds),
    ``began`` in seconds from the start (to the second: the log's clock). A dealer's action at
    a baccarat table (its path names the table or one of its hands) is a ``bac`` kind."""
    times = []
    try:
        lines = log.read_text().splitlines()
    except OSError:
        return times
    for line in lines:
        parts = line.split("|")
        if len(parts) != 6 or not parts[4].isdigit():
            continue
        logged, _, path, _, micros, htmx = parts
        if path == "/console/":
            kind = "floor map" if htmx == "true" else "floor map page"
        else:
            kind = next((k for pattern, k in KIND_OF_PATH if pattern.match(path)), None)
            of = OF_PATH.match(path)
            if kind in DEALER_KINDS and of:
                ids = baccarat_tables if of.group(1) == "tables" else baccarat_rounds
                if int(of.group(2)) in ids:
                    kind = "bac " + kind
        if kind:
            try:
                ended = datetime.strptime(logged, "[%d/%b/%Y:%H:%M:%S %z]").timestamp()
            except ValueError:
                continue
            seconds = int(micros) / 1e6
            times.append((kind, ended - seconds - start_wall, seconds))
    return times


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def figures(values: list[float]) -> str:
    if not values:
        return f"{0:>7} {'':>8} {'':>8} {'':>8} {'':>8}"
    ordered = sorted(values)
    p50, p95, p99 = (percentile(ordered, f) * 1000 for f in (0.5, 0.95, 0.99))
    return f"{len(ordered):>7} {p50:>8.1f} {p95:>8.1f} {p99:>8.1f} {ordered[-1] * 1000:>8.1f}"


def p99(values: list[float]) -> float | None:
    return percentile(sorted(values), 0.99) * 1000 if values else None


def verdict(measured: float | None, target: float) -> str:
    if measured is None:
        return "no figure"
    return "met" if measured < target else "missed"


def report(run: Run, args, served: list[tuple[str, float, float]], info: dict) -> None:
    # Figures over whole minutes once every table has started: each Hold'em table repeats
    # itself every minute, so such a window holds exactly its share of every table's rounds and
    # actions (and of the baccarat tables' hands when their period divides it: 40 s into 120).
    length = run.deadline - run.start_at
    ramp = ROUND_SECONDS
    if args.baccarat_tables:
        ramp = max(ramp, args.baccarat_seconds)
    begin = ramp if length >= 2 * ramp else 0.0
    window = length - begin
    client: dict[str, list[float]] = collections.defaultdict(list)
    whole: list[float] = []
    for kind, began, seconds in run.samples:
        if begin <= began - run.start_at < length:
            client[kind].append(seconds)
        if kind in ALL_DEALER_KINDS:
            whole.append(seconds)
    server: dict[str, list[float]] = collections.defaultdict(list)
    for kind, began, seconds in served:
        if begin <= began < length:
            server[kind].append(seconds)
    print()
    print(f"requests begun from {begin:.0f} s to {length:.0f} s (every table dealing by then), "
          f"latency seen by the client; server: in the worker")  # fmt: skip
    print(f"{'request':<22} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}"
          f"   server: {'p50 ms':>8} {'p99 ms':>8}")  # fmt: skip
    dealer: list[float] = []
    dealer_served: list[float] = []
    games = [("Hold'em", DEALER_KINDS), ("baccarat", BACCARAT_KINDS)]
    for game, kinds in games if args.baccarat_tables else games[:1]:
        game_client: list[float] = []
        game_served: list[float] = []
        for kind in kinds:
            if kind in client:
                game_client += client[kind]
                game_served += server.get(kind, [])
                print(f"{kind:<22} {figures(client[kind])}   {server_figures(server.get(kind))}")
        if args.baccarat_tables and args.tables:
            label = f"{game} actions"
            print(f"{label:<22} {figures(game_client)}   {server_figures(game_served)}")
        dealer += game_client
        dealer_served += game_served
    print(f"{'all dealer actions':<22} {figures(dealer)}   {server_figures(dealer_served)}")
    for kind in VIEWER_KINDS:
        if kind in client or kind in server:
            label = f"{kind} ({info['open_tables']} t.)"
            print(f"{label:<22} {figures(client.get(kind, []))}   "
                  f"{server_figures(server.get(kind))}")  # fmt: skip
    print(f"{'dealer, whole run':<22} {figures(whole)}   (ramp-up and the rounds finished "
          "after the time included)")  # fmt: skip
    per_round = statistics.mean(run.actions) if run.actions else 0.0
    per_hand = statistics.mean(run.baccarat_actions) if run.baccarat_actions else 0.0
    rounds_offered = args.tables / ROUND_SECONDS
    hands_offered = args.baccarat_tables / args.baccarat_seconds
    offered = rounds_offered * per_round + hands_offered * per_hand
    count = sum(len(client[k]) for k in ALL_DEALER_KINDS)
    print()
    print(f"rates over the same {window:.0f} s:")
    if args.tables:
        print(f"  rounds/s            {len(client['start']) / window:7.2f}   "
              f"offered {rounds_offered:.2f} ({per_round:.1f} actions a round)")  # fmt: skip
    if args.baccarat_tables:
        print(f"  baccarat hands/s    {len(client['bac start']) / window:7.2f}   "
              f"offered {hands_offered:.2f} ({per_hand:.1f} actions a hand)")  # fmt: skip
    print(f"  dealer actions/s    {count / window:7.2f}   offered {offered:.2f}")
    print(f"  floor map polls/s   {len(client['floor map']) / window:7.2f}   "
          f"offered {args.viewers / POLL_SECONDS:.2f}")  # fmt: skip
    print(f"  board polls/s       {len(client['board']) / window:7.2f}   "
          f"offered {args.boards / POLL_SECONDS:.2f}")  # fmt: skip
    if run.lags:
        lags = sorted(run.lags)
        print(f"  round starts behind their time: p50 {percentile(lags, 0.5):.1f} s, "
              f"p99 {percentile(lags, 0.99):.1f} s, max {lags[-1]:.1f} s")  # fmt: skip
    in_play = (
        sum(1 for _, at in run.settled if at >= run.deadline) + len(run.started) - len(run.settled)
    )
    last = max((at for _, at in run.settled), default=run.start_at) - run.start_at
    print(f"  rounds in play when the time was up: {in_play}; the last settled at {last:.0f} s")
    if "cpu" in info and served:
        cpu = info["cpu"]
        print(f"  CPU per request served ({len(served)}): gunicorn worker "
              f"{cpu['workers'] / len(served) * 1000:.1f} ms, PostgreSQL backend "
              f"{cpu['backends'] / len(served) * 1000:.1f} ms")  # fmt: skip
    print()
    print(f"errors: {len(run.errors)}")
    for (kind, status, line), n in collections.Counter(run.errors).most_common(20):
        print(f"  {n:>5} x {kind} {status}: {line}")
    if run.stopped_tables:
        print(f"tables that stopped dealing after an error: {len(run.stopped_tables)}")
    print()
    settled = {rid for rid, _ in run.settled}
    unsettled = set(run.started) - settled
    print(f"rounds started {len(run.started)}, settled {len(settled)} (by the client; "
          f"{len(unsettled)} not settled)")  # fmt: skip
    if args.baccarat_tables:
        hands = [rid for rid in run.started if rid in run.baccarat]
        print(f"  Hold'em rounds started {len(run.started) - len(hands)}, settled "
              f"{len(settled - run.baccarat)}; baccarat hands started {len(hands)}, settled "
              f"{len(settled & run.baccarat)}")  # fmt: skip
    states = info.get("states", {})
    if states:
        shown = ", ".join(f"{state} {n}" for state, n in sorted(states.items()))
        print(f"rounds in the database since the run began, by state: {shown}")
        for game, by_state in sorted(info.get("by_game", {}).items()):
            shown = ", ".join(f"{state} {n}" for state, n in sorted(by_state.items()))
            print(f"  {game}: {shown}")
    if "ledger" in info:
        print(f"verify_ledger (exit {info['ledger_status']}): {info['ledger']}")
    print()
    dealer_p99 = p99(dealer)
    floor_p99 = p99(client.get("floor map", []))
    tables = info["open_tables"]
    print("targets (the figures above, from the same window):")
    print(f"  p99 of the dealer's actions < 150 ms: {shown_ms(dealer_p99)} "
          f"({verdict(dealer_p99, 150)})")  # fmt: skip
    print(f"  p99 of the floor map at {tables} tables < 300 ms: {shown_ms(floor_p99)} "
          f"({verdict(floor_p99, 300)})")  # fmt: skip
    print(f"  errors 0: {len(run.errors)} ({'met' if not run.errors else 'missed'})")
    print(f"  every round settled: {len(settled)} of {len(run.started)} "
          f"({'met' if not unsettled else 'missed'})")  # fmt: skip
    if "ledger" in info:
        clean = info["ledger_status"] == 0
        print(f"  verify_ledger clean: exit {info['ledger_status']} "
              f"({'met' if clean else 'missed'})")  # fmt: skip


def shown_ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


def server_figures(values: list[float] | None) -> str:
    if not values:
        return f"{'':>8} {'':>8}"
    ordered = sorted(values)
    return f"{percentile(ordered, 0.5) * 1000:>8.1f} {percentile(ordered, 0.99) * 1000:>8.1f}"


# --- The run ----------------------------------------------------------------------------------


def with_conn_max_age(url: str, seconds: int) -> str:
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query.setdefault("conn_max_age", str(seconds))
    return urlunsplit(parts._replace(query=urlencode(query)))


def interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def join_all(run: Run, threads: list[threading.Thread], until: float) -> bool:
    """Join every thread, Ctrl-C aware; False if some were abandoned (past ``until``, or a
    second Ctrl-C): nothing more is then sent or recorded."""
    interrupted = False
    while alive := [t for t in threads if t.is_alive()]:
        try:
            if time.monotonic() > until:
                print("some rounds were abandoned: they stay in play (the next run voids them)")
                break
            alive[0].join(0.5)
        except KeyboardInterrupt:
            if interrupted:
                print("abandoning the rounds in play (the next run voids them)", flush=True)
                break
            interrupted = True
            run.stop.set()
            run.deadline = min(run.deadline, time.monotonic())
            print("\ninterrupted: finishing the rounds in play without pauses "
                  "(Ctrl-C again to abandon them)", flush=True)  # fmt: skip
    else:
        return True
    run.stop.set()
    run.abandoned.set()
    return False


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--step":
        step_main(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=250, help="Ultimate Texas Hold'em")
    parser.add_argument(
        "--baccarat-tables", type=int, default=0, help="EZ Baccarat tables besides (ROOM-B001...)"
    )
    parser.add_argument(
        "--baccarat-seconds",
        type=float,
        default=BACCARAT_SECONDS,
        help="a hand every so many seconds at each baccarat table",
    )
    parser.add_argument("--viewers", type=int, default=60, help="floor-map screens")
    parser.add_argument("--boards", type=int, default=4, help="table boards (room TVs)")
    parser.add_argument("--minutes", type=float, default=3.0, help=f"at most {MAX_MINUTES}")
    parser.add_argument("--gap", type=float, default=2.0, help="seconds between a dealer's actions")
    parser.add_argument("--patrons", type=int, default=5, help="seated per table (--prepare)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1, help="above 1: gthread workers")
    parser.add_argument("--conn-max-age", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--prepare", action="store_true")
    parser.add_argument("--serve", action="store_true")
    parser.add_argument(
        "--one-by-one",
        action="store_true",
        help="one bettor's wagers and one hand's decision a call (not the round's wagers in "
        "one call and a street's decisions in one call)",
    )
    parser.add_argument(
        "--full-answers",
        action="store_true",
        help="no 'Prefer: return=minimal': every action answered with the round in full",
    )
    args = parser.parse_args()
    if not 0 < args.minutes <= MAX_MINUTES:
        parser.error(f"--minutes must be above 0 and at most {MAX_MINUTES}")
    if (
        min(args.tables, args.baccarat_tables, args.viewers, args.boards) < 0
        or args.tables + args.baccarat_tables < 1
        or not 2 <= args.patrons <= 6
    ):
        parser.error("at least one table, 2 to 6 patrons, no negative counts")
    if args.baccarat_seconds <= 0:
        parser.error("--baccarat-seconds must be above 0")
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://", "pgsql://", "psql://")):
        raise SystemExit("refusing to run: set DATABASE_URL to a PostgreSQL database")
    board_token = os.environ.get("CARDROOM_BOARD_TOKEN") or secrets.token_urlsafe(24)
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "LOG_LEVEL": "WARNING",
        # Plain HTTP on loopback stands in for the TLS-terminating proxy (README, Settings).
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "CARDROOM_BOARD_TOKEN": board_token,
        # whitenoise's note that collectstatic has not run, once per worker: not our business.
        "PYTHONWARNINGS": "ignore:No directory at:UserWarning",
        "DATABASE_URL": with_conn_max_age(url, args.conn_max_age),
    }
    signal.signal(signal.SIGTERM, interrupt)
    if args.serve:
        refuse_busy_port(args.port)
    if args.prepare:
        subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env,
                       check=True)  # fmt: skip
        began = time.monotonic()
        made = run_step(
            env, "prepare", str(args.tables), str(args.patrons), str(args.baccarat_tables)
        )
        print(f"prepared: {made['made']} tables made, {made['existing']} there already "
              f"({time.monotonic() - began:.0f} s)")  # fmt: skip
        if not args.serve:
            return
    began = time.monotonic()
    floor = run_step(env, "reset", str(args.tables), str(args.baccarat_tables))
    print(f"reset: {len(floor['tables'])} tables with a fresh game, {floor['voided']} rounds "
          f"voided, {floor['bought']} stacks bought up "
          f"({time.monotonic() - began:.0f} s)")  # fmt: skip
    others = floor["open_tables"] - len(floor["tables"])
    if others:
        print(f"note: {others} other open tables in this database, on the floor map and the "
              "board too (a room of another size? give each its own database)")  # fmt: skip

    log = Path(tempfile.mkstemp(prefix="room_load_", suffix=".log")[1])
    server = serve(env, args.port, args.workers, args.threads, log) if args.serve else None
    run = Run(args.port)
    info: dict = {"open_tables": floor["open_tables"]}
    load_before = os.getloadavg()
    try:
        session = sign_in(args.port) if args.viewers else ""
        board = f"/board/{board_token}/"
        token = {"Authorization": f"Bearer {floor['tokens'][0]}"}
        hx = {"Cookie": session, "HX-Request": "true"}
        firsts = {table["game"]: table["id"] for table in reversed(floor["tables"])}
        warm_up(args.port, [
            *((f"/api/tables/{first}/", token) for first in firsts.values()),
            *(("/api/rounds/?table=" + str(first), token) for first in firsts.values()),
            ("/console/", hx), (board + "panel/", {}),
        ], times=2 * args.workers * max(args.threads, 1))  # fmt: skip
        rng = random.Random(args.seed)
        supervisor = Caller(run, {"Authorization": f"Token {floor['supervisor_token']}"})
        threads = []
        # The Hold'em tables' first rounds staggered over the minute, the baccarat tables'
        # first hands over their period.
        for index, (table, token) in enumerate(zip(floor["tables"], floor["tokens"], strict=True)):
            if table["game"] == BACCARAT:
                kind, period = BaccaratTablet, args.baccarat_seconds
                offset = period * (index - args.tables) / args.baccarat_tables
            else:
                kind, period = Tablet, ROUND_SECONDS
                offset = period * index / args.tables
            tablet = kind(
                run, table, Caller(run, {"Authorization": f"Bearer {token}"}), supervisor,
                offset=offset, gap=args.gap, rng=random.Random(rng.getrandbits(64)),
                one_by_one=args.one_by_one, full_answers=args.full_answers, period=period,
            )  # fmt: skip
            threads.append(threading.Thread(target=tablet.loop, name=table["name"], daemon=True))
        for index in range(args.viewers):
            caller = Caller(run, {"Cookie": session})
            offset = POLL_SECONDS * index / args.viewers
            threads.append(threading.Thread(
                target=screen, args=(run, caller, "floor map", "/console/", "/console/", offset),
                daemon=True,
            ))  # fmt: skip
        for index in range(args.boards):
            offset = POLL_SECONDS * (index + 0.5) / args.boards
            threads.append(threading.Thread(
                target=screen,
                args=(run, Caller(run, {}), "board", board, board + "panel/", offset),
                daemon=True,
            ))  # fmt: skip
        run.start_at = time.monotonic() + 1.0
        run.start_wall = time.time() + 1.0
        run.deadline = run.start_at + args.minutes * 60
        run.pace_until = run.deadline + ROUND_SECONDS
        database = urlsplit(url).path.lstrip("/")
        monitor = CpuMonitor(server.pid if server else None, database)
        client_cpu = time.process_time()
        monitor.start()
        for thread in threads:
            thread.start()
        tablets = args.tables + args.baccarat_tables
        print(f"running: {tablets} tablets, {args.viewers} floor-map screens, {args.boards} "
              f"boards for {args.minutes:g} min ...", flush=True)  # fmt: skip
        join_all(run, threads, run.deadline + TAIL_SECONDS)
        ended = time.monotonic()
        info["cpu"] = {
            "client": time.process_time() - client_cpu,
            **monitor.totals(),
            "wall": ended - run.start_at,
        }
    finally:
        load_after = os.getloadavg()
        if server is not None:
            stop_server(server)
    baccarat_tables = {t["id"] for t in floor["tables"] if t["game"] == BACCARAT}
    served = server_times(log, run.start_wall, baccarat_tables, run.baccarat) if args.serve else []
    log.unlink(missing_ok=True)
    checked = run_step(
        env, "check", floor["since"], ",".join(str(t["id"]) for t in floor["tables"])
    )
    info.update(checked)
    ledger = subprocess.run(
        [PYTHON, "manage.py", "verify_ledger"], cwd=ROOT, env=env, capture_output=True, text=True
    )  # fmt: skip
    out = (ledger.stdout + ledger.stderr).strip().splitlines()
    info["ledger"] = out[-1] if out else ""
    info["ledger_status"] = ledger.returncode

    kind = f"gthread, {args.threads} threads each" if args.threads > 1 else "sync"
    shared = (
        "shared through Redis" if env.get("CACHE_URL") or env.get("REDIS_URL") else "per worker"
    )
    persistent = "conn_max_age=0" not in env["DATABASE_URL"]
    print()
    baccarat = ""
    if args.baccarat_tables:
        every = f"a hand every {args.baccarat_seconds:g} s"
        baccarat = f" and {args.baccarat_tables} EZ Baccarat tables ({every})"
    print(f"room load benchmark: {args.tables} Ultimate Texas Hold'em tables (a round a minute)"
          f"{baccarat}, {len(floor['tables'][0]['seats'])} patrons each, {args.viewers} "
          f"floor-map screens, {args.boards} boards, {args.minutes:g} min, dealer gap "
          f"{args.gap:g} s, seed {args.seed}")  # fmt: skip
    calls = (
        "one bettor's wagers, one hand's decision a call"
        if args.one_by_one
        else "the round's wagers in one call, a street's decisions in one call"
    )
    answers = "in full" if args.full_answers else "minimal (Prefer: return=minimal)"
    print(f"tablets: {calls}, answers {answers}")
    server_line = f"gunicorn {args.workers} {kind} workers" if args.serve else "an external server"
    print(f"server: {server_line}, DEBUG off, {info.get('postgres', 'PostgreSQL')}, "
          f"database connections {'persistent' if persistent else 'one per request'} "
          f"({dict(parse_qsl(urlsplit(env['DATABASE_URL']).query)).get('conn_max_age')} s); "
          f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; floor map parts "
          f"{shared}")  # fmt: skip
    print("load average (1, 5, 15 min): before "
          + ", ".join(f"{x:.2f}" for x in load_before) + "; at the end "
          + ", ".join(f"{x:.2f}" for x in load_after))  # fmt: skip
    if "cpu" in info:
        cpu = info["cpu"]
        print(f"CPU seconds over {cpu['wall']:.0f} s: load generator {cpu['client']:.1f}, "
              f"gunicorn workers {cpu['workers']:.1f}, PostgreSQL backends of the bench "
              f"database {cpu['backends']:.1f}")  # fmt: skip
    report(run, args, served, info)


if __name__ == "__main__":
    main()
