"""Read paths for money: settlement lines, ledger transactions, bankrolls and sessions.

Aggregations run in SQL (one query per figure set), never by loading rounds into Python.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.db.models import (
    Count,
    DecimalField,
    F,
    Max,
    Prefetch,
    Q,
    QuerySet,
    Sum,
    Value,
    prefetch_related_objects,
)
from django.db.models.functions import Coalesce

from cardroom import csvsafe
from cardroom.clock import now, today
from cardroom.errors import State, StateError
from cardroom.filtering import filter_queryset
from cardroom.gaming_day import gaming_day_of, gaming_day_window
from cardroom.money import dollars
from games.interface import RoundCards, SeatWagers
from games.registry import game as game_of_key
from tables import options as table_options
from tables.models import HandDecision, Player, Round, Seating
from tables.rules.decisions import Action
from wagers.filters import AccountFilter, CtrFilter, MtlFilter, ReviewFilter
from wagers.models import (
    CHIP_ACCOUNT_KINDS,
    Account,
    Bet,
    CageSlip,
    ComplianceReview,
    CurrencyDay,
    CurrencyTransactionReport,
    LedgerEntry,
    LedgerTransaction,
    MtlEntry,
    PlayerDealerBank,
    SettlementLine,
    TransactionKind,
)
from wagers.rules import title31 as title31_rules
from wagers.rules.layout import BankAction
from wagers.rules.theo import Comparison


def settlement_lines(round_id: int) -> QuerySet[SettlementLine]:
    return (
        SettlementLine.objects.filter(round_id=round_id)
        .select_related("bet__player")
        .order_by("order")
    )


def account_transactions(account_id: int) -> QuerySet[LedgerTransaction]:
    return (
        LedgerTransaction.objects.filter(entries__account_id=account_id)
        .distinct()
        .prefetch_related("entries")
        .select_related("by")
        .order_by("id")
    )


def open_chip_accounts(table, player_ids) -> dict[int, Account]:
    """Each player's open chip account at ``table`` (a TPPP's bankroll, a patron's chips)."""
    return {
        account.player_id: account
        for account in Account.objects.filter(
            table=table,
            player_id__in=player_ids,
            kind__in=CHIP_ACCOUNT_KINDS,
            closed_at__isnull=True,
        )
    }


def chips_at_table(table) -> dict[int, Account]:
    """Everyone holding chips at ``table`` now, by player: their open chip account with a
    balance (seated players, bettors behind a seat, a TPPP's bankroll)."""
    return {
        account.player_id: account
        for account in Account.objects.filter(
            table=table, kind__in=CHIP_ACCOUNT_KINDS, closed_at__isnull=True, balance_cents__gt=0
        ).order_by("player_id")
    }


def chip_accounts(player: Player) -> QuerySet[Account]:
    return Account.objects.filter(player=player, kind__in=CHIP_ACCOUNT_KINDS).select_related(
        "table"
    )


def _movements(accounts: QuerySet[Account], since=None, until=None) -> dict[str, int]:
    entries = LedgerEntry.objects.filter(account__in=accounts)
    if since is not None:
        entries = entries.filter(transaction__at__gte=since)
    if until is not None:
        entries = entries.filter(transaction__at__lt=until)
    kinds = {
        "fills": TransactionKind.FILL,
        "credits": TransactionKind.CREDIT,
        "buy_ins": TransactionKind.BUY_IN,
        "cash_outs": TransactionKind.CASH_OUT,
        "fees": TransactionKind.FEE,
    }
    totals = entries.aggregate(
        **{
            name: Coalesce(Sum("amount_cents", filter=Q(transaction__kind=kind)), 0)
            for name, kind in kinds.items()
        }
    )
    # Money leaving the player's chips is negative in the ledger; report amounts as positive.
    for name in ("credits", "cash_outs", "fees"):
        totals[name] = -totals[name]
    return totals


# A bank's hand compared with its theo (docs/rules.md §13.5): settled, with a theo stored.
WITH_THEO = Q(net_cents__isnull=False, round__theo__isnull=False)
_CENTS = DecimalField(max_digits=30, decimal_places=4)
_CENTS_SQUARED = DecimalField(max_digits=50, decimal_places=8)


