"""Money: the double-entry chip ledger, wagers, the player-dealer's bank, settlement lines.

Every chip movement is one ``LedgerTransaction`` whose ``LedgerEntry`` rows sum
to zero (checked in Python and, on PostgreSQL, by a deferred constraint
trigger). Ledger rows are never updated or deleted (a PostgreSQL trigger
refuses it); a correction is a new transaction that reverses the old one.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from cardroom.money import dollars
from tables.models import Hand, Player, Round, Table


class AccountKind(models.TextChoices):
    CAGE = "cage", "Cage (the house's chip inventory)"
    PATRON_CHIPS = "patron_chips", "Patron's chips at a table session"
    BANKROLL = "bankroll", "TPPP player-dealer's bankroll at a table session"
    ROUND_WAGERS = "round_wagers", "Players' wagers in play in a round"
    ROUND_BANK = "round_bank", "Player-dealer's bank in play in a round"
    DROP = "drop", "Table drop (collection fees)"


# A player's chips at a table: a patron's, or a TPPP's bankroll.
CHIP_ACCOUNT_KINDS = [AccountKind.PATRON_CHIPS, AccountKind.BANKROLL]

# Accounts holding real chips in front of someone can never go below zero.
NON_NEGATIVE_KINDS = [
    AccountKind.PATRON_CHIPS,
    AccountKind.BANKROLL,
    AccountKind.ROUND_WAGERS,
    AccountKind.ROUND_BANK,
    AccountKind.DROP,
]


class Account(models.Model):
    """A ledger account; ``balance_cents`` caches the sum of its entries (verify_ledger checks)."""

    kind = models.CharField(max_length=16, choices=AccountKind.choices)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="accounts"
    )
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.PROTECT, related_name="accounts"
    )
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    balance_cents = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind"], condition=Q(kind="cage"), name="one_cage_account"
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(kind="drop"), name="one_drop_account_per_table"
            ),
            models.UniqueConstraint(
                fields=["round", "kind"],
                condition=Q(round__isnull=False),
                name="one_account_per_round_kind",
            ),
            models.UniqueConstraint(
                fields=["player", "table"],
                condition=Q(kind__in=["patron_chips", "bankroll"], closed_at__isnull=True),
                name="one_open_chip_account_per_player_table",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=NON_NEGATIVE_KINDS) | Q(balance_cents__gte=0),
                name="chips_in_front_never_negative",
            ),
        ]

    def __str__(self) -> str:
        owner = self.player or self.round or self.table or "house"
        return f"{self.get_kind_display()}: {owner}"


class TransactionKind(models.TextChoices):
    BUY_IN = "buy_in", "Buy-in"
    CASH_OUT = "cash_out", "Cash-out"
    FILL = "fill", "Player-dealer fill (chips brought to the table)"
    CREDIT = "credit", "Player-dealer credit (chips taken back to the cage)"
    WAGER = "wager", "Wagers placed"
    PLAY = "play", "Play placed"
    BANK_POSTED = "bank_posted", "Player-dealer's bank posted"
    FEE = "fee", "Collection fee"
    SETTLEMENT = "settlement", "Settlement line"
    BANK_RETURNED = "bank_returned", "Player-dealer's bank returned with its result"
    VOID_RETURN = "void_return", "Returned: round voided"
    REVERSAL = "reversal", "Correction: reversal"


class LedgerTransaction(models.Model):
    """One chip movement: balanced entries, who recorded it and when; never edited."""

    kind = models.CharField(max_length=16, choices=TransactionKind.choices)
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger_transactions"
    )
    # For buy-ins and cash-outs: was currency exchanged (Title 31 records, docs/rules.md §10.7)?
    currency = models.BooleanField(default=False)
    memo = models.CharField(max_length=200, blank=True)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["kind", "at"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()}"


class LedgerEntry(models.Model):
    transaction = models.ForeignKey(
        LedgerTransaction, on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount_cents = models.BigIntegerField()  # + into the account, - out of it
    label = models.CharField(max_length=32, blank=True)  # e.g. the wager: "ante", "trips"

    class Meta:
        verbose_name_plural = "ledger entries"
        ordering = ["id"]
        indexes = [models.Index(fields=["account", "transaction"])]
        constraints = [models.CheckConstraint(condition=~Q(amount_cents=0), name="entry_not_zero")]

    def __str__(self) -> str:
        sign = "+" if self.amount_cents > 0 else ""
        return f"{self.account}: {sign}{dollars(self.amount_cents)}"


# The transactions that bring chips to a table or take them back to the cage, each caused
# by a cage slip.
CHIPS_BROUGHT = [TransactionKind.BUY_IN, TransactionKind.FILL]
CHIPS_TAKEN = [TransactionKind.CASH_OUT, TransactionKind.CREDIT]
CAGE_SLIP_KINDS = [*CHIPS_BROUGHT, *CHIPS_TAKEN]


class CageSlip(models.Model):
    """The record of chips brought to a table or taken back to the cage: a patron's buy-in or
    cash-out, a TPPP's fill or credit (docs/money.md, "Cage slips").

    Written by the chip services in the transaction that posts its ledger transaction, and
    never edited (a PostgreSQL trigger refuses it: ``wagers`` 0005): who, where, how much and
    whether currency changed hands (Title 31), as the staff member asked for it.
    ``verify_ledger`` checks the transaction against it: the amount on both legs, the
    player's chips at the table, the kind and the currency flag.
    """

    transaction = models.OneToOneField(
        LedgerTransaction, on_delete=models.PROTECT, related_name="cage_slip"
    )
    kind = models.CharField(
        max_length=16,
        choices=[(kind.value, kind.label) for kind in CAGE_SLIP_KINDS],
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="cage_slips")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    amount_cents = models.PositiveBigIntegerField()
    currency = models.BooleanField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="cage_slip_above_zero")
        ]

    def __str__(self) -> str:
        return (
            f"{self.get_kind_display()} {dollars(self.amount_cents)} {self.player} at {self.table}"
        )


class Bet(models.Model):
    """One bettor's wagers on a hand: the seated player's own (bettor 0) or a backline bettor's."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="bets")
    bettor = models.PositiveSmallIntegerField()  # 0: the seated player; 1, 2, ...: backline
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="bets")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    ante_cents = models.PositiveIntegerField(default=0)
    blind_cents = models.PositiveIntegerField(default=0)
    trips_cents = models.PositiveIntegerField(default=0)
    bad_beat_cents = models.PositiveIntegerField(default=0)
    play_cents = models.PositiveIntegerField(default=0)
    # EZ Baccarat's squares (docs/rules.md §14.4): one base wager, Player or Banker.
    player_cents = models.PositiveIntegerField(default=0, db_default=0)
    banker_cents = models.PositiveIntegerField(default=0, db_default=0)
    tie_cents = models.PositiveIntegerField(default=0, db_default=0)
    dragon_7_cents = models.PositiveIntegerField(default=0, db_default=0)
    panda_8_cents = models.PositiveIntegerField(default=0, db_default=0)
    placed_at = models.DateTimeField()

    class Meta:
        ordering = ["hand", "bettor"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "bettor"], name="one_bet_per_bettor_per_hand"),
            models.UniqueConstraint(fields=["hand", "player"], name="one_bet_per_player_per_hand"),
            models.CheckConstraint(
                condition=Q(ante_cents=models.F("blind_cents")), name="ante_equals_blind"
            ),
            models.CheckConstraint(
                condition=Q(bad_beat_cents=0) | Q(ante_cents__gt=0),
                name="bad_beat_needs_ante_and_blind",
            ),
            models.CheckConstraint(
                condition=Q(player_cents=0) | Q(banker_cents=0),
                name="baccarat_one_base_wager",
            ),
            models.CheckConstraint(
                condition=Q(tie_cents=0, dragon_7_cents=0, panda_8_cents=0)
                | Q(player_cents__gt=0)
                | Q(banker_cents__gt=0),
                name="baccarat_side_wagers_need_a_base_wager",
            ),
            # A bet is on one game's squares: a hand is one game's.
            models.CheckConstraint(
                condition=Q(ante_cents=0, trips_cents=0, bad_beat_cents=0, play_cents=0)
                | Q(player_cents=0, banker_cents=0, tie_cents=0, dragon_7_cents=0, panda_8_cents=0),
                name="bet_on_one_games_squares",
            ),
        ]

    def __str__(self) -> str:
        who = "seat" if self.bettor == 0 else f"backline-{self.bettor}"
        return f"{self.hand} {who}"

    @property
    def total(self) -> int:
        return (
            self.ante_cents
            + self.blind_cents
            + self.trips_cents
            + self.bad_beat_cents
            + self.play_cents
            + self.player_cents
            + self.banker_cents
            + self.tie_cents
            + self.dragon_7_cents
            + self.panda_8_cents
        )


