"""Builders for the money tests, over ``tests.builders.floor``: rows made through the services.

- ``money_table``: a table (card entry or RNG deal), players seated with given chips (a
  patron's buy-in, a TPPP's fill), backline bettors with chips who stand behind seats, a
  game open.
- ``Wager``, ``start``, ``place``, ``play_round``: a round through the services (button,
  start, bank, wagers, then ``tests.builders.floor.advance`` state by state), with given
  bets, decisions and cards (or an RNG), stopping at any state.
- ``appendix``, ``calculator_lines``, ``stored_lines``: the stored round in the settlement
  calculator's format (docs/rules.md §11), the calculator's lines for it, and the stored lines.
- ``replay_coverage``: docs/rules.md §7.3's caps recomputed from each line's outcome and payout.
- ``chips_of``, ``all_balances``: balances read back from the database.
- ``verified``: every difference ``verify_ledger`` finds (the money and fee checks, every
  settled hand played again).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

from django.db import transaction

from cardroom.errors import State
from tables.models import DealMode, HandDecision, Player, Round, Table
from tests.builders.floor import (
    Cards,
    Staff,
    bring_chips,
    give_button,
    layout_of,
    make_player,
    open_floor,
    start_round,
)
from tests.builders.floor import play_round as play_floor_round
from wagers.models import Account, Bet, SettlementLine
from wagers.rules.calculator import settle_request
from wagers.rules.wagers import bettor_label
from wagers.selectors import calculator_request
from wagers.services import wagering
from wagers.services.chips import chip_account
from wagers.services.wagering import BetRequest

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
    name: str | None = None,
    **options: Any,
) -> MoneyTable:
    """Seat a player in each seat of ``chips_by_seat`` with that many cents in chips.

    ``backliners`` lists the chips of each backline bettor (not seated, bought in).
    """
    opened = open_floor(
        layout_of(chips_by_seat, tppp_seats),
        staff=staff,
        first_offer_seat=first_offer_seat or min(chips_by_seat),
        chips=chips_by_seat,
        name=name,
        deal_mode=deal_mode,
        **options,
    )
    behind = []
    for amount in backliners:
        player = make_player()
        if amount:
            bring_chips(opened.table_id, player, amount, by=staff.dealer)
        behind.append(player)
    return MoneyTable(table=opened.table, staff=staff, seated=opened.players, backliners=behind)


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


def start(mt: MoneyTable, pd_seat: int | None, bank: int) -> Round:
    """The button to ``pd_seat`` (None: the first seat offered), the round started, the bank
    W posted."""
    give_button(mt.table.pk, pd_seat, by=mt.staff.dealer)
    return start_round(mt.table.pk, by=mt.staff.dealer, bank=bank)


def place(mt: MoneyTable, round_: Round, wagers: Sequence[Wager]) -> list[Bet]:
    """Every bettor's opening wagers in one call (seated players first, in the given order)."""
    return wagering.place_bets(
        round_id=round_.pk, bets=[w.request(mt) for w in wagers], by=mt.staff.dealer
    )


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
    """A round from the button to ``until`` (default: settled): ``tests.builders.floor``'s
    ``play_round`` with these bets, after ``pd_seat`` has taken the button."""
    give_button(mt.table.pk, pd_seat, by=mt.staff.dealer)
    return play_floor_round(
        mt.table.pk,
        by=mt.staff.dealer,
        bank=bank,
        bets=[w.request(mt) for w in wagers],
        until=until,
        plans=decisions,
        cards=cards,
        rng=rng,
    )


# --- Reading money back ------------------------------------------------------------------------


def chips_of(player: Player, table: Table) -> int:
    account = chip_account(player, table)
    return Account.objects.get(pk=account.pk).balance_cents if account else 0


def all_balances() -> dict[int, int]:
    return dict(Account.objects.values_list("pk", "balance_cents"))


def verified() -> list:
    """Every difference ``verify_ledger`` finds, with all of its checks."""
    from rounds.management.commands.verify_ledger import CHECKS
    from wagers.verification import differences

    return differences(CHECKS)


def folded_seats(round_: Round) -> set[int]:
    return set(
        HandDecision.objects.filter(hand__round=round_, action="fold").values_list(
            "hand__seat", flat=True
        )
    )


def appendix(round_: Round) -> dict[str, Any]:
    """The stored round in the docs/rules.md §11 format (the calculator's input)."""
    return calculator_request(round_)


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
            bettor_label(line.bettor),
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
