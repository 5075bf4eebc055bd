"""Settlement invariants as properties (docs/rules.md §7): conservation, the [-W, +W] bound,
line accounting, order, full coverage with a large bank and monotonicity in the bank.

Two sources of input: random complete hands given to the calculator (which validates,
resolves and settles them), and random sequences of resolved wagers fed straight to
``apply_coverage``.
"""

from __future__ import annotations

from collections import defaultdict

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tables.rules.cards import FULL_DECK
from tests.builders.rules import uncovered_lines
from wagers.rules.calculator import settle_request
from wagers.rules.resolution import Outcome, Resolution
from wagers.rules.settlement import PendingWager, SettlementPass, apply_coverage
from wagers.rules.wagers import WagerKind

HUGE_BANK = 10**15
# Pure rules, microseconds an example, so wider than the default 100: MAIN (300) for whole
# settlements, FAST (500) for the cheapest, searching wider in the same time.
MAIN = settings(max_examples=300, deadline=None)
FAST = settings(max_examples=500, deadline=None)


# --- random complete hands, in the appendix format ----------------------------------------


@st.composite
def complete_hands(draw):
    chip = draw(st.sampled_from([1, 5, 25, 100]))
    allowed = draw(st.sampled_from([[3, 4], [4], [3]]))
    bad_beat_table = draw(st.sampled_from(["option-1", "option-2", None]))
    trips_table = draw(st.sampled_from(["UTH-01", "UTH-02", "UTH-03", "UTH-04"]))
    player_dealer = draw(st.integers(1, 6))
    others = [seat for seat in range(1, 7) if seat != player_dealer]
    seats = draw(st.lists(st.sampled_from(others), min_size=1, max_size=5, unique=True))
    deck = [str(card) for card in draw(st.permutations(FULL_DECK))]

    def amount(low=1, high=400):
        return chip * draw(st.integers(low, high))

    def optional():
        return draw(st.one_of(st.just(0), st.builds(lambda k: chip * k, st.integers(1, 200))))

    seat_data = []
    for index, seat in enumerate(seats):
        ante = amount()
        folded = draw(st.booleans())
        multiple = 0 if folded else draw(st.sampled_from([*allowed, 2, 1]))
        backline = []
        for _ in range(draw(st.integers(0, 2))):
            behind_ante = optional()
            behind_trips = optional() if behind_ante else amount(1, 200)
            # backline bettors make Ante, Blind and Trips only (docs/rules.md §4.7)
            behind_bad_beat = 0
            backline.append(
                {"ante": behind_ante, "blind": behind_ante, "trips": behind_trips,
                 "bad_beat": behind_bad_beat}
            )  # fmt: skip
        seat_data.append(
            {
                "seat": seat,
                "hole": deck[2 * index : 2 * index + 2],
                "ante": ante,
                "blind": ante,
                "trips": optional(),
                "bad_beat": optional() if bad_beat_table else 0,
                "play": ante * multiple,
                "folded": folded,
                "backline": backline,
            }
        )
    used = 2 * len(seats)
    return {
        "options": {
            "trips_paytable": trips_table,
            "bad_beat_paytable": bad_beat_table,
            "chip_unit_cents": chip,
            "allowed_preflop_multiples": allowed,
        },
        "player_dealer": {"seat": player_dealer, "bank": HUGE_BANK, "hole": deck[used : used + 2]},
        "board": deck[used + 2 : used + 7],
        "seats": seat_data,
    }


def settle(request, bank):
    request = {**request, "player_dealer": {**request["player_dealer"], "bank": bank}}
    answer = settle_request(request)
    answer["chip"] = request["options"]["chip_unit_cents"]
    return answer


def _bettor(line):
    return (line["seat"], line["bettor"])


def check_line_accounting(line, reference):
    """collected + returned == stake for losers; paid + unpaid == payout for winners."""
    assert line["stake"] > 0
    assert min(line["paid"], line["collected"], line["returned_uncovered"],
               line["unpaid_uncovered"]) >= 0  # fmt: skip
    if line["outcome"] == "lose":
        assert line["collected"] + line["returned_uncovered"] == line["stake"]
        assert line["paid"] == line["unpaid_uncovered"] == 0
    elif line["outcome"] == "win":
        assert line["paid"] + line["unpaid_uncovered"] == reference["paid"]
        assert line["collected"] == line["returned_uncovered"] == 0
    else:
        assert line["outcome"] == "push"
        assert line["paid"] == line["collected"] == 0
        assert line["returned_uncovered"] == line["unpaid_uncovered"] == 0


