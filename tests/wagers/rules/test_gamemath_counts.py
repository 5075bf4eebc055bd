"""The exhaustive game-math counts (wagers/rules/gamemath_counts.json) and the script that
computes them (scripts/game_math_counts.py).

The script's evaluator against the project's (phevaluator) on random hands, random pairs
sharing a board and edge cases; its per-board counts and payoffs against brute force; the
data's totals; two slices recomputed with the script's own functions; and the published
figures (Trips, Bad Beat, the base game under optimal play) from the data, in exact Fractions.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from scripts import game_math_counts as gm
from tables.rules.cards import FULL_DECK, parse_cards
from tables.rules.hands import Category, compare, evaluate

C = Category
JSON_PATH = Path(gm.__file__).resolve().parent.parent / "wagers" / "rules" / "gamemath_counts.json"
DATA = json.loads(JSON_PATH.read_text())
LABELS = [category.label for category in reversed(Category)]  # royal flush first

SEVEN_CARD_HANDS = {
    "royal_flush": 4_324,
    "straight_flush": 37_260,
    "four_of_a_kind": 224_848,
    "full_house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three_of_a_kind": 6_461_620,
    "two_pair": 31_433_400,
    "one_pair": 58_627_800,
    "high_card": 23_294_460,
}
ALL_DEALS = 2_598_960 * 1_081 * 990  # ordered (player pair, dealer pair, board)
SAMPLES = 200_000


def phevaluator_strength(cards) -> int:
    """The project's evaluator, as the script's dense strength (0 = seven-high)."""
    return gm.N_VALUES - evaluate(tuple(FULL_DECK[card] for card in cards)).strength


def category_of(strengths) -> np.ndarray:
    return gm.tables().category[np.asarray(strengths)]


def random_deals(seed: int, count: int, cards: int) -> np.ndarray:
    """``count`` rows of ``cards`` distinct card numbers."""
    rng = np.random.default_rng(seed)
    return np.argpartition(rng.random((count, 52)), cards, axis=1)[:, :cards]


# --- The evaluator ----------------------------------------------------------------------------


def test_category_agrees_with_the_project_on_random_hands():
    hands = random_deals(20260101, SAMPLES, 7)
    ours = gm.evaluate_hands(hands)
    theirs = [evaluate(tuple(FULL_DECK[card] for card in row)) for row in hands.tolist()]
    assert list(category_of(ours)) == [int(value.category) for value in theirs]
    # Stronger still: the dense strength is phevaluator's rank, reversed.
    assert (ours == gm.N_VALUES - np.array([value.strength for value in theirs])).all()


def test_order_agrees_with_the_project_on_random_pairs_sharing_a_board():
    deals = random_deals(20260102, SAMPLES, 9)
    board, first, second = deals[:, :5], deals[:, 5:7], deals[:, 7:9]
    ours_first = gm.evaluate_hands(np.hstack([first, board]))
    ours_second = gm.evaluate_hands(np.hstack([second, board]))
    ours = np.sign(ours_first - ours_second)
    theirs = [
        compare(
            evaluate(tuple(FULL_DECK[card] for card in (*row[5:7], *row[:5]))),
            evaluate(tuple(FULL_DECK[card] for card in (*row[7:9], *row[:5]))),
        )
        for row in deals.tolist()
    ]
    assert list(ours) == theirs
    assert 0 < theirs.count(0) < len(theirs)  # some ties among them, and not only ties


def test_the_per_board_path_agrees_with_the_project():
    """The full run's evaluation (two table look-ups per hole pair on a board) on 200 boards."""
    boards = random_deals(20260103, 200, 5)
    mismatched = 0
    for board in boards.tolist():
        work = gm.board_work(board)
        holes = zip(work[gm.HA].tolist(), work[gm.HB].tolist(), strict=True)
        theirs = [phevaluator_strength((a, b, *board)) for a, b in holes]
        mismatched += int((work[gm.STR] != np.array(theirs)).sum())
    assert mismatched == 0


