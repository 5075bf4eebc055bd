"""Chips at the table: buy-ins and cash-outs (patrons), fills and credits (TPPP bankrolls).

Each is a cage slip (``wagers.models.CageSlip``: who, where, how much, currency or not) and
the ledger transaction it causes, posted together: ``verify_ledger`` checks the one
against the other (docs/money.md, "Cage slips")."""

from __future__ import annotations

from django.db import transaction

from cardroom.clock import now
from cardroom.errors import Rule, RuleError, State, StateError
from cardroom.money import dollars
from tables.guards import require_not_excluded, require_table_open
from tables.models import Player, Table
from tables.selectors.exclusions import exclusion_in_force
from tables.selectors.floor import active_round
from tables.services.locks import lock_table
from wagers.models import (
    CHIPS_BROUGHT,
    Account,
    AccountKind,
    Bet,
    CageSlip,
    LedgerTransaction,
    PlayerDealerBank,
    TransactionKind,
)
from wagers.rules.postings import Role, chips_brought_legs, chips_taken_legs
from wagers.selectors import open_chip_accounts

from . import title31
from .ledger import cage_account, legs_of, post


def chip_account(player: Player, table, *, create: bool = False) -> Account | None:
    """The player's open chip account at ``table``, opened on the first chips if asked."""
    account = open_chip_accounts(table, [player.pk]).get(player.pk)
    if account is None and create:
        kind = AccountKind.BANKROLL if hasattr(player, "tppp") else AccountKind.PATRON_CHIPS
        account = Account.objects.create(kind=kind, player=player, table=table, opened_at=now())
    return account


def _amount(amount: int, table) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise RuleError(
            "the amount must be a positive whole number of cents",
            rule=Rule.CHIP_AMOUNT,
            field="amount",
        )
    if amount % table.chip_unit_cents:
        raise RuleError(
            f"the amount of {dollars(amount)} is not in whole chips of "
            f"{dollars(table.chip_unit_cents)}",
            rule=Rule.CHIP_AMOUNT,
            field="amount",
        )
    return amount


def _player(player_id: int) -> Player:
    return Player.objects.select_related("tppp").get(pk=player_id)


def _bring_chips(
    kind: TransactionKind,
    *,
    table_id,
    player_id,
    amount,
    by,
    currency=False,
    memo=None,
    description="",
) -> LedgerTransaction:
    with transaction.atomic():
        table = lock_table(table_id)
        require_table_open(table, action="chips are brought to it")
        player = _player(player_id)
        is_tppp = hasattr(player, "tppp")
        if kind is TransactionKind.FILL and not is_tppp:
            raise RuleError(
                "fills bring a TPPP player-dealer's bankroll to the table; a patron buys in",
                rule=Rule.TPPP_BANKROLL,
                field="player",
            )
        if kind is TransactionKind.BUY_IN and is_tppp:
            raise RuleError(
                "a TPPP's chips come to the table by a fill, recorded in its playing book",
                rule=Rule.TPPP_BANKROLL,
                field="player",
            )
        # A barred or self-restricted patron buys no chips (docs/rules.md §3.9).
        what = "a buy-in" if kind is TransactionKind.BUY_IN else "a fill"
        require_not_excluded(exclusion_in_force(player_id=player.pk), action=what)
        account = chip_account(player, table, create=True)
        amount = _amount(amount, table)
        return _post_slip(
            kind,
            table,
            player,
            account,
            amount,
            by=by,
            currency=currency,
            memo=memo,
            description=description,
        )


def _take_chips(
    kind: TransactionKind,
    *,
    table_id,
    player_id,
    amount,
    by,
    currency=False,
    memo=None,
    description="",
) -> LedgerTransaction:
    with transaction.atomic():
        table = lock_table(table_id)
        player = _player(player_id)
        account = chip_account(player, table)
        if account is None:
            raise RuleError(
                f"{player.name} has no chips at {table}", rule=Rule.CHIPS_IN_FRONT, field="player"
            )
        _refuse_while_in_play(table, player)
        account = Account.objects.select_for_update().get(pk=account.pk)
        expected = (
            AccountKind.BANKROLL if kind is TransactionKind.CREDIT else AccountKind.PATRON_CHIPS
        )
        if account.kind != expected:
            raise RuleError(
                "a TPPP bankroll goes back to the cage by a credit, a patron's chips by a cash-out",
                rule=Rule.TPPP_BANKROLL,
                field="player",
            )
        if amount is None:
            amount = account.balance_cents
        amount = _amount(amount, table)
        if amount > account.balance_cents:
            raise RuleError(
                f"{player.name} has {dollars(account.balance_cents)} in chips at {table}, "
                f"not {dollars(amount)}",
                rule=Rule.CHIPS_IN_FRONT,
                field="amount",
            )
        posted = _post_slip(
            kind,
            table,
            player,
            account,
            amount,
            by=by,
            currency=currency,
            memo=memo,
            description=description,
        )
        if amount == account.balance_cents:
            account.closed_at = now()  # the table session's chips are all back at the cage
            account.save(update_fields=["closed_at"])
        return posted


