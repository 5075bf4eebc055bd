"""Builders for the money tests: every row is made through the real services.

- ``make_staff``, ``make_player``: staff on duty and patrons / badged TPPP players.
- ``money_table``: a table (card entry or RNG deal), players seated with chips (a patron's
  buy-in, a TPPP's fill), backline bettors with chips who stand behind seats, a game open.
- ``give_button``: offers clockwise, every other seat declining, until a seat accepts.
- ``play_round``: a round through the services (button, start, bank, wagers, no more bets,
  deal, decisions street by street, flop, turn and river, showdown, settle), with given
  bets, decisions and cards (or an RNG), stopping at any state.
- ``appendix``, ``calculator_lines``, ``stored_lines``: the stored round in the settlement
  calculator's format (docs/rules.md §11), the calculator's lines for it, and the stored lines.
- ``replay_coverage``: docs/rules.md §7.3's caps recomputed from each line's outcome and payout.
- ``chips_of``, ``all_balances``: balances read back from the database.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any, NamedTuple

from django.db import transaction
from django.utils import timezone

from cardroom.errors import Refused, State, describe
from cardroom.roles import Role
from rounds import services as rounds
from tables.models import (
    ButtonOffer,
    DealMode,
    HandDecision,
    Player,
    Round,
    Table,
)
from tables.services import button, floor
from tests.factories import UserFactory
from wagers.models import Account, Bet, PlayerDealerBank, SettlementLine
from wagers.rules.calculator import settle_request
from wagers.services import chips, wagering
from wagers.services.chips import chip_account
from wagers.services.wagering import BetRequest

_serial = itertools.count(1)


def unique(prefix: str) -> str:
    return f"{prefix}-{next(_serial)}"


# --- Staff and players ----------------------------------------------------------------------


@dataclass(frozen=True)
class Staff:
    supervisor: Any
    dealer: Any


def make_staff() -> Staff:
    return Staff(
        supervisor=UserFactory(role=Role.FLOOR_SUPERVISOR),
        dealer=UserFactory(role=Role.HOUSE_DEALER),
    )


def make_player(*, tppp: bool = False, name: str = "") -> Player:
    number = unique("MN")
    registration = None
    if tppp:
        registration = {
            "business_name": f"Proposition Services {number} LLC",
            "badge_number": f"B-{number}",
            "badge_expires_on": (timezone.now() + timedelta(days=365)).date(),
        }
    return floor.create_player(player_number=number, name=name or number, tppp=registration)


def bring_chips(table: Table, player: Player, amount: int, *, by) -> None:
    """A patron buys in; a TPPP's bankroll is filled."""
    if hasattr(player, "tppp"):
        chips.fill(table_id=table.pk, player_id=player.pk, amount=amount, by=by)
    else:
        chips.buy_in(table_id=table.pk, player_id=player.pk, amount=amount, currency=True, by=by)


# --- A table with players and chips ---------------------------------------------------------


@dataclass
class MoneyTable:
    table: Table
    staff: Staff
    seated: dict[int, Player]
    backliners: list[Player] = field(default_factory=list)

    @property
    def players(self) -> list[Player]:
        return [*self.seated.values(), *self.backliners]

    def chips(self, player: Player) -> int:
        return chips_of(player, self.table)

    def chip_balances(self) -> dict[int, int]:
        """Player id -> chips at this table, for everyone seated and every backline bettor."""
        return {player.pk: self.chips(player) for player in self.players}


def money_table(
    staff: Staff,
    chips_by_seat: Mapping[int, int],
    *,
    deal_mode: str = DealMode.CARD_ENTRY,
    tppp_seats: Sequence[int] = (),
    backliners: Sequence[int] = (),
    first_offer_seat: int | None = None,
    **options: Any,
) -> MoneyTable:
    """Seat a player in each seat of ``chips_by_seat`` with that many cents in chips.

    ``backliners`` lists the chips of each backline bettor (not seated, bought in).
    """
    table = floor.create_table(
        name=unique("UTH-MONEY"), by=staff.supervisor, options={"deal_mode": deal_mode, **options}
    )
    seated = {}
    for seat, amount in sorted(chips_by_seat.items()):
        player = make_player(tppp=seat in tppp_seats)
        floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=staff.supervisor)
        if amount:
            bring_chips(table, player, amount, by=staff.dealer)
        seated[seat] = player
    behind = []
    for amount in backliners:
        player = make_player()
        if amount:
            bring_chips(table, player, amount, by=staff.dealer)
        behind.append(player)
    floor.open_game_at(
        table_id=table.pk,
        first_offer_seat=first_offer_seat or min(chips_by_seat),
        by=staff.supervisor,
    )
    return MoneyTable(table=table, staff=staff, seated=seated, backliners=behind)


