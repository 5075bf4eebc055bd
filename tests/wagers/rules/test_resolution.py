"""Every cell of the resolution table (docs/rules.md §6.1), with real cards."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.cards import FULL_DECK
from tables.rules.hands import Category, HandValue, compare, evaluate
from tables.rules.options import GameOptions
from tables.rules.paytables import (
    BAD_BEAT_PAYTABLES,
    BLIND,
    TRIPS_CATEGORIES,
    TRIPS_PAYTABLES,
    custom_paytable,
)
from tables.rules.paytables import payout as paytable_payout
from tests.builders.rules import cards
from wagers.rules.resolution import (
    HandResult,
    Outcome,
    Resolution,
    dealer_qualifies,
    hand_result,
    resolve_stakes,
    resolve_wager,
)
from wagers.rules.wagers import Stakes, WagerKind

C = Category
W = WagerKind
WIN, LOSE, PUSH = Outcome.WIN, Outcome.LOSE, Outcome.PUSH
OPTIONS = GameOptions()  # UTH-01, Bad Beat option 1, 1-cent chip


@dataclass(frozen=True)
class Scenario:
    board: str
    player: str
    dealer: str
    folded: bool
    result: HandResult
    player_category: Category
    dealer_category: Category

    @property
    def values(self) -> tuple[HandValue, HandValue]:
        board = cards(self.board)
        return evaluate((*cards(self.player), *board)), evaluate((*cards(self.dealer), *board))


H = HandResult
SCENARIOS = {
    # plain showdowns, dealer qualifying or not
    "win-q": Scenario("2c 7h 9s Td Jc", "Ac Ad", "Kh Kd", False, H.WIN, C.ONE_PAIR, C.ONE_PAIR),
    "win-nq": Scenario("2c 7h 9s Td Jc", "Ah Ac", "As Kd", False, H.WIN, C.ONE_PAIR, C.HIGH_CARD),
    "win-high-card-nq": Scenario("2c 7h 9s 5d Jc", "Ah Qc", "Kd 3s", False, H.WIN, C.HIGH_CARD,
                                 C.HIGH_CARD),
    "lose-q": Scenario("2c 7h 9s Td Jc", "Kh Kd", "Ac Ad", False, H.LOSE, C.ONE_PAIR, C.ONE_PAIR),
    "lose-nq": Scenario("2c 7h 9s Td Jc", "Ah Qd", "As Kd", False, H.LOSE, C.HIGH_CARD,
                        C.HIGH_CARD),
    "tie-q": Scenario("Kc Kd Qh Qs Ac", "2c 3d", "4h 5h", False, H.TIE, C.TWO_PAIR, C.TWO_PAIR),
    "tie-nq": Scenario("2c 7h 9s Td Jc", "As Kd", "Ah Kc", False, H.TIE, C.HIGH_CARD,
                       C.HIGH_CARD),
    "tie-straight-on-board": Scenario("9c Td Jh Qs Kd", "2c 3d", "2h 4s", False, H.TIE,
                                      C.STRAIGHT, C.STRAIGHT),
    "fold": Scenario("2c 7h 9s Td Jc", "3c 4d", "Kh Kd", True, H.FOLD, C.HIGH_CARD, C.ONE_PAIR),
    "fold-nq": Scenario("2c 7h 9s Td Jc", "3c 4d", "As Kd", True, H.FOLD, C.HIGH_CARD,
                        C.HIGH_CARD),
    "fold-straight": Scenario("9c Td Jh 3s 2d", "Qc Kd", "Ah Ad", True, H.FOLD, C.STRAIGHT,
                              C.ONE_PAIR),
    # the player wins with each category
    "win-two-pair": Scenario("2c 7h 9s Td Jc", "Th Jh", "Ac Ad", False, H.WIN, C.TWO_PAIR,
                             C.ONE_PAIR),
    "win-trips": Scenario("7c 7d 2h 9s Kc", "7h 4s", "Kd Qd", False, H.WIN, C.THREE_OF_A_KIND,
                          C.TWO_PAIR),
    "win-straight": Scenario("9c Td Jh 3s 2d", "Qc Kd", "Ah Ad", False, H.WIN, C.STRAIGHT,
                             C.ONE_PAIR),
    "win-straight-nq": Scenario("9c Td Jh 3s 2d", "Qc Kd", "Ah 5d", False, H.WIN, C.STRAIGHT,
                                C.HIGH_CARD),
    "win-flush": Scenario("2h 7h 9h Kc 4d", "Ah 5h", "Ks Qd", False, H.WIN, C.FLUSH, C.ONE_PAIR),
    "win-flush-nq": Scenario("2h 7h 9h Kc 4d", "Ah 5h", "Qs Jd", False, H.WIN, C.FLUSH,
                             C.HIGH_CARD),
    "win-full-house": Scenario("Kc Kd 7h 2s 3c", "Kh 7d", "As Ad", False, H.WIN, C.FULL_HOUSE,
                               C.TWO_PAIR),
    "win-quads": Scenario("9c 9d 2h 5s Kh", "9h 9s", "Kc Kd", False, H.WIN, C.FOUR_OF_A_KIND,
                          C.FULL_HOUSE),
    "win-straight-flush": Scenario("5s 6s 7s Kd Kh", "8s 9s", "Kc Ks", False, H.WIN,
                                   C.STRAIGHT_FLUSH, C.FOUR_OF_A_KIND),
    "win-royal": Scenario("Qs Js Ts 2c 2d", "As Ks", "2h 2s", False, H.WIN, C.ROYAL_FLUSH,
                          C.FOUR_OF_A_KIND),
    # the player wins against a dealer holding three of a kind or better (Bad Beat)
    "win-vs-trips": Scenario("7c 7d 2h 9s Kc", "Kd Kh", "7h 4s", False, H.WIN, C.FULL_HOUSE,
                             C.THREE_OF_A_KIND),
    "win-vs-straight": Scenario("9c Td Jh Qs 2d", "Kd 4h", "8c 3h", False, H.WIN, C.STRAIGHT,
                                C.STRAIGHT),
    "win-vs-flush": Scenario("2h 7h 9h Kc 4d", "Ah 5h", "Qh 3h", False, H.WIN, C.FLUSH, C.FLUSH),
    "win-vs-straight-flush": Scenario("Ts Js Qs 9s 2d", "As Ks", "8s 3c", False, H.WIN,
                                      C.ROYAL_FLUSH, C.STRAIGHT_FLUSH),
    # the player loses holding three of a kind or better (Bad Beat)
    "lose-trips": Scenario("7c 7d 2h 9s Kc", "7h 4s", "Kd Kh", False, H.LOSE,
                           C.THREE_OF_A_KIND, C.FULL_HOUSE),
    "lose-straight": Scenario("9c Td Jh Qs 2d", "8c 3h", "Kd 4h", False, H.LOSE, C.STRAIGHT,
                              C.STRAIGHT),
    "lose-flush": Scenario("2h 7h 9h Kc 4d", "Qh 3h", "Ah 5h", False, H.LOSE, C.FLUSH, C.FLUSH),
    "lose-full-house": Scenario("9c 9d 2h 5s Kh", "Kc Kd", "9h 9s", False, H.LOSE, C.FULL_HOUSE,
                                C.FOUR_OF_A_KIND),
    "lose-quads": Scenario("5s 6s 7s Kd Kh", "Kc Ks", "8s 9s", False, H.LOSE, C.FOUR_OF_A_KIND,
                           C.STRAIGHT_FLUSH),
    "lose-straight-flush": Scenario("Ts Js Qs 9s 2d", "8s 3c", "As Ks", False, H.LOSE,
                                    C.STRAIGHT_FLUSH, C.ROYAL_FLUSH),
    "fold-trips": Scenario("7c 7d 2h 9s Kc", "7h 4s", "Kd Kh", True, H.FOLD, C.THREE_OF_A_KIND,
                           C.FULL_HOUSE),
}  # fmt: skip


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_scenarios_are_what_they_claim(name):
    """Guards the table below: each hand-built deal has the result and categories named."""
    scenario = SCENARIOS[name]
    player, dealer = scenario.values
    assert player.category is scenario.player_category
    assert dealer.category is scenario.dealer_category
    assert hand_result(player, dealer, scenario.folded) is scenario.result
    if scenario.folded:
        # Folding does not change who would have won; the hand just is not compared.
        assert hand_result(player, dealer, False) is not H.FOLD


STAKE = 1000

# (id, scenario, wager, outcome, payout); a payout is the winnings, stake not included.
TABLE = [
    # Ante: 1:1 if the dealer qualifies, else push | lose if qualifies, else push | push | lose
    ("ante-win-q", "win-q", W.ANTE, WIN, 1000),
    ("ante-win-nq-push", "win-nq", W.ANTE, PUSH, 0),
    ("ante-win-high-card-nq-push", "win-high-card-nq", W.ANTE, PUSH, 0),
    ("ante-win-straight-nq-push", "win-straight-nq", W.ANTE, PUSH, 0),
    ("ante-lose-q", "lose-q", W.ANTE, LOSE, 0),
    ("ante-lose-nq-push", "lose-nq", W.ANTE, PUSH, 0),
    ("ante-tie-q-push", "tie-q", W.ANTE, PUSH, 0),
    ("ante-tie-nq-push", "tie-nq", W.ANTE, PUSH, 0),
    ("ante-fold", "fold", W.ANTE, LOSE, 0),
    ("ante-fold-nq-still-loses", "fold-nq", W.ANTE, LOSE, 0),
    # Play: 1:1 | lose | push, whether or not the dealer qualifies
    ("play-win-q", "win-q", W.PLAY, WIN, 1000),
    ("play-win-nq", "win-nq", W.PLAY, WIN, 1000),
    ("play-win-high-card-nq", "win-high-card-nq", W.PLAY, WIN, 1000),
    ("play-lose-q", "lose-q", W.PLAY, LOSE, 0),
    ("play-lose-nq", "lose-nq", W.PLAY, LOSE, 0),
    ("play-tie-q", "tie-q", W.PLAY, PUSH, 0),
    ("play-tie-nq", "tie-nq", W.PLAY, PUSH, 0),
    # Blind: pay table if Straight or better, else push | lose | push | lose
    ("blind-win-high-card-push", "win-high-card-nq", W.BLIND, PUSH, 0),
    ("blind-win-pair-push", "win-q", W.BLIND, PUSH, 0),
    ("blind-win-two-pair-push", "win-two-pair", W.BLIND, PUSH, 0),
    ("blind-win-trips-push", "win-trips", W.BLIND, PUSH, 0),
    ("blind-win-straight-1", "win-straight", W.BLIND, WIN, 1000),
    ("blind-win-straight-nq-1", "win-straight-nq", W.BLIND, WIN, 1000),
    ("blind-win-flush-3:2", "win-flush", W.BLIND, WIN, 1500),
    ("blind-win-flush-nq-3:2", "win-flush-nq", W.BLIND, WIN, 1500),
    ("blind-win-full-house-3", "win-full-house", W.BLIND, WIN, 3000),
    ("blind-win-quads-10", "win-quads", W.BLIND, WIN, 10_000),
    ("blind-win-straight-flush-50", "win-straight-flush", W.BLIND, WIN, 50_000),
    ("blind-win-royal-500", "win-royal", W.BLIND, WIN, 500_000),
    ("blind-lose-q", "lose-q", W.BLIND, LOSE, 0),
    ("blind-lose-nq", "lose-nq", W.BLIND, LOSE, 0),
    ("blind-lose-with-a-straight", "lose-straight", W.BLIND, LOSE, 0),
    ("blind-tie-push", "tie-q", W.BLIND, PUSH, 0),
    ("blind-tie-straight-push", "tie-straight-on-board", W.BLIND, PUSH, 0),
    ("blind-fold", "fold", W.BLIND, LOSE, 0),
    ("blind-fold-with-a-straight", "fold-straight", W.BLIND, LOSE, 0),
    # Trips (UTH-01): the player's own hand, whatever the showdown
    ("trips-win-high-card-loses", "win-high-card-nq", W.TRIPS, LOSE, 0),
    ("trips-win-pair-loses", "win-q", W.TRIPS, LOSE, 0),
    ("trips-win-two-pair-loses", "win-two-pair", W.TRIPS, LOSE, 0),
    ("trips-win-trips-3", "win-trips", W.TRIPS, WIN, 3000),
    ("trips-win-straight-4", "win-straight", W.TRIPS, WIN, 4000),
    ("trips-win-flush-7", "win-flush", W.TRIPS, WIN, 7000),
    ("trips-win-full-house-9", "win-full-house", W.TRIPS, WIN, 9000),
    ("trips-win-quads-30", "win-quads", W.TRIPS, WIN, 30_000),
    ("trips-win-straight-flush-40", "win-straight-flush", W.TRIPS, WIN, 40_000),
    ("trips-win-royal-50", "win-royal", W.TRIPS, WIN, 50_000),
    ("trips-lose-trips-3", "lose-trips", W.TRIPS, WIN, 3000),
    ("trips-lose-straight-4", "lose-straight", W.TRIPS, WIN, 4000),
    ("trips-lose-flush-7", "lose-flush", W.TRIPS, WIN, 7000),
    ("trips-lose-full-house-9", "lose-full-house", W.TRIPS, WIN, 9000),
    ("trips-lose-quads-30", "lose-quads", W.TRIPS, WIN, 30_000),
    ("trips-lose-straight-flush-40", "lose-straight-flush", W.TRIPS, WIN, 40_000),
    ("trips-lose-pair-loses", "lose-q", W.TRIPS, LOSE, 0),
    ("trips-tie-straight-4", "tie-straight-on-board", W.TRIPS, WIN, 4000),
    ("trips-tie-two-pair-loses", "tie-q", W.TRIPS, LOSE, 0),
    ("trips-fold-trips-still-wins-3", "fold-trips", W.TRIPS, WIN, 3000),
    ("trips-fold-straight-still-wins-4", "fold-straight", W.TRIPS, WIN, 4000),
    ("trips-fold-high-card-loses", "fold", W.TRIPS, LOSE, 0),
    # Bad Beat (option 1): on the dealer's hand when the player wins, on the player's when
    # the player loses; 3K or better; a tie and a fold lose.
    ("bad-beat-win-dealer-pair-loses", "win-q", W.BAD_BEAT, LOSE, 0),
    ("bad-beat-win-dealer-high-card-loses", "win-nq", W.BAD_BEAT, LOSE, 0),
    ("bad-beat-win-dealer-two-pair-loses", "win-full-house", W.BAD_BEAT, LOSE, 0),
    ("bad-beat-win-dealer-trips-9", "win-vs-trips", W.BAD_BEAT, WIN, 9000),
    ("bad-beat-win-dealer-straight-20", "win-vs-straight", W.BAD_BEAT, WIN, 20_000),
    ("bad-beat-win-dealer-flush-25", "win-vs-flush", W.BAD_BEAT, WIN, 25_000),
    ("bad-beat-win-dealer-full-house-40", "win-quads", W.BAD_BEAT, WIN, 40_000),
    ("bad-beat-win-dealer-quads-500", "win-straight-flush", W.BAD_BEAT, WIN, 500_000),
    ("bad-beat-win-royal-dealer-quads-500", "win-royal", W.BAD_BEAT, WIN, 500_000),
    ("bad-beat-win-dealer-straight-flush-10000", "win-vs-straight-flush", W.BAD_BEAT, WIN,
     10_000_000),
    ("bad-beat-lose-player-pair-loses", "lose-q", W.BAD_BEAT, LOSE, 0),
    ("bad-beat-lose-player-high-card-loses", "lose-nq", W.BAD_BEAT, LOSE, 0),
    ("bad-beat-lose-player-trips-9", "lose-trips", W.BAD_BEAT, WIN, 9000),
    ("bad-beat-lose-player-straight-20", "lose-straight", W.BAD_BEAT, WIN, 20_000),
    ("bad-beat-lose-player-flush-25", "lose-flush", W.BAD_BEAT, WIN, 25_000),
    ("bad-beat-lose-player-full-house-40", "lose-full-house", W.BAD_BEAT, WIN, 40_000),
    ("bad-beat-lose-player-quads-500", "lose-quads", W.BAD_BEAT, WIN, 500_000),
    ("bad-beat-lose-player-straight-flush-10000", "lose-straight-flush", W.BAD_BEAT, WIN,
     10_000_000),
    ("bad-beat-tie-loses", "tie-q", W.BAD_BEAT, LOSE, 0),
    ("bad-beat-tie-straight-loses", "tie-straight-on-board", W.BAD_BEAT, LOSE, 0),
    ("bad-beat-fold-loses", "fold", W.BAD_BEAT, LOSE, 0),
    ("bad-beat-fold-with-trips-loses", "fold-trips", W.BAD_BEAT, LOSE, 0),
]  # fmt: skip


@pytest.mark.parametrize(
    ("scenario", "kind", "outcome", "payout"),
    [case[1:] for case in TABLE],
    ids=[case[0] for case in TABLE],
)
def test_resolution_table(scenario, kind, outcome, payout):
    facts = SCENARIOS[scenario]
    player, dealer = facts.values
    resolution = resolve_wager(kind, STAKE, facts.result, player, dealer, OPTIONS)
    assert resolution == Resolution(kind, STAKE, outcome, payout)


def test_the_table_reaches_every_scenario_and_wager():
    assert {case[1] for case in TABLE} == set(SCENARIOS)
    assert {case[2] for case in TABLE} == set(WagerKind)


# --- options: other pay tables, no Bad Beat, rounding ------------------------------------

OTHER_TABLES = [
    ("uth-02-flush", GameOptions(trips_paytable=TRIPS_PAYTABLES["UTH-02"]), "win-flush",
     W.TRIPS, 6000),
    ("uth-03-straight", GameOptions(trips_paytable=TRIPS_PAYTABLES["UTH-03"]), "lose-straight",
     W.TRIPS, 4000),
    ("uth-04-quads", GameOptions(trips_paytable=TRIPS_PAYTABLES["UTH-04"]), "win-quads",
     W.TRIPS, 20_000),
    ("custom-003-royal", GameOptions(trips_paytable=custom_paytable(
        "003", {"royal_flush": 100, "straight_flush": 40, "four_of_a_kind": 20,
                "full_house": 7, "flush": 6, "straight": 5, "three_of_a_kind": 3},
        TRIPS_CATEGORIES)), "win-royal", W.TRIPS, 100_000),
    ("option-2-dealer-straight-flush", GameOptions(
        bad_beat_paytable=BAD_BEAT_PAYTABLES["option-2"]), "win-vs-straight-flush",
     W.BAD_BEAT, 7_500_000),
    ("option-2-player-full-house", GameOptions(
        bad_beat_paytable=BAD_BEAT_PAYTABLES["option-2"]), "lose-full-house", W.BAD_BEAT,
     50_000),
]  # fmt: skip


@pytest.mark.parametrize(
    ("options", "scenario", "kind", "payout"),
    [case[1:] for case in OTHER_TABLES],
    ids=[case[0] for case in OTHER_TABLES],
)
def test_the_tables_options_choose_the_pay_table(options, scenario, kind, payout):
    facts = SCENARIOS[scenario]
    player, dealer = facts.values
    resolution = resolve_wager(kind, STAKE, facts.result, player, dealer, options)
    assert (resolution.outcome, resolution.payout) == (WIN, payout)


@pytest.mark.parametrize(
    "scenario",
    ["win-vs-trips", "lose-straight-flush", "win-q"],
    ids=["would-pay-on-dealer", "would-pay-on-player", "would-lose-anyway"],
)
def test_bad_beat_loses_at_a_table_without_a_bad_beat_table(scenario):
    facts = SCENARIOS[scenario]
    player, dealer = facts.values
    options = GameOptions(bad_beat_paytable=None)
    resolution = resolve_wager(W.BAD_BEAT, STAKE, facts.result, player, dealer, options)
    assert resolution.outcome is LOSE


@pytest.mark.parametrize(
    ("stake", "chip", "payout", "rounded_off"),
    [(2525, 25, 3775, Fraction(25, 2)), (2501, 1, 3751, Fraction(1, 2)),
     (300, 100, 400, Fraction(50)), (2500, 1, 3750, Fraction(0))],
    ids=["25-chip", "cent-chip-odd", "100-chip", "even"],
)  # fmt: skip
def test_blind_flush_3_to_2_rounds_down_and_records_the_rest(stake, chip, payout, rounded_off):
    facts = SCENARIOS["win-flush"]
    player, dealer = facts.values
    options = GameOptions(chip_unit=chip)
    resolution = resolve_wager(W.BLIND, stake, facts.result, player, dealer, options)
    assert resolution == Resolution(W.BLIND, stake, WIN, payout, rounded_off)


@pytest.mark.parametrize(
    ("category", "qualifies"),
    [(category, category >= C.ONE_PAIR) for category in Category],
    ids=[category.label for category in Category],
)
def test_dealer_qualifies_with_one_pair_or_better(category, qualifies):
    assert dealer_qualifies(HandValue(1, category)) is qualifies


def test_dealer_qualifies_on_real_hands():
    assert dealer_qualifies(SCENARIOS["win-q"].values[1])
    assert not dealer_qualifies(SCENARIOS["win-nq"].values[1])


def test_resolve_stakes_resolves_only_the_wagers_made():
    facts = SCENARIOS["win-flush"]
    player, dealer = facts.values
    stakes = Stakes(ante=1000, blind=1000, play=4000, trips=0, bad_beat=0)
    resolved = resolve_stakes(stakes, facts.result, player, dealer, OPTIONS)
    assert list(resolved) == [W.ANTE, W.PLAY, W.BLIND]
    assert resolved[W.ANTE] == Resolution(W.ANTE, 1000, WIN, 1000)
    assert resolved[W.PLAY] == Resolution(W.PLAY, 4000, WIN, 4000)
    assert resolved[W.BLIND] == Resolution(W.BLIND, 1000, WIN, 1500)


# --- an independent statement of the table, on random deals ------------------------------


def oracle(kind, stake, player, dealer, folded):
    """docs/rules.md §6.1 read literally, written apart from the code under test."""
    qualifies = dealer.category >= C.ONE_PAIR
    cmp = compare(player, dealer)
    if kind is W.TRIPS:
        odds = OPTIONS.trips_paytable.odds_for(player.category)
        return (LOSE, 0) if odds is None else (WIN, paytable_payout(stake, odds, 1).amount)
    if folded:
        return (LOSE, 0)
    if kind is W.BAD_BEAT:
        if cmp == 0:
            return (LOSE, 0)
        beaten = dealer if cmp > 0 else player
        if beaten.category < C.THREE_OF_A_KIND:
            return (LOSE, 0)
        odds = OPTIONS.bad_beat_paytable.odds_for(beaten.category)
        return (WIN, paytable_payout(stake, odds, 1).amount)
    if cmp == 0:
        return (PUSH, 0)
    if kind is W.ANTE:
        if not qualifies:
            return (PUSH, 0)
        return (WIN, stake) if cmp > 0 else (LOSE, 0)
    if kind is W.PLAY:
        return (WIN, stake) if cmp > 0 else (LOSE, 0)
    # Blind
    if cmp < 0:
        return (LOSE, 0)
    if player.category < C.STRAIGHT:
        return (PUSH, 0)
    return (WIN, paytable_payout(stake, BLIND.odds_for(player.category), 1).amount)


# 400: pure rules against a literal reading, microseconds an example; the hands that pay the
# Blind (a straight or better) are about one deal in ten, so the search is wider than 100.
@settings(max_examples=400, deadline=None)
@given(
    deck=st.permutations(FULL_DECK),
    folded=st.booleans(),
    stake=st.integers(min_value=1, max_value=100_000),
)
def test_resolution_matches_a_literal_reading_of_the_table(deck, folded, stake):
    board = deck[4:9]
    player = evaluate((*deck[:2], *board))
    dealer = evaluate((*deck[2:4], *board))
    result = hand_result(player, dealer, folded)
    for kind in WagerKind:
        if kind is W.PLAY and folded:
            continue
        resolution = resolve_wager(kind, stake, result, player, dealer, OPTIONS)
        assert (resolution.outcome, resolution.payout) == oracle(
            kind, stake, player, dealer, folded
        ), kind
        assert resolution.stake == stake
