"""Points, totals and the drawing rules (docs/rules.md §14.2-§14.3), by table rows.

The expected rows are written from the rules' own table, not from the code's: every Banker total
0 to 7 against every value of the Player's third card, the Player standing or drawing on every
two-card total, the naturals; and coups worked by hand.
"""

from __future__ import annotations

import pytest

from cardroom.errors import Rule, RuleError
from games.ez_baccarat.coup import Winner, banker_draws, deal_coup, play_out, player_draws
from games.ez_baccarat.points import CARDS_PER_DECK_BY_POINTS, point, total
from tables.rules.cards import FULL_DECK, parse_card
from tests.builders.baccarat import coup, worth
from tests.builders.rules import cards

# --- points --------------------------------------------------------------------------------

POINTS_BY_RANK = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                  "T": 0, "J": 0, "Q": 0, "K": 0}  # fmt: skip


@pytest.mark.parametrize("code", [str(card) for card in FULL_DECK])
def test_every_card_has_its_points(code):
    assert point(parse_card(code)) == POINTS_BY_RANK[code[0]]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [("9h 7c", 6), ("Kd Qs", 0), ("As 9d", 0), ("5h 4h", 9), ("Tc Jd 8s", 8), ("7s 7d 7h", 1),
     ("Ah", 1), ("", 0)],
)  # fmt: skip
def test_a_total_is_the_sum_modulo_ten(hand, expected):
    assert total(cards(hand)) == expected


def test_a_deck_has_sixteen_cards_worth_nothing_and_four_of_each_other_value():
    assert CARDS_PER_DECK_BY_POINTS == (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)


# --- the drawing table, from the rules ------------------------------------------------------

# Banker total -> the Player's third-card values on which the Banker draws (docs/rules.md §14.3).
RULES_TABLE = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: {0, 1, 2, 3, 4, 5, 6, 7, 9},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}
ROWS = [(banker, third) for banker in range(8) for third in range(10)]


def _two_worth(total_: int, suit: str) -> list[str]:
    """Two cards totalling ``total_`` (no natural below 8)."""
    return [worth(0, suit), worth(total_, suit)]


@pytest.mark.parametrize(
    ("banker", "third"),
    ROWS,
    ids=[f"banker-{b}-third-{t}-{'draws' if t in RULES_TABLE[b] else 'stands'}" for b, t in ROWS],
)
def test_the_banker_after_the_player_drew(banker, third):
    draws = third in RULES_TABLE[banker]
    assert banker_draws(banker, third) is draws
    player, bank = ["As", "4s"], _two_worth(banker, "h")  # the Player has 5: it draws
    dealt = [player[0], bank[0], player[1], bank[1], worth(third, "d")]
    if draws:
        full = play_out(cards(" ".join([*dealt, "Kc"])))
        assert len(full.banker) == 3 and len(full.player) == 3
        with pytest.raises(RuleError) as missing:
            play_out(cards(" ".join(dealt)))
        assert (missing.value.rule, missing.value.field) == (Rule.BACCARAT_DRAWING, None)
        assert f"the Banker hand has {banker}" in missing.value.message
    else:
        complete = play_out(cards(" ".join(dealt)))
        assert len(complete.banker) == 2 and len(complete.player) == 3
        with pytest.raises(RuleError) as extra:
            play_out(cards(" ".join([*dealt, "Kc"])))
        assert (extra.value.rule, extra.value.field) == (Rule.BACCARAT_DRAWING, "[5]")
        assert f"the Banker hand stands on {banker}" in extra.value.message
    # Dealt from a source of cards, the Banker takes the sixth card or leaves it.
    source = iter(cards(" ".join([*dealt, "Kc", "Qc"])))
    dealt_coup = deal_coup(lambda: next(source))
    assert len(dealt_coup.cards) == (6 if draws else 5)


@pytest.mark.parametrize("player_total", range(8), ids=[f"player-{t}" for t in range(8)])
@pytest.mark.parametrize("banker_total", range(8), ids=[f"banker-{t}" for t in range(8)])
def test_the_player_draws_on_0_to_5_and_a_banker_facing_a_stand_on_0_to_5(
    player_total, banker_total
):
    player, bank = _two_worth(player_total, "s"), _two_worth(banker_total, "h")
    dealt = [player[0], bank[0], player[1], bank[1]]
    source = iter(cards(" ".join([*dealt, "2c", "3c"])))
    played = deal_coup(lambda: next(source))
    assert player_draws(player_total) is (player_total <= 5)
    if player_total <= 5:
        assert len(played.player) == 3  # the Banker then acts by the table (the rows above)
    else:
        assert len(played.player) == 2
        assert banker_draws(banker_total, None) is (banker_total <= 5)
        assert len(played.banker) == (3 if banker_total <= 5 else 2)
    assert played == play_out(played.cards)


NATURALS = [("9h 2c Kd 5s", 9, 7), ("4h 4c 4d 5s", 8, 9), ("Kh 3c 8d 5s", 8, 8),
            ("2h Ac 7d 7s", 9, 8), ("Th Jc 9d Qs", 9, 0), ("Ah 5c 7d 3s", 8, 8),
            ("3h Kc 2d 8s", 5, 8), ("Kh Kc 8d Ks", 8, 0)]  # fmt: skip


@pytest.mark.parametrize(("dealt", "player", "banker"), NATURALS, ids=[n[0] for n in NATURALS])
def test_a_natural_on_either_hand_ends_the_coup(dealt, player, banker):
    played = coup(dealt)
    assert (played.player_total, played.banker_total, played.natural) == (player, banker, True)
    with pytest.raises(RuleError) as extra:
        coup(dealt + " 4d")
    assert (extra.value.rule, extra.value.field) == (Rule.BACCARAT_DRAWING, "[4]")
    assert "natural" in extra.value.message and "neither hand draws" in extra.value.message


