"""Exhaustive counts of Ultimate Texas Hold'em game math (one-off; the output is data).

Enumerates every board (5 community cards, C(52,5) = 2,598,960) and, on each, every hole
pair of the 47 cards left (1,081), and writes the pay-table-independent counts to
``wagers/rules/gamemath_counts.json``:

- the seven-card categories (every board x hole pair, and the 133,784,560 seven-card hands);
- the Bad Beat counts: over every ordered deal (player pair, dealer pair, board), the count by
  the losing hand's category and the count of ties;
- the base game under optimal play (standard Blind pay table, dealer qualifies with a pair):
  per hand class, the exact sums of twice the result (half units of Ante), of four times its
  square and of the Play wagered, for the check path (flop and river decisions optimal) and,
  as polynomials in the pre-flop multiple k, for the raise path;
- two small slices that the tests recompute: every monotone board, and the hole pair As Ks on
  every flop of three cards of one rank.

Optimal play maximises the player's expectation given the cards he has seen: on the river
(having checked twice) Play 1x or fold; on the flop (having checked) bet 2x or check; before
the flop raise k or check. On an exact tie of expectations he takes the smaller wager (check,
fold). Every expectation is over all the unseen cards, the dealer's 990 hands included.

Everything is an exact integer. The cards are the project's numbers (rank * 4 + suit, rank 0 =
deuce, suits c d h s). A hand's strength is its dense rank among the 7,462 five-card values,
0 = seven-high .. 7461 = royal flush (larger is stronger; equal means a tie).

Run from the repository's root::

    .venv/bin/python scripts/game_math_counts.py              # compute all, write the JSON
    .venv/bin/python scripts/game_math_counts.py --check      # recompute, compare (exit 1)
    .venv/bin/python scripts/game_math_counts.py --slices-only

The full run takes about 5 to 6 minutes on 2 cores and about 1.5 GB of memory (one
accumulator per thread: 22,100 flops x 1,326 hole pairs x 3 packed sums). Progress goes to
stderr. The tests (tests/wagers/rules/test_gamemath_counts.py) recompute the two slices.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb
from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np
from numba import njit, prange

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tables.rules.cards import RANKS, SUITS  # noqa: E402
from tables.rules.hands import Category  # noqa: E402

OUTPUT = ROOT / "wagers" / "rules" / "gamemath_counts.json"
CACHE = False  # numba's on-disk cache: off, the script leaves no files behind

N_BOARDS = 2_598_960  # C(52, 5)
N_FLOPS = 22_100  # C(52, 3): flops are indexed by their combination number
N_PAIRS = 1_326  # C(52, 2): hole pairs are indexed by their combination number
N_HOLES = 1_081  # C(47, 2): hole pairs on one board
N_DEALER = 990  # C(45, 2): dealer hands against one player hand on one board
N_TURN_RIVER = 1_081  # C(47, 2): turn-river pairs after a flop and a hole pair
N_VALUES = 7_462  # distinct five-card values
PAIR_MIN = 1_277  # the weakest one pair's strength (there are 1,277 high-card values)
SCALE = 2  # results are kept in half units of Ante (the 3:2 flush becomes an integer)
COMPLETIONS = 19_600 * N_TURN_RIVER * N_DEALER  # per hole pair: flops x turn-river x dealer

# Blind pays x SCALE by category (HIGH_CARD .. ROYAL_FLUSH): 1, 3/2, 3, 10, 50, 500 to 1.
BLIND_PAY2 = np.array([0, 0, 0, 0, 2, 3, 6, 20, 100, 1000], dtype=np.int64)
BLIND_PAYTABLE = {
    "royal_flush": "500",
    "straight_flush": "50",
    "four_of_a_kind": "10",
    "full_house": "3",
    "flush": "1.5",
    "straight": "1",
}
FOLD_SUM = -4 * N_DEALER  # fold on the river: Ante and Blind lost, x2 per dealer hand
FOLD_SQ = 16 * N_DEALER

CATEGORIES = tuple(reversed(Category))  # strongest first, as in the JSON
LOSING_CATEGORIES = CATEGORIES[1:]  # a royal flush never loses

BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(53)], dtype=np.int64)

# Rows of the per-board work array (one column per hole pair of the board).
HA, HB, PID, STR, ORD, TMP, WIN, LOSE, TIE, QUAL = range(10)
N_WORK = 10


# --- The evaluator ----------------------------------------------------------------------------
#
# A key encodes a five-card value: category << 20, then up to five ranks (4 bits each) in the
# order they compare, so a larger key is a stronger hand. The 7,462 keys, sorted, give the
# dense strength. The tables are built once, in plain Python (nothing to compile); the
# evaluation, in numba, is look-ups: a suit's rank mask when five or more cards share the suit
# (FTAB; no full house or quads is then possible with seven cards), else the rank multiset's
# value (RANK7, by the multiset's combination number; per board, RTAB: the board's rank
# multiset x the two hole ranks).


def _straight_high(mask: int) -> int:
    """The top rank of the best straight in a 13-bit rank mask, 3 for the wheel, -1 if none."""
    for high in range(12, 3, -1):
        run = 0x1F << (high - 4)
        if mask & run == run:
            return high
    if mask & 0x100F == 0x100F:  # A, 5, 4, 3, 2
        return 3
    return -1


def _top_ranks(mask: int, count: int, shift: int) -> int:
    """The ``count`` highest ranks of ``mask`` as nibbles from bit ``shift`` down."""
    key = 0
    for rank in range(12, -1, -1):
        if count and mask & (1 << rank):
            key |= rank << shift
            shift -= 4
            count -= 1
    return key


def flush_key(mask: int) -> int:
    """The key of the best five of five to seven cards of one suit (rank mask ``mask``)."""
    high = _straight_high(mask)
    if high == 12:
        return 9 << 20
    if high >= 0:
        return (8 << 20) | (high << 16)
    return (5 << 20) | _top_ranks(mask, 5, 16)


def rank_key(counts) -> int:
    """The key of the best five of five to seven cards with no flush, by rank counts (13)."""
    by_count: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    mask = 0
    for rank in range(12, -1, -1):
        if counts[rank]:
            mask |= 1 << rank
            by_count[counts[rank]].append(rank)  # highest first
    quads, trips, pairs = by_count[4], by_count[3], by_count[2]
    if quads:
        return (7 << 20) | (quads[0] << 16) | _top_ranks(mask & ~(1 << quads[0]), 1, 12)
    if trips and (len(trips) > 1 or pairs):
        pair = max(trips[1:] + pairs)  # the second trips, or the top pair, plays as the pair
        return (6 << 20) | (trips[0] << 16) | (pair << 12)
    high = _straight_high(mask)
    if high >= 0:
        return (4 << 20) | (high << 16)
    if trips:
        return (3 << 20) | (trips[0] << 16) | _top_ranks(mask & ~(1 << trips[0]), 2, 12)
    if len(pairs) >= 2:  # of three pairs, the third's rank can be the kicker
        rest = mask & ~(1 << pairs[0]) & ~(1 << pairs[1])
        return (2 << 20) | (pairs[0] << 16) | (pairs[1] << 12) | _top_ranks(rest, 1, 8)
    if pairs:
        return (1 << 20) | (pairs[0] << 16) | _top_ranks(mask & ~(1 << pairs[0]), 3, 12)
    return _top_ranks(mask, 5, 16)


def _counts(ranks) -> list[int]:
    counts = [0] * 13
    for rank in ranks:
        counts[rank] += 1
    return counts


def _multiset_index(ranks) -> int:
    """The combination number of a sorted rank multiset (ranks r_i + i are distinct)."""
    return sum(int(BINOM[rank + i, i + 1]) for i, rank in enumerate(ranks))


class Tables(NamedTuple):
    keys: np.ndarray  # (7462,) int64, sorted: keys[strength]
    category: np.ndarray  # (7462,) int64: the category (0..9) of each strength
    ftab: np.ndarray  # (8192,) int16: strength of a suit's rank mask (>= 5 cards), else -1
    rank7: np.ndarray  # (50388,) int16: strength of a 7-rank multiset (no flush), else -1
    rtab: np.ndarray  # (6188, 13, 13) int16: board rank multiset x hole ranks -> strength


@cache
def tables() -> Tables:
    five = [
        rank_key(_counts(ranks))
        for ranks in combinations_with_replacement(range(13), 5)
        if ranks[0] != ranks[4]  # five of a kind
    ]
    five += [flush_key(mask) for mask in range(1 << 13) if mask.bit_count() == 5]
    keys = np.array(sorted(set(five)), dtype=np.int64)
    if len(keys) != len(five) or len(keys) != N_VALUES:
        raise AssertionError("the five-card keys are not 7,462 distinct values")
    category = keys >> 20
    if int(np.searchsorted(category, 1)) != PAIR_MIN or int(category[-1]) != 9:
        raise AssertionError("unexpected category bands")
    strength = {int(key): index for index, key in enumerate(keys)}
    ftab = np.full(1 << 13, -1, dtype=np.int16)
    for mask in range(1 << 13):
        if mask.bit_count() >= 5:
            ftab[mask] = strength[flush_key(mask)]
    rank7 = np.full(comb(19, 7), -1, dtype=np.int16)
    for ranks in combinations_with_replacement(range(13), 7):
        counts = _counts(ranks)
        if max(counts) <= 4:
            rank7[_multiset_index(ranks)] = strength[rank_key(counts)]
    rtab = np.full((comb(17, 5), 13, 13), -1, dtype=np.int16)
    boards = np.array(list(combinations_with_replacement(range(13), 5)), dtype=np.int64)
    holes = np.array([(a, b) for a in range(13) for b in range(13)], dtype=np.int64)
    ranks = np.concatenate(
        [
            np.broadcast_to(boards[:, None, :], (len(boards), 169, 5)),
            np.broadcast_to(holes[None, :, :], (len(boards), 169, 2)),
        ],
        axis=2,
    )
    ranks = np.sort(ranks, axis=2)
    index = BINOM[ranks + np.arange(7), np.arange(1, 8)].sum(axis=2)
    board_index = BINOM[boards + np.arange(5), np.arange(1, 6)].sum(axis=1)
    rtab[board_index] = rank7[index].reshape(len(boards), 13, 13)
    return Tables(keys, category, ftab, rank7, rtab)


@njit(cache=CACHE)
def _evaluate_hands(hands, rank7, ftab):
    """Strengths of seven-card hands, one per row (the general evaluator)."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    ranks = np.empty(7, dtype=np.int64)
    suit_count = np.zeros(4, dtype=np.int64)
    suit_mask = np.zeros(4, dtype=np.int64)
    for row in range(hands.shape[0]):
        suit_count[:] = 0
        suit_mask[:] = 0
        for i in range(7):
            card = hands[row, i]
            suit_count[card & 3] += 1
            suit_mask[card & 3] |= 1 << (card >> 2)
            # insertion into the sorted ranks
            j = i
            while j > 0 and ranks[j - 1] > card >> 2:
                ranks[j] = ranks[j - 1]
                j -= 1
            ranks[j] = card >> 2
        strength = -1
        for suit in range(4):
            if suit_count[suit] >= 5:
                strength = ftab[suit_mask[suit]]
        if strength < 0:
            index = 0
            for i in range(7):
                index += BINOM[ranks[i] + i, i + 1]
            strength = rank7[index]
        out[row] = strength
    return out


