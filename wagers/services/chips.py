"""Chips at the table: buy-ins and cash-outs (patrons), fills and credits (TPPP bankrolls)."""

from __future__ import annotations

from django.db import transaction

from cardroom.clock import now
from tables.models import Player
from tables.rules.errors import RuleError, StateError
from tables.services.locks import active_round, lock_table
from wagers.models import (
    CHIP_ACCOUNT_KINDS,
    Account,
    AccountKind,
    Bet,
    LedgerTransaction,
    PlayerDealerBank,
    TransactionKind,
)

from .ledger import CHIPS_RULE, Leg, cage_account, post

AMOUNT_RULE = "chip movements are whole, positive amounts of the table's chips"


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
            "the amount must be a positive whole number of cents", rule=AMOUNT_RULE, field="amount"
        )
    if amount % table.chip_unit_cents:
        raise RuleError(
            f"the amount must be a multiple of the table's {table.chip_unit_cents}-cent chip",
            rule=AMOUNT_RULE,
            field="amount",
        )
    return amount


def _player(player_id: int) -> Player:
    return Player.objects.select_related("tppp").get(pk=player_id)


def _bring_chips(
    kind: TransactionKind, *, table_id, player_id, amount, by, currency=False
) -> LedgerTransaction:
    with transaction.atomic():
        table = lock_table(table_id)
        player = _player(player_id)
        is_tppp = hasattr(player, "tppp")
        if kind is TransactionKind.FILL and not is_tppp:
            raise RuleError(
                "fills bring a TPPP player-dealer's bankroll to the table; a patron buys in",
                rule="RULEBOOK §6: TPPP bankrolls",
                field="player",
            )
        if kind is TransactionKind.BUY_IN and is_tppp:
            raise RuleError(
                "a TPPP's chips come to the table by a fill, recorded in its playing book",
                rule="RULEBOOK §6: TPPP bankrolls",
                field="player",
            )
        account = chip_account(player, table, create=True)
        amount = _amount(amount, table)
        return post(
            kind,
            [Leg(cage_account(), -amount), Leg(account, amount)],
            by=by,
            currency=currency,
            memo=str(table),
        )


def _take_chips(
    kind: TransactionKind, *, table_id, player_id, amount, by, currency=False
) -> LedgerTransaction:
    with transaction.atomic():
        table = lock_table(table_id)
        player = _player(player_id)
        account = chip_account(player, table)
        if account is None:
            raise RuleError(
                f"{player.name} has no chips at {table}", rule=CHIPS_RULE, field="player"
            )
        _refuse_while_in_play(table, player)
        account = Account.objects.select_for_update().get(pk=account.pk)
        expected = (
            AccountKind.BANKROLL if kind is TransactionKind.CREDIT else AccountKind.PATRON_CHIPS
        )
        if account.kind != expected:
            raise RuleError(
                "a TPPP bankroll goes back to the cage by a credit, a patron's chips by a cash-out",
                rule="RULEBOOK §6: TPPP bankrolls",
                field="player",
            )
        if amount is None:
            amount = account.balance_cents
        amount = _amount(amount, table)
        if amount > account.balance_cents:
            raise RuleError(
                f"{player.name} has {account.balance_cents} cents at {table}, not {amount}",
                rule=CHIPS_RULE,
                field="amount",
            )
        posted = post(
            kind,
            [Leg(account, -amount), Leg(cage_account(), amount)],
            by=by,
            currency=currency,
            memo=str(table),
        )
        if amount == account.balance_cents:
            account.closed_at = now()  # the table session's chips are all back at the cage
            account.save(update_fields=["closed_at"])
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
            state=current.state,
        )


def buy_in(*, table_id: int, player_id: int, amount: int, currency: bool, by) -> LedgerTransaction:
    """Chips for a patron at a table; ``currency`` records whether cash changed hands (Title 31)."""
    return _bring_chips(
        TransactionKind.BUY_IN,
        table_id=table_id,
        player_id=player_id,
        amount=amount,
        by=by,
        currency=currency,
    )


def cash_out(
    *, table_id: int, player_id: int, amount: int | None, currency: bool, by
) -> LedgerTransaction:
    """Chips back to the cage; ``amount=None`` takes them all and closes the session's account."""
    return _take_chips(
        TransactionKind.CASH_OUT,
        table_id=table_id,
        player_id=player_id,
        amount=amount,
        by=by,
        currency=currency,
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
