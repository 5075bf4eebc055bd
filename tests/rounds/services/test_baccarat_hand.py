"""An EZ Baccarat hand through the round lifecycle shared with Ultimate Texas Hold'em
(docs/rules.md §14): wagers placed through the same service, "no more bets" with its fees and
theo, the coup dealt from the shoe (or keyed) at the showdown, every wager settled in one
clockwise pass by the shared coverage law, posted to the ledger and replayed by
``verify_ledger``; a void gives everything back."""

from __future__ import annotations

import random

import pytest

from cardroom.errors import Rule, RuleError, State, StateError
from fees.models import FeeLine
from games.ez_baccarat.calculator import settle_request
from rounds import services as rounds
from tables.models import Round, Shoe
from tests.builders.fees import table_schedule
from tests.builders.floor import give_button, open_floor, start_round
from tests.builders.money import all_balances, verified
from wagers.models import Bet, RoundTheo, SettlementLine
from wagers.services import wagering
from wagers.services.wagering import BetRequest

pytestmark = pytest.mark.django_db

BANK = 100_000


def _table(staff, layout="PPPPPPPPP", **options):
    options.setdefault("minimum_cents", 500)
    options.setdefault("maximum_cents", 50_000)
    return open_floor(layout, staff=staff, game="ez_baccarat", **options).table


def _round(staff, table, seat=5, bank=BANK) -> Round:
    give_button(table.pk, seat, by=staff.supervisor)
    return start_round(table.pk, by=staff.dealer, bank=bank)


def _cards_request(round_: Round) -> dict:
    """The stored hand in the calculator's format (docs/rules.md §14.7)."""
    round_.refresh_from_db()
    player, banker = round_.player_cards, round_.banker_cards
    order = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
    options = {
        k: v
        for k, v in round_.options.items()
        if k in ("decks", "seats", "tie_pays", "dragon_7_pays", "panda_8_pays", "cut_card")
    }
    return {
        "options": {
            "game": "ez_baccarat",
            **options,
            "chip_unit_cents": round_.options["chip_unit_cents"],
        },
        "player_dealer": {"seat": round_.player_dealer_seat, "bank": round_.bank.amount_cents},
        "cards": order,
        "seats": [
            {
                "seat": bet.hand.seat,
                **{k: getattr(bet, f"{k}_cents") for k in ("player", "banker", "tie")},
                **{k: getattr(bet, f"{k}_cents") for k in ("dragon_7", "panda_8")},
            }
            for bet in Bet.objects.filter(hand__round=round_).select_related("hand")
        ],
    }


WAGERS = [
    BetRequest(1, player=1_000, tie=500),
    BetRequest(2, banker=2_000, dragon_7=500),
    BetRequest(3, player=500, panda_8=500),
    BetRequest(4, banker=5_000),
    BetRequest(6, player=10_000, tie=1_000, panda_8=1_000),
    BetRequest(7, banker=3_000, tie=500, dragon_7=1_000),
    BetRequest(8, player=2_500),
    BetRequest(9, banker=500, dragon_7=500, tie=500),
]


def test_a_whole_hand_at_a_nine_seat_rng_table(staff):
    table = _table(staff)
    before = sum(all_balances().values())
    round_ = _round(staff, table)
    wagering.place_bets(round_id=round_.pk, bets=WAGERS, by=staff.dealer)
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    theo = RoundTheo.objects.get(round=round_)
    assert theo.theo_cents > 0 and theo.base_game_edge is None
    assert theo.squares["banker"]["cents"] == 2_000 + 5_000 + 3_000 + 500
    with pytest.raises(StateError) as refused:
        rounds.deal(round_id=round_.pk, by=staff.dealer)
    assert refused.value.rule == Rule.ROUND_SEQUENCE
    rounds.showdown(round_id=round_.pk, by=staff.dealer, rng=random.Random(26))
    round_.refresh_from_db()
    assert round_.state == State.SHOWDOWN and round_.shoe_id is not None
    assert len(round_.player_cards) in (2, 3) and len(round_.banker_cards) in (2, 3)
    rounds.settle(round_id=round_.pk, by=staff.dealer)
    round_.refresh_from_db()
    assert round_.state == State.SETTLED
    expected = settle_request(_cards_request(round_))
    lines = list(SettlementLine.objects.filter(round=round_).order_by("order"))
    assert [
        {
            "seat": line.seat,
            "wager": line.wager,
            "stake": line.stake_cents,
            "outcome": line.outcome,
            "paid": line.paid_cents,
            "collected": line.collected_cents,
            "returned_uncovered": line.returned_uncovered_cents,
            "unpaid_uncovered": line.unpaid_uncovered_cents,
        }
        for line in lines
    ] == expected["settlement"]
    assert lines[0].seat == 6  # clockwise from the player-dealer's left
    assert round_.bank.net_cents == expected["player_dealer_net"]
    assert sum(all_balances().values()) == before
    assert verified() == []


