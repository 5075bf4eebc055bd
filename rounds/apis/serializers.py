"""Output serializers of the round lifecycle's API: a round, and a round in full."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardroom.api import Timestamp, username_field
from tables.models import ROUND_STATE_CHOICES, DealMode, HandResultChoice
from tables.rules.decisions import Action, Street
from tables.serializers import OptionsSerializer, PlayerSummarySerializer
from wagers.serializers import BankSerializer, BetSerializer


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
    state = serializers.ChoiceField(choices=ROUND_STATE_CHOICES)
    deal_mode = serializers.ChoiceField(choices=DealMode.choices)
    player_dealer = PlayerDealerSerializer(source="*")
    board = _cards(help_text="the community cards shown so far")
    player_cards = _cards(
        allow_null=True,
        help_text="EZ Baccarat: the Player hand in the order it was dealt; null until the showdown",
    )
    banker_cards = _cards(
        allow_null=True,
        help_text="EZ Baccarat: the Banker hand in the order it was dealt; null until the showdown",
    )
    dealer_category = serializers.CharField(allow_blank=True)
    dealer_qualifies = serializers.BooleanField(allow_null=True)
    started_at = Timestamp()
    started_by = username_field("started_by")
    ended_at = Timestamp(allow_null=True)
    void_reason = serializers.CharField(allow_blank=True)


class DecisionSerializer(serializers.Serializer):
    street = serializers.ChoiceField(choices=[s.value for s in Street])
    action = serializers.ChoiceField(choices=[a.value for a in Action])
    multiple = serializers.IntegerField(help_text="the Play as a multiple of the Ante; 0 if none")
    at = Timestamp()
    by = username_field("by")


class HandSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField()
    player = PlayerSummarySerializer()
    joined_at = Timestamp()
    hole = _cards(
        source="shown_hole",
        allow_null=True,
        help_text="null until the showdown (docs/rules.md §2.6)",
    )
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
    by = username_field("by")

    def get_fields(self):
        fields = super().get_fields()
        came_from = serializers.CharField(
            source="from_state", allow_blank=True, help_text="a round state; blank at the start"
        )
        return {"from": came_from, **fields}


class RoundDetailSerializer(RoundSerializer):
    """A round in full. Every hole card and the stored deck are withheld (null) until the
    showdown (docs/rules.md §2.6, ``tables.rules.visibility``)."""

    options = OptionsSerializer(help_text="the options sheet in force, frozen at the start")
    hands = HandSerializer(many=True, source="hands.all")
    transitions = TransitionSerializer(many=True, source="transitions.all")
    cards_revealed = serializers.SerializerMethodField()
    dealer_hole = serializers.SerializerMethodField()
    shuffled_deck = serializers.SerializerMethodField()
    bank = serializers.SerializerMethodField()

    @extend_schema_field(
        BankSerializer(allow_null=True, help_text="null until the player-dealer posts it")
    )
    def get_bank(self, round_):
        bank = getattr(round_, "bank", None)
        return None if bank is None else BankSerializer(bank).data

    def get_cards_revealed(self, round_) -> bool:
        return round_.cards_revealed

    @extend_schema_field(_cards(allow_null=True, help_text="null until the showdown"))
    def get_dealer_hole(self, round_):
        return round_.shown_dealer_hole

    @extend_schema_field(
        _cards(
            allow_null=True, help_text="RNG deal: the 52 cards in order; null until the showdown"
        )
    )
    def get_shuffled_deck(self, round_):
        return round_.shown_deck