def _post_slip(
    kind: TransactionKind,
    table,
    player: Player,
    account: Account,
    amount: int,
    *,
    by,
    currency: bool,
    memo: str | None,
    description: str = "",
) -> LedgerTransaction:
    """The chips' ledger transaction (``wagers.rules.postings``) and its cage slip; a
    currency transaction is checked first and recorded after (Title 31,
    ``wagers.services.title31``)."""
    pending = title31.before(player, kind, amount) if currency else None
    legs = chips_brought_legs(amount) if kind in CHIPS_BROUGHT else chips_taken_legs(amount)
    posted = post(
        kind,
        legs_of(legs, {Role.CAGE: cage_account(), Role.CHIPS: account}),
        by=by,
        currency=currency,
        memo=memo or str(table),
    )
    slip = CageSlip.objects.create(
        transaction=posted,
        kind=kind,
        table=table,
        player=player,
        account=account,
        amount_cents=amount,
        currency=currency,
    )
    if pending is not None:
        title31.after(pending, slip, by=by, description=description)
    return posted


def _refuse_while_in_play(table, player: Player) -> None:
    """Chips wagered or banked come back at settlement; they leave the table after that."""
    current = active_round(table)
    if current is None:
        return
    in_play = (
        Bet.objects.filter(hand__round=current, player=player).exists()
        or PlayerDealerBank.objects.filter(round=current, player=player).exists()
    )
    if in_play:
        raise StateError(
            f"{player.name} has chips in play in round {current.number}, which is "
            f"{current.get_state_display().lower()}; they leave the table after it is settled",
            state=State(current.state),
            rule=Rule.CHIPS_IN_FRONT,
        )


def buy_in(
    *, table_id: int, player_id: int, amount: int, currency: bool, by, description: str = ""
) -> LedgerTransaction:
    """Chips for a patron at a table; ``currency`` records whether cash changed hands (Title
    31: refused over $10,000 in the gaming day until the patron's ID is recorded;
    ``description``: how the MTL describes a patron without ID)."""
    return _bring_chips(
        TransactionKind.BUY_IN,
        table_id=table_id,
        player_id=player_id,
        amount=amount,
        by=by,
        currency=currency,
        description=description,
    )


def cash_out(
    *,
    table_id: int,
    player_id: int,
    amount: int | None,
    currency: bool,
    by,
    description: str = "",
) -> LedgerTransaction:
    """Chips back to the cage; ``amount=None`` takes them all and closes the session's account."""
    return _take_chips(
        TransactionKind.CASH_OUT,
        table_id=table_id,
        player_id=player_id,
        amount=amount,
        by=by,
        currency=currency,
        description=description,
    )


def fill(*, table_id: int, player_id: int, amount: int, by) -> LedgerTransaction:
    """Chips brought to the table for a TPPP player-dealer's bankroll."""
    return _bring_chips(
        TransactionKind.FILL, table_id=table_id, player_id=player_id, amount=amount, by=by
    )


def credit(*, table_id: int, player_id: int, amount: int | None, by) -> LedgerTransaction:
    """Chips taken from a player-dealer's bankroll back to the cage."""
    return _take_chips(
        TransactionKind.CREDIT, table_id=table_id, player_id=player_id, amount=amount, by=by
    )


def take_all(*, table_id: int, player_id: int, currency: bool, by, memo=None):
    """Every chip a player has at a table back to the cage, in one step: a patron's by a
    cash-out (``currency``: cash paid, Title 31), a TPPP's bankroll by a credit. None when
    the player has no chips there."""
    with transaction.atomic():
        table = lock_table(table_id)
        player = _player(player_id)
        account = chip_account(player, table)
        if account is None or account.balance_cents == 0:
            return None
        tppp = account.kind == AccountKind.BANKROLL
        return _take_chips(
            TransactionKind.CREDIT if tppp else TransactionKind.CASH_OUT,
            table_id=table_id,
            player_id=player_id,
            amount=None,
            by=by,
            currency=currency and not tppp,
            memo=memo,
        )


def carry(*, from_table_id: int, to_table_id: int, player_id: int, by):
    """A player's chips carried from one table to another (their next seat): all of them
    back to the cage from the first, the same amount out to the second, as a cash-out and a
    buy-in (a TPPP's bankroll: a credit and a fill), neither a currency transaction: no
    cash changes hands. Answers the two transactions, or None with no chips. The caller
    holds both tables' locks (lowest id first)."""
    with transaction.atomic():
        source, destination = Table.objects.get(pk=from_table_id), Table.objects.get(pk=to_table_id)
        taken = take_all(
            table_id=from_table_id,
            player_id=player_id,
            currency=False,
            by=by,
            memo=f"{source}: carried to {destination}",
        )
        if taken is None:
            return None
        amount = next(e.amount_cents for e in taken.entries.all() if e.amount_cents > 0)
        tppp = taken.kind == TransactionKind.CREDIT
        brought = _bring_chips(
            TransactionKind.FILL if tppp else TransactionKind.BUY_IN,
            table_id=to_table_id,
            player_id=player_id,
            amount=amount,
            by=by,
            memo=f"{destination}: carried from {source}",
        )
        return taken, brought
