"""The settlement calculator's JSON format for EZ Baccarat (docs/rules.md §14.7).

``settle_request`` takes the parsed JSON of one complete hand, checks every rule (a broken one
is a RuleError naming the rule and the JSON field), plays out the coup from its cards in dealing
order and answers with the hands, the outcome and the settlement in settlement order. Nothing is
written. Amounts are integer cents; cards are two characters (``9h``, ``Tc``).

Input::

    {"options": {"game": "ez_baccarat", "decks": 8, "seats": 9, "tie_pays": 8, ...},
     "player_dealer": {"seat": 5, "bank": 50000},
     "cards": ["9h", "2c", "Kd", "5s", "4d", "3h"],
     "seats": [{"seat": 1, "player": 2500, "banker": 0, "tie": 500, "dragon_7": 0,
                "panda_8": 500}, ...]}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.errors import Rule, RuleError
from tables.rules.cards import Card, format_cards, parse_card
from wagers.rules.calculator import json_cents, json_field, refuse_unknown, within
from wagers.rules.settlement import Settlement
from wagers.rules.validation import validate_bank

from .coup import Coup, play_out
from .options import GAME, BaccaratOptions
from .settlement import require_seat_of, settle
from .shoe import check_held
from .wagers import BaccaratWager, Stakes, validate_stakes

HAND_KEYS = {"options", "player_dealer", "cards", "seats"}
DEALER_KEYS = {"seat", "bank"}
SEAT_KEYS = {"seat", *(kind.value for kind in BaccaratWager)}


def parse_options(data: object) -> BaccaratOptions:
    """The ``options`` object: ``game`` is required and names this game; every other option
    has its default."""
    if not isinstance(data, Mapping):
        raise RuleError("options must be a JSON object", rule=Rule.CALCULATOR_FORMAT)
    game = json_field(data, "game")
    if game != GAME:
        raise RuleError(
            f"the game must be {GAME!r}, not {game!r}",
            rule=Rule.CALCULATOR_FORMAT,
            field="game",
        )
    return BaccaratOptions.from_json(data)


def _parse_cards(data: object, decks: int) -> Coup:
    if not isinstance(data, list):
        raise RuleError("cards is a list of cards in dealing order", rule=Rule.CALCULATOR_FORMAT)
    cards: list[Card] = []
    for index, code in enumerate(data):
        cards.append(within(f"[{index}]", parse_card, code))
    check_held(cards, decks)
    return play_out(cards)


def _parse_seat(data: Mapping[str, Any], options: BaccaratOptions) -> tuple[int, Stakes]:
    refuse_unknown(data, SEAT_KEYS)
    seat = require_seat_of(json_field(data, "seat"), options)
    stakes = Stakes(**{kind.value: json_cents(data, kind.value, 0) for kind in BaccaratWager})
    validate_stakes(stakes, options)
    return seat, stakes


def parse_request(data: object) -> tuple[BaccaratOptions, int, int, Coup, dict[int, Stakes]]:
    """Validate a request: (options, player-dealer seat, bank, coup, stakes by seat)."""
    if not isinstance(data, Mapping):
        raise RuleError("the hand must be a JSON object", rule=Rule.CALCULATOR_FORMAT)
    refuse_unknown(data, HAND_KEYS)
    options = within("options", parse_options, json_field(data, "options"))
    dealer_data = json_field(data, "player_dealer")
    within("player_dealer", refuse_unknown, dealer_data, DEALER_KEYS)
    dealer_seat = within("player_dealer", json_field, dealer_data, "seat")
    require_seat_of(dealer_seat, options, field="player_dealer.seat")
    bank = within("player_dealer", json_cents, dealer_data, "bank")
    validate_bank(bank, options.chip_unit, field="player_dealer.bank")
    coup = within("cards", _parse_cards, json_field(data, "cards"), options.decks)
    seats_data = json_field(data, "seats")
    if not isinstance(seats_data, list) or not seats_data:
        raise RuleError("seats is a non-empty list", rule=Rule.CALCULATOR_FORMAT, field="seats")
    stakes_by_seat: dict[int, Stakes] = {}
    for index, seat_data in enumerate(seats_data):
        seat, stakes = within(f"seats[{index}]", _parse_seat, seat_data, options)
        if seat == dealer_seat:
            raise RuleError(
                f"seat {seat} is the player-dealer's and has no wagers of its own",
                rule=Rule.PLAYER_DEALER_SEAT,
                field=f"seats[{index}].seat",
            )
        if seat in stakes_by_seat:
            raise RuleError(
                f"seat {seat} is given twice",
                rule=Rule.BACCARAT_SEATS,
                field=f"seats[{index}].seat",
            )
        stakes_by_seat[seat] = stakes
    return options, dealer_seat, bank, coup, stakes_by_seat


def settle_request(data: object) -> dict[str, Any]:
    """Validate, play out and settle one hand given in the format above; JSON-ready answer."""
    options, dealer_seat, bank, coup, stakes_by_seat = parse_request(data)
    settlement = settle(dealer_seat, bank, stakes_by_seat, coup, options)
    return format_outcome(coup, settlement)


def format_outcome(coup: Coup, settlement: Settlement) -> dict[str, Any]:
    """The answer: both hands, the outcome, and every wager in settlement order."""
    return {
        "player": {"cards": format_cards(coup.player), "total": coup.player_total},
        "banker": {"cards": format_cards(coup.banker), "total": coup.banker_total},
        "outcome": coup.winner.value,
        "dragon_7": coup.dragon_7,
        "panda_8": coup.panda_8,
        "settlement": [
            {
                "seat": line.seat,
                "wager": line.wager.value,
                "stake": line.stake,
                "outcome": line.outcome.value,
                "paid": line.paid,
                "collected": line.collected,
                "returned_uncovered": line.returned_uncovered,
                "unpaid_uncovered": line.unpaid_uncovered,
            }
            for line in settlement.lines
        ],
        "player_dealer_net": settlement.player_dealer_net,
    }