def evaluate_hands(hands) -> np.ndarray:
    """Strengths (0 = seven-high .. 7461 = royal flush) of an (n, 7) array of card numbers."""
    t = tables()
    return _evaluate_hands(np.ascontiguousarray(hands, dtype=np.int64), t.rank7, t.ftab)


# --- One board ---------------------------------------------------------------------------------


@njit(cache=CACHE)
def board_stats(board, rtab, ftab, work, rem, cnt, ctr, qctr):
    """Evaluate the board's 1,081 hole pairs and count, for each, the disjoint dealer hands.

    ``board``: 5 card numbers, ascending. Fills ``work`` (N_WORK x 1081), one column per hole
    pair in increasing pair number: the two cards (HA < HB), the pair number (PID), the
    strength (STR), the dealer hands of the 990 disjoint from it that it beats (WIN), that
    beat it (LOSE), that tie (TIE) and that qualify (QUAL, one pair or better). ORD is the
    order of the columns by strength. ``rem`` (47), ``cnt`` (128), ``ctr`` and ``qctr`` (52)
    are scratch.
    """
    k = 0
    bi = 0
    for card in range(52):
        if bi < 5 and board[bi] == card:
            bi += 1
        else:
            rem[k] = card
            k += 1
    multiset = 0
    for i in range(5):
        multiset += BINOM[(board[i] >> 2) + i, i + 1]
    flush_suit = -1
    flush_count = 0
    flush_mask = 0
    for suit in range(4):
        n = 0
        m = 0
        for i in range(5):
            if board[i] & 3 == suit:
                n += 1
                m |= 1 << (board[i] >> 2)
        if n >= 3:
            flush_suit = suit
            flush_count = n
            flush_mask = m
    # Strengths: a rank look-up, or the flush suit's mask when it reaches five cards.
    h = 0
    for j in range(1, 47):
        b = rem[j]
        rb = b >> 2
        b_suited = (b & 3) == flush_suit
        for i in range(j):
            a = rem[i]
            work[HA, h] = a
            work[HB, h] = b
            work[PID, h] = BINOM[b, 2] + a
            strength = rtab[multiset, a >> 2, rb]
            if flush_suit >= 0:
                n = flush_count
                m = flush_mask
                if a & 3 == flush_suit:
                    n += 1
                    m |= 1 << (a >> 2)
                if b_suited:
                    n += 1
                    m |= 1 << rb
                if n >= 5:
                    strength = ftab[m]
            work[STR, h] = strength
            h += 1
    # Order by strength: two stable counting passes (7 bits, then the 6 above).
    cnt[:] = 0
    for h in range(N_HOLES):
        cnt[work[STR, h] & 127] += 1
    total = 0
    for d in range(128):
        c = cnt[d]
        cnt[d] = total
        total += c
    for h in range(N_HOLES):
        d = work[STR, h] & 127
        work[TMP, cnt[d]] = h
        cnt[d] += 1
    cnt[:] = 0
    for h in range(N_HOLES):
        cnt[work[STR, h] >> 7] += 1
    total = 0
    for d in range(128):
        c = cnt[d]
        cnt[d] = total
        total += c
    for g in range(N_HOLES):
        h = work[TMP, g]
        d = work[STR, h] >> 7
        work[ORD, cnt[d]] = h
        cnt[d] += 1
    # Qualifying hands, in all and per card.
    qctr[:] = 0
    qualifying = 0
    for h in range(N_HOLES):
        if work[STR, h] >= PAIR_MIN:
            qualifying += 1
            qctr[work[HA, h]] += 1
            qctr[work[HB, h]] += 1
    # Strongest first, a group of equal strength at a time; ctr[c] counts the hands holding
    # card c seen so far (stronger than the group, then stronger or equal). A hand holding a
    # card of h is never disjoint from h, and only h holds both.
    ctr[:] = 0
    seen = 0
    i = N_HOLES - 1
    while i >= 0:
        strength = work[STR, work[ORD, i]]
        j = i
        while j > 0 and work[STR, work[ORD, j - 1]] == strength:
            j -= 1
        for g in range(j, i + 1):
            h = work[ORD, g]
            work[LOSE, h] = seen - ctr[work[HA, h]] - ctr[work[HB, h]]
        for g in range(j, i + 1):
            h = work[ORD, g]
            ctr[work[HA, h]] += 1
            ctr[work[HB, h]] += 1
        seen += i - j + 1
        weaker = N_HOLES - seen
        own = 1 if strength >= PAIR_MIN else 0
        for g in range(j, i + 1):
            h = work[ORD, g]
            a = work[HA, h]
            b = work[HB, h]
            win = weaker - (46 - ctr[a]) - (46 - ctr[b])
            work[WIN, h] = win
            work[TIE, h] = N_DEALER - win - work[LOSE, h]
            work[QUAL, h] = qualifying - qctr[a] - qctr[b] + own
        i = j - 1


