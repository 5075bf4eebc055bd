"""Ultimate Texas Hold'em as the money layer and the round lifecycle see it
(``games.interface.Game``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardroom.errors import Rule, RuleError
from games.interface import Game, LayoutTheo, RoundCards, SeatWagers, Square
from tables.rules.cards import parse_card
from tables.rules.options import GameOptions
from wagers.rules import calculator
from wagers.rules.gamemath import game_math, game_math_json, theo_of
from wagers.rules.layout import BankAction, action_against_the_bank
from wagers.rules.settlement import Settlement
from wagers.rules.showdown import SeatHand, play_out
from wagers.rules.validation import validate_opening_wagers
from wagers.rules.wagers import Stakes

from .listing import GAME, LISTING, sheet


def _options(data: object) -> object:
    """The calculator's ``options`` without ``game`` (which, when given, names this game)."""
    if isinstance(data, Mapping) and "game" in data:
        if data["game"] != GAME:
            raise RuleError(
                f"the game must be {GAME!r}, not {data['game']!r}",
                rule=Rule.CALCULATOR_FORMAT,
                field="game",
            )
        return {name: value for name, value in data.items() if name != "game"}
    return data


def settle_request(data: object) -> dict[str, Any]:
    """The calculator's format of docs/rules.md §11 (``options.game`` may name this game)."""
    if isinstance(data, Mapping) and isinstance(data.get("options"), Mapping):
        data = {**data, "options": _options(data["options"])}
    return calculator.settle_request(data)


# A seat's wagers in the calculator's format, in its order (docs/rules.md §11).
_REQUEST_SQUARES = ("ante", "blind", "trips", "bad_beat", "play")


def calculator_request(
    values: Mapping[str, Any],
    player_dealer_seat: int,
    bank: int,
    seats: Sequence[SeatWagers],
    cards: RoundCards,
) -> dict[str, Any]:
    """A settled hand as stored, in the calculator's format (docs/rules.md §11): the table's
    options as the round froze them, the player-dealer's seat, bank and hole cards, the board,
    each seat's cards (None: mucked), wagers, fold and backline bettors, as played."""

    def wagers(squares: Mapping[str, int]) -> dict[str, int]:
        return {name: squares.get(name, 0) for name in _REQUEST_SQUARES}

    return {
        "options": {
            "trips_paytable": values["trips_paytable"],
            "bad_beat_paytable": values["bad_beat_paytable"],
            "chip_unit_cents": values["chip_unit_cents"],
            "allowed_preflop_multiples": list(values["preflop_multiples"]),
            "table_minimum_cents": values["minimum_cents"],
            "table_maximum_cents": values["maximum_cents"],
            "backline_allowed": values["backline_allowed"],
        },
        "player_dealer": {
            "seat": player_dealer_seat,
            "bank": bank,
            "hole": list(cards.dealer_hole),
        },
        "board": list(cards.board),
        "seats": [
            {
                "seat": seat.seat,
                "hole": None if seat.hole is None else list(seat.hole),
                **wagers(seat.bettors[0]),
                "folded": seat.folded,
                "backline": [wagers(bettor) for bettor in seat.bettors[1:]],
            }
            for seat in seats
        ],
    }


def figures(data: object) -> dict[str, Any]:
    return game_math_json(game_math(calculator.parse_options(_options(data))))


def stakes(squares: Mapping[str, int]) -> Stakes:
    """One bettor's wagers by square name as the rules core's ``Stakes``."""
    return Stakes(
        ante=squares.get("ante", 0),
        blind=squares.get("blind", 0),
        play=squares.get("play", 0),
        trips=squares.get("trips", 0),
        bad_beat=squares.get("bad_beat", 0),
    )


def validate_wagers(squares: Mapping[str, int], options: GameOptions, backline: bool) -> None:
    validate_opening_wagers(stakes(squares), options, backline=backline)


def _cards(codes) -> tuple:
    return tuple(parse_card(code) for code in codes)


def settle(
    options: GameOptions,
    player_dealer_seat: int,
    bank: int,
    seats: Sequence[SeatWagers],
    cards: RoundCards,
) -> Settlement:
    """The hand played out on its cards and decisions (docs/rules.md §7)."""
    hands = [
        SeatHand(
            seat=seat.seat,
            hole=None if seat.hole is None else _cards(seat.hole),
            stakes=stakes(seat.bettors[0]),
            folded=seat.folded,
            backline=tuple(stakes(bettor) for bettor in seat.bettors[1:]),
        )
        for seat in seats
    ]
    return play_out(
        player_dealer_seat, _cards(cards.dealer_hole), _cards(cards.board), hands, bank, options
    ).settlement


def theo(options: GameOptions, layout: Sequence[Mapping[str, int]]) -> LayoutTheo:
    """Each Ante times the base game's house edge, each Trips and Bad Beat times its own."""
    math = game_math(options)
    figures = theo_of([stakes(squares) for squares in layout], math)
    edges = {"ante": math.base_game.house_edge, "trips": math.trips.house_edge}
    if math.bad_beat is not None:
        edges["bad_beat"] = math.bad_beat.house_edge
    return LayoutTheo(
        figures.theo,
        figures.std_dev,
        {
            name: (sum(squares.get(name, 0) for squares in layout), edge)
            for name, edge in edges.items()
        },
    )


def exposure(
    bank: int,
    player_dealer_seat: int,
    layout: Mapping[int, Sequence[Mapping[str, int]]],
    options: GameOptions,
) -> BankAction:
    """The likely case and the worst against the bank (docs/rules.md §7.5)."""
    stakes_by_seat = {
        seat: [stakes(squares) for squares in bettors] for seat, bettors in layout.items()
    }
    return action_against_the_bank(bank, player_dealer_seat, stakes_by_seat, options=options)


GAME_DESCRIPTION = Game(
    listing=LISTING,
    squares=(
        Square("ante", "Ante", "ante_cents", True),
        Square("blind", "Blind", "blind_cents", True),
        Square("play", "Play", "play_cents", True, opening=False),
        Square("trips", "Trips", "trips_cents", False),
        Square("bad_beat", "Bad Beat", "bad_beat_cents", False),
    ),
    steps=("preflop", "flop", "river"),
    cards="deck",
    settle_request=settle_request,
    calculator_request=calculator_request,
    game_math=figures,
    sheet_math=lambda values: game_math_json(game_math(sheet(values))),
    validate_wagers=validate_wagers,
    backline=lambda options: options.backline_allowed,
    least_hand=(("ante",), ("blind",)),
    settle=settle,
    theo=theo,
    exposure=exposure,
)
