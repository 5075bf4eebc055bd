"""Wagers and the player-dealer's bank, placed in a round (docs/rules.md §4, §7.1, §14.4).

The squares of the table's game wagered before "no more bets" (``games.interface.Game``:
Ultimate Texas Hold'em's Ante, Blind, Trips and Bad Beat; EZ Baccarat's Player, Banker, Tie,
Dragon 7 and Panda 8) are placed while wagering is open; the Play at a decision; the bank W
by the player-dealer before "no more bets". Each is validated by the game's rules and moves
chips into the round's in-play accounts in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction

from cardroom.clock import now
from cardroom.errors import Row, Rule, RuleError, State, StateError
from cardroom.money import dollars
from games.registry import OPENING_SQUARES
from games.registry import game as game_of_key
from tables import options as table_options
from tables.guards import check_admission, require_state
from tables.models import Hand, Player, Round
from tables.sql import Read
from wagers.models import (
    Account,
    AccountKind,
    Bet,
    PlayerDealerBank,
    TransactionKind,
)
from wagers.rules.layout import play_covered, play_stake
from wagers.rules.postings import Role, bank_posted_legs, play_legs, wager_legs
from wagers.rules.validation import validate_bank
from wagers.rules.wagers import SEAT_BETTOR, bettor_label

from .ledger import Posting, legs_of, post, post_all
from .round_lock import RoundState, lock_round_state

ROUND_ACCOUNT_KINDS = (AccountKind.ROUND_WAGERS, AccountKind.ROUND_BANK)


def round_accounts_of(state: RoundState) -> tuple[Account, Account]:
    """The round's two in-play accounts, the players' wagers and the player-dealer's bank,
    as read with the lock; those not yet opened are opened (``ledger.round_accounts``)."""
    missing = [
        Account(kind=kind, round=state.round, table_id=state.round.table_id, opened_at=now())
        for kind in ROUND_ACCOUNT_KINDS
        if kind not in state.accounts
    ]
    for account in Account.objects.bulk_create(missing):
        state.accounts[account.kind] = account
    return state.accounts[AccountKind.ROUND_WAGERS], state.accounts[AccountKind.ROUND_BANK]


def _funded_account(state: RoundState, player_id: int, amount: int, what: str) -> Account:
    account = state.chips.get(player_id)
    balance = account.balance_cents if account else 0
    if amount > balance:
        name = Player.objects.values_list("name", flat=True).get(pk=player_id)
        raise RuleError(
            f"{what} of {dollars(amount)} is more than {name}'s {dollars(balance)} in "
            "chips at the table",
            rule=Rule.CHIPS_IN_FRONT,
            field="amount" if what == "the bank" else "ante",
        )
    return account


@dataclass(frozen=True)
class BankCheck:
    """What else a bank must leave at the table, checked with the table's lock by a layer
    above the money (the collection fees: ``fees.services.assessment.FEES_KEPT``): the
    reads it needs in the lock's statement, and the check, given the round as read and the
    bank asked for, which raises the refusal before anything is written."""

    reads: Mapping[str, Read]
    check: Callable[[RoundState, int], None]


def post_bank(*, round_id: int, amount: int, by, keep: BankCheck) -> PlayerDealerBank:
    """The player-dealer's bank W for this round, from their chips or bankroll, leaving what
    ``keep`` asks for beside it (``rounds.services.post_bank`` asks for the collection fees
    the player-dealer will owe at "no more bets", docs/rules.md §9.4)."""
    with transaction.atomic():
        state = lock_round_state(
            round_id, bets=True, bank=True, accounts=True, chips=True, also=keep.reads
        )
        round_ = state.round
        require_state(round_, State.WAGERING, action="post the bank")
        if state.bank is not None:
            raise StateError(
                "the player-dealer's bank is already posted for this round",
                state=State(round_.state),
                rule=Rule.BANK,
            )
        validate_bank(amount, round_.options["chip_unit_cents"])
        account = _funded_account(state, round_.player_dealer_id, amount, "the bank")
        keep.check(state, amount)
        _, bank_account = round_accounts_of(state)
        post(
            TransactionKind.BANK_POSTED,
            legs_of(
                bank_posted_legs(amount),
                {Role.PLAYER_DEALER: account, Role.ROUND_BANK: bank_account},
            ),
            by=by,
            round_id=round_.pk,
        )
        return PlayerDealerBank.objects.create(
            round=round_,
            player_id=round_.player_dealer_id,
            account=account,
            amount_cents=amount,
            posted_at=now(),
            posted_by=by,
        )


# Every square a bettor can wager before "no more bets", whatever the game (a ``Bet`` column
# each, ``<square>_cents``).
BET_SQUARES = OPENING_SQUARES


@dataclass(frozen=True)
class BetRequest:
    """One bettor's opening wagers on a seat, by square (those of the table's game; another
    game's square wagered is refused); ``backline_player_id`` for a backline bettor."""

    seat: int
    ante: int = 0
    blind: int = 0
    trips: int = 0
    bad_beat: int = 0
    backline_player_id: int | None = None
    player: int = 0
    banker: int = 0
    tie: int = 0
    dragon_7: int = 0
    panda_8: int = 0

    def squares(self, names: Sequence[str]) -> dict[str, int]:
        """The stakes on the squares ``names``, by name."""
        return {name: getattr(self, name) for name in names}


