"""The legs of every ledger transaction a round posts, and of chips brought to a table or
taken from it (docs/money.md, docs/rules.md §7.4, §10.2, §10.3).

One home for the services that post the money and for ``verify_ledger``, which checks
every posted transaction leg by leg against the record it was posted from: a bet, the
bank, a settlement line, a fee line, a cage slip.

Each function answers the legs as (role, amount, label), the amount computed from the
record's figures only with ``+``, ``-`` and ``sum``: called with cents, it gives the
services the amounts to post; called with the record's columns (ORM expressions), it
gives ``verify_ledger`` the SQL of the amounts the entries must have. A leg of zero is
not posted (``wagers.services.ledger.post_all`` drops it) and is not expected.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, NamedTuple


class Role(Enum):
    """Whose account a leg moves, as the record names it."""

    ROUND_WAGERS = "round_wagers"  # the round's wagers in play
    ROUND_BANK = "round_bank"  # the player-dealer's bank W in play
    BETTOR = "bettor"  # the bettor's chips at the table: the bet's account
    PLAYER_DEALER = "player_dealer"  # the player-dealer's chips at the table: the bank's account
    PAYER = "payer"  # whoever pays a fee: a bettor's chips or the player-dealer's
    DROP = "drop"  # the table's drop
    CAGE = "cage"  # the house's chip inventory
    CHIPS = "chips"  # a player's chips (or a TPPP's bankroll) at a table: the slip's account


class LegOf(NamedTuple):
    role: Role
    amount: Any  # cents in the services; an ORM expression in verify_ledger
    label: str = ""


BANK_LABEL = "bank"
PLAY_LABEL = "play"
DROP_LABEL = "drop"


def wager_legs(squares: Mapping[str, Any]) -> tuple[LegOf, ...]:
    """A bettor's opening wagers (``wager``): square by square into the round's wagers."""
    return (
        LegOf(Role.BETTOR, -sum(squares.values())),
        *(LegOf(Role.ROUND_WAGERS, amount, square) for square, amount in squares.items()),
    )


def play_legs(play: Any) -> tuple[LegOf, ...]:
    """A bettor's Play (``play``)."""
    return (LegOf(Role.BETTOR, -play), LegOf(Role.ROUND_WAGERS, play, PLAY_LABEL))


def bank_posted_legs(bank: Any) -> tuple[LegOf, ...]:
    """The player-dealer's bank W (``bank_posted``)."""
    return (LegOf(Role.PLAYER_DEALER, -bank), LegOf(Role.ROUND_BANK, bank, BANK_LABEL))


def settlement_legs(stake: Any, collected: Any, paid: Any, wager: str = "") -> tuple[LegOf, ...]:
    """One settlement line (``settlement``): the stake leaves the round's wagers, the bank
    takes what was collected and gives what was paid, the bettor gets back stake -
    collected + paid (docs/rules.md §7.4)."""
    return (
        LegOf(Role.ROUND_WAGERS, -stake, wager),
        LegOf(Role.ROUND_BANK, collected - paid, BANK_LABEL),
        LegOf(Role.BETTOR, stake - collected + paid, wager),
    )


def bank_return_legs(bank: Any, net: Any) -> tuple[LegOf, ...]:
    """The bank back to the player-dealer with the result, W + net (``bank_returned``);
    nothing when the bank is exhausted (W + net = 0)."""
    return (
        LegOf(Role.ROUND_BANK, -(bank + net), BANK_LABEL),
        LegOf(Role.PLAYER_DEALER, bank + net),
    )


def void_bet_legs(total: Any) -> tuple[LegOf, ...]:
    """A voided round gives a bettor back every wager (``void_return``)."""
    return (LegOf(Role.ROUND_WAGERS, -total), LegOf(Role.BETTOR, total))


def void_bank_legs(bank: Any) -> tuple[LegOf, ...]:
    """A voided round gives the player-dealer back the bank W (``void_return``)."""
    return (LegOf(Role.ROUND_BANK, -bank, BANK_LABEL), LegOf(Role.PLAYER_DEALER, bank))


def fee_legs(amount: Any, square: str = "") -> tuple[LegOf, ...]:
    """A collection fee (``fee``): from its payer's chips to the table's drop."""
    return (LegOf(Role.PAYER, -amount, square), LegOf(Role.DROP, amount, DROP_LABEL))


def chips_brought_legs(amount: Any) -> tuple[LegOf, ...]:
    """Chips from the cage to a player at a table: a buy-in, a fill (``buy_in``, ``fill``)."""
    return (LegOf(Role.CAGE, -amount), LegOf(Role.CHIPS, amount))


def chips_taken_legs(amount: Any) -> tuple[LegOf, ...]:
    """Chips from a player at a table back to the cage: a cash-out, a credit (``cash_out``,
    ``credit``)."""
    return (LegOf(Role.CHIPS, -amount), LegOf(Role.CAGE, amount))


def reversed_legs(legs: Sequence[LegOf]) -> tuple[LegOf, ...]:
    """A reversal (``reversal``): the same legs, every amount negated."""
    return tuple(LegOf(leg.role, -leg.amount, leg.label) for leg in legs)