# (id, seven cards, category)
EDGE_CASES = [
    ("wheel", "Ac 2d 3h 4s 5d Kc 9h", C.STRAIGHT),
    ("steel-wheel", "As 2s 3s 4s 5s Kd Qh", C.STRAIGHT_FLUSH),
    ("six-card-straight", "4c 5d 6h 7s 8c 9d Kh", C.STRAIGHT),
    ("seven-card-straight", "4c 5d 6h 7s 8c 9d Th", C.STRAIGHT),
    ("broadway-and-wheel", "Ac Kd Qh Js Tc 2d 3h", C.STRAIGHT),
    ("no-straight-around-the-corner", "Qc Kd Ah 2s 3d 8c 9h", C.HIGH_CARD),
    ("two-trips-full-house", "8c 8d 8h 4s 4d 4c Ah", C.FULL_HOUSE),
    ("trips-and-two-pairs", "8c 8d 8h 4s 4d 3c 3h", C.FULL_HOUSE),
    ("three-pairs", "Kc Kd 7h 7s 2d 2c 9h", C.TWO_PAIR),
    ("three-pairs-kicker-from-a-pair", "Kc Kd 7h 7s 5d 5c 2h", C.TWO_PAIR),
    ("quads-with-a-pair", "9c 9d 9h 9s Kd Kc 2h", C.FOUR_OF_A_KIND),
    ("quads-with-trips", "9c 9d 9h 9s Kd Kc Kh", C.FOUR_OF_A_KIND),
    ("flush-six-suited", "Ah 2h 9h 7h 4h 3h Kc", C.FLUSH),
    ("flush-seven-suited", "Ah 2h 9h 7h 4h 3h Kh", C.FLUSH),
    ("flush-over-straight", "6h 2h 3h 4h 5c 9h Kd", C.FLUSH),
    ("straight-flush-in-six-suited", "9s 8s 7s 6s 5s 2s Ad", C.STRAIGHT_FLUSH),
    ("royal-flush", "As Ks Qs Js Ts 9s 2c", C.ROYAL_FLUSH),
    ("king-high-straight-flush", "Ks Qs Js Ts 9s 2c 3d", C.STRAIGHT_FLUSH),
    ("straight-with-a-pair", "5c 6d 7h 8s 9c 9d 2h", C.STRAIGHT),
]


@pytest.mark.parametrize(("cards", "category"), [row[1:] for row in EDGE_CASES],
                         ids=[row[0] for row in EDGE_CASES])  # fmt: skip
def test_edge_cases(cards, category):
    hand = [int(card) for card in parse_cards(cards.split())]
    ours = int(gm.evaluate_hands(np.array([hand]))[0])
    assert category_of(ours) == category
    assert ours == phevaluator_strength(hand)
    # The per-board path (the last five as the board) gives the same strength.
    work = gm.board_work(hand[2:])
    column = np.flatnonzero(work[gm.PID] == gm.pair_index(hand[0], hand[1]))[0]
    assert work[gm.STR, column] == ours


# (id, first hand, second hand, 1 if the first is stronger, -1 if weaker, 0 for a tie)
EDGE_ORDER = [
    ("wheel-under-six-high", "Ac 2d 3h 4s 5d Kc 9h", "6c 2d 3h 4s 5d Kc 9h", -1),
    ("steel-wheel-over-quads", "As 2s 3s 4s 5s Kd Qh", "Ac Ad Ah As 5s Kd Qh", 1),
    ("steel-wheel-under-six-high", "As 2s 3s 4s 5s Kd Qh", "6s 2s 3s 4s 5s Kd Qh", -1),
    ("six-card-straight-plays-the-top", "4c 5d 6h 7s 8c 9d Kh", "Tc 5d 6h 7s 8c 9d Kh", -1),
    ("six-card-straight-low-card-irrelevant", "4c 5d 6h 7s 8c 9d Kh", "2c 5d 6h 7s 8c 9d Kh", 0),
    ("two-trips-take-the-higher", "8c 8d 8h 4s 4d 4c Ah", "9c 9d 8h 4s 4d 4c Ah", 1),
    ("full-house-pair-from-trips", "8c 8d 8h 4s 4d 4c Ah", "8c 8d 8h 4s 4d 3c 3h", 0),
    ("three-pairs-third-pair-kicks", "Kc Kd 7h 7s 5d 5c 2h", "Kc Kd 7h 7s 4d 4c 2h", 1),
    ("three-pairs-kicker-vs-single", "Kc Kd 7h 7s 2d 2c 9h", "Kc Kd 7h 7s 2d 8c 9h", 0),
    ("quads-kicker-from-the-pair", "9c 9d 9h 9s Kd Kc 2h", "9c 9d 9h 9s Kd Qc 2h", 0),
    ("quads-kicker-matters", "9c 9d 9h 9s Kd Qc 2h", "9c 9d 9h 9s Jd Qc 2h", 1),
    ("seven-suited-best-five", "Ah 2h 9h 7h 4h 3h Kh", "Ah 2h 9h 7h 4h 3h Qh", 1),
    ("six-suited-low-card-irrelevant", "Ah 2h 9h 7h 4h 3h Kc", "Ah 5c 9h 7h 4h 3h 2h", 0),
    ("royal-over-king-high", "As Ks Qs Js Ts 9s 2c", "9s Ks Qs Js Ts 2c 3d", 1),
]