def _refuse_other_squares(request: BetRequest, game) -> None:
    """A wager on a square the table's game has not is refused, naming the square."""
    for name in BET_SQUARES:
        if name not in game.opening_squares and getattr(request, name):
            raise RuleError(
                f"{game.name} has no {name.replace('_', ' ').title()} square; its squares "
                "are " + ", ".join(game.square(s).label for s in game.opening_squares),
                rule=Rule.WAGER_SQUARES,
                field=name,
            )


def place_bet(*, round_id: int, by, **request) -> Bet:
    """A bettor's opening wagers on a seat: the seated player's own, or a backline bettor's."""
    return place_bets(round_id=round_id, bets=[BetRequest(**request)], by=by)[0]


def place_bets(*, round_id: int, bets: Sequence[BetRequest], by) -> list[Bet]:
    """Opening wagers of several bettors, all or none, in a constant number of queries.

    Each is validated as if placed alone (docs/rules.md §4, the table's options, the
    bettor's chips); a refusal names the rule and, for several, which bet.
    """
    with transaction.atomic():
        state = lock_round_state(round_id, bets=True, accounts=True, chips=True, seated=True)
        round_, seated = state.round, state.seated
        require_state(round_, State.WAGERING, action="place wagers")
        game = game_of_key(round_.options.get("game"))
        options = table_options.rules_options(round_.options)
        squares = game.opening_squares
        hands = {hand.seat: hand for hand in state.hands}
        wagered = {  # (seat, bettor) and players already holding a bet in this round
            (bet.hand.seat, bet.bettor): bet.player_id for bet in state.bets
        }
        behind = {b.backline_player_id for b in bets if b.backline_player_id is not None}
        players = {p.pk: p for p in Player.objects.filter(pk__in=behind).select_related("tppp")}
        placed: list[tuple[BetRequest, int, int]] = []  # request, bettor number, player id
        for index, request in enumerate(bets):
            try:
                placed.append(
                    _admit(request, round_, game, options, seated, hands, wagered, players)
                )
            except RuleError as error:
                raise error.at_row(Row("bets", index, len(bets))) from None
        accounts = {
            player_id: state.chips[player_id]
            for _, _, player_id in placed
            if player_id in state.chips
        }
        spent: dict[int, int] = {}
        for index, (request, _, player_id) in enumerate(placed):
            account = accounts.get(player_id)
            balance = account.balance_cents if account else 0
            for kind in squares:  # name the first wager the chips do not cover
                spent[player_id] = spent.get(player_id, 0) + getattr(request, kind)
                if spent[player_id] > balance:
                    raise RuleError(
                        f"wagers of {dollars(spent[player_id])} are more than the bettor's "
                        f"{dollars(balance)} in chips at the table",
                        rule=Rule.CHIPS_IN_FRONT,
                        field=kind,
                    ).at_row(Row("bets", index, len(bets)))
        new_hands = Hand.objects.bulk_create(
            [
                Hand(round=round_, seat=r.seat, player_id=seated[r.seat].player_id, joined_at=now())
                for r, bettor, _ in placed
                if bettor == 0 and r.seat not in hands
            ]
        )
        hands.update({hand.seat: hand for hand in new_hands})
        wagers_account, _ = round_accounts_of(state)
        post_all(
            [
                Posting(
                    TransactionKind.WAGER,
                    legs_of(
                        wager_legs(r.squares(squares)),
                        {Role.BETTOR: accounts[player_id], Role.ROUND_WAGERS: wagers_account},
                    ),
                    round_id=round_.pk,
                    memo=f"seat {r.seat}"
                    + ("" if bettor == SEAT_BETTOR else f" {bettor_label(bettor)}"),
                )
                for r, bettor, player_id in placed
            ],
            by=by,
        )
        moment = now()
        return Bet.objects.bulk_create(
            [
                Bet(
                    hand=hands[r.seat],
                    bettor=bettor,
                    player_id=player_id,
                    account=accounts[player_id],
                    **{f"{name}_cents": amount for name, amount in r.squares(squares).items()},
                    placed_at=moment,
                )
                for r, bettor, player_id in placed
            ]
        )