# --- coups worked by hand ---------------------------------------------------------------------

# (cards in dealing order, Player's cards, Banker's cards, totals, winner, Dragon 7, Panda 8)
HAND_WORKED = [
    # Player 4+3 = 7 stands; Banker 0+6 = 6 stands (the Player stood): Player wins 7-6.
    ("4h Kc 3d 6s", "4h 3d", "Kc 6s", (7, 6), Winner.PLAYER, False, False),
    # Player 2 draws a 4: 6. Banker 3, the Player's third a 4: draws a 4: 7. A Dragon 7.
    ("2h 3c Kd Ks 4h 4c", "2h Kd 4h", "3c Ks 4c", (6, 7), Winner.BANKER, True, False),
    # Player 5 draws a 3: 8. Banker 6, the third a 3: stands. Player 8 over 6: a Panda 8.
    ("Ah Kc 4d 6s 3h", "Ah 4d 3h", "Kc 6s", (8, 6), Winner.PLAYER, False, True),
    # Player 7, Banker 7, both stand: a tie.
    ("4h 3c 3d 4s", "4h 3d", "3c 4s", (7, 7), Winner.TIE, False, False),
    # Player 5 draws an Ace: 6. Banker 7 stands: a two-card 7 wins, no Dragon.
    ("Kh 4c 5d 3s Ac", "Kh 5d Ac", "4c 3s", (6, 7), Winner.BANKER, False, False),
    # Player 0 draws a 7: 7. Banker 5, the third a 7: draws a 2: 7. A three-card 7 that ties.
    ("Kh 5c Qd Ks 7h 2c", "Kh Qd 7h", "5c Ks 2c", (7, 7), Winner.TIE, False, False),
    # Player 6 stands; Banker 4 draws (the Player stood) a 3: 7 beats 6 with three cards.
    ("6h 4c Kd Ks 3h", "6h Kd", "4c Ks 3h", (6, 7), Winner.BANKER, True, False),
    # Player 1 draws a 7: 8. Banker 2 draws on anything, a 7: 9. A three-card 8 that loses.
    ("Ah 2c Kd Ks 7h 7c", "Ah Kd 7h", "2c Ks 7c", (8, 9), Winner.BANKER, False, False),
    # Player 3 draws an 8: 1. Banker 3, the third an 8: stands. Banker 3 over 1.
    ("3h 3c Kd Ks 8h", "3h Kd 8h", "3c Ks", (1, 3), Winner.BANKER, False, False),
    # Player 4 draws a 9: 3 (13). Banker 5 with a third 9 stands; 5 over 3.
    ("4h 5c Kd Ks 9h", "4h Kd 9h", "5c Ks", (3, 5), Winner.BANKER, False, False),
    # Player 7 stands; Banker 3 draws a 4: 7 ties 7: no Dragon 7.
    ("7h 3c Kd Ks 4h", "7h Kd", "3c Ks 4h", (7, 7), Winner.TIE, False, False),
    # Player 2 draws a 6: 8. Banker 6, the third a 6: draws a King: 6. Player 8 (three cards).
    ("2h 6c Kd Ks 6h Kc", "2h Kd 6h", "6c Ks Kc", (8, 6), Winner.PLAYER, False, True),
]  # fmt: skip


@pytest.mark.parametrize(
    ("dealt", "player", "banker", "totals", "winner", "dragon", "panda"),
    HAND_WORKED,
    ids=[row[0] for row in HAND_WORKED],
)
def test_coups_worked_by_hand(dealt, player, banker, totals, winner, dragon, panda):
    played = coup(dealt)
    assert played.player == cards(player)
    assert played.banker == cards(banker)
    assert (played.player_total, played.banker_total) == totals
    assert (played.winner, played.dragon_7, played.panda_8) == (winner, dragon, panda)
    assert played.cards == cards(dealt)  # dealing order, back from the two hands
    source = iter(cards(dealt + " 9c 9d"))
    assert deal_coup(lambda: next(source)) == played


# --- a dealt coup that breaks the rules ------------------------------------------------------

REFUSED = [
    ("no-cards", "", None, "two cards to each hand, 0 given"),
    ("three-cards", "4h Kc 3d", None, "two cards to each hand, 3 given"),
    ("player-draws-missing", "2h 3c Kd Ks", None, "the Player hand has 2 and draws"),
    ("banker-draws-after-a-stand-missing", "6h 4c Kd Ks", None,
     "the Player hand stood on 6; the Banker hand has 4 and draws"),
    ("third-card-after-both-stand", "4h 3c 3d 4s 2c", "[4]",
     "the Player hand stands on 7 and the Banker hand on 7"),
    ("third-card-after-a-natural", "9h 2c Kd 5s 4d 3h", "[4]", "natural 9"),
    ("seventh-card", "2h 3c Kd Ks 4h 4c 5d", "[6]", "the coup is complete"),
    ("card-after-the-banker-drew-on-a-stand", "6h 4c Kd Ks 3h 2c", "[5]",
     "the coup is complete"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("dealt", "field", "words"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED]
)
def test_a_coup_against_the_drawing_rules_is_refused_naming_the_rule(dealt, field, words):
    with pytest.raises(RuleError) as caught:
        play_out(cards(dealt))
    assert caught.value.rule is Rule.BACCARAT_DRAWING
    assert caught.value.field == field
    assert words in caught.value.message
