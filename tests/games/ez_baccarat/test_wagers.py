"""The wagers (docs/rules.md §14.4) and how each resolves (§14.5), by table rows."""

from __future__ import annotations

import pytest

from cardroom.errors import Rule, RuleError
from games.ez_baccarat.options import BaccaratOptions
from games.ez_baccarat.resolution import odds, resolve_stakes, resolve_wager
from games.ez_baccarat.wagers import SQUARES, BaccaratWager, Stakes, validate_stakes
from tests.builders.baccarat import coup
from wagers.rules.resolution import Outcome

P, B, T, D, PA = (BaccaratWager.PLAYER, BaccaratWager.BANKER, BaccaratWager.TIE,
                  BaccaratWager.DRAGON_7, BaccaratWager.PANDA_8)  # fmt: skip
WIN, LOSE, PUSH = Outcome.WIN, Outcome.LOSE, Outcome.PUSH


def test_the_squares_in_the_floors_words():
    assert [kind.label for kind in BaccaratWager] == [
        "Player", "Banker", "Tie", "Dragon 7", "Panda 8"
    ]  # fmt: skip
    assert SQUARES == ("player", "banker", "tie", "dragon_7", "panda_8")


# --- checking one bettor's wagers ----------------------------------------------------------

LIMITS = BaccaratOptions(chip_unit=100, table_minimum=500, table_maximum=50_000)
FIXED_SIDE = BaccaratOptions(
    chip_unit=100, table_minimum=500, table_maximum=50_000, side_wager_maximum=2_000
)

GOOD = [
    ("player-alone", Stakes(player=500), LIMITS),
    ("banker-alone-at-the-maximum", Stakes(banker=50_000), LIMITS),
    ("every-side-wager-at-the-base", Stakes(player=2_500, tie=2_500, dragon_7=2_500,
     panda_8=2_500), LIMITS),
    ("side-wagers-above-the-base-under-a-fixed-maximum", Stakes(banker=500, tie=2_000,
     dragon_7=2_000), FIXED_SIDE),
    ("no-limits", Stakes(player=1, tie=1), BaccaratOptions()),
]  # fmt: skip


@pytest.mark.parametrize(("stakes", "options"), [g[1:] for g in GOOD], ids=[g[0] for g in GOOD])
def test_wagers_within_the_rules_are_accepted(stakes, options):
    validate_stakes(stakes, options)