def check_invariants(answer, reference, bank):
    lines = answer["settlement"]
    net = answer["player_dealer_net"]
    # Chips are conserved: what the bettors gain the player-dealer loses, and vice versa.
    assert sum(line["paid"] - line["collected"] for line in lines) + net == 0
    assert -bank <= net <= bank
    assert answer["bank_remaining"] == bank + net >= 0
    assert [line["order"] for line in lines] == list(range(1, len(lines) + 1))
    # The order of the wagers does not depend on the bank.
    strip = ("seat", "bettor", "wager", "stake", "outcome", "pass")
    assert [{k: line[k] for k in strip} for line in lines] == [
        {k: line[k] for k in strip} for line in reference["settlement"]
    ]
    for line, unlimited in zip(lines, reference["settlement"], strict=True):
        check_line_accounting(line, unlimited)
    chip = reference["chip"]
    for line in lines:  # chips move in whole chips
        for key in ("stake", "paid", "collected", "returned_uncovered", "unpaid_uncovered"):
            assert line[key] % chip == 0, (key, line)
    # After a payment empties the bank, nothing is collected or paid.
    running = 0
    exhausted = False
    for line in lines:
        if exhausted:
            assert line["paid"] == line["collected"] == 0
        running += line["collected"] - line["paid"]
        if line["paid"] and bank + running == 0:
            exhausted = True
    assert answer["bank_exhausted"] is exhausted