@pytest.mark.parametrize(("first", "second", "expected"), [row[1:] for row in EDGE_ORDER],
                         ids=[row[0] for row in EDGE_ORDER])  # fmt: skip
def test_edge_order(first, second, expected):
    hands = [[int(card) for card in parse_cards(text.split())] for text in (first, second)]
    ours = gm.evaluate_hands(np.array(hands))
    theirs = [evaluate(tuple(FULL_DECK[card] for card in hand)) for hand in hands]
    assert int(np.sign(ours[0] - ours[1])) == expected == compare(*theirs)


# --- One board against brute force --------------------------------------------------------------

BRUTE_FORCE_BOARDS = ["Kd 9s 7h 4c 2d", "7c 7d 7h 2s 2d", "9s 8s 7s 2s Kd", "Qh Jh 4h Tc 3s"]


@pytest.mark.parametrize("board", BRUTE_FORCE_BOARDS)
def test_board_counts_against_brute_force(board):
    """Win, lose, tie and qualifying dealer hands of every hole pair, counted pair by pair."""
    cards = [int(card) for card in parse_cards(board.split())]
    work = gm.board_work(cards)
    strength = np.array(
        [
            phevaluator_strength((a, b, *cards))
            for a, b in zip(work[gm.HA], work[gm.HB], strict=True)
        ]
    )
    a, b = work[gm.HA][:, None], work[gm.HB][:, None]
    disjoint = (a != work[gm.HA]) & (a != work[gm.HB]) & (b != work[gm.HA]) & (b != work[gm.HB])
    assert (disjoint.sum(axis=1) == 990).all()
    stronger = strength[None, :] > strength[:, None]
    weaker = strength[None, :] < strength[:, None]
    assert (work[gm.WIN] == (disjoint & weaker).sum(axis=1)).all()
    assert (work[gm.LOSE] == (disjoint & stronger).sum(axis=1)).all()
    assert (work[gm.TIE] == (disjoint & ~stronger & ~weaker).sum(axis=1)).all()
    qualifies = category_of(strength) >= C.ONE_PAIR
    assert (work[gm.QUAL] == (disjoint & qualifies[None, :]).sum(axis=1)).all()


BLIND_PAY = {C.ROYAL_FLUSH: 500, C.STRAIGHT_FLUSH: 50, C.FOUR_OF_A_KIND: 10, C.FULL_HOUSE: 3,
             C.FLUSH: Fraction(3, 2), C.STRAIGHT: 1}  # fmt: skip


def settle(player, dealer, play: int) -> Fraction:
    """The player's result in units of Ante when he plays ``play`` (the rules, spelt out)."""
    mine, theirs = evaluate(player), evaluate(dealer)
    qualifies = theirs.category >= C.ONE_PAIR
    outcome = compare(mine, theirs)
    if outcome > 0:
        return (1 if qualifies else 0) + play + BLIND_PAY.get(mine.category, 0)
    if outcome < 0:
        return -(1 if qualifies else 0) - 1 - play
    return Fraction(0)


# (board, hole pairs covering high card, pairs, a straight, a flush, a full house, a royal)
PAYOFF_CASES = [
    ("Kd 9s 7h 4c 2d", ["As Qs", "3c 5h", "Kc Ks", "8c 6d", "9c 9d", "Jc Tc"]),
    ("Qh Jh Th 3c 3s", ["Ah Kh", "Kh 9h", "Ac Kd", "2h 5h", "3d Qd", "4c 5d"]),
]