BAD = [
    ("both-base-wagers", Stakes(player=500, banker=500), LIMITS, "banker",
     Rule.BACCARAT_BASE_WAGER, "not both"),
    ("no-base-wager", Stakes(tie=500), LIMITS, "player", Rule.BACCARAT_BASE_WAGER,
     "a base wager on Player or on Banker is required"),
    ("nothing-at-all", Stakes(), LIMITS, "player", Rule.BACCARAT_BASE_WAGER, "required"),
    ("below-the-minimum", Stakes(player=400), LIMITS, "player", Rule.LIMITS,
     "the Player of $4.00 is below the table minimum of $5.00"),
    ("above-the-maximum", Stakes(banker=50_100), LIMITS, "banker", Rule.LIMITS,
     "above the table maximum of $500.00"),
    ("side-wager-below-the-minimum", Stakes(player=1_000, panda_8=200), LIMITS, "panda_8",
     Rule.LIMITS, "the Panda 8 of $2.00 is below the table minimum"),
    ("side-wager-above-the-base", Stakes(banker=1_000, dragon_7=1_100), LIMITS, "dragon_7",
     Rule.BACCARAT_SIDE_WAGERS, "the Dragon 7 of $11.00 is above the bettor's Banker wager of "
     "$10.00"),
    ("tie-above-the-base", Stakes(player=1_000, tie=1_500), LIMITS, "tie",
     Rule.BACCARAT_SIDE_WAGERS, "Player wager"),
    ("side-wager-above-a-fixed-maximum", Stakes(player=5_000, tie=2_100), FIXED_SIDE, "tie",
     Rule.BACCARAT_SIDE_WAGERS, "above the side wagers' maximum of $20.00"),
    ("side-wager-a-cent-above-the-base", Stakes(banker=1_000, panda_8=1_001),
     BaccaratOptions(), "panda_8", Rule.BACCARAT_SIDE_WAGERS, "the Panda 8 of $10.01"),
    ("side-wager-a-cent-above-a-fixed-maximum", Stakes(player=5_000, dragon_7=2_001),
     BaccaratOptions(side_wager_maximum=2_000), "dragon_7", Rule.BACCARAT_SIDE_WAGERS,
     "maximum of $20.00"),
    ("a-cent-below-the-minimum", Stakes(player=499), BaccaratOptions(table_minimum=500),
     "player", Rule.LIMITS, "below"),
    ("a-cent-above-the-maximum", Stakes(banker=501), BaccaratOptions(table_maximum=500),
     "banker", Rule.LIMITS, "above"),
    ("not-whole-chips", Stakes(player=550), LIMITS, "player", Rule.CHIP_UNIT,
     "not in whole chips of $1.00"),
    ("side-wager-not-whole-chips", Stakes(player=500, tie=150), LIMITS, "tie", Rule.CHIP_UNIT,
     "the Tie of $1.50"),
    ("negative", Stakes(player=500, tie=-100), LIMITS, "tie", Rule.CHIP_UNIT, "zero or more"),
    ("a-float", Stakes(player=500.0), LIMITS, "player", Rule.CHIP_UNIT, "whole number"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("stakes", "options", "field", "rule", "words"), [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
def test_wagers_against_the_rules_are_refused_naming_rule_and_wager(
    stakes, options, field, rule, words
):
    with pytest.raises(RuleError) as caught:
        validate_stakes(stakes, options)
    assert (caught.value.rule, caught.value.field) == (rule, field)
    assert words in caught.value.message


def test_a_seats_wagers_in_settlement_order():
    stakes = Stakes(banker=1_000, tie=100, dragon_7=0, panda_8=300)
    assert stakes.in_settlement_order() == ((B, 1_000), (T, 100), (PA, 300))
    assert Stakes(player=5, panda_8=1, tie=2, dragon_7=3).in_settlement_order() == (
        (P, 5), (T, 2), (D, 3), (PA, 1)
    )  # fmt: skip


# --- resolution -----------------------------------------------------------------------------

# The coups of tests/games/ez_baccarat/test_coup.py, by what happens in them.
PLAYER_WINS = coup("4h Kc 3d 6s")  # 7 to 6
DRAGON_7 = coup("2h 3c Kd Ks 4h 4c")  # Banker 7 in three cards over 6
PANDA_8 = coup("Ah Kc 4d 6s 3h")  # Player 8 in three cards over 6
TIE = coup("4h 3c 3d 4s")  # 7 all
BANKER_TWO_CARD_7 = coup("Kh 4c 5d 3s Ac")  # Banker 7 in two cards over 6
THREE_CARD_7_TIES = coup("Kh 5c Qd Ks 7h 2c")  # Banker 7 in three cards, Player 7
THREE_CARD_8_LOSES = coup("Ah 2c Kd Ks 7h 7c")  # Player 8 in three cards, Banker 9
BANKER_NATURAL = coup("4h 4c 4d 5s")  # Banker 9 over 8
PLAYER_TWO_CARD_8 = coup("Kh 3c 8d 3s")  # Player 8 (a natural) over 6

# coup -> the outcome of (Player, Banker, Tie, Dragon 7, Panda 8)
RESOLUTIONS = [
    ("player-wins", PLAYER_WINS, (WIN, LOSE, LOSE, LOSE, LOSE)),
    ("dragon-7", DRAGON_7, (LOSE, PUSH, LOSE, WIN, LOSE)),
    ("panda-8", PANDA_8, (WIN, LOSE, LOSE, LOSE, WIN)),
    ("tie", TIE, (PUSH, PUSH, WIN, LOSE, LOSE)),
    ("banker-wins-with-a-two-card-7", BANKER_TWO_CARD_7, (LOSE, WIN, LOSE, LOSE, LOSE)),
    ("a-three-card-7-that-ties", THREE_CARD_7_TIES, (PUSH, PUSH, WIN, LOSE, LOSE)),
    ("a-three-card-8-that-loses", THREE_CARD_8_LOSES, (LOSE, WIN, LOSE, LOSE, LOSE)),
    ("banker-natural", BANKER_NATURAL, (LOSE, WIN, LOSE, LOSE, LOSE)),
    ("player-two-card-8", PLAYER_TWO_CARD_8, (WIN, LOSE, LOSE, LOSE, LOSE)),
]


@pytest.mark.parametrize(
    ("played", "outcomes"), [r[1:] for r in RESOLUTIONS], ids=[r[0] for r in RESOLUTIONS]
)
def test_each_wager_resolves_on_each_kind_of_coup(played, outcomes):
    options = BaccaratOptions()
    for kind, expected in zip(BaccaratWager, outcomes, strict=True):
        resolution = resolve_wager(kind, 1_000, played, options)
        assert (resolution.kind, resolution.stake, resolution.outcome) == (kind, 1_000, expected)
        assert resolution.rounded_off == 0


@pytest.mark.parametrize(
    ("options", "pays"),
    [(BaccaratOptions(), (1, 1, 8, 40, 25)),
     (BaccaratOptions(tie_pays=9, dragon_7_pays=30, panda_8_pays=20), (1, 1, 9, 30, 20))],
    ids=["default-pays", "other-pays"],
)  # fmt: skip
def test_a_winning_wager_pays_its_odds_to_one(options, pays):
    assert tuple(odds(kind, options) for kind in BaccaratWager) == pays
    winning = {P: PANDA_8, B: BANKER_TWO_CARD_7, T: TIE, D: DRAGON_7, PA: PANDA_8}
    for kind, played in winning.items():
        resolution = resolve_wager(kind, 700, played, options)
        assert (resolution.outcome, resolution.payout) == (WIN, 700 * odds(kind, options))
    losing = resolve_wager(T, 700, DRAGON_7, options)
    pushing = resolve_wager(B, 700, DRAGON_7, options)
    assert losing.payout == pushing.payout == 0


def test_a_bettors_wagers_resolved_in_settlement_order():
    stakes = Stakes(banker=1_000, tie=100, dragon_7=200, panda_8=0)
    resolved = resolve_stakes(stakes, DRAGON_7, BaccaratOptions())
    assert [(r.kind, r.outcome, r.payout) for r in resolved] == [
        (B, PUSH, 0), (T, LOSE, 0), (D, WIN, 8_000)
    ]  # fmt: skip
