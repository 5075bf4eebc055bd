"""Wagers and the player-dealer's bank, placed in a round (RULEBOOK §3, §5).

Ante, Blind, Trips and Bad Beat are placed while wagering is open; the Play
at a decision; the bank W by the player-dealer before "no more bets". Each is
validated by the rules core and moves chips into the round's in-play
accounts in the same transaction.
"""

from __future__ import annotations

from django.db import transaction

from cardroom.clock import now
from tables import options as table_options
from tables.models import Hand, Player, Round, RoundState, Seating
from tables.rules.errors import RuleError, StateError
from tables.services.guards import admit_to_hand, require_state
from tables.services.locks import lock_round
from wagers.models import Account, Bet, PlayerDealerBank, TransactionKind
from wagers.rules.validation import validate_opening_wagers
from wagers.rules.wagers import Stakes

from .chips import chip_account
from .ledger import CHIPS_RULE, Leg, Posting, post, post_all, round_accounts

BANK_RULE = "RULEBOOK §5: the player-dealer posts a bank W above zero, at most the bankroll"
BACKLINE_RULE = "RULEBOOK §3: backline bettors (a table option)"
OPENING = ("ante", "blind", "trips", "bad_beat")


def _funded_account(player: Player, table, amount: int, what: str) -> Account:
    account = chip_account(player, table)
    balance = account.balance_cents if account else 0
    if amount > balance:
        raise RuleError(
            f"{what} of {amount} cents is more than {player.name}'s {balance} cents at the table",
            rule=CHIPS_RULE,
            field="amount" if what == "the bank" else "ante",
        )
    return account


def post_bank(*, round_id: int, amount: int, by) -> PlayerDealerBank:
    """The player-dealer's bank W for this round, from their chips or bankroll."""
    with transaction.atomic():
        table, round_ = lock_round(round_id)
        require_state(round_, RoundState.WAGERING, action="post the bank")
        if PlayerDealerBank.objects.filter(round=round_).exists():
            raise StateError(
                "the player-dealer's bank is already posted for this round", state=round_.state
            )
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise RuleError(
                "the bank must be a positive whole number of cents", rule=BANK_RULE, field="amount"
            )
        if amount % round_.options["chip_unit_cents"]:
            raise RuleError(
                "the bank must be a multiple of the table's chip", rule=BANK_RULE, field="amount"
            )
        player = Player.objects.get(pk=round_.player_dealer_id)
        account = _funded_account(player, table, amount, "the bank")
        _, bank_account = round_accounts(round_)
        post(
            TransactionKind.BANK_POSTED,
            [Leg(account, -amount), Leg(bank_account, amount, "bank")],
            by=by,
            round_id=round_.pk,
        )
        return PlayerDealerBank.objects.create(
            round=round_,
            player=player,
            account=account,
            amount_cents=amount,
            posted_at=now(),
            posted_by=by,
        )


def place_bet(
    *,
    round_id: int,
    seat: int,
    ante: int = 0,
    blind: int = 0,
    trips: int = 0,
    bad_beat: int = 0,
    backline_player_id: int | None = None,
    by,
) -> Bet:
    """A bettor's opening wagers on a seat: the seated player's own, or a backline bettor's."""
    with transaction.atomic():
        table, round_ = lock_round(round_id)
        require_state(round_, RoundState.WAGERING, action="place wagers")
        options = table_options.game_options(round_.options)
        stakes = Stakes(ante=ante, blind=blind, trips=trips, bad_beat=bad_beat)
        backline = backline_player_id is not None
        validate_opening_wagers(stakes, options, backline=backline)
        if backline:
            hand, player, bettor = _backline_position(
                table, round_, seat, backline_player_id, options
            )
        else:
            hand = admit_to_hand(table, round_, seat)
            if hand.bets.filter(bettor=0).exists():
                raise StateError(
                    f"seat {seat} has placed its wagers; nothing is increased or withdrawn",
                    state=round_.state,
                )
            player, bettor = hand.player, 0
        account = _funded_account(player, table, stakes.total, "the wagers")
        wagers_account, _ = round_accounts(round_)
        post(
            TransactionKind.WAGER,
            [Leg(account, -stakes.total)]
            + [Leg(wagers_account, getattr(stakes, kind), kind) for kind in OPENING],
            by=by,
            round_id=round_.pk,
            memo=f"seat {seat}" + (f" backline-{bettor}" if bettor else ""),
        )
        return Bet.objects.create(
            hand=hand,
            bettor=bettor,
            player=player,
            account=account,
            ante_cents=ante,
            blind_cents=blind,
            trips_cents=trips,
            bad_beat_cents=bad_beat,
            placed_at=now(),
        )


def _backline_position(
    table, round_: Round, seat: int, player_id: int, options
) -> tuple[Hand, Player, int]:
    if not options.backline_allowed:
        raise RuleError(
            "this table does not allow backline wagers", rule=BACKLINE_RULE, field="seat"
        )
    hand = round_.hands.filter(seat=seat).first()
    if hand is None or not hand.bets.filter(bettor=0).exists():
        raise RuleError(
            f"seat {seat} has no wagers to bet behind; the seated player wagers first",
            rule=BACKLINE_RULE,
            field="seat",
        )
    player = Player.objects.select_related("tppp").get(pk=player_id)
    if hasattr(player, "tppp"):
        raise RuleError(
            "a TPPP player accepts and settles wagers only while holding the position",
            rule="RULEBOOK §6",
            field="backline_player",
        )
    if player.pk == round_.player_dealer_id:
        raise RuleError(
            "the player-dealer does not bet behind a seat",
            rule=BACKLINE_RULE,
            field="backline_player",
        )
    if Seating.objects.filter(table=table, player=player, left_at__isnull=True).exists():
        raise RuleError(
            "a seated player plays their own seat, not behind another",
            rule=BACKLINE_RULE,
            field="backline_player",
        )
    if Bet.objects.filter(hand__round=round_, player=player).exists():
        raise StateError(f"{player.name} has already wagered in this round", state=round_.state)
    bettor = hand.bets.count()
    return hand, player, bettor


def place_plays(round_: Round, hand: Hand, multiple: int, *, by) -> None:
    """The Play of a hand and of its backline bettors (same multiple of each one's Ante).

    Called by the decision service, inside its transaction and under its lock.
    """
    bets = list(hand.bets.select_related("player", "account").order_by("bettor"))
    wagers_account, _ = round_accounts(round_)
    postings = []
    for bet in bets:
        play = bet.ante_cents * multiple
        if not play:
            continue  # a Trips-only backline bettor has no Play
        if play > bet.account.balance_cents:
            who = "the seated player" if bet.bettor == 0 else f"backline bettor {bet.player.name}"
            raise RuleError(
                f"a Play of {play} cents is more than {who}'s {bet.account.balance_cents} cents",
                rule=CHIPS_RULE,
                field="multiple",
            )
        bet.play_cents = play
        postings.append(
            Posting(
                TransactionKind.PLAY,
                [Leg(bet.account, -play), Leg(wagers_account, play, "play")],
                round_id=round_.pk,
                memo=f"seat {hand.seat} {multiple}x",
            )
        )
    post_all(postings, by=by)
    Bet.objects.bulk_update(bets, ["play_cents"])
