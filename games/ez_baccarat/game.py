"""EZ Baccarat as the money layer and the round lifecycle see it (``games.interface.Game``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction
from typing import Any

from cardroom.errors import Rule, RuleError
from games.interface import Game, LayoutTheo, RoundCards, SeatWagers, Square
from tables.rules.cards import parse_card
from wagers.rules.settlement import Settlement

from . import settlement
from .calculator import parse_options, settle_request
from .coup import Coup, play_out
from .exposure import action_against_the_bank
from .gamemath import BaccaratMath, figures, figures_json
from .listing import LISTING, sheet
from .options import GAME, BaccaratOptions
from .wagers import BASE_WAGERS, BaccaratWager, Stakes, validate_stakes


def game_math(data: object) -> dict[str, Any]:
    """The figures of every wager for an ``options`` object (``game`` may be omitted here: the
    command and the API have already chosen the game)."""
    if data is None:
        data = {}
    if isinstance(data, dict) and "game" not in data:
        data = {"game": GAME, **data}
    options: BaccaratOptions = parse_options(data)
    return _answer(figures(options))


def _answer(math: BaccaratMath) -> dict[str, Any]:
    """Per wager: ``house_edge``, ``hit_frequency``, ``std_dev`` (decimal strings of 20
    significant digits), the house edge as an exact fraction and as a percentage to 4
    decimals."""
    answer = figures_json(math)
    for kind, wager in math.wagers.items():
        edge = wager.house_edge
        answer[kind.value] |= {
            "house_edge_exact": f"{edge.numerator}/{edge.denominator}",
            "house_edge_percent": _percent(edge),
        }
    return answer


def _percent(share: Fraction) -> str:
    """A share as a percentage to 4 decimals, rounded half to even: ``1.0183%``."""
    value = Decimal(share.numerator * 100) / Decimal(share.denominator)
    return f"{value.quantize(Decimal('0.0001'), rounding=ROUND_HALF_EVEN)}%"


def stakes(squares: Mapping[str, int]) -> Stakes:
    """One bettor's wagers by square name as the rules core's ``Stakes``."""
    return Stakes(**{kind.value: squares.get(kind.value, 0) for kind in BaccaratWager})


def validate_wagers(squares: Mapping[str, int], options: BaccaratOptions, backline: bool) -> None:
    """One base wager, the side wagers' maximum, the limits, whole chips (§14.4); no one bets
    behind a seat at this game (docs/rules.md §14.4)."""
    if backline:
        raise RuleError(
            "EZ Baccarat has no backline wagering: each seat's player wagers for the seat",
            rule=Rule.BACKLINE,
            field="backline_player",
        )
    validate_stakes(stakes(squares), options)


def coup_of(cards: RoundCards) -> Coup:
    """The coup from a round's two hands as stored, in each hand's order: dealt again in
    dealing order (Player, Banker, Player, Banker, then the third cards as drawn) and checked
    against the drawing rules."""
    player, banker = list(cards.player), list(cards.banker)
    if len(player) < 2 or len(banker) < 2:
        raise RuleError(
            "each hand of a coup holds two or three cards",
            rule=Rule.BACCARAT_DRAWING,
            field="cards",
        )
    order = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
    return play_out([parse_card(code) for code in order])


def calculator_request(
    values: Mapping[str, Any],
    player_dealer_seat: int,
    bank: int,
    seats: Sequence[SeatWagers],
    cards: RoundCards,
) -> dict[str, Any]:
    """A settled coup as stored, in the calculator's format (docs/rules.md §14.7): the table's
    options as the round froze them, the player-dealer's seat and bank, the cards in dealing
    order (Player, Banker, Player, Banker, then the third cards as drawn) and each seat's
    wagers."""
    player, banker = list(cards.player), list(cards.banker)
    return {
        "options": sheet(values).to_json(),
        "player_dealer": {"seat": player_dealer_seat, "bank": bank},
        "cards": [*_interleaved(player[:2], banker[:2]), *player[2:], *banker[2:]],
        "seats": [
            {
                "seat": seat.seat,
                **{kind.value: seat.bettors[0].get(kind.value, 0) for kind in BaccaratWager},
            }
            for seat in seats
        ],
    }


def _interleaved(first: Sequence[str], second: Sequence[str]) -> list[str]:
    return [card for pair in zip(first, second, strict=True) for card in pair]


def settle(
    options: BaccaratOptions,
    player_dealer_seat: int,
    bank: int,
    seats: Sequence[SeatWagers],
    cards: RoundCards,
) -> Settlement:
    """Every wager resolved on the coup and settled in one pass (docs/rules.md §14.6)."""
    return settlement.settle(
        player_dealer_seat,
        bank,
        {seat.seat: stakes(seat.bettors[0]) for seat in seats},
        coup_of(cards),
        options,
    )


_CONTEXT = Context(prec=60, rounding=ROUND_HALF_EVEN)


def theo(options: BaccaratOptions, layout: Sequence[Mapping[str, int]]) -> LayoutTheo:
    """Each wager times its own house edge (off the top of a full shoe, the game math of the
    table's options); the spread, each wager's standard deviation times its stake, summed (an
    upper bound whatever the wagers' correlation, as for Ultimate Texas Hold'em)."""
    math = figures(options)
    squares = {
        kind.value: (sum(squares.get(kind.value, 0) for squares in layout), math[kind].house_edge)
        for kind in BaccaratWager
    }
    spread = Decimal(0)
    for kind in BaccaratWager:
        cents = squares[kind.value][0]
        if cents:
            spread = _CONTEXT.add(spread, _CONTEXT.multiply(Decimal(cents), math[kind].std_dev))
    return LayoutTheo(
        sum((cents * edge for cents, edge in squares.values()), Fraction(0)), spread, squares
    )


GAME_DESCRIPTION = Game(
    listing=LISTING,
    squares=tuple(
        Square(kind.value, kind.label, f"{kind.value}_cents", kind in BASE_WAGERS)
        for kind in BaccaratWager
    ),
    steps=(),
    cards="shoe",
    settle_request=settle_request,
    calculator_request=calculator_request,
    game_math=game_math,
    sheet_math=lambda values: _answer(figures(sheet(values))),
    validate_wagers=validate_wagers,
    backline=lambda options: False,
    least_hand=(("player", "banker"),),
    settle=settle,
    theo=theo,
    exposure=action_against_the_bank,
)
