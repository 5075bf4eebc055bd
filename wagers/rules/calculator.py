"""The settlement calculator's JSON format (docs/rules.md §11).

``settle_request`` takes the parsed JSON of one complete hand, checks every
rule of §3 (a broken one is a RuleError naming the rule and the JSON field),
and answers with the resolution and the settlement in settlement order.
Amounts are integer cents; cards are two characters (``As``, ``Td``).

The JSON readers (``json_field``, ``json_cents``, ``within``, ``refuse_unknown``) are every
game's: EZ Baccarat's calculator (``games.ez_baccarat.calculator``) reads its format with them.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from cardroom.errors import Rule, RuleError
from tables.rules.cards import Card, format_cards, parse_cards
from tables.rules.decisions import DEFAULT_PREFLOP_MULTIPLES, validate_preflop_multiples
from tables.rules.hands import best_five
from tables.rules.options import GameOptions
from tables.rules.paytables import (
    BAD_BEAT_CATEGORIES,
    BAD_BEAT_PAYTABLES,
    TRIPS_CATEGORIES,
    TRIPS_PAYTABLES,
    resolve_paytable,
)
from tables.rules.seats import MAX_PLAYERS, require_seat

from .showdown import HandOutcome, SeatHand, play_out
from .validation import (
    validate_backline_play,
    validate_bank,
    validate_opening_wagers,
    validate_play_amount,
)
from .wagers import Stakes

_MISSING = object()


def json_field(data: Mapping[str, Any], name: str, default: Any = _MISSING) -> Any:
    """``data[name]``; ``default`` when it is absent, or a format error naming it."""
    if not isinstance(data, Mapping):
        raise RuleError("expected a JSON object", rule=Rule.CALCULATOR_FORMAT)
    if name in data:
        return data[name]
    if default is _MISSING:
        raise RuleError(f"{name} is required", rule=Rule.CALCULATOR_FORMAT, field=name)
    return default


def json_cents(data: Mapping[str, Any], name: str, default: Any = _MISSING) -> int:
    """``data[name]`` as whole cents, zero or more (a JSON integer: never a float, a string or
    a boolean)."""
    value = json_field(data, name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleError(
            f"{name} must be a whole number of cents, zero or more, not {value!r}",
            rule=Rule.CALCULATOR_FORMAT,
            field=name,
        )
    return value


def within(path: str, function, *args, **kwargs):
    """Run ``function``; attribute any RuleError it raises to the JSON ``path``."""
    try:
        return function(*args, **kwargs)
    except RuleError as error:
        raise error.with_field(path) from None


def parse_options(data: object) -> GameOptions:
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise RuleError("options must be a JSON object", rule=Rule.CALCULATOR_FORMAT)
    known = {
        "trips_paytable",
        "bad_beat_paytable",
        "chip_unit_cents",
        "allowed_preflop_multiples",
        "table_minimum_cents",
        "table_maximum_cents",
        "backline_allowed",
    }
    unknown = sorted(set(data) - known)
    if unknown:
        raise RuleError(
            f"unknown option {unknown[0]!r}", rule=Rule.CALCULATOR_FORMAT, field=unknown[0]
        )
    trips = within(
        "trips_paytable",
        resolve_paytable,
        data.get("trips_paytable", "UTH-01"),
        TRIPS_PAYTABLES,
        TRIPS_CATEGORIES,
    )
    bad_beat_value = data.get("bad_beat_paytable", "option-1")
    bad_beat = (
        None
        if bad_beat_value is None
        else within(
            "bad_beat_paytable",
            resolve_paytable,
            bad_beat_value,
            BAD_BEAT_PAYTABLES,
            BAD_BEAT_CATEGORIES,
        )
    )
    chip_unit = json_cents(data, "chip_unit_cents", 1)
    if chip_unit == 0:
        raise RuleError(
            "the chip unit must be at least 1 cent",
            rule=Rule.CALCULATOR_FORMAT,
            field="chip_unit_cents",
        )
    multiples = within(
        "allowed_preflop_multiples",
        validate_preflop_multiples,
        data.get("allowed_preflop_multiples", list(DEFAULT_PREFLOP_MULTIPLES)),
    )
    minimum = data.get("table_minimum_cents")
    maximum = data.get("table_maximum_cents")
    if minimum is not None:
        minimum = json_cents(data, "table_minimum_cents")
    if maximum is not None:
        maximum = json_cents(data, "table_maximum_cents")
        if minimum is not None and maximum < minimum:
            raise RuleError(
                "the table maximum is below the table minimum",
                rule=Rule.CALCULATOR_FORMAT,
                field="table_maximum_cents",
            )
    backline_allowed = data.get("backline_allowed", True)
    if not isinstance(backline_allowed, bool):
        raise RuleError(
            "backline_allowed is true or false",
            rule=Rule.CALCULATOR_FORMAT,
            field="backline_allowed",
        )
    return GameOptions(
        trips_paytable=trips,
        bad_beat_paytable=bad_beat,
        chip_unit=chip_unit,
        allowed_preflop_multiples=multiples,
        table_minimum=minimum,
        table_maximum=maximum,
        backline_allowed=backline_allowed,
    )


SEAT_KEYS = {"seat", "hole", "ante", "blind", "trips", "bad_beat", "play", "folded", "backline"}
BACKLINE_KEYS = {"ante", "blind", "trips", "bad_beat", "play"}
DEALER_KEYS = {"seat", "bank", "hole"}
HAND_KEYS = {"options", "player_dealer", "board", "seats"}


def refuse_unknown(data: object, known: set[str]) -> None:
    """A typo such as "badbeat" must not silently drop a wager."""
    if isinstance(data, Mapping):
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleError(
                f"unknown field {unknown[0]!r}", rule=Rule.CALCULATOR_FORMAT, field=unknown[0]
            )


def _stakes(data: Mapping[str, Any], *, with_play: bool) -> Stakes:
    refuse_unknown(data, SEAT_KEYS if with_play else BACKLINE_KEYS)
    return Stakes(
        ante=json_cents(data, "ante"),
        blind=json_cents(data, "blind"),
        play=json_cents(data, "play", 0) if with_play else 0,
        trips=json_cents(data, "trips", 0),
        bad_beat=json_cents(data, "bad_beat", 0),
    )


def _parse_seat(data: Mapping[str, Any], options: GameOptions) -> SeatHand:
    seat = json_field(data, "seat")
    require_seat(seat)
    hole_data = json_field(data, "hole", None)
    hole = None if hole_data is None else within("hole", parse_cards, hole_data, count=2)
    stakes = _stakes(data, with_play=True)
    folded = json_field(data, "folded", False)
    if not isinstance(folded, bool):
        raise RuleError("folded is true or false", rule=Rule.CALCULATOR_FORMAT, field="folded")
    validate_opening_wagers(stakes, options)
    validate_play_amount(stakes, options, folded=folded)
    backline_data = json_field(data, "backline", [])
    if not isinstance(backline_data, list):
        raise RuleError(
            "backline is a list of bettors", rule=Rule.CALCULATOR_FORMAT, field="backline"
        )
    if backline_data and not options.backline_allowed:
        raise RuleError(
            "this table does not allow backline wagers",
            rule=Rule.BACKLINE,
            field="backline",
        )
    backline = []
    multiple = stakes.play // stakes.ante
    for index, bettor in enumerate(backline_data):
        path = f"backline[{index}]"
        behind = within(path, _stakes, bettor, with_play=False)
        play = within(path, json_cents, bettor, "play", behind.ante * multiple)
        behind = Stakes(behind.ante, behind.blind, play, behind.trips, behind.bad_beat)
        within(path, validate_opening_wagers, behind, options, backline=True)
        within(path, validate_backline_play, behind, stakes)
        backline.append(behind)
    hand = SeatHand(seat, hole, stakes, folded, tuple(backline))  # type: ignore[arg-type]
    if hole is None and hand.turned_face_up:
        raise RuleError(
            "hole is required: only a folded hand with no Trips wager on it is mucked and may "
            "leave its cards out",
            rule=Rule.CALCULATOR_FORMAT,
            field="hole",
        )
    return hand


def parse_request(
    data: object,
) -> tuple[GameOptions, int, tuple[Card, ...], int, tuple[Card, ...], tuple[SeatHand, ...]]:
    """Validate a request: (options, player-dealer seat, its hole cards, bank, board, seats)."""
    if not isinstance(data, Mapping):
        raise RuleError("the hand must be a JSON object", rule=Rule.CALCULATOR_FORMAT)
    refuse_unknown(data, HAND_KEYS)
    within("player_dealer", refuse_unknown, data.get("player_dealer"), DEALER_KEYS)
    options = within("options", parse_options, data.get("options"))
    dealer_data = json_field(data, "player_dealer")
    dealer_seat = within("player_dealer", json_field, dealer_data, "seat")
    require_seat(dealer_seat, field="player_dealer.seat")
    bank = within("player_dealer", json_cents, dealer_data, "bank")
    validate_bank(bank, options.chip_unit, field="player_dealer.bank")
    dealer_hole = within(
        "player_dealer.hole",
        parse_cards,
        within("player_dealer", json_field, dealer_data, "hole"),
        count=2,
    )
    board = within("board", parse_cards, json_field(data, "board"), count=5)
    seats_data = json_field(data, "seats")
    if not isinstance(seats_data, list) or not seats_data:
        raise RuleError("seats is a non-empty list", rule=Rule.CALCULATOR_FORMAT, field="seats")
    if len(seats_data) > MAX_PLAYERS:
        raise RuleError(
            f"at most {MAX_PLAYERS} players play against the player-dealer, not {len(seats_data)}",
            rule=Rule.FIVE_PLAYERS,
            field="seats",
        )
    seats = tuple(
        within(f"seats[{i}]", _parse_seat, seat, options) for i, seat in enumerate(seats_data)
    )
    taken = {dealer_seat}
    for index, hand in enumerate(seats):
        if hand.seat in taken:
            raise RuleError(
                f"seat {hand.seat} is already taken (by the player-dealer or another player)",
                rule=Rule.SEATS,
                field=f"seats[{index}].seat",
            )
        taken.add(hand.seat)
    _ensure_dealt_once(
        [("player_dealer.hole", dealer_hole), ("board", board)]
        + [
            (f"seats[{index}].hole", hand.hole)
            for index, hand in enumerate(seats)
            if hand.hole is not None
        ]
    )
    return options, dealer_seat, dealer_hole, bank, board, seats


def _ensure_dealt_once(groups: list[tuple[str, tuple[Card, ...]]]) -> None:
    """No card twice in the hand; the error names where the card appears the second time."""
    first_seen: dict[Card, str] = {}
    for field, cards in groups:
        for card in cards:
            if card in first_seen:
                raise RuleError(
                    f"card {card} appears twice (also in {first_seen[card]})",
                    rule=Rule.CARD_ONCE,
                    field=field,
                )
            first_seen[card] = field


def settle_request(data: object) -> dict[str, Any]:
    """Validate, resolve and settle one hand given in the appendix format; JSON-ready answer."""
    options, dealer_seat, dealer_hole, bank, board, seats = parse_request(data)
    outcome = play_out(dealer_seat, dealer_hole, board, seats, bank, options)
    return format_outcome(outcome, dealer_seat, dealer_hole, board, seats)


def _decimal_cents(amount: Fraction) -> str:
    return str(Decimal(amount.numerator) / Decimal(amount.denominator)) if amount else "0"


def format_outcome(
    outcome: HandOutcome,
    dealer_seat: int,
    dealer_hole: tuple[Card, ...],
    board: tuple[Card, ...],
    seats: tuple[SeatHand, ...],
) -> dict[str, Any]:
    settlement = outcome.settlement
    holes = {hand.seat: hand.hole for hand in seats}
    return {
        "dealer": {
            "seat": dealer_seat,
            "category": outcome.dealer.category.label,
            "qualifies": outcome.dealer_qualifies,
            "best_five": format_cards(best_five((*dealer_hole, *board))),
        },
        "seats": [
            {  # a mucked hand (no hole cards) has no category and no best five
                "seat": seat.seat,
                "category": None if seat.value is None else seat.value.category.label,
                "result": seat.result.value,
                "best_five": None
                if seat.value is None
                else format_cards(best_five((*holes[seat.seat], *board))),
            }
            for seat in outcome.seats
        ],
        "settlement": [
            {
                "order": line.order,
                "pass": line.pass_.value,
                "seat": line.seat,
                "bettor": line.bettor_label,
                "wager": line.wager.value,
                "stake": line.stake,
                "outcome": line.outcome.value,
                "paid": line.paid,
                "collected": line.collected,
                "returned_uncovered": line.returned_uncovered,
                "unpaid_uncovered": line.unpaid_uncovered,
                "rounded_off": _decimal_cents(line.rounded_off),
            }
            for line in settlement.lines
        ],
        "player_dealer_net": settlement.player_dealer_net,
        "bank": settlement.bank,
        "bank_remaining": settlement.remaining_bank,
        "bank_exhausted": settlement.exhausted,
    }