def _decimal_sum(expression, output_field: DecimalField):
    return Coalesce(
        Sum(expression, filter=WITH_THEO, output_field=output_field),
        Value(Decimal(0), output_field=output_field),
        output_field=output_field,
    )


def _banking_aggregates() -> dict:
    return {
        "hands_banked": Count("id"),
        "banked": Coalesce(Sum("amount_cents"), 0),
        "total_result": Coalesce(Sum("net_cents"), 0),
        "largest_exposure": Coalesce(Max("amount_cents"), 0),
        "banks_exhausted": Count("id", filter=Q(exhausted=True)),
        # Theo beside actual: the settled hands with a theo, their theo, their results and
        # the sum of their squared spreads (``theo_comparison``).
        "theo_hands": Count("id", filter=WITH_THEO),
        "theo": _decimal_sum("round__theo__theo_cents", _CENTS),
        "theo_actual": Coalesce(Sum("net_cents", filter=WITH_THEO), 0),
        "theo_variance": _decimal_sum(
            F("round__theo__std_dev_cents") * F("round__theo__std_dev_cents"), _CENTS_SQUARED
        ),
    }


def theo_comparison(figures: dict) -> Comparison:
    """The theo figures of ``banking_figures`` as a comparison of actual with theo."""
    return Comparison(
        hands=figures["theo_hands"],
        theo=Decimal(figures["theo"]),
        actual=figures["theo_actual"],
        variance=Decimal(figures["theo_variance"]),
    )


UNCOVERED = {
    "returned_uncovered": Coalesce(Sum("returned_uncovered_cents"), 0),
    "unpaid_uncovered": Coalesce(Sum("unpaid_uncovered_cents"), 0),
}


def _round_uncovered() -> dict:
    """``UNCOVERED`` of each bank's round, to annotate a queryset of banks."""
    return {name: Coalesce(Sum(f"round__settlement_lines__{name}_cents"), 0) for name in UNCOVERED}


def banking_figures(banks: QuerySet[PlayerDealerBank], *, group: str | None = None) -> dict:
    """The figures of the banks in ``banks``: hands banked, the total banked, the result,
    the largest bank (the most the player-dealer could lose on one hand), banks exhausted,
    the uncovered amounts returned and unpaid in those rounds, and the theo figures of the
    settled hands with a theo (``theo_comparison``).

    All of them, or per ``group`` (a field of the bank, e.g. ``"player"`` or ``"account"``:
    a dict by its value). The banks and their rounds' settlement lines are aggregated
    separately: one aggregate over a join would count each bank once per line.
    """
    lines = SettlementLine.objects.filter(round__bank__in=banks)
    if group is None:
        totals = banks.aggregate(**_banking_aggregates())
        totals.update(lines.aggregate(**UNCOVERED))
        return totals
    figures = {
        row[group]: {**row, **dict.fromkeys(UNCOVERED, 0)}
        for row in banks.values(group).annotate(**_banking_aggregates())
    }
    for row in lines.values(key=F(f"round__bank__{group}")).annotate(**UNCOVERED):
        figures[row["key"]].update({name: row[name] for name in UNCOVERED})
    return figures


def _banking_and_theo(banks: QuerySet[PlayerDealerBank]) -> tuple[dict[str, int], Comparison]:
    """The settled hands of ``banks``, as the bankroll shows them, and their theo."""
    figures = banking_figures(banks.filter(net_cents__isnull=False))
    return {name: figures[name] for name in BANKING_FIGURES}, theo_comparison(figures)


def _banking(banks: QuerySet[PlayerDealerBank]) -> dict[str, int]:
    return _banking_and_theo(banks)[0]


BANKING_FIGURES = (
    "hands_banked",
    "total_result",
    "largest_exposure",
    "returned_uncovered",
    "unpaid_uncovered",
)


@dataclass(frozen=True)
class Bankroll:
    player: Player
    is_tppp: bool
    balance: int
    movements: dict[str, int]
    banking: dict[str, int]
    theo: Comparison  # the settled hands banked that have a theo, beside it


