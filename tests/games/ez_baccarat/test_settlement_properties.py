"""Settlement invariants of EZ Baccarat as properties (docs/rules.md §14.6, §7.3-§7.4), over
random complete hands given to the calculator: conservation (no fees in the calculator), the
player-dealer's change within [-W, +W], every line's arithmetic, the order, and each wager's
resolution against the coup."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ez_baccarat.calculator import parse_request, settle_request
from games.ez_baccarat.coup import deal_coup
from games.ez_baccarat.resolution import odds
from games.ez_baccarat.wagers import BaccaratWager
from tables.rules.cards import FULL_DECK

SIDE = ("tie", "dragon_7", "panda_8")


@st.composite
def hands(draw):
    decks = draw(st.sampled_from([6, 8]))
    seat_count = draw(st.integers(6, 9))
    chip = draw(st.sampled_from([1, 25, 100, 500]))
    fixed_side = draw(st.booleans())
    options = {
        "game": "ez_baccarat",
        "decks": decks,
        "seats": seat_count,
        "tie_pays": draw(st.sampled_from([8, 9])),
        "dragon_7_pays": draw(st.integers(1, 100)),
        "panda_8_pays": draw(st.integers(1, 100)),
        "chip_unit_cents": chip,
    }
    if fixed_side:
        options["side_wager_maximum_cents"] = chip * draw(st.integers(1, 50))
    player_dealer = draw(st.integers(1, seat_count))
    others = [seat for seat in range(1, seat_count + 1) if seat != player_dealer]
    seats = draw(st.lists(st.sampled_from(others), min_size=1, max_size=len(others), unique=True))
    seat_data = []
    for seat in seats:
        base = chip * draw(st.integers(1, 100))
        side_maximum = options.get("side_wager_maximum_cents", base)
        entry = {"seat": seat, draw(st.sampled_from(["player", "banker"])): base}
        for name in SIDE:
            entry[name] = chip * draw(st.integers(0, side_maximum // chip))
        seat_data.append(entry)
    # Cards of one coup: drawn from a shoe's worth of each card, then dealt by the rules.
    pool = draw(st.lists(st.sampled_from(FULL_DECK), min_size=6, max_size=6))
    source = iter(pool)
    coup = deal_coup(lambda: next(source))
    return {
        "options": options,
        "player_dealer": {"seat": player_dealer, "bank": chip * draw(st.integers(1, 400))},
        "cards": [str(card) for card in coup.cards],
        "seats": seat_data,
    }


# 150: through the calculator's whole answer (milliseconds an example); a Dragon 7 or a
# Panda 8 is about one coup in eighteen, so 150 meets several.
@settings(max_examples=150, deadline=None)
@given(hands())
def test_conservation_bounds_order_and_every_line(request):
    answer = settle_request(request)
    options, player_dealer, bank, _, stakes_by_seat = parse_request(request)
    lines = answer["settlement"]
    players_change = sum(line["paid"] - line["collected"] for line in lines)
    assert players_change + answer["player_dealer_net"] == 0  # no fees in the calculator
    assert -bank <= answer["player_dealer_net"] <= bank
    net = 0
    exhausted = False
    for line in lines:
        kind = BaccaratWager(line["wager"])
        stake = line["stake"]
        assert stake > 0
        if line["outcome"] == "win":
            payout = stake * odds(kind, options)
            assert line["paid"] + line["unpaid_uncovered"] == payout
            assert line["collected"] == line["returned_uncovered"] == 0
            assert line["paid"] == (0 if exhausted else min(payout, bank + net))
        elif line["outcome"] == "lose":
            assert line["collected"] + line["returned_uncovered"] == stake
            assert line["paid"] == line["unpaid_uncovered"] == 0
            assert line["collected"] == (0 if exhausted else min(stake, bank - net))
        else:
            assert line["outcome"] == "push"
            assert line["paid"] == line["collected"] == 0
            assert line["returned_uncovered"] == line["unpaid_uncovered"] == 0
        net += line["collected"] - line["paid"]
        assert -bank <= net <= bank
        exhausted = exhausted or (line["paid"] > 0 and bank + net == 0)
    assert net == answer["player_dealer_net"]
    seat_count = options.seats
    # Clockwise from the player-dealer's left: the distance from PD+1, wrapping.
    expected = []
    for seat in sorted(stakes_by_seat, key=lambda s: (s - player_dealer - 1) % seat_count):
        stakes = stakes_by_seat[seat]
        base = "player" if stakes.player else "banker"
        expected += [(seat, name) for name in (base, *SIDE) if getattr(stakes, name)]
    assert [(line["seat"], line["wager"]) for line in answer["settlement"]] == expected
    winner = answer["outcome"]
    for line in answer["settlement"]:
        wager, outcome = line["wager"], line["outcome"]
        if wager in ("player", "banker"):
            if winner == "tie" or (wager == "banker" and answer["dragon_7"]):
                assert outcome == "push"
            else:
                assert outcome == ("win" if winner == wager else "lose")
        elif wager == "tie":
            assert outcome == ("win" if winner == "tie" else "lose")
        else:
            assert outcome == ("win" if answer[wager] else "lose")
    player, banker = answer["player"]["cards"], answer["banker"]["cards"]
    assert [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]] == request[
        "cards"
    ]
    totals = (answer["player"]["total"], answer["banker"]["total"])
    assert winner == ("player" if totals[0] > totals[1] else "banker" if totals[1] > totals[0]
                      else "tie")  # fmt: skip
    assert answer["dragon_7"] == (
        winner == "banker" and len(answer["banker"]["cards"]) == 3 and totals[1] == 7
    )
    assert answer["panda_8"] == (
        winner == "player" and len(answer["player"]["cards"]) == 3 and totals[0] == 8
    )


# 60: the same answer at each stake multiple, a scaling law that any hand shows.
@settings(max_examples=60, deadline=None)
@given(hands(), st.integers(1, 10))
def test_a_larger_bank_never_leaves_more_uncovered(request, factor):
    small = settle_request(request)
    request["player_dealer"]["bank"] *= factor
    large = settle_request(request)

    def uncovered(answer):
        return sum(
            line["returned_uncovered"] + line["unpaid_uncovered"] for line in answer["settlement"]
        )

    assert uncovered(large) <= uncovered(small)
    if request["player_dealer"]["bank"] >= sum(
        line["stake"] * max(1, odds(BaccaratWager(line["wager"]), parse_request(request)[0]))
        for line in large["settlement"]
    ):
        assert uncovered(large) == 0
