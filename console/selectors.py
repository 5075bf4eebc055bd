"""Reads the console needs beyond the apps' own selectors.

Each composes the apps' selectors and the rules core; none decides a rule itself.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import (
    BooleanField,
    Case,
    Count,
    DecimalField,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import TruncDate, TruncTime

from cardroom.clock import now
from cardroom.errors import ACTIVE_ROUND_STATES, Rule, State
from cardroom.money import dollar_range, dollars, whole_cents
from fees import selectors as fee_selectors
from fees.rules.assessment import largest_bank, shortfalls
from games import catalog
from games.ez_baccarat.points import total as baccarat_total
from games.interface import Listing
from games.registry import game as game_of_key
from rounds import selectors as round_selectors
from tables import options as table_options
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
from tables.rules.cards import FULL_DECK, format_cards, parse_card
from tables.rules.counters import NOBODY_NEW, Counters
from tables.rules.decisions import legal_decisions
from tables.rules.paytables import paytable_label
from tables.rules.rotation import BankedHand, window_shortfall
from tables.rules.seat_requests import LINE_WORDS, Line
from tables.rules.seats import seat_numbers
from tables.rules.visibility import visible_cards
from tables.selectors.counters import (
    TableFloor,
    counter_reach,
    floor_counters,
    recent_banked_hands,
    table_floor,
)
from tables.selectors.floor import table_list
from tables.selectors.moves import SeatRequests, seat_requests
from tables.selectors.waitlists import seat_holds
from wagers import selectors as money_selectors
from wagers.models import Bet, PlayerDealerBank
from wagers.rules.layout import BankAction, Bettor, play_shortfall, play_stake

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
    for hold in seat_holds(table_ids=list(table_ids)):
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
    # player id -> "approaching a CTR: cash in $8,500.00" (Title 31, docs/rules.md §10.7)
    ctr: dict[int, str] = field(default_factory=dict)


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


def floor_map(
    moment: datetime | None = None, *, table_ids: Collection[int] | None = None
) -> list[FloorRow]:
    """Every table at a glance (or only those in ``table_ids``), with its counters and the
    patrons approaching a CTR, in nine queries whatever the number of tables."""
    moment = moment or now()
    tables = table_list().order_by("name")
    if table_ids is not None:
        tables = tables.filter(pk__in=table_ids)
    tables = list(tables)
    games = {t.pk: t.open[0] for t in tables if t.open}
    since = moment - counter_reach(tables)
    recent = recent_banked_hands(list(games.values()), since) if games else {}
    counters = floor_counters(tables, moment, recent)
    latest = _latest_rounds(games.values()) if games else {}
    holds = held_seats([t.pk for t in tables], moment) if tables else {}
    seated_ids = [s.player_id for t in tables for s in t.seated]
    ctr = money_selectors.approaching_ctr(seated_ids) if seated_ids else {}
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
                ctr={s.player_id: ctr[s.player_id] for s in table.seated if s.player_id in ctr},
            )
        )
    return rows


# --- The options sheet and its changes (docs/rules.md §3.4, §12) ---------------------------


def option_label(option: str, game: Listing | None = None) -> str:
    """The option's label (``tables.options.OPTION_LABELS`` and the game's own, the one place
    each is named); an option no longer on the sheet, met in an old change, by its own name."""
    if option == "game":
        return "Game"
    labels = table_options.option_labels(game) if game else table_options.OPTION_LABELS
    label = labels.get(option)
    return label.label if label else option


# An option left empty, in the floor's words (the default when it says nothing; a game's own
# options: ``tables.options.option_word``).
NONE_TEXT = {"bad_beat_paytable": "none", "max_tppp_per_table": "no limit"}


def option_text(option: str, value, game: Listing | None = None) -> str:
    """An option's value as the floor reads it: money in dollars, words for the rest."""
    if option == "game":
        return catalog.listing(value).name
    if game is not None and option in game.option_labels:
        return table_options.option_word(game, option, value)
    if value is None:
        return NONE_TEXT.get(option, "off")
    if option.endswith("_cents"):
        return dollars(value)
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
    if option in ("trips_paytable", "bad_beat_paytable"):
        return paytable_label(str(value))
    return str(value)