class PlayerDealerBank(models.Model):
    """The bank W the player-dealer posts for a round, and what came back."""

    round = models.OneToOneField(Round, on_delete=models.PROTECT, related_name="bank")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="banks")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    amount_cents = models.PositiveBigIntegerField()
    posted_at = models.DateTimeField()
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    net_cents = models.BigIntegerField(null=True, blank=True)  # the result, set at settlement
    exhausted = models.BooleanField(null=True)

    class Meta:
        verbose_name = "player-dealer bank"
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="bank_above_zero"),
            models.CheckConstraint(
                condition=Q(net_cents__isnull=True)
                | Q(
                    net_cents__gte=-models.F("amount_cents"),
                    net_cents__lte=models.F("amount_cents"),
                ),
                name="bank_net_within_bank",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} bank {dollars(self.amount_cents)}"


class SettlementLine(models.Model):
    """How one wager was settled, in its place in the settlement order (docs/rules.md §7.2)."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="settlement_lines")
    order = models.PositiveSmallIntegerField()
    settlement_pass = models.CharField(
        max_length=8, choices=[("fold", "Fold pass"), ("showdown", "Showdown")]
    )
    seat = models.PositiveSmallIntegerField()
    bettor = models.PositiveSmallIntegerField()
    bet = models.ForeignKey(Bet, on_delete=models.PROTECT, related_name="settlement_lines")
    wager = models.CharField(max_length=8)
    stake_cents = models.PositiveIntegerField()
    outcome = models.CharField(max_length=4)
    paid_cents = models.PositiveBigIntegerField()
    collected_cents = models.PositiveBigIntegerField()
    returned_uncovered_cents = models.PositiveBigIntegerField()
    unpaid_uncovered_cents = models.PositiveBigIntegerField()
    rounded_off_cents = models.DecimalField(max_digits=12, decimal_places=6, default=0)
    transaction = models.OneToOneField(
        LedgerTransaction, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["round", "order"]
        constraints = [
            models.UniqueConstraint(fields=["round", "order"], name="one_line_per_place_in_order"),
            models.CheckConstraint(
                condition=Q(collected_cents__lte=models.F("stake_cents")),
                name="collect_at_most_the_stake",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} #{self.order} seat {self.seat} {self.wager}"


class RoundTheo(models.Model):
    """The player-dealer's theoretical result of a hand (docs/rules.md §13.5), fixed when
    "no more bets" is called and never edited (a PostgreSQL trigger refuses it: ``wagers``
    0004).

    Theo is the player-dealer's expected gain from the wagers on the layout (every bettor,
    seated and backline), each wager times its house edge by the table's game
    (``games.interface.Game.theo``; EZ Baccarat: each square its own, ``squares``). Ultimate
    Texas Hold'em: each Ante times the base game's house edge (the Ante standing for
    the Ante, the Blind and the Play to come), each Trips and Bad Beat wager times its own,
    under the round's frozen options. It is before fees and ignores coverage. The spread is
    the sum of the wagers' standard deviations, an upper bound on the hand's. Both in cents,
    to four decimals of a cent (``wagers.rules.theo``). The actual result it is read against
    is the bank's ``net_cents`` once the hand is settled.
    """

    round = models.OneToOneField(Round, on_delete=models.PROTECT, related_name="theo")
    theo_cents = models.DecimalField(max_digits=20, decimal_places=4)
    std_dev_cents = models.DecimalField(max_digits=20, decimal_places=4)
    # The wagers on the layout at "no more bets", every bettor, by kind (Blind = Ante).
    ante_cents = models.BigIntegerField()
    trips_cents = models.BigIntegerField()
    bad_beat_cents = models.BigIntegerField()
    # The house edges used (per unit wagered; the base game per unit of Ante).
    # Ultimate Texas Hold'em's edges (null at a table of another game: see ``squares``).
    base_game_edge = models.DecimalField(max_digits=20, decimal_places=12, null=True, blank=True)
    trips_edge = models.DecimalField(max_digits=20, decimal_places=12, null=True, blank=True)
    bad_beat_edge = models.DecimalField(  # null: the table offers no Bad Beat
        max_digits=20, decimal_places=12, null=True, blank=True
    )
    # Every square of the round's game wagered before "no more bets", any game: its cents on
    # the layout and the house edge used, by name (``{"banker": {"cents": 1000, "house_edge":
    # "0.010183..."}}``).
    squares = models.JSONField(default=dict, db_default={})
    recorded_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(std_dev_cents__gte=0), name="theo_spread_not_negative"
            )
        ]

    def __str__(self) -> str:
        return f"{self.round} theo {dollars(self.theo_cents)}"


# --- Title 31 (docs/rules.md §10.7) ---------------------------------------------------------


class CurrencyDirection(models.TextChoices):
    IN = "in", "Cash in"
    OUT = "out", "Cash out"


class CurrencyDay(models.Model):
    """A patron's running currency totals for one gaming day, across the whole cardroom:
    cash in and cash out apart, never netted. The chip services lock the row (after the
    table) before every currency transaction, so two cashiers cannot both stay under $10,000
    (``wagers.services.title31``)."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="currency_days")
    gaming_day = models.DateField()
    cash_in_cents = models.BigIntegerField(default=0)
    cash_out_cents = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["gaming_day", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "gaming_day"], name="one_currency_day_per_patron"
            ),
            models.CheckConstraint(
                condition=Q(cash_in_cents__gte=0, cash_out_cents__gte=0),
                name="currency_totals_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.gaming_day}"


class MtlEntry(models.Model):
    """A line of the Multiple Transaction Log: a currency transaction at or above the MTL
    threshold, written with its cage slip and never edited."""

    cage_slip = models.OneToOneField(CageSlip, on_delete=models.PROTECT, related_name="mtl_entry")
    gaming_day = models.DateField()
    at = models.DateTimeField()
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="mtl_entries")
    direction = models.CharField(max_length=3, choices=CurrencyDirection.choices)
    amount_cents = models.PositiveBigIntegerField()
    identified = models.BooleanField()  # the patron's ID was on record at the time
    description = models.CharField(max_length=200, blank=True)  # of a patron without ID
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["gaming_day", "at"])]
        verbose_name = "MTL entry"
        verbose_name_plural = "MTL entries"

    def __str__(self) -> str:
        return f"MTL {self.gaming_day} {self.player} {self.get_direction_display()}"


