"""Output serializers shared by several floor endpoints (each view nests its own input)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tables import selectors
from tables.models import (
    DealMode,
    GameEndReason,
    HandResultChoice,
    OfferAnswer,
    OfferRoundStatus,
    RoundState,
)
from tables.rules.decisions import Action, Street
from wagers import selectors as money_selectors

from .common import Timestamp


def _username(source: str) -> serializers.CharField:
    return serializers.CharField(source=f"{source}.username", allow_null=True, default=None)


class PlayerSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player_number = serializers.CharField()
    name = serializers.CharField()


class TPPPSerializer(serializers.Serializer):
    business_name = serializers.CharField()
    badge_number = serializers.CharField()
    badge_expires_on = serializers.DateField()


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player_number = serializers.CharField()
    name = serializers.CharField()
    created_at = Timestamp()
    is_tppp = serializers.SerializerMethodField()
    tppp = TPPPSerializer(allow_null=True, default=None)

    def get_is_tppp(self, player) -> bool:
        return getattr(player, "tppp", None) is not None


class OptionsSerializer(serializers.Serializer):
    """A table's options sheet (RULEBOOK §3-§6), or the snapshot a round froze."""

    minimum_cents = serializers.IntegerField()
    maximum_cents = serializers.IntegerField()
    chip_unit_cents = serializers.IntegerField()
    preflop_multiples = serializers.ListField(child=serializers.IntegerField())
    trips_paytable = serializers.JSONField(help_text="a pay table's name, or its odds in full")
    bad_beat_paytable = serializers.JSONField(allow_null=True)
    backline_allowed = serializers.BooleanField()
    deal_mode = serializers.ChoiceField(choices=DealMode.choices)
    max_consecutive_hands = serializers.IntegerField()
    offer_every_hand = serializers.BooleanField()
    max_tppp_per_table = serializers.IntegerField(allow_null=True)
    tppp_may_bank_twice_in_a_row = serializers.BooleanField()
    rotation_window_minutes = serializers.IntegerField(allow_null=True)
    min_non_tppp_dealers_in_window = serializers.IntegerField()


class SeatedSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = PlayerSummarySerializer()
    is_tppp = serializers.BooleanField()
    sat_at = Timestamp()


class SeatingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    seat = serializers.IntegerField()
    player = PlayerSummarySerializer()
    is_tppp = serializers.BooleanField()
    sat_at = Timestamp()
    seated_by = _username("seated_by")
    left_at = Timestamp(allow_null=True)
    unseated_by = _username("unseated_by")


class GameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    is_open = serializers.BooleanField()
    opened_at = Timestamp()
    opened_by = _username("opened_by")
    first_offer_seat = serializers.IntegerField()
    ended_at = Timestamp(allow_null=True)
    ended_by = _username("ended_by")
    end_reason = serializers.ChoiceField(
        choices=[("", "still open"), *GameEndReason.choices], allow_blank=True
    )
    end_detail = serializers.CharField(allow_blank=True)


class ButtonOfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    offer_round = serializers.IntegerField(source="offer_round_id")
    seat = serializers.IntegerField()
    player = PlayerSummarySerializer()
    is_tppp = serializers.BooleanField()
    offered_at = Timestamp()
    offered_by = _username("offered_by")
    answer = serializers.ChoiceField(choices=OfferAnswer.choices)
    answered_at = Timestamp(allow_null=True)
    answered_by = _username("answered_by")
    reason = serializers.CharField(allow_blank=True)


class OfferRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    game = serializers.IntegerField(source="game_id")
    start_seat = serializers.IntegerField()
    started_at = Timestamp()
    started_by = _username("started_by")
    status = serializers.ChoiceField(choices=OfferRoundStatus.choices)
    kept_without_offers = serializers.BooleanField()
    closed_at = Timestamp(allow_null=True)
    detail = serializers.CharField(allow_blank=True)
    round = serializers.IntegerField(
        source="round.id", allow_null=True, default=None, help_text="the round it led to"
    )
    offers = ButtonOfferSerializer(many=True, source="offers.all")


class ActiveRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    state = serializers.ChoiceField(choices=RoundState.choices)


class TableSerializer(serializers.Serializer):
    """A table in the list: its options, who is seated, its open game and round in play."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    created_at = Timestamp()
    options = OptionsSerializer(source="*")
    seated = SeatedSerializer(many=True)
    open_game = serializers.SerializerMethodField(help_text="id of the open game")
    active_round = serializers.SerializerMethodField()

    def get_open_game(self, table) -> int | None:
        return table.open[0].id if table.open else None

    @extend_schema_field(ActiveRoundSerializer(allow_null=True))
    def get_active_round(self, table):
        return ActiveRoundSerializer(table.in_play[0]).data if table.in_play else None


class TableDetailSerializer(serializers.Serializer):
    """A table as the floor sees it now (``selectors.TableFloor``)."""

    id = serializers.IntegerField(source="table.id")
    name = serializers.CharField(source="table.name")
    created_at = Timestamp(source="table.created_at")
    options = OptionsSerializer(source="table")
    seated = SeatedSerializer(many=True)
    game = GameSerializer(allow_null=True)
    active_round = ActiveRoundSerializer(allow_null=True)
    offer_round = OfferRoundSerializer(
        allow_null=True, help_text="the offers for the next hand, or for the hand in play"
    )
    button_state = serializers.ChoiceField(
        choices=[
            "no_game",
            "game_ended",
            "round_in_play",
            "offer_pending",
            "offering",
            "accepted",
            "no_player_dealer",
            "no_players",
            "offer_needed",
        ]
    )
    button_status = serializers.CharField(help_text="where the button stands, in plain words")


class OptionChangeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    option = serializers.CharField()
    old_value = serializers.JSONField(allow_null=True)
    new_value = serializers.JSONField(allow_null=True)
    changed_at = Timestamp()
    changed_by = _username("changed_by")


# --- Rounds -------------------------------------------------------------------------------


def _cards(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), **kwargs)


class PlayerDealerSerializer(serializers.Serializer):
    seat = serializers.IntegerField(source="player_dealer_seat")
    player = PlayerSummarySerializer(source="player_dealer")
    is_tppp = serializers.BooleanField(source="player_dealer_is_tppp")
    consecutive_count = serializers.IntegerField(help_text="hands in a row banked, this one too")


class RoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    game = serializers.IntegerField(source="game_id")
    offer_round = serializers.IntegerField(source="offer_round_id")
    number = serializers.IntegerField()
    deck = serializers.CharField()
    state = serializers.ChoiceField(choices=RoundState.choices)
    deal_mode = serializers.ChoiceField(choices=DealMode.choices)
    player_dealer = PlayerDealerSerializer(source="*")
    board = _cards(help_text="the community cards shown so far")
    dealer_category = serializers.CharField(allow_blank=True)
    dealer_qualifies = serializers.BooleanField(allow_null=True)
    started_at = Timestamp()
    started_by = _username("started_by")
    ended_at = Timestamp(allow_null=True)
    void_reason = serializers.CharField(allow_blank=True)


class DecisionSerializer(serializers.Serializer):
    street = serializers.ChoiceField(choices=[s.value for s in Street])
    action = serializers.ChoiceField(choices=[a.value for a in Action])
    multiple = serializers.IntegerField(help_text="the Play as a multiple of the Ante; 0 if none")
    at = Timestamp()
    by = _username("by")


def bettor_label(bettor: int) -> str:
    """RULEBOOK appendix: ``"seat"`` for the seated player, ``"backline-N"`` behind the seat."""
    return "seat" if bettor == 0 else f"backline-{bettor}"


class BetSerializer(serializers.Serializer):
    """One bettor's wagers on a hand, in cents: the seated player's own or a backline bettor's."""

    bettor = serializers.SerializerMethodField(help_text='"seat" or "backline-N" (N from 1)')
    player = PlayerSummarySerializer()
    ante = serializers.IntegerField(source="ante_cents")
    blind = serializers.IntegerField(source="blind_cents")
    trips = serializers.IntegerField(source="trips_cents")
    bad_beat = serializers.IntegerField(source="bad_beat_cents")
    play = serializers.IntegerField(source="play_cents", help_text="0 until a Play is made")
    placed_at = Timestamp()

    def get_bettor(self, bet) -> str:
        return bettor_label(bet.bettor)