def test_the_bank_exhausts_and_later_wagers_are_uncovered(staff):
    table = _table(staff, "PPP......", seats=9)
    round_ = _round(staff, table, seat=3, bank=1_000)
    wagering.place_bets(
        round_id=round_.pk,
        bets=[BetRequest(1, player=5_000), BetRequest(2, player=5_000)],
        by=staff.dealer,
    )
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    # Player 9 + 0 against Banker 0 + 0: a natural, the Player wins.
    rounds_table = Round.objects.get(pk=round_.pk)
    rounds_table.deal_mode = "card_entry"  # keyed below; the table's own deal stays RNG
    Round.objects.filter(pk=round_.pk).update(deal_mode="card_entry")
    rounds.showdown(round_id=round_.pk, by=staff.dealer, entry={"cards": ["9h", "Kd", "Kc", "Qs"]})
    rounds.settle(round_id=round_.pk, by=staff.dealer)
    lines = list(SettlementLine.objects.filter(round=round_).order_by("order"))
    assert [(ln.seat, ln.paid_cents, ln.unpaid_uncovered_cents) for ln in lines] == [
        (1, 1_000, 4_000),
        (2, 0, 5_000),
    ]
    round_.refresh_from_db()
    assert round_.bank.net_cents == -1_000 and round_.bank.exhausted
    assert verified() == []


def test_a_card_entry_table_keys_the_coup_and_the_cut_card(staff):
    table = _table(staff, "PPPPPP", seats=6, deal_mode="card_entry", decks=6)
    round_ = _round(staff, table, seat=1)
    wagering.place_bet(round_id=round_.pk, seat=2, banker=1_000, dragon_7=500, by=staff.dealer)
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    with pytest.raises(RuleError) as refused:
        rounds.showdown(round_id=round_.pk, by=staff.dealer, entry={"cards": ["9h", "2c"]})
    assert refused.value.rule == Rule.BACCARAT_DRAWING
    with pytest.raises(RuleError) as refused:
        rounds.showdown(round_id=round_.pk, by=staff.dealer)
    assert (refused.value.rule, refused.value.field) == (Rule.CARD_ENTRY, "cards")
    # Player 2+3+6 = 1, Banker 4+K+3 = 7 with three cards: a Dragon 7.
    rounds.showdown(
        round_id=round_.pk,
        by=staff.dealer,
        entry={"cards": ["2h", "4d", "3c", "Ks", "6s", "3h"], "cut_card_out": True},
    )
    round_.refresh_from_db()
    assert (round_.player_cards, round_.banker_cards) == (["2h", "3c", "6s"], ["4d", "Ks", "3h"])
    assert Shoe.objects.get(pk=round_.shoe_id).finished_at is not None
    rounds.settle(round_id=round_.pk, by=staff.dealer)
    lines = list(SettlementLine.objects.filter(round=round_).order_by("order"))
    assert [(ln.wager, ln.outcome, ln.paid_cents) for ln in lines] == [
        ("banker", "push", 0),
        ("dragon_7", "win", 20_000),
    ]
    assert verified() == []


def test_a_void_returns_every_wager_and_fee(staff):
    table = _table(staff)
    before = all_balances()
    round_ = _round(staff, table)
    wagering.place_bets(round_id=round_.pk, bets=WAGERS[:3], by=staff.dealer)
    assert all_balances() != before
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    rounds.showdown(round_id=round_.pk, by=staff.dealer, rng=random.Random(3))
    rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="cards exposed")
    after = all_balances()
    assert {k: v for k, v in after.items() if v} == {k: v for k, v in before.items() if v}
    assert verified() == []


