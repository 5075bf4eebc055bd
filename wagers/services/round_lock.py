"""The round as a round-locking call reads it, with the table's lock (``lock_round_state``).

Every step of a hand (``rounds.services``), and the money's own round-locking calls (the
wagers, the bank, the Plays: ``wagers.services.wagering``), lock the round's table and read
the round with what they need of it, in one statement on PostgreSQL
(``tables.services.locks.lock_round_reading``). The reader stands here, in the money layer,
and not in the round lifecycle's: the money's services lock rounds too and what it reads
(bets, the bank, accounts) is the money's, and the money may not import the layers above it
(docs/architecture.md). The layers above add their own reads (``also``: the fees'
``fees.sql``), and the round lifecycle passes the state it read down to the money's and the
fees' services (``settle_round_money``, ``collect``, ``return_fees``), which read nothing
again. The reads' SQL is the money's SQL home's (``wagers.sql.ROUND_READS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tables.models import Hand, HandDecision, Round, Seating, Table
from tables.services.locks import lock_round_reading
from tables.sql import Read
from wagers.models import Account, Bet, PlayerDealerBank
from wagers.sql import ROUND_READS


@dataclass
class RoundState:
    """A round as a round-locking call reads it with the lock (``lock_round_state``)."""

    table: Table
    round: Round
    hands: list[Hand]  # by seat, each with its round
    decisions: dict[int, list[HandDecision]] = field(default_factory=dict)  # by hand id
    bets: list[Bet] = field(default_factory=list)  # by seat, bettor: with hand and account
    bank: PlayerDealerBank | None = None  # with its account
    accounts: dict[str, Account] = field(default_factory=dict)  # the round's own, by kind
    chips: dict[int, Account] = field(default_factory=dict)  # open at the table, by player
    seated: dict[int, Seating] = field(default_factory=dict)  # by seat
    also: dict[str, Any] = field(default_factory=dict)  # the caller's own reads, by name


def lock_round_state(
    round_id: int,
    *,
    decisions: bool = False,
    bets: bool = False,
    bank: bool = False,
    accounts: bool = False,
    chips: bool = False,
    seated: bool = False,
    also: Mapping[str, Read] | None = None,
) -> RoundState:
    """Lock a round's table and read the round with its hands, and what the call asks for:
    the hands' decisions, the bets, the bank, the round's own accounts, the chips at its
    table, the seats, and the caller's ``also`` reads; one statement on PostgreSQL
    (``lock_round_reading``)."""
    asked = {
        "hands": True,
        "decisions": decisions,
        "bets": bets,
        "bank": bank,
        "accounts": accounts,
        "chips": chips,
        "seated": seated,
    }
    reads = {name: ROUND_READS[name] for name, wanted in asked.items() if wanted}
    own = dict(also or {})
    table, round_, read = lock_round_reading(round_id, {**reads, **own})
    hands = read["hands"]
    by_id = {}
    for hand in hands:
        hand.round = round_
        by_id[hand.pk] = hand
    made: dict[int, list[HandDecision]] = {}
    for decision in read.get("decisions", ()):
        made.setdefault(decision.hand_id, []).append(decision)
    placed = read.get("bets", [])
    for bet in placed:
        bet.hand = by_id[bet.hand_id]
    banked = read.get("bank", [])
    return RoundState(
        table=table,
        round=round_,
        hands=hands,
        decisions=made,
        bets=placed,
        bank=banked[0] if banked else None,
        accounts={account.kind: account for account in read.get("accounts", ())},
        chips={account.player_id: account for account in read.get("chips", ())},
        seated={seating.seat: seating for seating in read.get("seated", ())},
        also={name: read[name] for name in own},
    )