def _admit(request: BetRequest, round_: Round, game, options, seated, hands, wagered, players):
    """Validate one bet against the game's rules and the round so far; record it as placed."""
    _refuse_other_squares(request, game)
    game.validate_wagers(
        request.squares(game.opening_squares), options, request.backline_player_id is not None
    )
    seat = request.seat
    if request.backline_player_id is None:
        check_admission(round_, seat, seated.get(seat))
        if (seat, 0) in wagered:
            raise StateError(
                f"seat {seat} has placed its wagers; nothing is increased or withdrawn",
                state=State(round_.state),
                rule=Rule.NO_MORE_BETS,
            )
        player_id = seated[seat].player_id
        wagered[(seat, 0)] = player_id
        return request, 0, player_id
    if not game.backline(options):
        raise RuleError(
            "this table does not allow backline wagers", rule=Rule.BACKLINE, field="seat"
        )
    if (seat, 0) not in wagered:
        raise RuleError(
            f"seat {seat} has no wagers to bet behind; the seated player wagers first",
            rule=Rule.BACKLINE,
            field="seat",
        )
    player = players.get(request.backline_player_id)
    if player is None:
        raise RuleError(
            f"no player {request.backline_player_id}", rule=Rule.BACKLINE, field="backline_player"
        )
    if hasattr(player, "tppp"):
        raise RuleError(
            "a TPPP player accepts and settles wagers only while holding the position",
            rule=Rule.TPPP_BANKS_ONLY,
            field="backline_player",
        )
    if player.pk == round_.player_dealer_id:
        raise RuleError(
            "the player-dealer does not bet behind a seat",
            rule=Rule.BACKLINE,
            field="backline_player",
        )
    if any(s.player_id == player.pk for s in seated.values()):
        raise RuleError(
            "a seated player plays their own seat, not behind another",
            rule=Rule.BACKLINE,
            field="backline_player",
        )
    if player.pk in wagered.values():
        raise StateError(
            f"{player.name} has already wagered in this round",
            state=State(round_.state),
            rule=Rule.NO_MORE_BETS,
        )
    bettor = 1 + max(b for (s, b) in wagered if s == seat)
    wagered[(seat, bettor)] = player.pk
    return request, bettor, player.pk


def place_plays(
    state: RoundState,
    plays: Sequence[tuple[Hand, int]],
    *,
    by,
    rows: Mapping[int, Row] | None = None,
) -> None:
    """The Plays of hands (a multiple of the Ante each) and of their backline bettors.

    Called by the decision service, inside its transaction and under its lock, with the
    round's money it read with the lock (``lock_round_state``). A Play the chips do not
    cover is refused on its ``multiple``, in the row ``rows`` gives its hand (by id), so the
    caller's refusal names the decision's row.
    """
    round_ = state.round
    multiples = {hand.pk: (hand, multiple) for hand, multiple in plays}
    bets = [bet for bet in state.bets if bet.hand_id in multiples]  # by seat, bettor
    wagers_account, _ = round_accounts_of(state)
    postings = []
    for bet in bets:
        hand, multiple = multiples[bet.hand_id]
        play = play_stake(bet.ante_cents, multiple)
        if not play:
            continue  # a Trips-only backline bettor has no Play
        if not play_covered(bet.ante_cents, multiple, bet.account.balance_cents):
            who = "the seated player" if bet.bettor == 0 else f"backline bettor {bet.player.name}"
            error = RuleError(
                f"seat {hand.seat}: a Play of {dollars(play)} is more than {who}'s "
                f"{dollars(bet.account.balance_cents)} in chips",
                rule=Rule.CHIPS_IN_FRONT,
                field="multiple",
            )
            row = (rows or {}).get(hand.pk)
            raise error.at_row(row) if row else error
        bet.play_cents = play
        postings.append(
            Posting(
                TransactionKind.PLAY,
                legs_of(
                    play_legs(play),
                    {Role.BETTOR: bet.account, Role.ROUND_WAGERS: wagers_account},
                ),
                round_id=round_.pk,
                memo=f"seat {hand.seat} {multiple}x",
            )
        )
    post_all(postings, by=by)
    Bet.objects.bulk_update(bets, ["play_cents"])