def bankroll(player: Player) -> Bankroll:
    """A player-dealer's bankroll: chips now held at tables, movements, and every bank posted."""
    accounts = chip_accounts(player)
    balance = accounts.filter(closed_at__isnull=True).aggregate(
        total=Coalesce(Sum("balance_cents"), 0)
    )
    banking, theo = _banking_and_theo(PlayerDealerBank.objects.filter(player=player))
    return Bankroll(
        player=player,
        is_tppp=hasattr(player, "tppp"),
        balance=balance["total"],
        movements=_movements(accounts),
        banking=banking,
        theo=theo,
    )


def banks(player: Player) -> QuerySet[PlayerDealerBank]:
    """Every bank the player posted, newest first, with the round it covered."""
    return (
        PlayerDealerBank.objects.filter(player=player)
        .select_related("round__table", "round__theo")
        .annotate(**_round_uncovered())
        .order_by("-posted_at")
    )


@dataclass(frozen=True)
class Session:
    """From sitting down to leaving one table: what the player did as player-dealer."""

    seating: Seating
    banking: dict[str, int]
    movements: dict[str, int]


def sessions(player: Player) -> list[Session]:
    result = []
    for seating in Seating.objects.filter(player=player).select_related("table").order_by("sat_at"):
        window = Q(round__table=seating.table, round__started_at__gte=seating.sat_at)
        if seating.left_at is not None:
            window &= Q(round__started_at__lt=seating.left_at)
        accounts = chip_accounts(player).filter(table=seating.table)
        result.append(
            Session(
                seating=seating,
                banking=_banking(PlayerDealerBank.objects.filter(window, player=player)),
                movements=_movements(accounts, seating.sat_at, seating.left_at),
            )
        )
    return result


PLAYING_BOOK_COLUMNS = [
    "posted_at",
    "table",
    "round",
    "seat",
    "bank_cents",
    "result_cents",
    "bank_exhausted",
    "returned_uncovered_cents",
    "unpaid_uncovered_cents",
]


def playing_book(banks: QuerySet[PlayerDealerBank]) -> QuerySet:
    """The TPPP playing book (4 CCR §12260) of ``banks``: each bank as a row of the player's
    number, then ``PLAYING_BOOK_COLUMNS``; the uncovered amounts summed in SQL."""
    return banks.values_list(
        "player__player_number",
        "posted_at",
        "round__table__name",
        "round__number",
        "round__player_dealer_seat",
        "amount_cents",
        "net_cents",
        "exhausted",
    ).annotate(**_round_uncovered())


def playing_book_csv(
    player: Player, since: datetime | None = None, until: datetime | None = None
) -> str:
    """The playing book of one player-dealer as CSV: every bank posted, its result and
    uncovered amounts."""
    rows = PlayerDealerBank.objects.filter(player=player)
    if since is not None:
        rows = rows.filter(posted_at__gte=since)
    if until is not None:
        rows = rows.filter(posted_at__lt=until)
    out = io.StringIO()
    writer = csvsafe.writer(out)
    writer.writerow(PLAYING_BOOK_COLUMNS)
    for _, posted_at, *bank, net, exhausted, returned, unpaid in playing_book(
        rows.order_by("posted_at", "id")
    ):
        writer.writerow(
            [
                posted_at.isoformat(),
                *bank,
                "" if net is None else net,
                "" if exhausted is None else str(exhausted).lower(),
                returned,
                unpaid,
            ]
        )
    return out.getvalue()


# --- Reads for the money API ---------------------------------------------------------------


@dataclass(frozen=True)
class RoundSettlement:
    round: Round
    bank: PlayerDealerBank
    lines: QuerySet[SettlementLine]

    @property
    def running(self) -> list[tuple[SettlementLine, int]]:
        """Each line in settlement order with the player-dealer's running net N after it
        (docs/rules.md §7.3): what it has collected less what it has paid, so far; the last
        is the bank's result."""
        net, rows = 0, []
        for line in self.lines:
            net += line.collected_cents - line.paid_cents
            rows.append((line, net))
        return rows


def round_settlement(round_id: int) -> RoundSettlement:
    """A settled round's settlement lines in order, with the bank; StateError until settled."""
    round_ = Round.objects.get(pk=round_id)
    if round_.state != State.SETTLED:
        raise StateError(
            f"round {round_.number} is {round_.get_state_display().lower()}; its settlement "
            "is posted when it is settled",
            state=round_.state,
        )
    bank = PlayerDealerBank.objects.select_related("player", "posted_by").get(round=round_)
    return RoundSettlement(round=round_, bank=bank, lines=settlement_lines(round_id))


