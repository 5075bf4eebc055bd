"""The shoe of a table whose game keeps one across hands (EZ Baccarat, docs/rules.md §14.2).

Called by the round lifecycle under the table's lock (``tables.services.locks``). A table has
at most one shoe in use (a database constraint); a hand takes it, or starts a new one when the
last came to its cut card. The hand in progress when the cut card comes out is finished, and
the shoe with it: the next hand starts a new shoe. The shoe's order is a secret column
(``Shoe.secret_columns``): no interface shows, searches or sorts by it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime

from cardroom.errors import Rule, RuleError
from games.interface import Dealt
from tables import options as table_options
from tables.models import DealMode, Round, Shoe


def shoe_in_use(round_: Round, *, moment: datetime, rng: random.Random | None = None) -> Shoe:
    """The table's shoe in use, or a new one (shuffled by the CSPRNG at an RNG table; the
    house dealer's own, recorded, at a card-entry table)."""
    shoe = Shoe.objects.filter(table_id=round_.table_id, finished_at__isnull=True).first()
    if shoe is not None:
        return shoe
    keeping = table_options.game_of(round_.options).shoe
    sheet = table_options.rules_options(round_.options)
    if round_.deal_mode == DealMode.RNG:
        data = keeping.new(round_.options, rng)
        return Shoe.objects.create(
            table_id=round_.table_id,
            decks=data["decks"],
            shoe_order=data["order"],
            burned_cards=data["burned"],
            position=data["position"],
            cut_position=data["cut_position"],
            started_at=moment,
        )
    return Shoe.objects.create(table_id=round_.table_id, decks=sheet.decks, started_at=moment)


def deal_hand(
    round_: Round,
    *,
    moment: datetime,
    cards: Sequence[str] | None = None,
    rng=None,
    cut_card_out: bool = False,
) -> tuple[Shoe, Dealt]:
    """The round's hand from the table's shoe: dealt from its top at an RNG table (``cards``
    refused), keyed by the house dealer at a card-entry table (``cards`` required, in dealing
    order, checked against the drawing rules and what the shoe can hold; ``cut_card_out``
    when the house dealer says the cut card came out during it). The shoe moves on; a hand
    that brings out the cut card finishes it."""
    keeping = table_options.game_of(round_.options).shoe
    shoe = shoe_in_use(round_, moment=moment, rng=rng)
    if round_.deal_mode == DealMode.RNG:
        if cards is not None:
            raise RuleError(
                "this table deals by RNG; cards are not entered", rule=Rule.DEAL_MODE, field="cards"
            )
        dealt = keeping.deal(
            {
                "decks": shoe.decks,
                "order": shoe.shoe_order,
                "position": shoe.position,
                "cut_position": shoe.cut_position,
                "burned": shoe.burned_cards,
            }
        )
        shoe.position = dealt.shoe["position"]
        if dealt.cut_card_out:
            shoe.finished_at = moment
    else:
        if cards is None:
            raise RuleError(
                "key the cards as they are turned face up, in dealing order",
                rule=Rule.CARD_ENTRY,
                field="cards",
            )
        dealt = keeping.keyed(list(cards), shoe.decks, shoe.dealt)
        if cut_card_out:
            shoe.finished_at = moment
    shoe.dealt = [*shoe.dealt, *dealt.cards]
    shoe.save(update_fields=["position", "dealt", "finished_at"])
    return shoe, dealt


def finish_shoe(*, table_id: int, moment: datetime) -> None:
    """The house dealer's cut card came out at a card-entry table: the shoe is finished (the
    caller holds the table's lock)."""
    Shoe.objects.filter(table_id=table_id, finished_at__isnull=True).update(finished_at=moment)