class CurrencyTransactionReport(models.Model):
    """A CTR due: a patron whose cash in or cash out for a gaming day went over $10,000.
    Opened by the transaction that crossed; compliance marks it filed, with the filing's
    number (the BSA identifier FinCEN returned). The amounts are the day's totals."""

    currency_day = models.OneToOneField(CurrencyDay, on_delete=models.PROTECT, related_name="ctr")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ctrs")
    gaming_day = models.DateField()
    due_on = models.DateField()
    opened_at = models.DateTimeField()
    filed_at = models.DateTimeField(null=True, blank=True)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    filing_number = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["gaming_day", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(filed_at__isnull=True, filing_number="")
                | Q(filed_at__isnull=False) & ~Q(filing_number=""),
                name="ctr_filed_with_its_number",
            )
        ]

    def __str__(self) -> str:
        return f"CTR {self.player} {self.gaming_day}"


class ReviewKind(models.TextChoices):
    STRUCTURING = "structuring", "Cash just under the thresholds (structuring)"
    LITTLE_PLAY = "little_play", "Chips bought in cash and cashed out with little play"


class ComplianceReview(models.Model):
    """A pattern for a compliance officer to review (not a filing): a row per patron, kind
    and gaming day, with its evidence; the officer closes it with a note."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="reviews")
    gaming_day = models.DateField()
    kind = models.CharField(max_length=16, choices=ReviewKind.choices)
    evidence = models.TextField()
    raised_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-gaming_day", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "gaming_day", "kind"], name="one_review_per_pattern_and_day"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.player} {self.gaming_day}"