def round_money(round_: Round) -> Round:
    """Attach the round's bank and each hand's bets to ``round_`` (two queries, any size)."""
    prefetch_related_objects(
        [round_],
        Prefetch("bank", queryset=PlayerDealerBank.objects.select_related("player", "posted_by")),
        Prefetch("hands__bets", queryset=Bet.objects.select_related("player").order_by("bettor")),
    )
    return round_


def layout_exposure(round_: Round | None) -> BankAction | None:
    """The action on the layout against the bank while wagers are taken (None otherwise, and
    before the bank is posted): the likely case and the worst, each with what of it could go
    uncovered, from every bettor's opening wagers, seated and backline, under the options
    frozen into the round (``wagers.rules.layout.action_against_the_bank``, docs/rules.md
    §7.5). Reads the round's prefetched bank and bets (``round_money``)."""
    if round_ is None or round_.state != State.WAGERING:
        return None
    bank = getattr(round_, "bank", None)
    if not bank:
        return None
    game = game_of_key(round_.options.get("game"))
    if game.exposure is None:
        return None
    layout = {
        hand.seat: [
            {name: getattr(bet, f"{name}_cents") for name in game.opening_squares}
            for bet in hand.bets.all()
        ]
        for hand in round_.hands.all()
    }
    options = table_options.rules_options(round_.options)
    return game.exposure(bank.amount_cents, round_.player_dealer_seat, layout, options)


def account_list(*, filters=None) -> QuerySet[Account]:
    return filter_queryset(
        AccountFilter, filters, Account.objects.select_related("player", "table").order_by("id")
    )


def account_get(*, account_id: int) -> Account:
    return Account.objects.select_related("player", "table").get(pk=account_id)


def balances_after(account_id: int, transactions: Sequence[LedgerTransaction]) -> dict[int, int]:
    """The account's balance after each of ``transactions`` (ascending ids, entries prefetched).

    One query: the balance before the first of them; the rest is added up from their entries.
    """
    if not transactions:
        return {}
    balance = LedgerEntry.objects.filter(
        account_id=account_id, transaction_id__lt=transactions[0].pk
    ).aggregate(total=Coalesce(Sum("amount_cents"), 0))["total"]
    result = {}
    for posted in transactions:
        balance += sum(e.amount_cents for e in posted.entries.all() if e.account_id == account_id)
        result[posted.pk] = balance
    return result


def transaction_get(*, transaction_id: int) -> LedgerTransaction:
    return (
        LedgerTransaction.objects.select_related("by")
        .prefetch_related("entries")
        .get(pk=transaction_id)
    )


def calculator_request(round_: Round) -> dict:
    """A settled hand in its game's settlement calculator format (docs/rules.md §11, §14.7):
    its options, the player-dealer's seat and bank, the cards and each seat's wagers (and,
    for Ultimate Texas Hold'em, cards, folds and backline bettors), as played. Only for a
    settled round: before, its cards are secret (§2.6), and a voided hand was never settled."""
    if round_.state != State.SETTLED:
        raise StateError(
            f"round {round_.number} is {round_.get_state_display().lower()}: only a settled "
            "hand opens in the calculator",
            state=State(round_.state),
        )
    game = game_of_key(round_.options.get("game"))
    bank = PlayerDealerBank.objects.get(round=round_)
    folded = set(
        HandDecision.objects.filter(hand__round=round_, action=Action.FOLD.value).values_list(
            "hand__seat", flat=True
        )
    )
    seats = []
    for hand in round_.hands.order_by("seat").prefetch_related("bets"):
        bets = sorted(hand.bets.all(), key=lambda bet: bet.bettor)  # the seat's player first
        hole = hand.shown_hole  # None: mucked at a card-entry table (§2.3), never keyed
        seats.append(
            SeatWagers(
                seat=hand.seat,
                bettors=tuple(game.stakes_of(bet) for bet in bets),
                hole=None if hole is None else tuple(hole),
                folded=hand.seat in folded,
            )
        )
    cards = RoundCards(
        dealer_hole=tuple(round_.shown_dealer_hole or ()),
        board=tuple(round_.board or ()),
        player=tuple(round_.player_cards or ()),
        banker=tuple(round_.banker_cards or ()),
    )
    return game.calculator_request(
        round_.options, round_.player_dealer_seat, bank.amount_cents, seats, cards
    )