@njit(cache=CACHE)
def hole_sums(win, lose, qualifying, category):
    """Per (board, player hole pair), summed over the disjoint dealer hands.

    Returns the raise polynomial of 2 x result in the Play multiple k, a + b k, and of
    4 x result^2, c + d k + e k^2; then the sum and square sum with Play 2x (flop bet), and
    the sum, square sum and Play wagered of the optimal river decision (Play 1x or fold; a
    tie of expectations folds).
    """
    pay = BLIND_PAY2[category]
    if category >= 1:  # every high-card dealer hand is beaten; every winner qualifies
        win_open = N_DEALER - qualifying
        win_qual = win - win_open
        lose_qual = lose
        lose_open = 0
    else:  # every dealer hand beaten is high card
        win_qual = 0
        win_open = win
        lose_qual = qualifying
        lose_open = lose - qualifying
    # Outcomes, x2, as alpha + beta k: win vs qualifying (2 + pay) + 2k, win vs not pay + 2k,
    # lose vs qualifying -4 - 2k, lose vs not -2 - 2k, tie 0.
    a = win_qual * (2 + pay) + win_open * pay - 4 * lose_qual - 2 * lose_open
    b = 2 * (win - lose)
    c = win_qual * (2 + pay) ** 2 + win_open * pay * pay + 16 * lose_qual + 4 * lose_open
    d = 4 * (win_qual * (2 + pay) + win_open * pay) + 16 * lose_qual + 8 * lose_open
    e = 4 * (win + lose)
    bet_sum = a + 2 * b
    bet_sq = c + 2 * d + 4 * e
    if a + b > FOLD_SUM:
        river_sum = a + b
        river_sq = c + d + e
        river_play = N_DEALER
    else:
        river_sum = FOLD_SUM
        river_sq = FOLD_SQ
        river_play = 0
    return a, b, c, d, e, bet_sum, bet_sq, river_sum, river_sq, river_play