def give_button(mt: MoneyTable, seat: int | None = None) -> ButtonOffer:
    """Offer the button clockwise; ``seat`` accepts (every seat before it declines).

    ``seat=None``: the first seat offered accepts.
    """
    for _ in range(8):
        offer = button.offer_button(table_id=mt.table.pk, by=mt.staff.dealer)
        if isinstance(offer, Refused):  # every seat declined or was passed over
            refusal = describe(offer.error)
            raise AssertionError(f"seat {seat} was never offered the button: {refusal}")
        accept = seat is None or offer.seat == seat
        button.answer_offer(
            table_id=mt.table.pk, offer_id=offer.pk, accept=accept, by=mt.staff.dealer
        )
        if accept:
            return offer
    raise AssertionError(f"seat {seat} was never offered the button")


# --- A round through the services -------------------------------------------------------------


@dataclass(frozen=True)
class Wager:
    """One bettor's opening wagers: the seated player's (``behind=None``) or a backliner's.

    ``behind`` is the index of the backline bettor in ``MoneyTable.backliners``.
    """

    seat: int
    ante: int
    trips: int = 0
    bad_beat: int = 0
    behind: int | None = None

    def request(self, mt: MoneyTable) -> BetRequest:
        return BetRequest(
            seat=self.seat,
            ante=self.ante,
            blind=self.ante,
            trips=self.trips,
            bad_beat=self.bad_beat,
            backline_player_id=None if self.behind is None else mt.backliners[self.behind].pk,
        )

    def player(self, mt: MoneyTable) -> Player:
        return mt.seated[self.seat] if self.behind is None else mt.backliners[self.behind]


# A seat's decisions as one number: 4 or 3 plays pre-flop, 2 on the flop, 1 on the river,
# 0 checks, checks and folds on the river.
PLAY_4X, PLAY_3X, PLAY_FLOP, PLAY_RIVER, FOLD = 4, 3, 2, 1, 0


def street_decision(plan: int, state: State) -> tuple[str, int] | None:
    """The decision ``plan`` makes on the street of ``state`` (None: it has already played)."""
    if state is State.PREFLOP:
        return ("play", plan) if plan in (PLAY_4X, PLAY_3X) else ("check", 0)
    if plan in (PLAY_4X, PLAY_3X):
        return None
    if state is State.FLOP:
        return ("play", 2) if plan == PLAY_FLOP else ("check", 0)
    if plan == PLAY_FLOP:
        return None
    return ("play", 1) if plan == PLAY_RIVER else ("fold", 0)


@dataclass(frozen=True)
class Cards:
    """Card entry: the player-dealer's hole cards, each seat's, and the board (3 + 2)."""

    player_dealer: Sequence[str]
    hands: Mapping[int, Sequence[str]]
    board: Sequence[str]

    def entry(self, seats: Sequence[int]) -> dict[str, Any]:
        return {
            "player_dealer": list(self.player_dealer),
            "hands": {str(seat): list(self.hands[seat]) for seat in seats},
        }


FORWARD = [
    State.WAGERING,
    State.NO_MORE_BETS,
    State.PREFLOP,
    State.FLOP,
    State.RIVER,
    State.SHOWDOWN,
    State.SETTLED,
]