# --- Title 31 (docs/rules.md §10.7) ---------------------------------------------------------


def mtl_list(*, filters=None) -> QuerySet[MtlEntry]:
    """The Multiple Transaction Log, oldest first (filters: ``wagers.filters.MtlFilter``)."""
    rows = MtlEntry.objects.select_related("player", "table", "by", "cage_slip")
    return filter_queryset(MtlFilter, filters, rows).order_by("at", "id")


def ctr_list(*, filters=None) -> QuerySet[CurrencyTransactionReport]:
    """The CTRs due and filed, with the day's totals, counts, tables and staff."""
    rows = CurrencyTransactionReport.objects.select_related("player", "currency_day", "filed_by")
    return filter_queryset(CtrFilter, filters, rows).order_by("gaming_day", "id")


def ctr_transactions(ctrs) -> dict[int, list[CageSlip]]:
    """Each CTR's currency transactions of its gaming day (cage slips, oldest first), by CTR
    id, in one query: what a casino CTR lists (amounts, times, tables, staff)."""
    ctrs = list(ctrs)
    if not ctrs:
        return {}
    wanted = Q()
    for ctr in ctrs:
        start, end = gaming_day_window(ctr.gaming_day)
        wanted |= Q(player_id=ctr.player_id, transaction__at__gte=start, transaction__at__lt=end)
    slips = (
        CageSlip.objects.filter(wanted, currency=True)
        .select_related("transaction__by", "table")
        .order_by("transaction__at", "id")
    )
    found: dict[int, list[CageSlip]] = {ctr.pk: [] for ctr in ctrs}
    by_key = {(ctr.player_id, ctr.gaming_day): ctr.pk for ctr in ctrs}
    for slip in slips:
        key = (slip.player_id, gaming_day_of(slip.transaction.at))
        if key in by_key:
            found[by_key[key]].append(slip)
    return found


def review_list(*, filters=None) -> QuerySet[ComplianceReview]:
    rows = ComplianceReview.objects.select_related("player", "closed_by")
    return filter_queryset(ReviewFilter, filters, rows).order_by("-gaming_day", "id")


def currency_today(player_ids) -> dict[int, CurrencyDay]:
    """Each patron's currency totals for the current gaming day, by player id (one query)."""
    day = gaming_day_of(now())
    return {
        row.player_id: row
        for row in CurrencyDay.objects.filter(player_id__in=list(player_ids), gaming_day=day)
    }


def approaching_ctr(player_ids) -> dict[int, str]:
    """The patrons whose cash in or out today has reached the warning level
    (``CARDROOM_CTR_WARNING_CENTS``) or passed $10,000, in words, by player id: the tablet and
    the floor map show it."""
    warning = settings.CARDROOM_CTR_WARNING_CENTS
    words = {}
    for player_id, day in currency_today(player_ids).items():
        totals = title31_rules.Totals(day.cash_in_cents, day.cash_out_cents)
        if over := totals.over():
            words[player_id] = "CTR: " + " and ".join(
                f"{w} {dollars(totals.of(d))}"
                for d, w in title31_rules.DIRECTION_WORDS.items()
                if w in over
            )
        elif near := title31_rules.approaching(totals, warning):
            words[player_id] = "approaching a CTR: " + " and ".join(
                f"{w} {dollars(totals.of(d))}"
                for d, w in title31_rules.DIRECTION_WORDS.items()
                if w in near
            )
    return words


def overdue_ctr_count() -> int:
    return CurrencyTransactionReport.objects.filter(
        filed_at__isnull=True, due_on__lt=today()
    ).count()


def ledger_lines(player: Player, *, limit: int = 200) -> QuerySet[LedgerEntry]:
    """The player's own ledger lines, newest first: every entry on their chips at a table
    (a patron's chips, a TPPP's bankroll), with its transaction and table."""
    return (
        LedgerEntry.objects.filter(account__player=player, account__kind__in=CHIP_ACCOUNT_KINDS)
        .select_related("transaction", "account__table")
        .order_by("-transaction__at", "-id")[:limit]
    )