@MAIN
@given(request=complete_hands(), data=st.data())
def test_complete_hands_keep_every_invariant(request, data):
    reference = settle(request, HUGE_BANK)
    assert not any(
        line["returned_uncovered"] or line["unpaid_uncovered"] for line in reference["settlement"]
    )
    check_invariants(reference, reference, HUGE_BANK)

    stakes = sum(line["stake"] for line in reference["settlement"])
    payouts = sum(line["paid"] for line in reference["settlement"])
    # A bank of all stakes and payouts covers everything.
    chip = request["options"]["chip_unit_cents"]
    enough = stakes + payouts + chip * data.draw(st.integers(0, 40), label="extra chips")
    covered = settle(request, enough)
    check_invariants(covered, reference, enough)
    assert [(line["paid"], line["collected"]) for line in covered["settlement"]] == [
        (line["paid"], line["collected"]) for line in reference["settlement"]
    ]
    assert not any(
        line["returned_uncovered"] or line["unpaid_uncovered"] for line in covered["settlement"]
    )

    # Any bank: the invariants; a smaller bank never pays any line or any bettor more.
    # Banks in whole chips (a bank in part-chips is a question of its own: test_calculator).
    bank = chip * data.draw(st.integers(1, max(1, enough // chip)), label="bank chips")
    smaller = chip * data.draw(st.integers(1, bank // chip), label="smaller bank chips")
    larger_answer = settle(request, bank)
    smaller_answer = settle(request, smaller)
    check_invariants(larger_answer, reference, bank)
    check_invariants(smaller_answer, reference, smaller)
    for small, large in zip(smaller_answer["settlement"], larger_answer["settlement"], strict=True):
        assert small["paid"] <= large["paid"]
    per_bettor = defaultdict(lambda: [0, 0])
    for small, large in zip(smaller_answer["settlement"], larger_answer["settlement"], strict=True):
        per_bettor[_bettor(small)][0] += small["paid"]
        per_bettor[_bettor(large)][1] += large["paid"]
    for small_total, large_total in per_bettor.values():
        assert small_total <= large_total


SEAT_FIELDS = ("seat", "hole", "folded")


@MAIN
@given(request=complete_hands())
def test_complete_hands_settle_in_rulebook_order(request):
    answer = settle(request, HUGE_BANK)
    player_dealer = request["player_dealer"]["seat"]
    folded = {seat["seat"] for seat in request["seats"] if seat["folded"]}
    lines = answer["settlement"]
    passes = [line["pass"] for line in lines]
    # The fold pass, all of it, comes first.
    assert passes == sorted(passes, key=lambda name: name != "fold")
    wager_rank = {"ante": 0, "play": 1, "blind": 2, "trips": 3, "bad_beat": 4}
    for name in ("fold", "showdown"):
        keys = [
            ((line["seat"] - player_dealer) % 6,
             0 if line["bettor"] == "seat" else int(line["bettor"].split("-")[1]),
             wager_rank[line["wager"]])
            for line in lines if line["pass"] == name
        ]  # fmt: skip
        assert keys == sorted(keys)
        assert len(set(keys)) == len(keys)
    for line in lines:
        if line["pass"] == "fold":
            assert line["seat"] in folded
            assert line["outcome"] == "lose"
            assert line["wager"] != "play"
        elif line["seat"] in folded:
            assert (line["wager"], line["outcome"]) == ("trips", "win")
    # Every wager made appears exactly once.
    made = sorted(
        (seat["seat"], label, kind, stakes[kind])
        for seat in request["seats"]
        for label, stakes in [("seat", seat)]
        + [(f"backline-{i}", {**b, "play": b["ante"] * (seat["play"] // seat["ante"])})
           for i, b in enumerate(seat["backline"], start=1)]
        for kind in ("ante", "blind", "play", "trips", "bad_beat")
        if stakes[kind]
    )  # fmt: skip
    settled = sorted((line["seat"], line["bettor"], line["wager"], line["stake"]) for line in lines)
    assert settled == made


# --- random sequences straight to apply_coverage ------------------------------------------

KINDS = list(WagerKind)


@st.composite
def wager_sequences(draw):
    count = draw(st.integers(0, 25))
    ordered = []
    for index in range(count):
        outcome = draw(st.sampled_from(list(Outcome)))
        stake = draw(st.integers(1, 50_000))
        payout = draw(st.integers(0, 500_000)) if outcome is Outcome.WIN else 0
        pass_ = (
            SettlementPass.FOLD
            if outcome is Outcome.LOSE and draw(st.booleans())
            else (SettlementPass.SHOWDOWN)
        )
        kind = KINDS[index % len(KINDS)]
        ordered.append(
            PendingWager(pass_, index % 6 + 1, index % 3, Resolution(kind, stake, outcome, payout))
        )
    return ordered


def literal_model(bank, ordered):
    """The cap rules of docs/rules.md §7.3 read literally, apart from the code under test."""
    net, exhausted, rows = 0, False, []
    for pending in ordered:
        r = pending.resolution
        if r.outcome is Outcome.PUSH:
            rows.append((0, 0, 0, 0))
        elif exhausted:
            rows.append((0, 0, r.stake, 0) if r.outcome is Outcome.LOSE else (0, 0, 0, r.payout))
        elif r.outcome is Outcome.LOSE:
            c = min(r.stake, bank - net)
            net += c
            rows.append((0, c, r.stake - c, 0))
        else:
            q = min(r.payout, bank + net)
            net -= q
            rows.append((q, 0, 0, r.payout - q))
            if q > 0 and bank + net == 0:
                exhausted = True
    return rows, net, exhausted


@FAST
@given(ordered=wager_sequences(), bank=st.integers(1, 2_000_000), cut=st.integers(1, 2_000_000))
def test_apply_coverage_invariants(ordered, bank, cut):
    settlement = apply_coverage(bank, ordered)
    lines = settlement.lines
    assert settlement.bank == bank
    assert [line.order for line in lines] == list(range(1, len(ordered) + 1))
    assert sum(line.paid - line.collected for line in lines) + settlement.player_dealer_net == 0
    assert -bank <= settlement.player_dealer_net <= bank
    for line, pending in zip(lines, ordered, strict=True):
        r = pending.resolution
        assert (line.pass_, line.seat, line.bettor, line.wager, line.stake, line.outcome) == (
            pending.pass_,
            pending.seat,
            pending.bettor,
            r.kind,
            r.stake,
            r.outcome,
        )
        if r.outcome is Outcome.LOSE:
            assert line.collected + line.returned_uncovered == r.stake
            assert line.paid == line.unpaid_uncovered == 0
        elif r.outcome is Outcome.WIN:
            assert line.paid + line.unpaid_uncovered == r.payout
            assert line.collected == line.returned_uncovered == 0
        else:
            assert line.paid == line.collected == line.returned_uncovered == 0
            assert line.unpaid_uncovered == 0
    rows, net, exhausted = literal_model(bank, ordered)
    assert [
        (line.paid, line.collected, line.returned_uncovered, line.unpaid_uncovered)
        for line in lines
    ] == rows
    assert (settlement.player_dealer_net, settlement.exhausted) == (net, exhausted)

    # Shrinking the bank never pays a line, or a bettor, more.
    smaller = apply_coverage(max(1, min(cut, bank)), ordered)
    totals = defaultdict(lambda: [0, 0])
    for small, large in zip(smaller.lines, lines, strict=True):
        assert small.paid <= large.paid
        totals[(small.seat, small.bettor)][0] += small.paid
        totals[(large.seat, large.bettor)][1] += large.paid
    assert all(small <= large for small, large in totals.values())


@FAST
@given(ordered=wager_sequences(), extra=st.integers(0, 10_000))
def test_apply_coverage_with_enough_bank_leaves_nothing_uncovered(ordered, extra):
    enough = sum(p.resolution.stake + p.resolution.payout for p in ordered) + extra
    assume(enough > 0)
    settlement = apply_coverage(enough, ordered)
    assert uncovered_lines(settlement) == ()
    for line, pending in zip(settlement.lines, ordered, strict=True):
        r = pending.resolution
        assert line.paid == (r.payout if r.outcome is Outcome.WIN else 0)
        assert line.collected == (r.stake if r.outcome is Outcome.LOSE else 0)