def _scratch():
    return (
        np.empty((N_WORK, N_HOLES), dtype=np.int64),
        np.empty(47, dtype=np.int64),
        np.empty(128, dtype=np.int64),
        np.empty(52, dtype=np.int64),
        np.empty(52, dtype=np.int64),
    )


def board_work(board) -> np.ndarray:
    """``board_stats`` for one board (any order of its 5 cards); returns the work array."""
    t = tables()
    work, rem, cnt, ctr, qctr = _scratch()
    cards = np.array(sorted(int(card) for card in board), dtype=np.int64)
    board_stats(cards, t.rtab, t.ftab, work, rem, cnt, ctr, qctr)
    return work


# --- The full run ------------------------------------------------------------------------------


@njit(cache=CACHE)
def all_boards():
    boards = np.empty((N_BOARDS, 5), dtype=np.uint8)
    n = 0
    for c0 in range(52):
        for c1 in range(c0 + 1, 52):
            for c2 in range(c1 + 1, 52):
                for c3 in range(c2 + 1, 52):
                    for c4 in range(c3 + 1, 52):
                        boards[n, 0] = c0
                        boards[n, 1] = c1
                        boards[n, 2] = c2
                        boards[n, 3] = c3
                        boards[n, 4] = c4
                        n += 1
    return boards


@njit(cache=CACHE)
def _count_board(work, category, cats, losing):
    """Add one board's categories (per hole pair) and Bad Beat deals (losing[10] = ties)."""
    for h in range(N_HOLES):
        c = category[work[STR, h]]
        cats[c] += 1
        losing[c] += 2 * work[LOSE, h]
        losing[10] += work[TIE, h]


