"""Output serializers of the money API. Amounts are integer cents, as in the calculator's
JSON (docs/rules.md §11); the round's bank and bets come from the floor's round detail."""

from __future__ import annotations

from rest_framework import serializers

from cardroom.api import Timestamp, username_field
from tables.models import ROUND_STATE_CHOICES
from tables.serializers import PlayerSummarySerializer
from wagers.models import AccountKind, TransactionKind
from wagers.rules.wagers import WagerKind, bettor_label
from wagers.serializers import BankSerializer


class EntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    account = serializers.IntegerField(source="account_id")
    amount = serializers.IntegerField(
        source="amount_cents", help_text="cents: + into the account, - out of it"
    )
    label = serializers.CharField(allow_blank=True, help_text='the wager, e.g. "ante"; or blank')


class LedgerTransactionSerializer(serializers.Serializer):
    """One chip movement: its balanced entries, who recorded it and when."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=TransactionKind.choices)
    at = Timestamp()
    by = username_field("by")
    round = serializers.IntegerField(source="round_id", allow_null=True)
    currency = serializers.BooleanField(help_text="buy-ins and cash-outs: was currency exchanged")
    memo = serializers.CharField(allow_blank=True)
    reverses = serializers.IntegerField(
        source="reverses_id", allow_null=True, help_text="a correction: the transaction reversed"
    )
    entries = EntrySerializer(many=True, source="entries.all")


class StatementLineSerializer(serializers.Serializer):
    """A transaction on one account's statement: its change to the account, the balance after."""

    transaction = LedgerTransactionSerializer(source="*")
    change = serializers.SerializerMethodField(help_text="cents: the entries in this account")
    balance = serializers.SerializerMethodField(help_text="cents: the account's balance after it")

    def get_change(self, posted) -> int:
        account_id = self.context["account_id"]
        return sum(e.amount_cents for e in posted.entries.all() if e.account_id == account_id)

    def get_balance(self, posted) -> int:
        return self.context["balances"][posted.pk]


class AccountSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=AccountKind.choices)
    table = serializers.IntegerField(source="table_id", allow_null=True)
    player = PlayerSummarySerializer(allow_null=True)
    round = serializers.IntegerField(source="round_id", allow_null=True)
    opened_at = Timestamp()
    closed_at = Timestamp(allow_null=True)
    is_open = serializers.SerializerMethodField()
    balance = serializers.IntegerField(source="balance_cents", help_text="cents")

    def get_is_open(self, account) -> bool:
        return account.closed_at is None


# --- Settlement -----------------------------------------------------------------------------


class SettlementLineSerializer(serializers.Serializer):
    """How one wager was settled, in its place in the settlement order (docs/rules.md §7.2)."""

    order = serializers.IntegerField(help_text="the place in the settlement order, from 1")
    seat = serializers.IntegerField()
    bettor = serializers.SerializerMethodField(help_text='"seat" or "backline-N" (N from 1)')
    player = PlayerSummarySerializer(source="bet.player")
    wager = serializers.ChoiceField(choices=[kind.value for kind in WagerKind])
    stake = serializers.IntegerField(source="stake_cents")
    outcome = serializers.ChoiceField(choices=["win", "lose", "push"])
    paid = serializers.IntegerField(source="paid_cents")
    collected = serializers.IntegerField(source="collected_cents")
    returned_uncovered = serializers.IntegerField(source="returned_uncovered_cents")
    unpaid_uncovered = serializers.IntegerField(source="unpaid_uncovered_cents")
    rounded_off = serializers.DecimalField(
        source="rounded_off_cents",
        max_digits=12,
        decimal_places=6,
        help_text="cents below the table's chip, rounded down from the payout",
    )

    def get_fields(self):
        fields = super().get_fields()
        settlement_pass = serializers.ChoiceField(
            source="settlement_pass",
            choices=["fold", "showdown"],
            help_text="fold: collected when hands fold; showdown: after the dealer's cards",
        )
        return {"order": fields.pop("order"), "pass": settlement_pass, **fields}

    def get_bettor(self, line) -> str:
        return bettor_label(line.bettor)


class RoundSettlementSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.id")
    table = serializers.IntegerField(source="round.table_id")
    number = serializers.IntegerField(source="round.number")
    state = serializers.ChoiceField(source="round.state", choices=ROUND_STATE_CHOICES)
    bank = BankSerializer()
    lines = SettlementLineSerializer(many=True, help_text="in settlement order")


# --- A player's money -----------------------------------------------------------------------


class MovementsSerializer(serializers.Serializer):
    """Chips into and out of the player's accounts at the tables (cents, all positive)."""

    fills = serializers.IntegerField()
    credits = serializers.IntegerField()
    buy_ins = serializers.IntegerField()
    cash_outs = serializers.IntegerField()
    fees = serializers.IntegerField()


class BankingSerializer(serializers.Serializer):
    """The settled hands the player banked as player-dealer (cents)."""

    hands_banked = serializers.IntegerField()
    total_result = serializers.IntegerField(help_text="the sum of the banks' results")
    largest_exposure = serializers.IntegerField(help_text="the largest bank W posted")
    returned_uncovered = serializers.IntegerField()
    unpaid_uncovered = serializers.IntegerField()


class TheoSerializer(serializers.Serializer):
    """The settled hands the player banked beside their theo (docs/rules.md §13.5): cents,
    theo to four decimals of a cent."""

    hands = serializers.IntegerField(
        help_text="settled hands banked with a theo (stored at no more bets)"
    )
    theo = serializers.DecimalField(
        max_digits=30,
        decimal_places=4,
        help_text="the player-dealer's theoretical result of those hands: each wager times "
        "its house edge, before fees, ignoring coverage",
    )
    actual = serializers.IntegerField(
        help_text="the banks' results of the same hands (the settlement net, before fees)"
    )
    difference = serializers.DecimalField(
        max_digits=30, decimal_places=4, help_text="actual minus theo"
    )
    std_dev = serializers.DecimalField(
        max_digits=30,
        decimal_places=4,
        help_text="the standard deviation of the hands' result: the square root of the sum "
        "of each hand's spread squared",
    )
    std_devs = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        allow_null=True,
        help_text="the difference in standard deviations (difference / std_dev); null "
        "without a hand",
    )


class BankrollSerializer(serializers.Serializer):
    player = PlayerSummarySerializer()
    is_tppp = serializers.BooleanField()
    balance = serializers.IntegerField(help_text="cents: chips now held at the tables")
    movements = MovementsSerializer()
    banking = BankingSerializer()
    theo = TheoSerializer()


class BankedRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="round.id")
    table = serializers.IntegerField(source="round.table_id")
    table_name = serializers.CharField(source="round.table.name")
    number = serializers.IntegerField(source="round.number")
    seat = serializers.IntegerField(source="round.player_dealer_seat")


class PlayerBankSerializer(serializers.Serializer):
    """A bank the player posted as player-dealer, with its result (cents)."""

    id = serializers.IntegerField()
    round = BankedRoundSerializer(source="*")
    amount = serializers.IntegerField(source="amount_cents")
    posted_at = Timestamp()
    net = serializers.IntegerField(source="net_cents", allow_null=True)
    exhausted = serializers.BooleanField(allow_null=True)
    returned_uncovered = serializers.IntegerField()
    unpaid_uncovered = serializers.IntegerField()


class SessionSeatingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    table_name = serializers.CharField(source="table.name")
    seat = serializers.IntegerField()
    sat_at = Timestamp()
    left_at = Timestamp(allow_null=True)


class SessionSerializer(serializers.Serializer):
    """From sitting down to leaving a table: chips moved and hands banked."""

    seating = SessionSeatingSerializer()
    movements = MovementsSerializer()
    banking = BankingSerializer()