@pytest.mark.parametrize(("board", "holes"), PAYOFF_CASES)
def test_hole_sums_against_the_rules(board, holes):
    """The polynomials and the river decision against every dealer hand, settled one by one."""
    board_cards = parse_cards(board.split())
    work = gm.board_work(board_cards)
    for hole in holes:
        player = parse_cards(hole.split())
        column = np.flatnonzero(work[gm.PID] == gm.pair_index(*player))[0]
        a, b, c, d, e, bet_sum, bet_sq, river_sum, river_sq, river_play = gm.hole_sums(
            work[gm.WIN, column], work[gm.LOSE, column], work[gm.QUAL, column],
            int(category_of(work[gm.STR, column])),
        )  # fmt: skip
        rest = [card for card in FULL_DECK if card not in (*board_cards, *player)]
        dealers = [(*dealer, *board_cards) for dealer in combinations(rest, 2)]
        for k in (1, 2, 3, 4):
            results = [settle((*player, *board_cards), dealer, k) for dealer in dealers]
            assert sum(2 * r for r in results) == a + b * k
            assert sum(4 * r * r for r in results) == c + d * k + e * k * k
        assert (bet_sum, bet_sq) == (a + 2 * b, c + 2 * d + 4 * e)
        play = a + b > -4 * 990  # folding loses Ante and Blind to every dealer hand
        assert (river_sum, river_sq, river_play) == (
            (a + b, c + d + e, 990) if play else (-3960, 15840, 0)
        )


def test_packed_sums_add_up_exactly_at_their_bounds():
    """The full run packs five sums in three int64; a flop's 1,081 turn-river pairs at the
    extremes (every dealer hand beaten by a royal flush, or lost to) unpack exactly."""
    best = gm.hole_sums(990, 0, 990, int(C.ROYAL_FLUSH))  # a, b, c, d, e, then the five sums
    worst = gm.hole_sums(0, 990, 990, int(C.ONE_PAIR))
    for values in (best[5:], worst[5:], (best[5], best[6], worst[7], worst[8], worst[9])):
        total = np.zeros(3, dtype=np.int64)
        for _ in range(gm.N_TURN_RIVER):
            total += np.array(gm.pack(*values), dtype=np.int64)
        assert gm.unpack(total) == tuple(gm.N_TURN_RIVER * v for v in values)
    assert best[5] == 990 * 2 * (1 + 2 + 500)  # Ante, Play 2x and the Blind's 500 to 1, x2


# --- The data ---------------------------------------------------------------------------------


def test_seven_card_counts():
    seven = DATA["seven_card_hands"]
    assert seven["categories"] == SEVEN_CARD_HANDS
    assert seven["total"] == sum(SEVEN_CARD_HANDS.values()) == 133_784_560


def test_board_hole_pairs_are_21_times_the_seven_card_hands():
    pairs = DATA["board_hole_pairs"]
    assert pairs["categories"] == {label: 21 * n for label, n in SEVEN_CARD_HANDS.items()}
    assert pairs["total"] == 2_598_960 * 1_081 == 2_809_475_760


def test_bad_beat_counts_sum_to_every_deal():
    deals = DATA["bad_beat_deals"]
    assert list(deals["losing_hand"]) == LABELS[1:]  # a royal flush never loses
    assert sum(deals["losing_hand"].values()) + deals["tie"] == deals["total"] == ALL_DEALS
    assert all(isinstance(n, int) and n >= 0 for n in deals["losing_hand"].values())


def test_hand_classes():
    game = DATA["base_game"]
    hands = game["hands"]
    assert len(hands) == 169
    assert list(hands) == gm.hand_classes()
    assert sum(hand["combos"] for hand in hands.values()) == 1326
    assert {hand["combos"] for hand in hands.values()} == {4, 6, 12}
    assert game["completions_per_hole_pair"] == 19_600 * 1_081 * 990 == 20_975_724_000
    assert game["scale"] == 2
    assert game["blind_paytable"] == gm.BLIND_PAYTABLE
    for hand in hands.values():
        assert len(hand["raise"]["sum"]) == 2 and len(hand["raise"]["sum_sq"]) == 3
        # Play wagered on the check path: at most 2 per completion (the flop bet).
        assert 0 <= hand["check"]["play_sum"] <= 2 * game["completions_per_hole_pair"]