@njit(parallel=True, cache=CACHE)
def _run_block(boards, start, stop, rtab, ftab, category, acc, raise_acc, cats, losing, mono):
    """Boards[start:stop], split in two halves, one per thread (index t of each accumulator).

    acc[t, flop, pair, :] += over the board's 10 flops, packed (see ``unpack``): bet sum and
    river sum, bet square sum and river Play, river square sum. raise_acc[t, pair, :] += a, b,
    c, d, e, 1 (boards). cats[t] and losing[t] count every board; mono[t, 0:10] and
    mono[t, 10:21] the monotone ones.
    """
    half = (stop - start + 1) // 2
    for t in prange(2):
        lo = start + t * half
        hi = stop if t == 1 else start + half
        work = np.empty((N_WORK, N_HOLES), dtype=np.int64)
        rem = np.empty(47, dtype=np.int64)
        cnt = np.empty(128, dtype=np.int64)
        ctr = np.empty(52, dtype=np.int64)
        qctr = np.empty(52, dtype=np.int64)
        board = np.empty(5, dtype=np.int64)
        flops = np.empty(10, dtype=np.int64)
        vals = np.empty((N_HOLES, 3), dtype=np.int64)
        for x in range(lo, hi):
            for i in range(5):
                board[i] = boards[x, i]
            board_stats(board, rtab, ftab, work, rem, cnt, ctr, qctr)
            _count_board(work, category, cats[t], losing[t])
            suit = board[0] & 3
            if (
                board[1] & 3 == suit
                and board[2] & 3 == suit
                and board[3] & 3 == suit
                and board[4] & 3 == suit
            ):
                _count_board(work, category, mono[t, 0:10], mono[t, 10:21])
            f = 0
            for i in range(3):
                for j in range(i + 1, 4):
                    for k in range(j + 1, 5):
                        flops[f] = BINOM[board[i], 1] + BINOM[board[j], 2] + BINOM[board[k], 3]
                        f += 1
            for h in range(N_HOLES):
                a, b, c, d, e, s2, q2, rs, rq, rp = hole_sums(
                    work[WIN, h], work[LOSE, h], work[QUAL, h], category[work[STR, h]]
                )
                p = work[PID, h]
                raise_acc[t, p, 0] += a
                raise_acc[t, p, 1] += b
                raise_acc[t, p, 2] += c
                raise_acc[t, p, 3] += d
                raise_acc[t, p, 4] += e
                raise_acc[t, p, 5] += 1
                vals[h, 0], vals[h, 1], vals[h, 2] = pack(s2, q2, rs, rq, rp)
            for f in range(10):
                row = acc[t, flops[f]]
                for h in range(N_HOLES):
                    p = work[PID, h]
                    row[p, 0] += vals[h, 0]
                    row[p, 1] += vals[h, 1]
                    row[p, 2] += vals[h, 2]


@njit(cache=CACHE)
def all_flops():
    """The 22,100 flops by combination number (colex), ascending cards."""
    flops = np.empty((N_FLOPS, 3), dtype=np.int64)
    for z in range(2, 52):
        for y in range(1, z):
            for x in range(y):
                index = BINOM[x, 1] + BINOM[y, 2] + BINOM[z, 3]
                flops[index, 0] = x
                flops[index, 1] = y
                flops[index, 2] = z
    return flops


@njit(cache=CACHE)
def pack(bet_sum, bet_sq, river_sum, river_sq, river_play):
    """One (board, hole pair)'s five sums in three int64 that add up exactly (see ``unpack``)."""
    return (bet_sum << 32) + river_sum, (bet_sq << 21) + river_play, river_sq