def start(mt: MoneyTable, pd_seat: int | None, bank: int) -> Round:
    """The button to ``pd_seat``, the round started, the bank W posted."""
    give_button(mt, pd_seat)
    round_ = rounds.start_round(table_id=mt.table.pk, by=mt.staff.dealer)
    if isinstance(round_, Refused):
        raise AssertionError(f"the round was refused: {describe(round_.error)}")
    wagering.post_bank(round_id=round_.pk, amount=bank, by=mt.staff.dealer)
    return round_


def place(mt: MoneyTable, round_: Round, wagers: Sequence[Wager]) -> list[Bet]:
    """Every bettor's opening wagers in one call (seated players first, in the given order)."""
    return wagering.place_bets(
        round_id=round_.pk, bets=[w.request(mt) for w in wagers], by=mt.staff.dealer
    )


def advance(
    mt: MoneyTable,
    round_: Round,
    to_state: State,
    *,
    decisions: Mapping[int, int] | None = None,
    cards: Cards | None = None,
    rng: random.Random | None = None,
) -> Round:
    """Move a round forward, one service call per transition, up to ``to_state``."""
    by = mt.staff.dealer
    target = FORWARD.index(to_state)
    while FORWARD.index(State(round_.state)) < target:
        state = State(round_.state)
        seats = sorted(round_.hands.values_list("seat", flat=True))
        if state is State.WAGERING:
            round_ = rounds.close_wagering(round_id=round_.pk, by=by)
        elif state is State.NO_MORE_BETS:
            entry = cards.entry(seats) if cards is not None else None
            round_ = rounds.deal(round_id=round_.pk, by=by, entry=entry, rng=rng)
        elif state in (State.PREFLOP, State.FLOP, State.RIVER):
            plans = decisions if decisions is not None else dict.fromkeys(seats, PLAY_RIVER)
            street = [
                (seat, *decision)
                for seat in seats
                if (decision := street_decision(plans[seat], state)) is not None
            ]
            if street:
                rounds.decide_street(round_id=round_.pk, decisions=street, by=by)
            if state is State.PREFLOP:
                flop = list(cards.board[:3]) if cards is not None else None
                round_ = rounds.reveal_flop(round_id=round_.pk, by=by, cards=flop)
            elif state is State.FLOP:
                rest = list(cards.board[3:]) if cards is not None else None
                round_ = rounds.reveal_turn_and_river(round_id=round_.pk, by=by, cards=rest)
            else:
                round_ = rounds.showdown(round_id=round_.pk, by=by)
        elif state is State.SHOWDOWN:
            round_ = rounds.settle(round_id=round_.pk, by=by)
    round_.refresh_from_db()
    return round_


def play_round(
    mt: MoneyTable,
    *,
    pd_seat: int | None,
    bank: int,
    wagers: Sequence[Wager],
    decisions: Mapping[int, int] | None = None,
    cards: Cards | None = None,
    rng: random.Random | None = None,
    until: State = State.SETTLED,
) -> Round:
    """A round from the button to ``until`` (default: settled)."""
    round_ = start(mt, pd_seat, bank)
    if wagers:
        place(mt, round_, wagers)
    return advance(mt, round_, until, decisions=decisions, cards=cards, rng=rng)


# --- Reading money back ------------------------------------------------------------------------


def chips_of(player: Player, table: Table) -> int:
    account = chip_account(player, table)
    return Account.objects.get(pk=account.pk).balance_cents if account else 0


def all_balances() -> dict[int, int]:
    return dict(Account.objects.values_list("pk", "balance_cents"))


def folded_seats(round_: Round) -> set[int]:
    return set(
        HandDecision.objects.filter(hand__round=round_, action="fold").values_list(
            "hand__seat", flat=True
        )
    )


