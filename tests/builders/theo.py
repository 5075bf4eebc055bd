"""Builders for theo beside actual (docs/rules.md §13.5, §13.6), over ``tests.builders.money``:
hands played through the real services on card-entry tables, their results known from the
cards, and what the stored theo of each must be, derived from the game-math core (whose
counts are provisional: no figure is written here).

- ``expected_hand``: the stored theo and spread a round must have (from its bets and its
  frozen options), by ``tests.builders.rules.expected_theo``'s arithmetic;
- ``expected_figures``: theo, actual, difference, standard deviation and standard
  deviations of some hands, computed here in plain decimals;
- ``theo_history``: a player-dealer's scripted hands, their results known from the cards:
  seat 1 banks hand 1 (seat 2: Ante 1,000 and Trips 500, plays 4x, king high against the
  player-dealer's aces: +6,500), hand 2 (seat 2: Ante 500, folds at the river: +1,000) and
  hand 4 (seat 2's Ante 1,000 and a backline bettor's 500, both 4x: +9,000); seat 3 banks
  hands 3 and 5; seat 1's hand 6 is voided after "no more bets" (its theo is stored, it
  has no result) and seat 3's hand 7 waits at "no more bets";
- ``rigged_table`` and ``rig``: a table where the player-dealer wins every hand it banks,
  every bettor playing 4x with a losing hand (each bettor loses Ante + Blind + Play = 6
  Antes): a result no house edge comes near, whatever the exact edges are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Context, Decimal

from cardroom.errors import State
from rounds import services as rounds
from tables.models import DealMode, Round
from tables.options import game_options
from tests.builders.floor import FOLD, PLAY_4X, Cards, FrozenClock
from tests.builders.money import MoneyTable, Wager, money_table, play_round
from tests.builders.rules import expected_theo, four_places
from wagers.models import Bet, PlayerDealerBank
from wagers.rules.gamemath import game_math, theo_of
from wagers.rules.wagers import Stakes

BOARD = ["2c", "7d", "9h", "Jc", "Ks"]
ACES = ["As", "Ad"]  # the player-dealer's pair of aces qualifies and beats every hand below
LOSING = {2: ["3d", "4h"], 3: ["3d", "4h"], 4: ["5c", "8s"]}  # king high on BOARD
CHIPS = 5_000_000
_CONTEXT = Context(prec=60)


def expected_hand(round_: Round) -> tuple[Decimal, Decimal]:
    """(theo, spread) a round's stored theo must have, from its bets and frozen options."""
    stakes = [
        Stakes(
            ante=b.ante_cents, blind=b.blind_cents, trips=b.trips_cents, bad_beat=b.bad_beat_cents
        )
        for b in Bet.objects.filter(hand__round=round_)
    ]
    options = game_options(round_.options)
    theo, _ = expected_theo(stakes, options)
    return four_places(theo), four_places(theo_of(stakes, game_math(options)).std_dev)


@dataclass(frozen=True)
class Figures:
    hands: int
    theo: Decimal
    actual: int
    difference: Decimal
    std_dev: Decimal  # to four places
    std_devs: Decimal | None  # to two places

    def api(self) -> dict:
        """As the bankroll API shows them: decimals as strings."""
        return {
            "hands": self.hands,
            "theo": f"{self.theo:.4f}",
            "actual": self.actual,
            "difference": f"{self.difference:.4f}",
            "std_dev": f"{self.std_dev:.4f}",
            "std_devs": None if self.std_devs is None else f"{self.std_devs:.2f}",
        }


def expected_figures(rounds: Iterable[Round]) -> Figures:
    """Theo beside actual over ``rounds`` (settled), in plain decimal arithmetic."""
    theo, variance, actual, hands = Decimal(0), Decimal(0), 0, 0
    for round_ in rounds:
        hand_theo, spread = expected_hand(round_)
        theo += hand_theo
        variance += spread * spread
        actual += PlayerDealerBank.objects.get(round=round_).net_cents
        hands += 1
    difference = Decimal(actual) - theo
    root = _CONTEXT.sqrt(variance) if variance else Decimal(0)
    return Figures(
        hands,
        theo,
        actual,
        difference,
        four_places(root),
        _CONTEXT.divide(difference, root).quantize(Decimal("0.01")) if variance else None,
    )


def theo_history(staff, clock):
    """The scripted history; answers (table, seat 1's settled rounds, the other rounds)."""
    mt = money_table(
        staff,
        dict.fromkeys((1, 2, 3), CHIPS),
        backliners=(CHIPS,),
        deal_mode=DealMode.CARD_ENTRY,
        name="UTH-TH",
        rotation_window_minutes=None,
    )
    loses = Cards(ACES, {2: LOSING[2]}, BOARD)

    def hand(seat, wagers, plan, until=State.SETTLED):
        clock.advance(minutes=2)
        return play_round(
            mt,
            pd_seat=seat,
            bank=20_000,
            wagers=wagers,
            decisions={2: plan},
            cards=loses,
            until=until,
        )

    banked = [
        hand(1, [Wager(2, 1_000, trips=500)], PLAY_4X),
        hand(1, [Wager(2, 500)], FOLD),
    ]
    others = [hand(3, [Wager(2, 500)], PLAY_4X)]
    banked.append(hand(1, [Wager(2, 1_000), Wager(2, 500, behind=0)], PLAY_4X))
    others.append(hand(3, [Wager(2, 500)], PLAY_4X))
    voided = hand(1, [Wager(2, 2_500, trips=500, bad_beat=500)], PLAY_4X, State.NO_MORE_BETS)
    rounds.void_round(round_id=voided.pk, by=staff.supervisor, reason="misdeal")
    others.append(hand(3, [Wager(2, 500)], PLAY_4X, State.NO_MORE_BETS))
    return mt, banked, [*others, voided]


def rigged_table(staff, *, name: str, tppp: bool = False, **options) -> MoneyTable:
    """Card entry; seat 1 a patron and seat 2 another (a TPPP if ``tppp``), the two who
    bank; seats 3 and 4 the bettors, with chips for many hands. No rotation window, and a
    TPPP may bank twice in a row: seats 1 and 2 take the button two hands each in turn."""
    return money_table(
        staff,
        dict.fromkeys((1, 2, 3, 4), CHIPS),
        tppp_seats=(2,) if tppp else (),
        deal_mode=DealMode.CARD_ENTRY,
        name=name,
        rotation_window_minutes=None,
        tppp_may_bank_twice_in_a_row=True,
        **options,
    )


def rig(
    mt: MoneyTable,
    clock: FrozenClock,
    *,
    hands: int,
    dealers: Sequence[int] = (1, 1, 2, 2),
    ante: int = 1_000,
    bank: int = 20_000,
) -> dict[int, list[Round]]:
    """``hands`` hands, the button going round ``dealers`` in turn, a minute apart; each
    bettor (seats 3 and 4) plays 4x with a king-high hand against the player-dealer's aces:
    the player-dealer wins 12 Antes a hand. Answers the rounds by the seat that banked."""
    banked: dict[int, list[Round]] = {seat: [] for seat in dealers}
    for index in range(hands):
        seat = dealers[index % len(dealers)]
        clock.advance(minutes=1)
        banked[seat].append(
            play_round(
                mt,
                pd_seat=seat,
                bank=bank,
                wagers=[Wager(3, ante), Wager(4, ante)],
                decisions={3: PLAY_4X, 4: PLAY_4X},
                cards=Cards(ACES, {3: LOSING[3], 4: LOSING[4]}, BOARD),
            )
        )
    return banked