@njit(cache=CACHE)
def unpack(packed):
    """The five sums of one (flop, hole pair) accumulator: bet sum, bet square sum, river sum,
    river square sum, river Play.

    The sums are packed in three int64 to halve the memory traffic, exactly: over one flop's
    1,081 turn-river pairs, |bet sum| <= 1081 x 990 x 1006 and |river sum| <= 1081 x 990 x 1004
    are below 2^31, the river Play <= 1081 x 990 is below 2^21 and the bet square sum
    <= 1081 x 990 x 1006^2 is below 2^40; so bet sum x 2^32 + river sum and bet square sum x
    2^21 + river Play never overflow, and every partial sum is within the same bounds.
    """
    first = packed[0]
    river_sum = ((first + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)
    bet_sum = (first - river_sum) >> 32
    river_play = packed[1] & ((1 << 21) - 1)
    bet_sq = packed[1] >> 21
    return bet_sum, bet_sq, river_sum, packed[2], river_play


@njit(cache=CACHE)
def _check_paths(acc, flops):
    """Per hole pair: the flop decision at each disjoint flop (bet 2x only if strictly better),
    summed: sum, square sum, Play wagered, flops counted."""
    out = np.zeros((N_PAIRS, 4), dtype=np.int64)
    for flop in range(N_FLOPS):
        used = (1 << flops[flop, 0]) | (1 << flops[flop, 1]) | (1 << flops[flop, 2])
        for b in range(1, 52):
            for a in range(b):
                if (used >> a) & 1 or (used >> b) & 1:
                    continue
                p = BINOM[b, 2] + a
                bet_sum, bet_sq, river_sum, river_sq, river_play = unpack(acc[flop, p])
                if bet_sum > river_sum:
                    out[p, 0] += bet_sum
                    out[p, 1] += bet_sq
                    out[p, 2] += 2 * N_TURN_RIVER * N_DEALER
                else:
                    out[p, 0] += river_sum
                    out[p, 1] += river_sq
                    out[p, 2] += river_play
                out[p, 3] += 1
    return out


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def compute_full(blocks: int = 100) -> dict:
    """Every board: the category and Bad Beat counts and the base game's per-pair sums."""
    t = tables()
    started = time.perf_counter()
    boards = all_boards()
    acc = np.zeros((2, N_FLOPS, N_PAIRS, 3), dtype=np.int64)
    raise_acc = np.zeros((2, N_PAIRS, 6), dtype=np.int64)
    cats = np.zeros((2, 10), dtype=np.int64)
    losing = np.zeros((2, 11), dtype=np.int64)
    mono = np.zeros((2, 21), dtype=np.int64)
    edges = np.linspace(0, N_BOARDS, blocks + 1).astype(np.int64)
    for block in range(blocks):
        start, stop = int(edges[block]), int(edges[block + 1])
        _run_block(boards, start, stop, t.rtab, t.ftab, t.category, acc, raise_acc, cats,
                   losing, mono)  # fmt: skip
        elapsed = time.perf_counter() - started
        eta = elapsed / stop * (N_BOARDS - stop)
        _log(f"boards {stop:>9,}/{N_BOARDS:,} ({stop / N_BOARDS:6.1%}) "
             f"{elapsed:7.1f} s, about {eta:5.0f} s to go")  # fmt: skip
    acc[0] += acc[1]
    _log("flop decisions ...")
    check = _check_paths(acc[0], all_flops())
    flop_rows = {
        tuple(int(card) for card in flop): [
            int(v) for v in unpack(acc[0, flop_index(flop), pair_index(*AKS)])
        ]
        for flop in trips_flops(AKS)
    }
    del acc
    raise_sum = raise_acc.sum(axis=0)
    _verify_counts(check, raise_sum)
    return {
        "cats": [int(v) for v in cats.sum(axis=0)],
        "losing": [int(v) for v in losing.sum(axis=0)],
        "mono": [int(v) for v in mono.sum(axis=0)],
        "check": check,
        "raise": raise_sum,
        "aks_flop_rows": flop_rows,
    }


def _verify_counts(check: np.ndarray, raise_sum: np.ndarray) -> None:
    if not (check[:, 3] == 19_600).all():
        raise AssertionError("a hole pair does not have 19,600 disjoint flops")
    if not (raise_sum[:, 5] == 2_118_760).all():  # C(50, 5) boards per hole pair
        raise AssertionError("a hole pair was not evaluated on C(50, 5) boards")


# --- Cards, pairs and hand classes -------------------------------------------------------------


def pair_index(a: int, b: int) -> int:
    """The combination number of a hole pair (0..1325), as in the accumulators."""
    a, b = min(a, b), max(a, b)
    return b * (b - 1) // 2 + a


def flop_index(flop) -> int:
    """The combination number of a flop (0..22099), as in the accumulators."""
    x, y, z = sorted(int(card) for card in flop)
    return int(BINOM[x, 1] + BINOM[y, 2] + BINOM[z, 3])


def card_code(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def card_number(code: str) -> int:
    return RANKS.index(code[0]) * 4 + SUITS.index(code[1])


AKS = (card_number("As"), card_number("Ks"))


def hand_class(a: int, b: int) -> str:
    """The class of a hole pair: "AA", "AKs", "AKo", ... (ranks high first, T for ten)."""
    high, low = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
    if high == low:
        return RANKS[high] * 2
    return RANKS[high] + RANKS[low] + ("s" if (a & 3) == (b & 3) else "o")


def hand_classes() -> list[str]:
    """The 169 classes, strongest ranks first: AA, AKs, AKo, ..., 32s, 32o, 22."""
    names = []
    for high in range(12, -1, -1):
        names.append(RANKS[high] * 2)
        for low in range(high - 1, -1, -1):
            names += [RANKS[high] + RANKS[low] + "s", RANKS[high] + RANKS[low] + "o"]
    return names


# --- Slices ------------------------------------------------------------------------------------


def monotone_boards() -> np.ndarray:
    """The 5,148 boards whose five cards share one suit, ascending cards."""
    rows = []
    for suit in range(4):
        cards = [rank * 4 + suit for rank in range(13)]
        rows += list(combinations(cards, 5))
    return np.array(rows, dtype=np.int64)


@njit(cache=CACHE)
def _boards_counts(boards, rtab, ftab, category):
    cats = np.zeros(10, dtype=np.int64)
    losing = np.zeros(11, dtype=np.int64)
    work = np.empty((N_WORK, N_HOLES), dtype=np.int64)
    rem = np.empty(47, dtype=np.int64)
    cnt = np.empty(128, dtype=np.int64)
    ctr = np.empty(52, dtype=np.int64)
    qctr = np.empty(52, dtype=np.int64)
    for x in range(boards.shape[0]):
        board_stats(boards[x], rtab, ftab, work, rem, cnt, ctr, qctr)
        _count_board(work, category, cats, losing)
    return cats, losing


def boards_counts(boards) -> tuple[list[int], list[int]]:
    """Categories (by category number) and Bad Beat losing counts (index 10 = ties)."""
    t = tables()
    cats, losing = _boards_counts(np.ascontiguousarray(boards, dtype=np.int64), t.rtab,
                                  t.ftab, t.category)  # fmt: skip
    return [int(v) for v in cats], [int(v) for v in losing]


def trips_flops(hole) -> list[tuple[int, int, int]]:
    """Every flop of three cards of one rank that does not use the hole cards."""
    used = set(hole)
    flops = []
    for rank in range(13):
        cards = [rank * 4 + suit for suit in range(4) if rank * 4 + suit not in used]
        flops += list(combinations(cards, 3))
    return flops


@njit(cache=CACHE)
def _hole_on_flops(a, b, flops, rtab, ftab, category):
    """The hole pair {a, b} on each flop and every turn-river pair: per flop the sums of
    hole_sums (10 values) and the number of turn-river pairs."""
    out = np.zeros((flops.shape[0], 11), dtype=np.int64)
    work = np.empty((N_WORK, N_HOLES), dtype=np.int64)
    rem = np.empty(47, dtype=np.int64)
    cnt = np.empty(128, dtype=np.int64)
    ctr = np.empty(52, dtype=np.int64)
    qctr = np.empty(52, dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    rest = np.empty(47, dtype=np.int64)
    target = BINOM[max(a, b), 2] + min(a, b)
    for f in range(flops.shape[0]):
        used = (1 << a) | (1 << b) | (1 << flops[f, 0]) | (1 << flops[f, 1]) | (1 << flops[f, 2])
        n = 0
        for card in range(52):
            if not (used >> card) & 1:
                rest[n] = card
                n += 1
        for j in range(1, n):
            for i in range(j):
                board[0] = flops[f, 0]
                board[1] = flops[f, 1]
                board[2] = flops[f, 2]
                board[3] = rest[i]
                board[4] = rest[j]
                board.sort()
                board_stats(board, rtab, ftab, work, rem, cnt, ctr, qctr)
                for h in range(N_HOLES):
                    if work[PID, h] == target:
                        values = hole_sums(
                            work[WIN, h], work[LOSE, h], work[QUAL, h], category[work[STR, h]]
                        )
                        for v in range(10):
                            out[f, v] += values[v]
                        out[f, 10] += 1
                        break
    return out


def hole_on_flops(hole, flops) -> np.ndarray:
    t = tables()
    flops = np.array([sorted(flop) for flop in flops], dtype=np.int64).reshape(-1, 3)
    return _hole_on_flops(int(hole[0]), int(hole[1]), flops, t.rtab, t.ftab, t.category)


def _check_of_rows(rows) -> dict:
    """The check path over some flops: per flop the better of bet 2x and check (a tie checks)."""
    total = {"sum": 0, "sum_sq": 0, "play_sum": 0}
    for bet_sum, bet_sq, river_sum, river_sq, river_play in rows:
        if bet_sum > river_sum:
            total["sum"] += bet_sum
            total["sum_sq"] += bet_sq
            total["play_sum"] += 2 * N_TURN_RIVER * N_DEALER
        else:
            total["sum"] += river_sum
            total["sum_sq"] += river_sq
            total["play_sum"] += river_play
    return total


def compute_slices() -> tuple[dict, dict]:
    """The two slices, plus the per-flop rows of the trips slice (for the full run's check)."""
    boards = monotone_boards()
    cats, losing = boards_counts(boards)
    monotone = {
        "boards": len(boards),
        "board_hole_categories": _category_map(cats),
        "bad_beat_losing_hand": _losing_map(losing),
        "bad_beat_tie": losing[10],
    }
    flops = trips_flops(AKS)
    per_flop = hole_on_flops(AKS, flops)
    if not (per_flop[:, 10] == N_TURN_RIVER).all():
        raise AssertionError("a flop does not have 1,081 turn-river pairs")
    raised = [int(v) for v in per_flop[:, 0:5].sum(axis=0)]
    trips = {
        "hand": hand_class(*AKS),
        "hole": [card_code(card) for card in AKS],
        "flops": len(flops),
        "check": _check_of_rows([[int(v) for v in row[5:10]] for row in per_flop]),
        "raise": {"sum": raised[0:2], "sum_sq": raised[2:5]},
    }
    rows = {
        tuple(flop): [int(v) for v in row[5:10]] for flop, row in zip(flops, per_flop, strict=True)
    }
    return {"monotone_boards": monotone, "base_game_trips_flops": trips}, rows


# --- The document ------------------------------------------------------------------------------


def _category_map(counts) -> dict[str, int]:
    return {category.label: int(counts[category]) for category in CATEGORIES}


def _losing_map(losing) -> dict[str, int]:
    if losing[Category.ROYAL_FLUSH] != 0:
        raise AssertionError("a royal flush lost")
    return {category.label: int(losing[category]) for category in LOSING_CATEGORIES}


def _classes(check: np.ndarray, raise_sum: np.ndarray) -> dict:
    """Per hand class, the sums of one of its hole pairs (asserting all of them are equal)."""
    members: dict[str, list[tuple]] = {}
    for b in range(1, 52):
        for a in range(b):
            p = pair_index(a, b)
            sums = (*(int(v) for v in check[p, 0:3]), *(10 * int(v) for v in raise_sum[p, 0:5]))
            members.setdefault(hand_class(a, b), []).append(sums)
    hands = {}
    for name in hand_classes():
        rows = members[name]
        if any(row != rows[0] for row in rows):
            raise AssertionError(f"the hole pairs of {name} do not have equal sums")
        check_sum, check_sq, play, a, b, c, d, e = rows[0]
        hands[name] = {
            "combos": len(rows),
            "check": {"sum": check_sum, "sum_sq": check_sq, "play_sum": play},
            "raise": {"sum": [a, b], "sum_sq": [c, d, e]},
        }
    return hands


def build_document(full: dict, slices: dict, seconds: int) -> dict:
    cats = full["cats"]
    if any(count % 21 for count in cats):
        raise AssertionError("a board x hole category count is not a multiple of 21")
    seven = [count // 21 for count in cats]
    losing = full["losing"]
    return {
        "about": {
            "script": "scripts/game_math_counts.py",
            "computed_in_seconds": seconds,
            "machine": "2 cores",
            "numba": numba.__version__,
        },
        "seven_card_hands": {"total": sum(seven), "categories": _category_map(seven)},
        "board_hole_pairs": {"total": sum(cats), "categories": _category_map(cats)},
        "bad_beat_deals": {
            "total": sum(losing),
            "losing_hand": _losing_map(losing),
            "tie": losing[10],
        },
        "base_game": {
            "blind_paytable": BLIND_PAYTABLE,
            "dealer_qualifies_with": "one_pair",
            "scale": SCALE,
            "completions_per_hole_pair": COMPLETIONS,
            "hands": _classes(full["check"], full["raise"]),
        },
        "slices": slices,
    }


def _cross_check(full: dict, slices: dict, trips_rows: dict) -> None:
    """The full run's monotone counts and As Ks trips-flop rows must equal the slices'."""
    mono = slices["monotone_boards"]
    cats, losing = full["mono"][0:10], full["mono"][10:21]
    if (
        _category_map(cats) != mono["board_hole_categories"]
        or _losing_map(losing) != mono["bad_beat_losing_hand"]
        or losing[10] != mono["bad_beat_tie"]
    ):
        raise AssertionError("the full run's monotone boards differ from the slice")
    if full["aks_flop_rows"] != trips_rows:
        raise AssertionError("the full run's As Ks trips flops differ from the slice")


def render(document: dict) -> str:
    """Indented JSON; short objects, and each hand class, on one line."""
    return _render(document, 0) + "\n"


def _render(value, level: int, children_inline: bool = False) -> str:
    flat = json.dumps(value, separators=(", ", ": "))
    if not isinstance(value, dict) or len(flat) + 2 * level <= 96:
        return flat
    pad = "  " * (level + 1)
    items = []
    for key, item in value.items():
        if children_inline:
            text = json.dumps(item, separators=(", ", ": "))
        else:
            text = _render(item, level + 1, key == "hands")
        items.append(f"{pad}{json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"


def _differences(expected, actual, path: str = "") -> list[str]:
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in sorted(set(expected) | set(actual)):
            out += _differences(expected.get(key), actual.get(key), f"{path}.{key}")
        return out
    return [] if expected == actual else [f"{path or '.'}: {expected!r} != {actual!r}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="recompute and compare with the JSON")
    mode.add_argument("--slices-only", action="store_true", help="compute only the slices")
    parser.add_argument("--output", type=Path, default=OUTPUT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    _log("tables ...")
    tables()
    _log("slices ...")
    slices, trips_rows = compute_slices()
    if args.slices_only:
        print(json.dumps(slices, indent=2))
        if args.output.exists():
            committed = json.loads(args.output.read_text())["slices"]
            differences = _differences(committed, slices, ".slices")
            _log("slices equal the committed JSON" if not differences else "\n".join(differences))
            return 1 if differences else 0
        return 0
    full = compute_full()
    _cross_check(full, slices, trips_rows)
    seconds = round(time.perf_counter() - started)
    document = build_document(full, slices, seconds)
    if args.check:
        committed = json.loads(args.output.read_text())
        document["about"]["computed_in_seconds"] = committed["about"]["computed_in_seconds"]
        differences = _differences(committed, document)
        if differences:
            _log("differences from the committed JSON:\n" + "\n".join(differences))
            return 1
        _log(f"recomputed in {seconds} s: equal to {args.output}")
        return 0
    args.output.write_text(render(document))
    _log(f"wrote {args.output} ({seconds} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
