"""EZ Baccarat as the floor sees it (``games.interface.Listing``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cardroom.errors import Rule, RuleError
from games.interface import Dealt, Listing, ShoeKeeping
from tables.rules.cards import format_cards, parse_card

from .coup import Coup, play_out
from .options import DECK_COUNTS, GAME, OPTION_LABELS, SEAT_COUNTS, TIE_PAYS, BaccaratOptions
from .shoe import Shoe, check_held


def within(path: str, function, *args, **kwargs):
    """Run ``function``; attribute any RuleError it raises to ``path``."""
    try:
        return function(*args, **kwargs)
    except RuleError as error:
        raise error.with_field(path) from None


# The options of a table's sheet that are this game's own, with their defaults (the limits,
# the chip and the seats are the table's, every game's).
OWN_DEFAULTS: dict[str, Any] = {
    "decks": 8,
    "tie_pays": 8,
    "dragon_7_pays": 40,
    "panda_8_pays": 25,
    "cut_card": 14,
    "side_wager_maximum_cents": None,
}
# A table's sheet names the limits as the floor does; the rules core's options as the
# calculator does.
_TABLE_NAMES = {
    "seats": "seats",
    "chip_unit_cents": "chip_unit_cents",
    "minimum_cents": "table_minimum_cents",
    "maximum_cents": "table_maximum_cents",
}


def sheet(values: Mapping[str, Any]) -> BaccaratOptions:
    """The rules core's options from a table's sheet; a broken rule names the sheet's field."""
    data = {name: values[name] for name in OWN_DEFAULTS if name in values}
    data |= {json: values[name] for name, json in _TABLE_NAMES.items() if name in values}
    try:
        return BaccaratOptions.from_json(data)
    except RuleError as error:
        back = {json: name for name, json in _TABLE_NAMES.items()}
        field = back.get(error.field or "", error.field)
        raise RuleError(error.message, rule=error.rule, field=field) from None


def _dealt(coup: Coup, shoe: Shoe | None) -> Dealt:
    return Dealt(
        hands={"player": format_cards(coup.player), "banker": format_cards(coup.banker)},
        cards=format_cards(coup.cards),
        shoe=None if shoe is None else shoe.to_json(),
        cut_card_out=shoe is not None and shoe.cut_card_out,
    )


def new_shoe(values: Mapping[str, Any], rng: random.Random | None = None) -> Mapping[str, Any]:
    return Shoe.shuffled(sheet(values), rng).to_json()


def deal(shoe: Mapping[str, Any]) -> Dealt:
    coup, after = Shoe.from_json(shoe).deal_coup()
    return _dealt(coup, after)


def keyed(cards: Sequence[str], decks: int, already: Sequence[str]) -> Dealt:
    if not isinstance(cards, list | tuple):
        raise RuleError(
            "the cards are a list in dealing order: Player, Banker, Player, Banker, then the "
            "third cards as drawn",
            rule=Rule.BACCARAT_DRAWING,
            field="cards",
        )
    parsed = [within(f"cards[{i}]", parse_card, code) for i, code in enumerate(cards)]
    within("cards", check_held, parsed, decks, already=[parse_card(c) for c in already])
    return _dealt(within("cards", play_out, parsed), None)


LISTING = Listing(
    key=GAME,
    name="EZ Baccarat",
    seat_counts=SEAT_COUNTS,
    default_seats=9,
    own_options=tuple(OWN_DEFAULTS),
    own_defaults=OWN_DEFAULTS,
    option_labels={name: OPTION_LABELS[name] for name in ("seats", *OWN_DEFAULTS)},
    sheet=sheet,
    tablet="console/table_baccarat.html",
    shoe=ShoeKeeping(new=new_shoe, deal=deal, keyed=keyed),
    option_choices={"decks": DECK_COUNTS, "tie_pays": TIE_PAYS},
    option_units={
        "decks": "decks",
        "tie_pays": "to 1",
        "dragon_7_pays": "to 1",
        "panda_8_pays": "to 1",
        "cut_card": "cards from the end",
    },
    # The tablet's button: "Deal the coup from the shoe" (the house dealer's shoe at a
    # card-entry table, whose cards are keyed as they are turned face up).
    action_labels={"showdown": "deal the coup"},
)
