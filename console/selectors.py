"""Reads the console needs beyond the apps' own selectors.

Each composes the apps' selectors and the rules core; none decides a rule itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import OuterRef, QuerySet, Subquery

from cardroom.clock import now
from cardroom.errors import ACTIVE_ROUND_STATES, State
from cardroom.money import dollars
from fees import selectors as fee_selectors
from rounds import selectors as round_selectors
from tables import options as table_options
from tables import selectors as floor_selectors
from tables.models import (
    DealMode,
    Game,
    Player,
    Round,
    SeatHold,
    Seating,
    Table,
    TableOptionChange,
)
from tables.rules.cards import FULL_DECK, format_cards
from tables.rules.counters import NOBODY_NEW, Counters
from tables.rules.decisions import legal_decisions
from tables.rules.rotation import BankedHand, window_shortfall
from tables.rules.seats import SEATS
from tables.rules.visibility import visible_cards
from wagers import selectors as money_selectors
from wagers.models import LedgerEntry, PlayerDealerBank

from .models import StaffAction

# How far ahead the floor map looks for the 40-minute rule (a setting; documented).
WARNING_MINUTES = getattr(settings, "CONSOLE_ROTATION_WARNING_MINUTES", 10)


# --- The floor map ------------------------------------------------------------------------


@dataclass(frozen=True)
class HeldSeat:
    """A seated player stepped away: their seat's hold and the time it has left."""

    hold: SeatHold
    seconds_left: int

    @property
    def ran_out(self) -> bool:
        return self.seconds_left <= 0

    @property
    def minutes_left(self) -> int:
        return max(0, -(-self.seconds_left // 60))


def held_seats(table_ids, moment: datetime) -> dict[int, dict[int, HeldSeat]]:
    """The holds in force by table and seat (one query)."""
    held: dict[int, dict[int, HeldSeat]] = {}
    for hold in floor_selectors.seat_holds(table_ids=list(table_ids)):
        left = int((hold.until - moment).total_seconds())
        held.setdefault(hold.table_id, {})[hold.seat] = HeldSeat(hold, left)
    return held


@dataclass(frozen=True)
class FloorRow:
    table: Table
    seated: list[Seating]
    game_open: bool
    game_minutes: int | None
    round: Round | None  # the round in play
    last_round: Round | None  # the latest round of the open game (for the player-dealer)
    tppps: list[Seating]
    rotation_warning: str | None
    counters: Counters | None = None  # the open game's (tables.rules.counters)
    holds: dict[int, HeldSeat] = field(default_factory=dict)  # seat -> its hold in force


def rotation_warning(table: Table, game, history: list[BankedHand], moment: datetime) -> str | None:
    """The 40-minute rule's refusal a hand starting WARNING_MINUTES from now would meet
    if no new non-TPPP player banked before it (docs/rules.md §8.12), or None."""
    policy = table_options.rotation_policy(table_options.snapshot(table))
    if policy.window is None:
        return None
    ahead = moment + timedelta(minutes=WARNING_MINUTES)
    refusal = window_shortfall(game.opened_at, ahead, history, NOBODY_NEW, policy)
    if refusal is None:
        return None
    return f"within {WARNING_MINUTES} minutes the game ends unless another player banks: {refusal}"


def _latest_rounds(games) -> dict[int, Round]:
    """The latest round of each open game, by table (one query), however long ago it was."""
    latest = Game.objects.filter(pk__in=[g.pk for g in games]).annotate(
        latest=Subquery(
            Round.objects.filter(game=OuterRef("pk")).order_by("-number").values("pk")[:1]
        )
    )
    rounds = Round.objects.filter(pk__in=latest.values("latest")).select_related("player_dealer")
    return {r.table_id: r for r in rounds}


def floor_map(moment: datetime | None = None) -> list[FloorRow]:
    """Every table at a glance, with its counters, in eight queries whatever the number of
    tables."""
    moment = moment or now()
    tables = list(floor_selectors.table_list().order_by("name"))
    games = {t.pk: t.open[0] for t in tables if t.open}
    since = moment - floor_selectors.counter_reach(tables)
    recent = floor_selectors.recent_banked_hands(list(games.values()), since) if games else {}
    counters = floor_selectors.floor_counters(tables, moment, recent)
    latest = _latest_rounds(games.values()) if games else {}
    holds = held_seats([t.pk for t in tables], moment) if tables else {}
    rows = []
    for table in tables:
        game = games.get(table.pk)
        history = recent.get(game.pk, []) if game else []
        rows.append(
            FloorRow(
                table=table,
                seated=table.seated,
                game_open=game is not None,
                game_minutes=int((moment - game.opened_at).total_seconds() // 60) if game else None,
                round=table.in_play[0] if table.in_play else None,
                last_round=latest.get(table.pk),
                tppps=[s for s in table.seated if s.is_tppp],
                rotation_warning=rotation_warning(table, game, history, moment) if game else None,
                counters=counters.get(table.pk),
                holds=holds.get(table.pk, {}),
            )
        )
    return rows


# --- The options sheet and its changes (docs/rules.md §3.4, §12) ---------------------------

OPTION_LABELS = {
    "minimum_cents": "Minimum",
    "maximum_cents": "Maximum",
    "chip_unit_cents": "Chip",
    "preflop_multiples": "Pre-flop Play",
    "trips_paytable": "Trips pay table",
    "bad_beat_paytable": "Bad Beat pay table",
    "backline_allowed": "Backline wagering",
    "deal_mode": "Deal",
    "max_consecutive_hands": "Consecutive hands as player-dealer",
    "offer_every_hand": "Offer the button every hand",
    "max_tppp_per_table": "TPPP players per table",
    "tppp_may_bank_twice_in_a_row": "TPPP may bank twice in a row",
    "rotation_window_minutes": "40-minute rule window",
    "min_non_tppp_dealers_in_window": "Other player-dealers in the window",
}


def option_text(option: str, value) -> str:
    """An option's value as the floor reads it: money in dollars, words for the rest."""
    if option.endswith("_cents"):
        return dollars(value)
    if value is None:
        return "none" if option == "bad_beat_paytable" else "off"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if option == "deal_mode":
        return DealMode(value).label if value in DealMode.values else str(value)
    if option == "preflop_multiples":
        return " or ".join(f"{multiple}x" for multiple in value)
    if option == "rotation_window_minutes":
        return f"{value} min"
    if isinstance(value, dict | list):
        return "a table in full"
    return str(value)


@dataclass(frozen=True)
class OptionChangeRow:
    change: TableOptionChange
    label: str
    old: str
    new: str


def option_changes(table: Table, *, last: int = 20) -> list[OptionChangeRow]:
    """The table's latest option changes, newest first (one query): who, when, old -> new."""
    changes = (
        TableOptionChange.objects.filter(table=table)
        .select_related("changed_by")
        .order_by("-changed_at", "-id")[:last]
    )
    return [
        OptionChangeRow(
            change=change,
            label=OPTION_LABELS.get(change.option, change.option),
            old=option_text(change.option, change.old_value),
            new=option_text(change.option, change.new_value),
        )
        for change in changes
    ]


def options_sheet(table: Table) -> list[tuple[str, str]]:
    """The whole sheet in force, as (label, value) rows in the order of docs/rules.md §12."""
    return [
        (label, option_text(option, value))
        for option, value in table_options.snapshot(table).items()
        if (label := OPTION_LABELS.get(option))
    ]


def closed_tables() -> QuerySet[Table]:
    """The tables closed now (docs/rules.md §3.7), with who closed them (one query)."""
    closed = Table.objects.filter(closed_at__isnull=False)
    return closed.select_related("closed_by").order_by("name")


# --- The dealer's table view --------------------------------------------------------------


@dataclass(frozen=True)
class SeatDecisions:
    seat: int
    choices: list[tuple[str, int, str]]  # (action, multiple, label)


@dataclass
class TableView:
    floor: floor_selectors.TableFloor
    round: Round | None  # the round in play, with its hands, bets and bank
    last_round: Round | None  # the latest finished round, for its settlement
    settlement: money_selectors.RoundSettlement | None
    chips: dict[int, int]  # player id -> chips at this table
    decisions: list[SeatDecisions] = field(default_factory=list)
    fee_lines: list = field(default_factory=list)  # the round in play's, once assessed
    fee_totals: object = None
    last_fee_lines: list = field(default_factory=list)  # the last settled round's
    last_fee_totals: object = None
    schedule_in_force: object = None  # the fee schedule version a hand starting now gets
    round_schedule: object = None  # the round in play's frozen schedule (None: no fees)
    used_cards: list[str] = field(default_factory=list)
    entry_needed: dict[str, int] = field(default_factory=dict)  # what card entry asks for now
    option_changes: list[OptionChangeRow] = field(default_factory=list)  # newest first
    behind: list[Player] = field(default_factory=list)  # chips here, no seat (backline)
    holds: dict[int, HeldSeat] = field(default_factory=dict)  # seat -> its hold in force

    @property
    def table(self) -> Table:
        return self.floor.table

    @property
    def closed(self) -> bool:
        return self.table.closed_at is not None

    @property
    def chips_to_cash_out(self) -> int:
        """Every chip a closing would cash out: the seated players' and those behind a seat."""
        return sum(self.chips.values())

    @property
    def free_seats(self) -> list[int]:
        taken = {s.seat for s in self.floor.seated}
        return [seat for seat in SEATS if seat not in taken]

    @property
    def picker_owners(self) -> str:
        """Whose card each pick of the deal is, in picker order (for the picker's labels)."""
        if self.round is None:
            return ""
        owners = ["player-dealer"] * 2
        for hand in sorted(self.round.hands.all(), key=lambda h: h.seat):
            owners += [f"seat {hand.seat}"] * 2
        return ",".join(owners)

    @property
    def card_entry(self) -> bool:
        if self.round is not None:
            return self.round.deal_mode == DealMode.CARD_ENTRY
        return self.table.deal_mode == DealMode.CARD_ENTRY


def _decisions(round_: Round) -> list[SeatDecisions]:
    street = round_selectors.STREET_OF_STATE.get(State(round_.state))
    if street is None:
        return []
    multiples = round_.options["preflop_multiples"]
    result = []
    for hand in round_.hands.all():
        record = hand.decision_record()
        choices = [
            (
                d.action.value,
                d.multiple,
                f"Play {d.multiple}x" if d.multiple else d.action.value.title(),
            )
            for d in legal_decisions(record, street, multiples)
        ]
        result.append(SeatDecisions(hand.seat, choices))
    return result


def _used_cards(round_: Round) -> list[str]:
    """The cards of the round anyone may see (the picker disables them): the board shown so
    far, never a hole card before the showdown (docs/rules.md §2.6). A card entered twice
    is refused by the service on submit, not hidden from the picker by a secret."""
    return visible_cards(
        round_.state,
        reached_showdown=round_.reached_showdown,
        board=round_.board,
        player_dealer_hole=round_.dealer_hole,
        player_holes=[hand.hole for hand in round_.hands.all()],
    )


def _entry_needed(round_: Round) -> dict[str, int]:
    if round_.deal_mode != DealMode.CARD_ENTRY:
        return {}
    if round_.state == State.NO_MORE_BETS:
        return {"deal": 2 * (len(round_.hands.all()) + 1)}
    if round_.state == State.PREFLOP:
        return {"flop": 3}
    if round_.state == State.FLOP:
        return {"turn_river": 2}
    return {}


def table_view(*, table_id: int) -> TableView:
    floor = floor_selectors.table_floor(table_id=table_id)
    active = floor.active_round
    round_ = None
    if active is not None:
        round_ = round_selectors.round_detail(round_id=active.pk)
    last = (
        Round.objects.filter(table_id=table_id)
        .exclude(state__in=ACTIVE_ROUND_STATES)
        .order_by("-number")
        .first()
    )
    settlement = None
    if last is not None and last.state == State.SETTLED:
        settlement = money_selectors.round_settlement(last.pk)
    player_ids = {s.player_id for s in floor.seated}
    if round_ is not None:
        player_ids |= {b.player_id for h in round_.hands.all() for b in h.bets.all()}
    chips = {
        pid: account.balance_cents
        for pid, account in money_selectors.open_chip_accounts(floor.table, player_ids).items()
    }
    view = TableView(floor, round_, last, settlement, chips)
    view.holds = held_seats([table_id], now()).get(table_id, {})
    view.option_changes = option_changes(floor.table)
    seated = {s.player_id for s in floor.seated}
    holders = money_selectors.chips_at_table(floor.table)
    view.behind = list(
        Player.objects.filter(pk__in=[pid for pid in holders if pid not in seated]).order_by("name")
    )
    view.chips.update(
        {pid: account.balance_cents for pid, account in holders.items() if pid not in seated}
    )
    if round_ is None:
        view.schedule_in_force = fee_selectors.schedule_in_force(floor.table, now())
    elif round_.state != State.WAGERING:
        view.fee_lines = list(fee_selectors.fee_lines(round_))
        view.fee_totals = fee_selectors.round_fees(round_)
    if settlement is not None:
        view.last_fee_lines = list(fee_selectors.fee_lines(last))
        view.last_fee_totals = fee_selectors.round_fees(last)
    if round_ is not None:
        view.round_schedule = fee_selectors.round_schedule(round_)
        view.decisions = _decisions(round_)
        view.used_cards = _used_cards(round_)
        view.entry_needed = _entry_needed(round_)
    return view


def players_to_seat() -> QuerySet[Player]:
    """Players not seated at any table: the seat form's choices."""
    seated = Seating.objects.filter(left_at__isnull=True).values("player_id")
    return Player.objects.exclude(pk__in=seated).order_by("name")


def backline_candidates(table: Table) -> QuerySet[Player]:
    """Unseated players holding chips at this table: who may bet behind a seat (lazy: the
    query runs only when the wager form is shown)."""
    seated = Seating.objects.filter(left_at__isnull=True).values("player_id")
    holders = Player.objects.filter(
        accounts__table=table, accounts__closed_at__isnull=True, tppp__isnull=True
    ).values("pk")
    return Player.objects.filter(pk__in=holders).exclude(pk__in=seated).order_by("name")


def all_cards() -> list[str]:
    """The 52 card codes in a fixed order (ranks high to low within each suit) for the picker."""
    deck = format_cards(FULL_DECK)
    ranks = "AKQJT98765432"
    return sorted(deck, key=lambda c: ("shdc".index(c[1]), ranks.index(c[0])))


# --- The bankroll page --------------------------------------------------------------------


@dataclass(frozen=True)
class ChartPoint:
    round: Round
    balance: int  # the player's chips at that table after the hand was settled


def bankroll_points(player: Player, *, last: int = 200) -> list[ChartPoint]:
    """The player's chips after each hand they banked (newest ``last``), in two queries.

    Read from the ledger: the running balance of the bank's chip account, taken at the
    last entry of that round.
    """
    banks = list(
        PlayerDealerBank.objects.filter(player=player, net_cents__isnull=False)
        .select_related("round__table")
        .order_by("-posted_at")[:last]
    )
    banks.reverse()
    if not banks:
        return []
    accounts = {b.account_id for b in banks}
    rounds = {b.round_id: b for b in banks}
    balances: dict[int, int] = {}
    at_round: dict[int, int] = {}
    entries = (
        LedgerEntry.objects.filter(account_id__in=accounts)
        .order_by("transaction_id", "id")
        .values_list("account_id", "amount_cents", "transaction__round_id")
    )
    for account_id, amount, round_id in entries:
        balances[account_id] = balances.get(account_id, 0) + amount
        if round_id in rounds and rounds[round_id].account_id == account_id:
            at_round[round_id] = balances[account_id]
    return [ChartPoint(b.round, at_round.get(b.round_id, 0)) for b in banks]


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    path: str
    points: list[tuple[float, float, ChartPoint]]
    top: int
    bottom: int


def chart(points: list[ChartPoint], *, width: int = 640, height: int = 200, pad: int = 24) -> Chart:
    """Geometry for a server-drawn SVG line chart (integers in, floats only for pixels)."""
    if not points:
        return Chart(width, height, "", [], 0, 0)
    top = max(0, *(p.balance for p in points))
    bottom = min(0, *(p.balance for p in points))
    span = (top - bottom) or 1
    step = (width - 2 * pad) / max(1, len(points) - 1)
    xy = [
        (pad + i * step, pad + (top - p.balance) * (height - 2 * pad) / span, p)
        for i, p in enumerate(points)
    ]
    path = "M" + " L".join(f"{x:.1f},{y:.1f}" for x, y, _ in xy)
    return Chart(width, height, path, xy, top, bottom)


# --- The audit page -----------------------------------------------------------------------


def staff_actions(*, username: str = "", outcome: str = "", channel: str = "") -> QuerySet:
    actions = StaffAction.objects.all()
    if username:
        actions = actions.filter(username__iexact=username)
    if outcome:
        actions = actions.filter(outcome=outcome)
    if channel:
        actions = actions.filter(channel=channel)
    return actions


# --- Fee schedules ------------------------------------------------------------------------


def fee_schedules(moment: datetime | None = None) -> list[fee_selectors.ScheduleRow]:
    """Every schedule with its versions, marked in force (and where), past or scheduled."""
    return fee_selectors.schedule_overview(moment or now())