def test_the_file_is_as_the_script_writes_it():
    assert gm.render(DATA) == JSON_PATH.read_text()
    assert DATA["about"]["script"] == "scripts/game_math_counts.py"


# --- Slices, recomputed -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def slices():
    computed, _ = gm.compute_slices()
    return computed


def test_monotone_boards_slice(slices):
    stored = DATA["slices"]["monotone_boards"]
    assert slices["monotone_boards"] == stored
    assert stored["boards"] == 4 * 1_287
    # Every hole pair on a monotone board makes at least a flush; the slice is part of the whole.
    assert sum(stored["board_hole_categories"].values()) == 5_148 * 1_081
    for label, n in stored["board_hole_categories"].items():
        assert n <= DATA["board_hole_pairs"]["categories"][label]
    for label, n in stored["bad_beat_losing_hand"].items():
        assert n <= DATA["bad_beat_deals"]["losing_hand"][label]


def test_base_game_trips_flops_slice(slices):
    stored = DATA["slices"]["base_game_trips_flops"]
    assert slices["base_game_trips_flops"] == stored
    assert (stored["hand"], stored["hole"], stored["flops"]) == ("AKs", ["As", "Ks"], 11 * 4 + 2)


def test_the_command_line_checks_the_slices(capsys):
    assert gm.main(["--slices-only"]) == 0
    assert json.loads(capsys.readouterr().out) == DATA["slices"]


# --- Published figures ------------------------------------------------------------------------


def test_trips_house_edge():
    """Trips 50-40-30-8-7-4-3 on the player's seven-card hand: 3.50%."""
    pays = dict(zip(LABELS[:7], (50, 40, 30, 8, 7, 4, 3), strict=True))
    seven = DATA["seven_card_hands"]
    ev = sum(Fraction(pays.get(label, -1) * n, seven["total"])
             for label, n in seven["categories"].items())  # fmt: skip
    assert round(-ev, 4) == Fraction("0.0350")


def test_bad_beat_house_edge():
    """Bad Beat 7,500/500/50/30/20/9 on the losing hand (below trips and ties lose): 14.79%."""
    pays = dict(zip(LABELS[1:7], (7_500, 500, 50, 30, 20, 9), strict=True))
    deals = DATA["bad_beat_deals"]
    ev = sum(Fraction(pays.get(label, -1) * n, deals["total"])
             for label, n in deals["losing_hand"].items())  # fmt: skip
    ev -= Fraction(deals["tie"], deals["total"])
    assert round(-ev, 4) == Fraction("0.1479")


def base_game(multiples=(3, 4)):
    """The base game under optimal play, per Ante: (house edge, average Play, E[X^2], raising
    classes). A tie of expectations takes the smaller wager: check, or the smaller raise."""
    game = DATA["base_game"]
    completions, scale = game["completions_per_hole_pair"], game["scale"]
    total = total_sq = total_play = 0
    raising = []
    for name, hand in game["hands"].items():
        check = hand["check"]
        best = (check["sum"], check["sum_sq"], check["play_sum"], None)
        a, b = hand["raise"]["sum"]
        c, d, e = hand["raise"]["sum_sq"]
        for k in multiples:
            if a + b * k > best[0]:
                best = (a + b * k, c + d * k + e * k * k, k * completions, k)
        total += hand["combos"] * best[0]
        total_sq += hand["combos"] * best[1]
        total_play += hand["combos"] * best[2]
        if best[3] is not None:
            raising.append((name, best[3]))
    deals = 1326 * completions
    mean = Fraction(total, scale * deals)
    return -mean, Fraction(total_play, deals), Fraction(total_sq, scale * scale * deals), raising


def test_base_game_house_edge_and_element_of_risk():
    """Optimal play, raise 3x or 4x: house edge 2.185% per Ante, element of risk 0.53%."""
    edge, play, _, raising = base_game()
    assert round(edge, 5) == Fraction("0.02185")
    assert round(edge / (2 + play), 4) == Fraction("0.0053")
    assert raising and all(k == 4 for _, k in raising)  # 3x is never the better raise
    assert ("AA", 4) in raising and ("72o", 4) not in raising