class BankSerializer(serializers.Serializer):
    """The player-dealer's bank W for a round (cents) and, once settled, its result."""

    player = PlayerSummarySerializer()
    amount = serializers.IntegerField(source="amount_cents", help_text="the bank W")
    posted_at = Timestamp()
    posted_by = _username("posted_by")
    net = serializers.IntegerField(
        source="net_cents",
        allow_null=True,
        help_text="the player-dealer's result; null until settled",
    )
    remaining = serializers.SerializerMethodField(
        help_text="amount + net: what came back to the player-dealer; null until settled"
    )
    exhausted = serializers.BooleanField(allow_null=True, help_text="null until settled")

    def get_remaining(self, bank) -> int | None:
        return None if bank.net_cents is None else bank.amount_cents + bank.net_cents


class HandSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField()
    player = PlayerSummarySerializer()
    joined_at = Timestamp()
    hole = _cards(allow_null=True)
    decisions = DecisionSerializer(many=True, source="decisions.all")
    category = serializers.CharField(allow_blank=True)
    result = serializers.ChoiceField(
        choices=[("", "not yet resolved"), *HandResultChoice.choices], allow_blank=True
    )
    bets = BetSerializer(
        many=True, source="bets.all", help_text="the seated player's wagers, then backline bettors'"
    )


class TransitionSerializer(serializers.Serializer):
    """One move of the state machine: ``from`` (blank for the start), ``to``, when, by whom."""

    to = serializers.CharField(source="to_state", help_text="a round state")
    at = Timestamp()
    by = _username("by")

    def get_fields(self):
        fields = super().get_fields()
        came_from = serializers.CharField(
            source="from_state", allow_blank=True, help_text="a round state; blank at the start"
        )
        return {"from": came_from, **fields}


class RoundDetailSerializer(RoundSerializer):
    """A round in full. The player-dealer's cards are withheld (null) until the showdown."""

    options = OptionsSerializer(help_text="the options sheet in force, frozen at the start")
    hands = HandSerializer(many=True, source="hands.all")
    transitions = TransitionSerializer(many=True, source="transitions.all")
    cards_revealed = serializers.SerializerMethodField()
    dealer_hole = serializers.SerializerMethodField()
    shuffled_deck = serializers.SerializerMethodField()
    bank = serializers.SerializerMethodField()

    def to_representation(self, round_):
        return super().to_representation(money_selectors.round_money(round_))

    @extend_schema_field(
        BankSerializer(allow_null=True, help_text="null until the player-dealer posts it")
    )
    def get_bank(self, round_):
        bank = getattr(round_, "bank", None)
        return None if bank is None else BankSerializer(bank).data

    def get_cards_revealed(self, round_) -> bool:
        return selectors.dealer_cards_revealed(round_)

    @extend_schema_field(_cards(allow_null=True, help_text="null until the showdown"))
    def get_dealer_hole(self, round_):
        return round_.dealer_hole if selectors.dealer_cards_revealed(round_) else None

    @extend_schema_field(
        _cards(
            allow_null=True, help_text="RNG deal: the 52 cards in order; null until the showdown"
        )
    )
    def get_shuffled_deck(self, round_):
        return round_.shuffled_deck if selectors.dealer_cards_revealed(round_) else None