@dataclass(frozen=True)
class OptionChangeRow:
    change: TableOptionChange
    label: str
    old: str
    new: str


def option_changes(table: Table, *, last: int = 20) -> list[OptionChangeRow]:
    """The table's latest option changes, newest first (one query): who, when, old -> new."""
    game = table.game_listing
    changes = (
        TableOptionChange.objects.filter(table=table)
        .select_related("changed_by")
        .order_by("-changed_at", "-id")[:last]
    )
    return [
        OptionChangeRow(
            change=change,
            label=option_label(change.option, game),
            old=option_text(change.option, change.old_value, game),
            new=option_text(change.option, change.new_value, game),
        )
        for change in changes
    ]


def options_sheet(table: Table) -> list[tuple[str, str]]:
    """The whole sheet in force, as (label, value) rows in the order of docs/rules.md §12."""
    game = table.game_listing
    return [("Game", game.name)] + [
        (option_label(option, game), option_text(option, value, game))
        for option, value in table_options.snapshot(table).items()
        if option != "game"
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


@dataclass(frozen=True)
class CoupView:
    """A coup's two hands as the tablet shows them (docs/rules.md §14.3)."""

    player: list[str]
    banker: list[str]
    player_total: int
    banker_total: int

    @property
    def words(self) -> str:
        """The coup in the floor's words: "Banker wins, 7 to 1: a Dragon 7"."""
        player, banker = self.player_total, self.banker_total
        if player == banker:
            return f"Tie, {player} to {banker}"
        if banker > player:
            dragon = len(self.banker) == 3 and banker == 7
            return f"Banker wins, {banker} to {player}" + (": a Dragon 7" if dragon else "")
        panda = len(self.player) == 3 and player == 8
        return f"Player wins, {player} to {banker}" + (": a Panda 8" if panda else "")


def coup_view(round_: Round | None) -> CoupView | None:
    """The coup of ``round_`` once its hands are recorded (at the showdown), else None."""
    if round_ is None or not round_.player_cards or not round_.banker_cards:
        return None
    player, banker = list(round_.player_cards), list(round_.banker_cards)
    return CoupView(
        player,
        banker,
        baccarat_total(parse_card(c) for c in player),
        baccarat_total(parse_card(c) for c in banker),
    )


@dataclass
class TableView:
    floor: TableFloor
    round: Round | None  # the round in play, with its hands, bets and bank
    last_round: Round | None  # the latest finished round, for its settlement
    settlement: money_selectors.RoundSettlement | None
    chips: dict[int, int]  # player id -> chips at this table
    decisions: list[SeatDecisions] = field(default_factory=list)
    fee_lines: list = field(default_factory=list)  # the round in play's, once assessed
    fee_totals: object = None
    seat_fees: dict = field(default_factory=dict)  # seat -> its SeatFees, from ``fee_lines``
    last_fee_lines: list = field(default_factory=list)  # the last settled round's
    last_fee_totals: object = None
    schedule_in_force: object = None  # the fee schedule version a hand starting now gets
    round_schedule: object = None  # the round in play's frozen schedule (None: no fees)
    used_cards: list[str] = field(default_factory=list)
    entry_needed: dict[str, int] = field(default_factory=dict)  # what card entry asks for now
    turned_up: list[int] = field(default_factory=list)  # the seats keyed at the showdown
    option_changes: list[OptionChangeRow] = field(default_factory=list)  # newest first
    behind: list[Player] = field(default_factory=list)  # chips here, no seat (backline)
    holds: dict[int, HeldSeat] = field(default_factory=dict)  # seat -> its hold in force
    seat_panels: list = field(default_factory=list)  # the six seats (SeatPanel), 1 to 6
    next_action: str = ""  # one of NEXT_ACTIONS
    exposure: BankAction | None = None  # the layout against the bank while wagers are taken
    bank_fee: int = 0  # the least fee the player-dealer will owe, while the bank is posted
    bank_most: int = 0  # the largest bank that leaves that fee beside it
    fee_short: list = field(default_factory=list)  # FeeShort: payers short on the layout
    coup: CoupView | None = None  # a coup's two hands once turned face up (the round's, or
    # the last settled round's between hands)
    seat_results: dict[int, int] = field(default_factory=dict)  # the last settlement, by seat

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
        return [seat for seat in seat_numbers(self.table.seat_count) if seat not in taken]

    @property
    def seats_to_wager(self) -> list[int]:
        """The seats whose player may still place a wager this hand, at a game without
        backline bettors: seated, not the player-dealer's, no wager yet."""
        return [
            p.seat for p in self.seat_panels if p.seating and not p.player_dealer and not p.bets
        ]

    @property
    def picker_owners(self) -> str:
        """Whose card each pick of the showdown is, in picker order (the picker's labels):
        the player-dealer's two, then two for each hand turned face up, by seat."""
        owners = ["player-dealer"] * 2
        for seat in self.turned_up:
            owners += [f"seat {seat}"] * 2
        return ",".join(owners)

    @property
    def turned_up_words(self) -> str:
        """What the showdown keys, in words."""
        return round_selectors.turned_up_words(self.turned_up)

    @property
    def mucked(self) -> list[int]:
        """The seats whose folded hands are mucked at the showdown, never keyed."""
        if self.round is None:
            return []
        return sorted(h.seat for h in self.round.hands.all() if h.seat not in self.turned_up)

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


def _entry_needed(round_: Round, turned_up: list[int]) -> dict[str, int]:
    """The cards card entry keys now (docs/rules.md §2.3): none at the deal, the board as it
    is turned, and at the showdown the player-dealer's two and two for each hand turned up."""
    if round_.deal_mode != DealMode.CARD_ENTRY:
        return {}
    if round_.state == State.PREFLOP:
        return {"flop": 3}
    if round_.state == State.FLOP:
        return {"turn_river": 2}
    if round_.state == State.RIVER:
        return {"showdown": 2 + 2 * len(turned_up)}
    return {}


# --- The table's layout: seats around it, the one next action, what a tap will meet ------


@dataclass(frozen=True)
class Choice:
    """A decision the rules allow a hand now; ``refused`` says why the chips do not cover it
    (the service would refuse it: rule chips.in_front), empty when they do."""

    action: str
    multiple: int
    label: str
    refused: str = ""


@dataclass(frozen=True)
class SeatPanel:
    """One of the six seats as the layout shows it (seats 1 to 6 clockwise, docs/rules.md §3.1)."""

    seat: int
    seating: Seating | None  # who sits there, or None: a free seat
    hand: object = None  # the seat's Hand in the round in play
    bets: tuple = ()  # the hand's bets, the seated player's first
    chips: int = 0  # the seated player's chips at the table
    player_dealer: bool = False  # banks the round in play
    button: bool = False  # holds (or is being offered) the player-dealer button between hands
    hold: HeldSeat | None = None
    choices: tuple[Choice, ...] = ()  # this street's decisions, when the hand has one to make
    deciding: bool = False  # the hand has a decision to make on this street

    @property
    def free(self) -> bool:
        return self.seating is None


@dataclass(frozen=True)
class FeeShort:
    """A payer whose chips at the table do not cover the collection fees the layout so far
    would owe at "no more bets" (docs/rules.md §9.4): "no more bets" would stop on it."""

    seat: int
    name: str
    player_dealer: bool
    owed: int
    held: int


def fee_shortfalls(round_: Round, snapshot: dict | None, chips: dict[int, int]) -> list[FeeShort]:
    """Each payer short of the fees the layout so far would owe if "no more bets" were called
    now (the fee engine's own ``shortfalls``, as "no more bets" checks them), the
    player-dealer's chips being those beside the bank; reads the round's prefetched bets."""
    bets = [bet for hand in round_.hands.all() for bet in hand.bets.all()]
    assessment = fee_selectors.layout_fees(round_, snapshot, bets)
    if assessment is None:
        return []
    who = {bet.player_id: (bet.hand.seat, bet.player.name) for bet in bets}
    who[round_.player_dealer_id] = (round_.player_dealer_seat, round_.player_dealer.name)
    return [
        FeeShort(*who[payer], payer == round_.player_dealer_id, owed, held)
        for payer, owed, held in shortfalls(assessment, chips)
    ]


# The one next action of the round, in the order a hand goes (the template's panels).
NEXT_ACTIONS = (
    "closed",
    "open_game",
    "seat_players",
    "offer",
    "answer",
    "start",
    "no_player_dealer",
    "bank",
    "wagers",
    "deal",
    "decisions",
    "flop",
    "turn_river",
    "showdown",
    "settle",
)
_NEXT_OF_STATE = {
    State.NO_MORE_BETS: "deal",
    State.PREFLOP: "flop",
    State.FLOP: "turn_river",
    State.RIVER: "showdown",
    State.SHOWDOWN: "settle",
}


def next_action(view: TableView) -> str:
    """What the dealer does next at this table, from the button's state and the round's."""
    if view.closed:
        return "closed"
    round_ = view.round
    if round_ is None:
        state = view.floor.button.state
        if state is State.NO_GAME or state is State.GAME_ENDED:
            return "open_game"
        if state is State.NO_PLAYERS:
            return "seat_players"
        if state is State.OFFER_PENDING:
            return "answer"
        if state is State.ACCEPTED:
            return "start"
        if state is State.NO_PLAYER_DEALER:
            return "no_player_dealer"
        return "offer"
    if round_.state == State.WAGERING:
        return "wagers" if getattr(round_, "bank", None) else "bank"
    if any(seat.deciding for seat in view.seat_panels):
        return "decisions"
    if round_.state == State.NO_MORE_BETS and not game_of_key(round_.options.get("game")).steps:
        return "showdown"  # a game without steps: the coup is dealt at the showdown
    return _NEXT_OF_STATE.get(State(round_.state), "settle")


def _bettors(hand, chips: dict[int, int]) -> list[Bettor]:
    return [Bettor(b.ante_cents, chips.get(b.player_id, 0), b.player.name) for b in hand.bets.all()]


def _choices(hand, seat: SeatDecisions | None, chips: dict[int, int]) -> tuple[Choice, ...]:
    if seat is None:
        return ()
    bettors = _bettors(hand, chips)
    result = []
    for action, multiple, label in seat.choices:
        short = play_shortfall(bettors, multiple) if multiple else None
        refused = ""
        if short is not None:
            refused = (
                f"{short.name} has {dollars(short.chips)}: a Play of "
                f"{dollars(play_stake(short.ante, multiple))} is more than that "
                f"({Rule.CHIPS_IN_FRONT.citation})"
            )
        result.append(Choice(action, multiple, label, refused))
    return tuple(result)


def seat_panels(view: TableView) -> list[SeatPanel]:
    """The six seats in order, each with its player, chips, hand, bets and decisions."""
    seated = {s.seat: s for s in view.floor.seated}
    round_ = view.round
    hands = {h.seat: h for h in round_.hands.all()} if round_ is not None else {}
    deciding = {d.seat: d for d in view.decisions if d.choices}
    button = view.floor.button
    offer = button.pending or button.accepted
    if round_ is not None:
        button_seat = round_.player_dealer_seat
    elif offer is not None:
        button_seat = offer.seat
    else:
        last = view.last_round
        button_seat = last.player_dealer_seat if last is not None else None
    panels = []
    for seat in seat_numbers(view.table.seat_count):
        seating = seated.get(seat)
        hand = hands.get(seat)
        panels.append(
            SeatPanel(
                seat=seat,
                seating=seating,
                hand=hand,
                bets=tuple(hand.bets.all()) if hand is not None else (),
                chips=view.chips.get(seating.player_id, 0) if seating is not None else 0,
                player_dealer=round_ is not None and round_.player_dealer_seat == seat,
                button=button_seat == seat,
                hold=view.holds.get(seat),
                choices=_choices(hand, deciding.get(seat), view.chips) if hand else (),
                deciding=seat in deciding,
            )
        )
    return panels


def table_view(*, table_id: int) -> TableView:
    floor = table_floor(table_id=table_id)
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
        view.seat_fees = fee_selectors.seat_fees(view.fee_lines, round_.player_dealer_seat)
    if settlement is not None:
        view.last_fee_lines = list(fee_selectors.fee_lines(last))
        view.last_fee_totals = fee_selectors.round_fees(last)
    if round_ is not None:
        view.round_schedule = fee_selectors.round_schedule(round_)
        view.decisions = _decisions(round_)
        view.used_cards = _used_cards(round_)
        if round_.deal_mode == DealMode.CARD_ENTRY and round_.state == State.RIVER:
            view.turned_up = round_selectors.seats_turned_face_up(round_)
        view.entry_needed = _entry_needed(round_, view.turned_up)
    view.seat_panels = seat_panels(view)
    view.coup = coup_view(round_) or (coup_view(last) if round_ is None else None)
    if settlement is not None:
        for line in settlement.lines:
            change = line.paid_cents - line.collected_cents
            view.seat_results[line.seat] = view.seat_results.get(line.seat, 0) + change
    view.next_action = next_action(view)
    view.exposure = money_selectors.layout_exposure(round_)
    if round_ is not None and round_.state == State.WAGERING and view.round_schedule:
        snapshot = view.round_schedule.schedule
        if not getattr(round_, "bank", None):
            bets = [bet for hand in round_.hands.all() for bet in hand.bets.all()]
            view.bank_fee = fee_selectors.least_player_dealer_owes(round_, snapshot, bets)
            held = view.chips.get(round_.player_dealer_id, 0)
            view.bank_most = largest_bank(held, view.bank_fee, round_.options["chip_unit_cents"])
        view.fee_short = fee_shortfalls(round_, snapshot, view.chips)
    return view


def players_to_seat() -> QuerySet[Player]:
    """Players not seated at any table: the seat form's choices."""
    seated = Seating.objects.filter(left_at__isnull=True).values("player_id")
    return Player.objects.exclude(pk__in=seated).order_by("name")


def backline_candidates(table: Table, round_: Round | None = None) -> QuerySet[Player]:
    """Who the floor lets bet behind a seat at this table (docs/rules.md §4.7): a patron
    standing at the table with chips there (bought in at this table, not a TPPP), seated
    nowhere, and not yet wagering in ``round_``; never everyone in the room (lazy: the
    query runs only when the wager form is shown)."""
    seated = Seating.objects.filter(left_at__isnull=True).values("player_id")
    holders = Player.objects.filter(
        accounts__table=table, accounts__closed_at__isnull=True, tppp__isnull=True
    ).values("pk")
    found = Player.objects.filter(pk__in=holders).exclude(pk__in=seated)
    if round_ is not None:
        found = found.exclude(pk__in=Bet.objects.filter(hand__round=round_).values("player_id"))
    return found.order_by("name")


def all_cards() -> list[str]:
    """The 52 card codes in a fixed order (ranks high to low within each suit) for the picker."""
    deck = format_cards(FULL_DECK)
    ranks = "AKQJT98765432"
    return sorted(deck, key=lambda c: ("shdc".index(c[1]), ranks.index(c[0])))


# --- The bankroll page --------------------------------------------------------------------

# How much of a player-dealer's history the bankroll chart draws (docs/console.md).
CHART_HANDS = 500
CHART_DAYS = 60


@dataclass(frozen=True)
class DayResult:
    day: date  # the gaming day (docs/rules.md §10.4), not the calendar date
    hands: int
    result: int  # cents: the sum of the day's bank results


def _result_by_gaming_day(banks: QuerySet[PlayerDealerBank]) -> list[DayResult]:
    """Every gaming day's result, oldest first. Grouped in the database by local date and
    whether the hand ended before the gaming day's start (then it belongs to the day
    before), so a daylight-saving change moves no hand to the wrong day."""
    zone = ZoneInfo(settings.TIME_ZONE)
    groups = (
        banks.annotate(
            local_date=TruncDate("round__ended_at", tzinfo=zone),
            local_time=TruncTime("round__ended_at", tzinfo=zone),
        )
        .annotate(
            early=Case(
                When(local_time__lt=settings.CARDROOM_GAMING_DAY_START, then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            ),
        )
        .values("local_date", "early")
        .annotate(hands=Count("id"), result=Sum("net_cents"))
        .order_by()
    )
    days: dict[date, tuple[int, int]] = {}
    for row in groups:
        if row["local_date"] is None:
            continue
        day = row["local_date"] - timedelta(days=1) if row["early"] else row["local_date"]
        hands, result = days.get(day, (0, 0))
        days[day] = (hands + row["hands"], result + row["result"])
    return [DayResult(day, *days[day]) for day in sorted(days)]


def _expected(net: int, theo: Decimal | None) -> Decimal:
    """A hand on the theo line: its theo, or its actual result if it has none."""
    return Decimal(net) if theo is None else theo


@dataclass(frozen=True)
class BankrollChart:
    data: dict  # what console/bankroll.js draws, through json_script
    days: list[DayResult]  # oldest first

    @property
    def last_days(self) -> list[DayResult]:
        """The newest ten gaming days, newest first: the table shown without JavaScript."""
        return self.days[::-1][:10]


def bankroll_chart(
    player: Player, *, hands: int = CHART_HANDS, days: int = CHART_DAYS
) -> BankrollChart:
    """What the bankroll chart draws, all money in integer cents: the player-dealer's
    cumulative result after each hand banked and settled (the newest ``hands``; x = when the
    hand was settled, in Unix seconds, drawn in the cardroom's time zone), and each gaming
    day's result (the newest ``days`` days played). The cumulative result counts the older
    hands too, so its last value is the page's "result".

    Beside it, at the same hands (``theo``): the cumulative theo (docs/rules.md §13.5) and
    the band of two standard deviations around it, and each hand's own theo. A hand
    without a theo (settled before theo was recorded) counts at its actual result on the
    theo line and adds no spread, so the gap between the lines is the bankroll's
    difference. Three queries."""
    settled = PlayerDealerBank.objects.filter(
        player=player, net_cents__isnull=False, round__ended_at__isnull=False
    )
    newest = list(
        settled.order_by("-round__ended_at", "-round_id").values_list(
            "round__ended_at",
            "net_cents",
            "round__table__name",
            "round__number",
            "round__theo__theo_cents",
            "round__theo__std_dev_cents",
        )[:hands]
    )
    newest.reverse()
    totals = settled.aggregate(
        total=Sum("net_cents"),
        theo=Sum("round__theo__theo_cents"),
        without_theo=Sum("net_cents", filter=Q(round__theo__isnull=True)),
        variance=Sum(
            F("round__theo__std_dev_cents") * F("round__theo__std_dev_cents"),
            output_field=DecimalField(max_digits=50, decimal_places=8),
        ),
    )
    running = (totals["total"] or 0) - sum(row[1] for row in newest)
    expected = (
        Decimal(totals["theo"] or 0)
        + (totals["without_theo"] or 0)
        - sum((_expected(net, theo) for _, net, _, _, theo, _ in newest), Decimal(0))
    )
    variance = Decimal(totals["variance"] or 0) - sum(
        (spread * spread for *_, spread in newest if spread is not None), Decimal(0)
    )
    cumulative, theo_line, low, high = [], [], [], []
    for _, net, _, _, theo, spread in newest:
        running += net
        cumulative.append(running)
        expected += _expected(net, theo)
        if spread is not None:
            variance += spread * spread
        band = 2 * variance.sqrt() if variance > 0 else Decimal(0)
        theo_line.append(whole_cents(expected))
        low.append(whole_cents(expected - band))
        high.append(whole_cents(expected + band))
    by_day = _result_by_gaming_day(settled)[-days:]
    data = {
        "timezone": settings.TIME_ZONE,
        "hands": {
            "time": [int(row[0].timestamp()) for row in newest],
            "result": cumulative,
            "net": [row[1] for row in newest],
            "hand": [f"{row[2]} round {row[3]}" for row in newest],
        },
        "theo": {
            "expected": theo_line,
            "low": low,
            "high": high,
            "hand": [None if row[4] is None else whole_cents(row[4]) for row in newest],
        },
        "days": {
            "day": [d.day.isoformat() for d in by_day],
            "hands": [d.hands for d in by_day],
            "result": [d.result for d in by_day],
        },
    }
    return BankrollChart(data, by_day)


# --- The audit page -----------------------------------------------------------------------


def staff_actions(
    *,
    username: str = "",
    outcome: str = "",
    channel: str = "",
    table: int | None = None,
    action: str = "",
    start: datetime | None = None,
    end: datetime | None = None,
) -> QuerySet:
    """The trail, newest first, narrowed by the audit page's filters (and the export's):
    the user name as typed (any case), outcome, channel, table id, action, ``[start, end)``."""
    actions = StaffAction.objects.select_related("user")
    if username:
        actions = actions.filter(username__iexact=username)
    if outcome:
        actions = actions.filter(outcome=outcome)
    if channel:
        actions = actions.filter(channel=channel)
    if table is not None:
        actions = actions.filter(table_id=table)
    if action:
        actions = actions.filter(action=action)
    if start is not None:
        actions = actions.filter(at__gte=start)
    if end is not None:
        actions = actions.filter(at__lt=end)
    return actions


@dataclass(frozen=True)
class AuditChoices:
    tables: list[Table]  # every table, by name
    actions: list[str]  # every action recorded, in order
    staff: list[str]  # every staff account's user name


def audit_choices() -> AuditChoices:
    """What the audit page's filters offer: three queries whatever the trail's size."""
    from django.contrib.auth import get_user_model

    actions = StaffAction.objects.order_by("action").values_list("action", flat=True).distinct()
    staff = get_user_model()._default_manager.filter(is_staff=True).order_by("username")
    return AuditChoices(
        tables=list(Table.objects.order_by("name")),
        actions=list(actions),
        staff=list(staff.values_list("username", flat=True)),
    )


# --- Fee schedules ------------------------------------------------------------------------


def fee_schedules(moment: datetime | None = None) -> list[fee_selectors.ScheduleRow]:
    """Every schedule with its versions, marked in force (and where), past or scheduled."""
    return fee_selectors.schedule_overview(moment or now())


# --- The waitlist page's must-move tables and table changes (docs/rules.md §3.6) ---------------


@dataclass(frozen=True)
class OfferLine:
    """An open seat and who is offered it first, in the floor's words."""

    table: Table
    seat: int
    player: Player
    line: str  # "must move" or "table change"
    from_table: Table
    from_seat: int
    then: tuple[str, ...]  # the names after them, in order


@dataclass(frozen=True)
class LinkLine:
    link: object
    players: tuple[Player, ...]  # in the order they move


@dataclass(frozen=True)
class SeatRequestsPanel:
    offers: tuple[OfferLine, ...]
    links: tuple[LinkLine, ...]
    changes: tuple[object, ...]
    requests: SeatRequests

    def offered(self, table_id: int, seat: int) -> OfferLine | None:
        return next((o for o in self.offers if (o.table.pk, o.seat) == (table_id, seat)), None)


def seat_requests_panel(moment) -> SeatRequestsPanel:
    requests = seat_requests(moment=moment)
    offers = []
    for offer in sorted(requests.offers.values(), key=lambda o: (o.table.name, o.seat)):
        first = offer.first
        seating = requests.seatings[first.player]
        offers.append(
            OfferLine(
                table=offer.table,
                seat=offer.seat,
                player=seating.player,
                line=LINE_WORDS[Line(first.line)],
                from_table=seating.table,
                from_seat=seating.seat,
                then=tuple(requests.player(m.player).name for m in offer.movers[1:]),
            )
        )
    links = tuple(
        LinkLine(
            link,
            tuple(s.player for s in requests.must_move_players.get(link.table_id, ())),
        )
        for link in requests.must_moves
    )
    return SeatRequestsPanel(tuple(offers), links, requests.table_changes, requests)


def seat_request_choices() -> dict:
    """The start and ask forms' choices: open tables, and seated players by name."""
    tables = list(Table.objects.filter(closed_at__isnull=True).order_by("name"))
    seated = (
        Seating.objects.filter(left_at__isnull=True)
        .select_related("player", "table")
        .order_by("player__name")
    )
    return {
        "open_tables": [
            (t.pk, f"{t.name} ({dollar_range(t.minimum_cents, t.maximum_cents)})") for t in tables
        ],
        "seated_players": [
            (s.player_id, f"{s.player.name} ({s.table.name} seat {s.seat})") for s in seated
        ],
    }