def appendix(round_: Round) -> dict[str, Any]:
    """The stored round in the docs/rules.md §11 format (the calculator's input)."""
    options = round_.options
    bank = PlayerDealerBank.objects.get(round=round_)
    folded = folded_seats(round_)
    seats = []
    for hand in round_.hands.order_by("seat"):
        own, *behind = hand.bets.order_by("bettor")
        seats.append(
            {
                "seat": hand.seat,
                "hole": list(hand.hole),
                "ante": own.ante_cents,
                "blind": own.blind_cents,
                "trips": own.trips_cents,
                "bad_beat": own.bad_beat_cents,
                "play": own.play_cents,
                "folded": hand.seat in folded,
                "backline": [
                    {
                        "ante": bet.ante_cents,
                        "blind": bet.blind_cents,
                        "trips": bet.trips_cents,
                        "bad_beat": bet.bad_beat_cents,
                        "play": bet.play_cents,
                    }
                    for bet in behind
                ],
            }
        )
    return {
        "options": {
            "trips_paytable": options["trips_paytable"],
            "bad_beat_paytable": options["bad_beat_paytable"],
            "chip_unit_cents": options["chip_unit_cents"],
            "allowed_preflop_multiples": list(options["preflop_multiples"]),
            "table_minimum_cents": options["minimum_cents"],
            "table_maximum_cents": options["maximum_cents"],
            "backline_allowed": options["backline_allowed"],
        },
        "player_dealer": {
            "seat": round_.player_dealer_seat,
            "bank": bank.amount_cents,
            "hole": list(round_.dealer_hole),
        },
        "board": list(round_.board),
        "seats": seats,
    }


def _label(bettor: int) -> str:
    return "seat" if bettor == 0 else f"backline-{bettor}"


def calculator_lines(round_: Round) -> list[tuple]:
    answer = settle_request(appendix(round_))
    return [
        (
            line["order"],
            line["pass"],
            line["seat"],
            line["bettor"],
            line["wager"],
            line["stake"],
            line["outcome"],
            line["paid"],
            line["collected"],
            line["returned_uncovered"],
            line["unpaid_uncovered"],
            Decimal(line["rounded_off"]),
        )
        for line in answer["settlement"]
    ]


def stored_lines(round_: Round) -> list[tuple]:
    return [
        (
            line.order,
            line.settlement_pass,
            line.seat,
            _label(line.bettor),
            line.wager,
            line.stake_cents,
            line.outcome,
            line.paid_cents,
            line.collected_cents,
            line.returned_uncovered_cents,
            line.unpaid_uncovered_cents,
            Decimal(line.rounded_off_cents),
        )
        for line in SettlementLine.objects.filter(round=round_).order_by("order")
    ]


def short_lines(round_: Round) -> list[tuple]:
    """(pass, seat, bettor, wager, stake, outcome, paid, collected, returned, unpaid)."""
    return [line[1:11] for line in stored_lines(round_)]


class Coverage(NamedTuple):
    net: int
    exhausted: bool


def replay_coverage(lines: Sequence[SettlementLine], bank: int) -> Coverage:
    """docs/rules.md §7.3's caps, recomputed line by line from each stored outcome and payout.

    Asserts every line is capped as §5 says; answers the player-dealer's net.
    """
    net, exhausted = 0, False
    for line in lines:
        payout = line.paid_cents + line.unpaid_uncovered_cents
        where = f"line {line.order} (seat {line.seat} bettor {line.bettor} {line.wager})"
        if line.outcome == "lose":
            collected = 0 if exhausted else min(line.stake_cents, bank - net)
            assert line.collected_cents == collected, where
            assert line.returned_uncovered_cents == line.stake_cents - collected, where
            assert (line.paid_cents, line.unpaid_uncovered_cents) == (0, 0), where
            net += collected
        elif line.outcome == "win":
            paid = 0 if exhausted else min(payout, bank + net)
            assert line.paid_cents == paid, where
            assert (line.collected_cents, line.returned_uncovered_cents) == (0, 0), where
            net -= paid
            if paid and bank + net == 0:
                exhausted = True
        else:
            assert line.outcome == "push", where
            assert (
                line.paid_cents,
                line.collected_cents,
                line.returned_uncovered_cents,
                line.unpaid_uncovered_cents,
            ) == (0, 0, 0, 0), where
    return Coverage(net, exhausted)


# --- Rolling back one example -----------------------------------------------------------------


class _Rollback(Exception):
    pass


@contextmanager
def rolled_back():
    """Run the block in a savepoint that is always rolled back (one Hypothesis example)."""
    try:
        with transaction.atomic():
            yield
            raise _Rollback
    except _Rollback:
        pass