@pytest.mark.parametrize(
    ("request_", "rule", "field"),
    [
        (BetRequest(1, player=1_000, banker=1_000), Rule.BACCARAT_BASE_WAGER, "banker"),
        (BetRequest(1, tie=1_000), Rule.BACCARAT_BASE_WAGER, "player"),
        (BetRequest(1, player=1_000, tie=2_000), Rule.BACCARAT_SIDE_WAGERS, "tie"),
        (BetRequest(1, player=100), Rule.LIMITS, "player"),
        (BetRequest(1, banker=60_000), Rule.LIMITS, "banker"),
        (BetRequest(1, ante=1_000, blind=1_000), Rule.WAGER_SQUARES, "ante"),
        (BetRequest(5, player=1_000), Rule.PLAYER_DEALER_SEAT, None),
    ],
)
def test_wagers_the_rules_refuse(staff, request_, rule, field):
    table = _table(staff)
    round_ = _round(staff, table)
    with pytest.raises((RuleError, StateError)) as refused:
        wagering.place_bets(round_id=round_.pk, bets=[request_], by=staff.dealer)
    assert refused.value.rule == rule
    if field is not None:
        assert refused.value.field == field
    assert not Bet.objects.filter(hand__round=round_).exists()


def test_an_uth_table_refuses_a_baccarat_square(staff):
    table = open_floor("PPPPPP", staff=staff).table
    round_ = _round(staff, table, seat=1)
    with pytest.raises(RuleError) as refused:
        wagering.place_bet(
            round_id=round_.pk, seat=2, ante=500, blind=500, tie=500, by=staff.dealer
        )
    assert (refused.value.rule, refused.value.field) == (Rule.WAGER_SQUARES, "tie")


def test_verify_ledger_reports_a_tampered_coup(staff, tamper):
    table = _table(staff, "PPPPPP", seats=6, deal_mode="card_entry")
    round_ = _round(staff, table, seat=1)
    wagering.place_bet(round_id=round_.pk, seat=2, player=1_000, by=staff.dealer)
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    # Player 9 + K = 9 against Banker 2 + 3 = 5: a natural, the Player wins.
    rounds.showdown(round_id=round_.pk, by=staff.dealer, entry={"cards": ["9h", "2d", "Kc", "3s"]})
    rounds.settle(round_id=round_.pk, by=staff.dealer)
    assert verified() == []
    # Someone with the database makes it a Banker win: the hands are no longer the shoe's.
    tamper(
        "UPDATE tables_round SET banker_cards = %s::jsonb WHERE id = %s",
        ['["9d", "Qs"]', round_.pk],
        "UPDATE tables_round SET banker_cards = %s::jsonb WHERE id = %s",
        ['["2d", "3s"]', round_.pk],
    )
    found = verified()
    assert [(d.check, d.round_id) for d in found] == [
        ("settled round's cards are not its deck's", round_.pk)
    ]
    # ... and a settlement line paid more than the coup pays is reported against the coup.
    line = SettlementLine.objects.get(round=round_)
    tamper(
        "UPDATE tables_round SET banker_cards = %s::jsonb WHERE id = %s",
        ['["2d", "3s"]', round_.pk],
        "UPDATE tables_round SET banker_cards = %s::jsonb WHERE id = %s",
        ['["9d", "Qs"]', round_.pk],
    )
    tamper(
        "UPDATE wagers_settlementline SET outcome = 'push' WHERE id = %s",
        [line.pk],
        "UPDATE wagers_settlementline SET outcome = 'win' WHERE id = %s",
    )
    assert "settlement line differs from the hand played again" in {d.check for d in verified()}


def test_no_more_bets_charges_the_fees_on_the_baccarat_squares(staff):
    table = _table(staff)
    version = table_schedule(table, by=staff.supervisor)
    assert list(version.charged_squares) == ["player", "banker", "tie", "dragon_7", "panda_8"]
    round_ = _round(staff, table)
    wagering.place_bets(round_id=round_.pk, bets=WAGERS[:2], by=staff.dealer)
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    squares = set(FeeLine.objects.filter(round=round_).values_list("square", flat=True))
    assert squares and squares <= {"player", "banker", "tie", "dragon_7", "panda_8"}
    assert {"player", "banker"} <= squares
